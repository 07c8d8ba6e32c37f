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
        else nullif(concat_ws('; ',
            case when t[1] is null then 'missing conversationId'
                when t[1] not in ('VARCHAR', 'BIGINT', 'UBIGINT') then 'conversationId is not a string or integer' end,
            case when t[2] is null then 'missing messages'
                when t[2] <> 'ARRAY' then 'messages is not a list' end,
            case when t[3] is null then 'missing initiatorWorkerId'
                when t[3] not in ('VARCHAR', 'BIGINT', 'UBIGINT') then 'initiatorWorkerId is not an integer' end,
            case when t[4] is null then 'missing respondentWorkerId'
                when t[4] not in ('VARCHAR', 'BIGINT', 'UBIGINT') then 'respondentWorkerId is not an integer' end,
            case when t[5] is null then 'missing movieMentions'
                when t[5] not in ('OBJECT', 'ARRAY') then 'movieMentions is not an object or list' end,
            case when t[6] is null then 'missing initiatorQuestions'
                when t[6] not in ('OBJECT', 'ARRAY') then 'initiatorQuestions is not an object or list' end,
            case when t[7] is null then 'missing respondentQuestions'
                when t[7] not in ('OBJECT', 'ARRAY') then 'respondentQuestions is not an object or list' end
        ), '')
    end as reason
from checked
