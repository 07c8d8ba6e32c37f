-- What a dataset's rows are checked against, from its questions.csv (read into
-- temp.dataset_question_rows): each question's level and scale, its labels with their positions,
-- its missing values. A value matches a label or a missing value by its key, `raw.value_key`
-- (ingest/sql/raw_common.sql): trimmed, and a number by its value (`1`, `1.0` and ` 1 ` are the
-- same label), as the build codes it.

create or replace temp table dataset_question_list as
select
    question,
    level,
    array_to_string(labels, '|') as labels_text,
    min_value,
    max_value,
    scale_text(min_value, max_value) as scale_text
from temp.dataset_question_rows;

create or replace temp table dataset_labels as
select question, generate_subscripts(labels, 1) as position, unnest(labels) as label
from temp.dataset_question_rows
where labels is not null;

create or replace temp table dataset_label_keys as
select question, position, raw.value_key(label) as value_key from temp.dataset_labels;

create or replace temp table dataset_missing_keys as
select distinct question, raw.value_key(unnest(missing)) as value_key
from temp.dataset_question_rows;
