-- What a judgement is checked against: the questions and label sets of the seeds (read from the
-- project's CSVs: {questions} and {labels}), and the units the last build's marts have human
-- ratings of: (dialogue, question), and for ReDial the form's movie too.
create or replace temp table judge_questions as
select distinct source, question, label_set, level_of_measurement
from read_csv({questions}, header = true, auto_detect = false, columns = {{
    'source': 'VARCHAR', 'rating_kind': 'VARCHAR', 'question': 'VARCHAR', 'label_set': 'VARCHAR',
    'level_of_measurement': 'VARCHAR', 'several_raters_per_unit': 'BOOLEAN', 'wording': 'VARCHAR'}});

create or replace temp table judge_labels as
select * from read_csv({labels}, header = true, auto_detect = false, columns = {{
    'label_set': 'VARCHAR', 'value_code': 'INTEGER', 'value_text': 'VARCHAR', 'counts_as_missing': 'BOOLEAN',
    'is_unsure': 'BOOLEAN', 'meaning': 'VARCHAR'}});

create or replace temp table judge_label_sets as
select
    label_set,
    min(value_code) as lowest,
    max(value_code) as highest,
    string_agg(value_text, ', ' order by value_code) filter (where not counts_as_missing) as judgements
from temp.judge_labels
group by label_set;

create or replace temp table judge_units as
select distinct dialogue_key, question, if(source = 'redial', movie_id, null) as movie_id from marts.ratings;

-- a field without its leading and trailing blanks (spaces, tabs, line ends)
create or replace temp macro stripped(text) as trim(text, ' ' || chr(9) || chr(10) || chr(13));

-- a value as the reasons show it: in single quotes
create or replace temp macro quoted(text) as '''' || text || '''';
