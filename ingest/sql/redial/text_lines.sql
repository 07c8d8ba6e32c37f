-- Lines of a chunk of valid UTF-8 text, numbered from the chunk's first line (the second
-- parameter). `parts` has one element more than the chunk has line terminators.
with src as (select string_split(cast(? as varchar), chr(10)) as parts),
numbered as (
    select
        unnest(parts) as part,
        generate_subscripts(parts, 1) + ? as line_number,
        len(parts) + ? as n_parts
    from src
)
select
    line_number,
    case when ends_with(part, chr(13)) then substring(part, 1, length(part) - 1) else part end as line,
    line as shown
from numbered
where not (line_number = n_parts and part = '')
