-- One CSV's records into {input} with their lines (ingest/csv_records.py): the k-th readable
-- record (position k - 1 in temp.{rows}, which keeps file order) sits on line k + 1 (the header is
-- line 1), plus one line per record before it that the reader rejected. A rejected record j (in
-- line order) has line - j - 1 readable records before it; an as-of join finds, for each readable
-- record, how many rejected ones precede it, without comparing every pair. Then the rejected
-- records follow, each at its own line with the reader's reasons.
insert into {input}
with

rejected_lines as (
    select distinct line from temp.{errors}
),

rejected as (
    select line - row_number() over (order by line) - 1 as readable_before, row_number() over (order by line) as so_far
    from rejected_lines
),

steps as (
    select readable_before, max(so_far) as so_far from rejected group by readable_before
),

rows as (
    select rowid as position, * from temp.{rows}
)

select ?, ?, rows.position + 2 + coalesce(steps.so_far, 0), {fields}, null, rows.{raw_text}
from rows
asof left join steps on rows.position >= steps.readable_before;

insert into {input}
select ?, ?, line, {nulls},
    'the CSV reader could not read this record: '
        || string_agg(distinct lower(error_type::varchar) || ': ' || error_message, '; '),
    ltrim(any_value(csv_line), chr(13) || chr(10))
from temp.{errors}
group by line;
