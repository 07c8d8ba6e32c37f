-- Why each line of the temp table redial_lines (line_number, line, shown) is not a conversation;
-- reason is null for a line that lands. A byte order mark at the start of the file is skipped.
with lines as (select * from redial_lines),
texts as (
    select *, case when line_number = 1 then raw.without_byte_order_mark(line) else line end as json_text
    from lines
),
typed as (
    -- one parse per line: the top-level type, then the type of each field a conversation needs;
    -- try() turns a line that is not JSON into null
    select
        *,
        case when line is not null and not regexp_full_match(json_text, '\s*') then raw.redial_line_types(json_text) end as types
    from texts
),
checked as (
    select
        *,
        types is not null as json_ok,
        types[1] as top_type,
        types[2:] as t
    from typed
)
select
    line_number,
    line,
    shown,
    json_ok,
    case
        when line is null then 'not valid UTF-8 text'
        when regexp_full_match(json_text, '\s*') then 'empty line'
        when not json_ok and not ends_with(rtrim(json_text), '}')
            then 'not valid JSON (truncated? the line does not end with "}")'
        when not json_ok then 'not valid JSON'
        when top_type <> 'OBJECT' then 'JSON value is ' || lower(top_type) || ', not an object'
        when raw.json_repeated_key(json_text) is not null
            then 'duplicate key "' || raw.json_repeated_key(json_text) || '" (which of its values counts is ambiguous)'
        when raw.redial_id_with_key_separator(json_text) is not null
            then raw.redial_id_with_key_separator(json_text)
                || ' holds ":", the separator of the warehouse''s keys (two records could get one key): '
                || 'fix the id in the release'
        -- each field of raw.redial_conversation_fields() that is missing or of another type
        else nullif(array_to_string(list_transform(raw.redial_conversation_fields(), (field, i) ->
            case
                when t[i] is null then 'missing ' || field.name
                when not list_contains(field.types, t[i]) then field.name || ' is not ' || field.expected
            end), '; '), '')
    end as reason
from checked
