-- Every row of temp.judge_input with what it is: its dialogue's source and its value as a number
-- (DUO's score and a dataset's interval or ratio number itself, a label its value_code), and the reason it cannot land (null when it lands).
-- The first failing check names the field and its value; {unknown_dialogue} is the reason for an
-- unknown key. A unit is (dialogue, question), and for a source whose units are keyed by a movie
-- (temp.judge_sources: ReDial) (dialogue, movie, question), with
-- human ratings in marts.ratings: a question of the source that was not asked of this dialogue
-- (empathy of a WoW dialogue, a DICES 350 question of a 990 item) is a reject. Fields are taken
-- without leading and trailing blanks, as the emptiness checks take them ('gpt ' is 'gpt'); the
-- value is stored as given. A second value for one unit is found afterwards
-- (long_form/second_values.sql).
create or replace temp table judge_checked as
with

given as (
    select
        * replace (
            stripped(judge) as judge,
            stripped(dialogue_key) as dialogue_key,
            stripped(question) as question,
            stripped(movie_id) as movie_id
        ),
        stripped(value) as value_trimmed
    from temp.judge_input
),

input as (
    select
        *,
        nullif(judge, '') is null as no_judge,
        nullif(dialogue_key, '') is null as no_dialogue_key,
        nullif(question, '') is null as no_question,
        nullif(movie_id, '') is null as no_movie_id,
        nullif(value_trimmed, '') is null as no_value,
        try_cast(value_trimmed as double) as number
    from given
),

described as (
    select
        input.*,
        dialogues.source,
        questions.label_set,
        questions.level_of_measurement,
        questions.level_of_measurement in ('interval', 'ratio') as takes_numbers,
        dialogues.source in (select datasets.source from temp.judge_questions as datasets where matches_numbers)
            as is_dataset,
        if(questions.matches_numbers, questions.scale_min, label_sets.lowest) as lowest,
        if(questions.matches_numbers, questions.scale_max, label_sets.highest) as highest,
        label_sets.judgements,
        labels.value_code,
        labels.counts_as_missing,
        units.dialogue_key is not null as is_unit,
        coalesce(sources.units_keyed_by_movie, false) as keyed_by_movie,
        sources.title as source_title
    from input
    left join marts.dialogues as dialogues on input.dialogue_key = dialogues.dialogue_key
    left join temp.judge_sources as sources on dialogues.source = sources.source
    left join temp.judge_questions as questions
        on dialogues.source = questions.source and input.question = questions.question
    left join temp.judge_label_sets as label_sets on questions.label_set = label_sets.label_set
    left join temp.judge_labels as labels
        on
            questions.label_set = labels.label_set
            and if(questions.matches_numbers, raw.value_key(input.value_trimmed), input.value_trimmed)
            = labels.value_key
    left join temp.judge_units as units
        on
            input.dialogue_key = units.dialogue_key
            and input.question = units.question
            and if(sources.units_keyed_by_movie, input.movie_id, null) is not distinct from units.movie_id
),

-- the sources whose judgements name a movie, as a reject names them ('ReDial')
movie_keyed as (
    select string_agg(title, ' and ' order by source) as titles
    from temp.judge_sources
    where units_keyed_by_movie
),

checked as (
    select
        *,
        case
            when _read_error is not null then _read_error
            when no_judge then 'judge: empty'
            when no_dialogue_key then 'dialogue_key: empty'
            when no_question then 'question: empty'
            when no_value then 'value: empty'
            when source is null then 'dialogue_key ' || quoted(dialogue_key) || ': ' || {unknown_dialogue}
            when label_set is null
                then 'question ' || quoted(question) || ': not a question of ' || source
                    || if(is_dataset, ' (its questions.csv)', ' (seeds/judgement_questions.csv)')
            when keyed_by_movie and no_movie_id
                then 'movie_id: empty; a ' || source_title || ' judgement names the form''s movie'
            when not keyed_by_movie and not no_movie_id
                then 'movie_id ' || quoted(movie_id) || ': '
                    || coalesce('only ' || movie_keyed.titles || ' judgements name a movie', 'no judgement names a movie')
            when keyed_by_movie and not is_unit and regexp_full_match(movie_id, '[0-9]+\.0+')
                then 'movie_id ' || quoted(movie_id) || ': a ' || source_title || ' movie id is a whole number ('
                    || regexp_extract(movie_id, '^[0-9]+') || '); a table tool wrote it as a decimal (pandas '
                    || 'does for a column with empty cells): write the ids as whole numbers'
            when keyed_by_movie and not is_unit
                then 'movie_id ' || quoted(movie_id) || ': no ' || source_title || ' form of ' || dialogue_key
                    || ' answers ' || question || ' about this movie'
            when not is_unit
                then 'question ' || quoted(question) || ': not asked of ' || dialogue_key
                    || ' (no human rating of it in marts.ratings; dwh tasks lists the units to judge)'
            when takes_numbers and (number is null or not isfinite(number))
                then 'value ' || quoted(value) || ': not a number; ' || question || ' takes a number'
                    || scale_text(lowest, highest)
            when takes_numbers and (number < lowest or number > highest)
                then 'value ' || quoted(value) || ': off the scale of ' || question || ' ('
                    || coalesce(number_text(lowest) || ' to ' || number_text(highest), 'a number'
                        || scale_text(lowest, highest)) || ')'
            when not takes_numbers and value_code is null
                then 'value ' || quoted(value) || ': not a label of ' || question || ' (' || judgements || ')'
            when not takes_numbers and counts_as_missing
                then 'value ' || quoted(value) || ': counts as missing for ' || question
                    || ', not a judgement (' || judgements || ')'
        end as reason
    from described
    cross join movie_keyed
)

select
    * exclude (reason, titles),
    reason,
    if(takes_numbers, number, value_code) as value_number,
    if(keyed_by_movie, movie_id, null) as unit_movie_id
from checked;
