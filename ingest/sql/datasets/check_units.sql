-- Every row of temp.dataset_unit_input with the reason it cannot land (null when it lands): an
-- empty unit_id, a unit given again (the first row counts), turns that are no JSON list of
-- {{speaker_role, text}} objects. {fields}: the unit's known fields (null where the file has no such
-- column); {other_columns}: its other fields as a JSON object (or null). unit_id is taken without
-- its leading and trailing blanks, as the judgements' unit_id is.
create or replace temp table dataset_unit_checked as
with

given as (
    select _file_order, _file_path, _line, _read_error, _raw_text, {fields}, {other_columns} as other_columns
    from temp.dataset_unit_input
),

input as (
    select * replace (stripped(unit_id) as unit_id) from given
),

first_rows as (
    select unit_id, min(_line) as first_line
    from input
    where _read_error is null and nullif(trim(unit_id), '') is not null
    group by unit_id
),

described as (
    select
        input.*,
        first_rows.first_line,
        case
            when nullif(trim(turns), '') is null then true
            when not json_valid(turns) then false
            when json_type(turns) <> 'ARRAY' then false
            else coalesce(list_bool_and(list_transform(
                json_extract(turns, '$[*]'),
                turn -> coalesce(
                    json_type(turn) = 'OBJECT'
                    and json_type(turn, '$.speaker_role') = 'VARCHAR'
                    and json_type(turn, '$.text') = 'VARCHAR',
                    false
                )
            )), true)
        end as turns_are_a_list
    from input
    left join first_rows on input.unit_id = first_rows.unit_id
)

select
    * exclude (first_line, turns_are_a_list, turns),
    nullif(trim(turns), '') as turns,
    case
        when _read_error is not null then _read_error
        when nullif(trim(unit_id), '') is null then 'unit_id: empty'
        when _line > first_line
            then 'unit ' || quoted(unit_id) || ' again; the first (line ' || first_line || ') counts'
        when not turns_are_a_list
            then 'turns: not a JSON list of {{speaker_role, text}} objects (' || left(turns, 80) || ')'
    end as reason
from described;
