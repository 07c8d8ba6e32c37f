-- Of several values given for one key ({keys}) of temp.{checked}, the first (in file and line
-- order) counts: the others become rejects, {unit} naming the key and the first naming its file and
-- line. An aggregate over the keys given more than once, then an update of the rows after the
-- first: no window over every row, so DuckDB spills as the files grow. A row's place is
-- _file_order * 2^40 + _line. ({keys}, {checked}: identifiers; {same_key}: the keys compared, null
-- alike; {unit}: the text naming a row's key, over `checked`'s columns.)
create or replace temp table long_form_repeated_keys as
select
    {keys},
    min(_file_order::bigint * 1099511627776 + _line) as first_value_at
from temp.{checked}
where reason is null
group by {keys}
having count(*) > 1;

update temp.{checked} as checked
set reason = {unit} || '; the first (' || files._file_path || ' line '
    || repeated.first_value_at % 1099511627776 || ') counts'
from
    temp.long_form_repeated_keys as repeated,
    (select distinct _file_order, _file_path from temp.{checked}) as files
where
    checked.reason is null
    and {same_key}
    and checked._file_order::bigint * 1099511627776 + checked._line > repeated.first_value_at
    and files._file_order = repeated.first_value_at // 1099511627776;

drop table temp.long_form_repeated_keys;
