-- Of several values a rater gives one (unit, question, round), the first (in file and line order)
-- counts, a missing one too: the others become rejects naming it. An aggregate over the keys given
-- more than once, then an update of the rows after the first: no window over every row, so DuckDB
-- spills as the files grow. A row's place is _file_order * 2^40 + _line.
create or replace temp table dataset_repeated_keys as
select
    unit_id,
    rater_id,
    trim(question) as question,
    round_key,
    min(_file_order::bigint * 1099511627776 + _line) as first_value_at
from temp.dataset_judgement_checked
where reason is null
group by unit_id, rater_id, trim(question), round_key
having count(*) > 1;

update temp.dataset_judgement_checked as checked
set reason = 'a second value for unit ' || quoted(checked.unit_id) || ', rater '
    || quoted(checked.rater_id) || ', question ' || repeated.question || ', round '
    || coalesce(nullif(trim(checked.round), ''), '1') || '; the first (' || files._file_path || ' line '
    || repeated.first_value_at % 1099511627776 || ') counts'
from
    temp.dataset_repeated_keys as repeated,
    (select distinct _file_order, _file_path from temp.dataset_judgement_checked) as files
where
    checked.reason is null
    and checked.unit_id = repeated.unit_id
    and checked.rater_id = repeated.rater_id
    and trim(checked.question) = repeated.question
    and checked.round_key = repeated.round_key
    and checked._file_order::bigint * 1099511627776 + checked._line > repeated.first_value_at
    and files._file_order = repeated.first_value_at // 1099511627776;

drop table temp.dataset_repeated_keys;
