-- Every row of temp.dataset_rater_input with its kind (`crowd` when empty) and the reason it
-- cannot land (null when it lands): an empty rater_id, a rater given again (the first row
-- counts), a rater_kind that is neither crowd nor expert. rater_id is taken without its leading and
-- trailing blanks, as the judgements' rater_id is.
create or replace temp table dataset_rater_checked as
with

input as (
    select * replace (stripped(rater_id) as rater_id), coalesce(nullif(lower(trim(rater_kind)), ''), 'crowd') as kind
    from temp.dataset_rater_input
),

first_rows as (
    select rater_id, min(_line) as first_line
    from input
    where _read_error is null and nullif(trim(rater_id), '') is not null
    group by rater_id
)

select
    input.*,
    case
        when _read_error is not null then _read_error
        when nullif(trim(input.rater_id), '') is null then 'rater_id: empty'
        when input._line > first_rows.first_line
            then 'rater ' || quoted(input.rater_id) || ' again; the first (line ' || first_rows.first_line
                || ') counts'
        when kind not in ('crowd', 'expert') then 'rater_kind ' || quoted(rater_kind) || ': not crowd or expert'
    end as reason
from input
left join first_rows on input.rater_id = first_rows.rater_id;
