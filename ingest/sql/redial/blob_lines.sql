-- Lines of a chunk that is not valid UTF-8: blob::varchar writes every byte outside printable
-- ASCII (and "\" and '"') as \xNN, so splitting on the text '\x0A' splits exactly on newline
-- bytes; each line is turned back into bytes and decoded on its own (NULL when not UTF-8).
with src as (select string_split(cast(cast(? as blob) as varchar), '\x0A') as parts),
numbered as (
    select
        unnest(parts) as part,
        generate_subscripts(parts, 1) + ? as line_number,
        len(parts) + ? as n_parts
    from src
),
stripped as (
    select
        line_number,
        case when ends_with(part, '\x0D') then substring(part, 1, length(part) - 4) else part end as escaped
    from numbered
    where not (line_number = n_parts and part = '')
)
-- A rejected line is shown with its quotes restored: unambiguous, as "\" stays written \x5C.
select line_number, try(decode(escaped::blob)) as line, coalesce(line, replace(escaped, '\x22', '"')) as shown
from stripped
