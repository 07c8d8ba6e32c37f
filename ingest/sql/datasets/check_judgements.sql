-- Every row of temp.dataset_judgement_input with what it is: missing (an empty value or one of the
-- question's missing values: counted, not a judgement), its label's position or its number, its
-- round's key, and the reason it cannot land (null when it lands). The first failing check names
-- the field and its value. A second value for one (unit, rater, question, round) is found
-- afterwards (long_form/second_values.sql). unit_id, rater_id and question are taken without
-- their leading and trailing blanks, as a judges file's fields are ('u1 ' from a spreadsheet is
-- 'u1'); the value is stored as given.
create or replace temp table dataset_judgement_checked as
with

given as (
    select
        * replace (
            stripped(unit_id) as unit_id,
            stripped(rater_id) as rater_id,
            stripped(question) as question
        )
    from temp.dataset_judgement_input
),

input as (
    select
        *,
        nullif(trim(unit_id), '') is null as no_unit,
        nullif(trim(rater_id), '') is null as no_rater,
        nullif(trim(question), '') is null as no_question,
        trim(question) as question_key,
        nullif(trim(value), '') is null as no_value,
        raw.value_key(value) as value_key,
        try_cast(trim(value) as double) as number,
        raw.round_key(round) as round_key
    from given
),

described as (
    select
        input.*,
        questions.level,
        questions.labels_text,
        questions.min_value,
        questions.max_value,
        questions.scale_text,
        labels.position as label_position,
        missing.value_key is not null as is_missing_value
    from input
    left join temp.dataset_question_list as questions on trim(input.question) = questions.question
    left join temp.dataset_label_keys as labels
        on trim(input.question) = labels.question and input.value_key = labels.value_key
    left join temp.dataset_missing_keys as missing
        on trim(input.question) = missing.question and input.value_key = missing.value_key
),

checked as (
    select
        *,
        no_value or is_missing_value as is_missing,
        case
            when _read_error is not null then _read_error
            when no_unit then 'unit_id: empty'
            when no_rater then 'rater_id: empty'
            when no_question then 'question: empty'
            when level is null then 'question ' || quoted(question) || ': not in questions.csv'
            when no_value or is_missing_value then null
            when level in ('nominal', 'ordinal') and label_position is null
                then 'value ' || quoted(value) || ': not a label of ' || trim(question) || ' (' || labels_text || ')'
            when level in ('interval', 'ratio') and (number is null or not isfinite(number))
                then 'value ' || quoted(value) || ': not a number; ' || trim(question) || ' takes a number'
                    || scale_text
            when level in ('interval', 'ratio') and (number < min_value or number > max_value)
                then 'value ' || quoted(value) || ': outside the scale of ' || trim(question) || ' (a number'
                    || scale_text || ')'
            when level = 'ratio' and number < 0
                then 'value ' || quoted(value) || ': below 0; ' || trim(question)
                    || ' is a ratio question, which takes numbers from 0'
        end as reason
    from described
)

select
    * exclude (label_position, number),
    if(level in ('nominal', 'ordinal') and not is_missing, label_position, null) as label_position,
    if(level in ('interval', 'ratio') and not is_missing, number, null) as value_number
from checked;
