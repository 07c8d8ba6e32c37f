-- Of several values a judge gives one unit, the first (in file and line order) counts: the others
-- become rejects naming it. An aggregate over the units given more than once, then an update of the
-- rows after the first: no window over every row, so DuckDB spills as the files grow. A row's place
-- is file_order * 2^40 + line_number.
create or replace temp table judge_repeated_units as
select
    judge,
    dialogue_key,
    question,
    unit_movie_id,
    min(file_order::bigint * 1099511627776 + line_number) as first_value_at
from temp.judge_checked
where reason is null
group by judge, dialogue_key, question, unit_movie_id
having count(*) > 1;

update temp.judge_checked as checked
set reason = 'judge ' || quoted(checked.judge) || ': a second value for ' || checked.dialogue_key || ' '
    || checked.question || coalesce(' movie ' || checked.unit_movie_id, '') || '; the first ('
    || files.file_path || ' line ' || repeated.first_value_at % 1099511627776 || ') counts'
from temp.judge_repeated_units as repeated, (select distinct file_order, file_path from temp.judge_checked) as files
where
    checked.reason is null
    and checked.judge = repeated.judge
    and checked.dialogue_key = repeated.dialogue_key
    and checked.question = repeated.question
    and checked.unit_movie_id is not distinct from repeated.unit_movie_id
    and checked.file_order::bigint * 1099511627776 + checked.line_number > repeated.first_value_at
    and files.file_order = repeated.first_value_at // 1099511627776;

drop table temp.judge_repeated_units;
