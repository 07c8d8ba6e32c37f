-- A whole split file as one row per physical line (line_number set afterwards from the position).
-- chr(1) never occurs in a JSON line (control characters must be escaped in JSON text); a line
-- holding one anyway is cut there, which the byte check catches. A blank line reads as NULL.
insert into raw.redial_conversations
select ?, ?, ?, 0, coalesce(line, '')
from read_csv(?, columns = {'line': 'VARCHAR'}, header = false, delim = chr(1), quote = '', escape = '',
    auto_detect = false, strict_mode = false, encoding = 'utf-8')
