-- Reads every given DUO file (the parameter: their paths) into the temp table duo_read and
-- classifies it: reject_reason is null for a file that lands.
create or replace temp table duo_read as
with files as (
    select
        filename,
        regexp_extract(replace(filename, '\', '/'), '((ed|wow)/(en|ja)/[^/]+\.json)$', 1) as file_path,
        regexp_extract(replace(filename, '\', '/'), '(ed|wow)/(en|ja)/[^/]+\.json$', 2) as language,
        regexp_extract(replace(filename, '\', '/'), '(ed|wow)/(en|ja)/[^/]+\.json$', 1) as setting,
        size as size_bytes,
        sha256(content) as sha256,
        try(decode(content)) as raw_json
    from read_blob(cast(? as varchar[]))  -- typed, so that an empty list reads no file
),
parsed as (
    select
        *,
        raw.without_byte_order_mark(raw_json) as json_text
    from files
)
select
    *,
    case
        when raw_json is null then 'not valid UTF-8 text'
        when trim(json_text) = '' then 'empty file'
        when not json_valid(json_text) then 'not valid JSON'
        when json_type(json_text::json) <> 'OBJECT' then 'top-level JSON value is not an object'
        when json_extract(json_text, '$.dialogue_id') is null then 'missing key "dialogue_id"'
        -- the dialogue's key is duo:<language>:<dialogue_id>: without an id it would be `duo:en:`
        when coalesce(trim(json_extract_string(json_text, '$.dialogue_id')), '') = ''
            then 'empty or null "dialogue_id" (the dialogue''s key needs it): give the dialogue its id'
        when json_type(json_text::json, '$.dialogue') is distinct from 'ARRAY'
            then 'missing or non-list key "dialogue"'
        when json_extract(json_text, '$.subjective_evaluation') is null
            then 'missing key "subjective_evaluation"'
    end as reject_reason
from parsed
