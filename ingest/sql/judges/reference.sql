-- What a judgement is checked against: the built-in sources' properties, the questions and label
-- sets of the built-in sources (read from the project's seeds: {sources}, {questions} and {labels})
-- and of every dataset the warehouse holds ({dataset_questions}: raw.dataset_questions, the rows the
-- next build codes the values by; a label's meaning is the question's `meanings` at its place), and the units the last build's marts have human ratings of:
-- (dialogue, question), and for a source whose units are keyed by a movie (ReDial) the form's movie
-- too. A dataset's label is coded by its place in the question's label order, a
-- dataset's number by itself within its min and max where given (scale_min, scale_max), and a
-- dataset's value matches a label by its value as the dataset's own rows do (`1.0` is the label
-- `1`: matches_numbers); a built-in label matches its text.
-- each built-in source's title and whether its units are keyed by a movie (common/sources.py's
-- registry, as seeds/warehouse_sources.csv holds it); a dataset is not a row here, and its units are
-- never keyed by a movie
create or replace temp table judge_sources as
select source, dataset as title, units_keyed_by_movie
from read_csv({sources}, header = true, auto_detect = false, columns = {{
    'source': 'VARCHAR', 'dataset': 'VARCHAR', 'description': 'VARCHAR', 'license': 'VARCHAR',
    'units_keyed_by_movie': 'BOOLEAN'}});

create or replace temp table judge_questions as
select distinct
    source,
    question,
    label_set,
    level_of_measurement,
    wording,
    cast(null as double) as scale_min,
    cast(null as double) as scale_max,
    false as matches_numbers
from read_csv({questions}, header = true, auto_detect = false, columns = {{
    'source': 'VARCHAR', 'rating_kind': 'VARCHAR', 'question': 'VARCHAR', 'label_set': 'VARCHAR',
    'level_of_measurement': 'VARCHAR', 'several_raters_per_unit': 'BOOLEAN', 'wording': 'VARCHAR'}})
union all
select
    dataset as source,
    question,
    dataset || ':' || question as label_set,
    level as level_of_measurement,
    wording,
    min_value as scale_min,
    max_value as scale_max,
    true as matches_numbers
from {dataset_questions};

-- a dataset's label matches a value by `raw.value_key` (ingest/sql/raw_common.sql): trimmed, and a
-- number by its value, as the build codes it

create or replace temp table judge_labels as
select *, value_text as value_key
from read_csv({labels}, header = true, auto_detect = false, columns = {{
    'label_set': 'VARCHAR', 'value_code': 'INTEGER', 'value_text': 'VARCHAR', 'counts_as_missing': 'BOOLEAN',
    'is_unsure': 'BOOLEAN', 'meaning': 'VARCHAR'}})
union all
select
    label_set,
    cast(position as integer) as value_code,
    value_text,
    false as counts_as_missing,
    false as is_unsure,
    meanings[position] as meaning,
    raw.value_key(value_text) as value_key
from (
    select
        dataset || ':' || question as label_set,
        generate_subscripts(labels, 1) as position,
        unnest(labels) as value_text,
        meanings
    from {dataset_questions}
    where labels is not null
);

create or replace temp table judge_label_sets as
select
    label_set,
    min(value_code) as lowest,
    max(value_code) as highest,
    string_agg(value_text, ', ' order by value_code) filter (where not counts_as_missing) as judgements
from temp.judge_labels
group by label_set;

create or replace temp table judge_units as
select distinct
    ratings.dialogue_key,
    ratings.question,
    if(sources.units_keyed_by_movie, ratings.movie_id, null) as movie_id
from marts.ratings
left join temp.judge_sources as sources on ratings.source = sources.source;

