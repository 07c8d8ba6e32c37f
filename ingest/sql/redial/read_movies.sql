select *, row_number() over () as row_number
from read_csv(?, auto_detect = false, header = true, delim = ',', quote = '"', escape = '"',
    columns = {'movieId': 'VARCHAR', 'movieName': 'VARCHAR', 'nbMentions': 'VARCHAR'},
    ignore_errors = true, store_rejects = true,
    rejects_table = 'redial_movies_rejects', rejects_scan = 'redial_movies_scans')
