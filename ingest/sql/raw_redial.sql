-- ReDial: one row per JSONL line of train_data.jsonl / test_data.jsonl, the line kept verbatim
-- (without its line terminator: the "\n" and the "\r" of a CRLF file are not part of the line).
-- A UTF-8 byte order mark at the start of a file stays in raw_line of line 1; staging strips it
-- (raw.without_byte_order_mark). dbt's staging parses raw_line.
create table if not exists raw.redial_conversations (
    load_id varchar not null,
    file_path varchar not null,    -- the file's (or zip member's) base name, e.g. train_data.jsonl
    split varchar not null,        -- train | test, from the file name
    line_number bigint not null,   -- 1-based physical line number in that file
    raw_line varchar not null
);

-- movies_with_mentions.csv (movieId,movieName,nbMentions), every field as text. Optional.
create table if not exists raw.redial_movies (
    load_id varchar not null,
    file_path varchar not null,
    row_number bigint not null,    -- 1-based data row among the rows that landed (header excluded)
    movie_id varchar,
    movie_name varchar,
    nb_mentions varchar
);

-- What a line must be to land: a JSON object with each field a conversation needs, of one of the
-- JSON types listed (json_type's names). This list is the one statement of it: the two macros below
-- check a line against it, and ingest/sql/redial/classify_lines.sql words the reason for each way a
-- line fails it. The maps may be lists because the release writes an empty map as []: staging
-- reads that as {} (the macro redial_empty_list_as_object), and its tests fail the build on any
-- other list.
create or replace macro raw.redial_conversation_fields() as [
    {'name': 'conversationId', 'types': ['VARCHAR', 'BIGINT', 'UBIGINT'], 'expected': 'a string or integer'},
    {'name': 'messages', 'types': ['ARRAY'], 'expected': 'a list'},
    {'name': 'initiatorWorkerId', 'types': ['VARCHAR', 'BIGINT', 'UBIGINT'], 'expected': 'an integer'},
    {'name': 'respondentWorkerId', 'types': ['VARCHAR', 'BIGINT', 'UBIGINT'], 'expected': 'an integer'},
    {'name': 'movieMentions', 'types': ['OBJECT', 'ARRAY'], 'expected': 'an object or list'},
    {'name': 'initiatorQuestions', 'types': ['OBJECT', 'ARRAY'], 'expected': 'an object or list'},
    {'name': 'respondentQuestions', 'types': ['OBJECT', 'ARRAY'], 'expected': 'an object or list'}
];
-- The type of the line, then of each of those fields, in one parse (null when not JSON; a missing
-- field's type is null):
create or replace macro raw.redial_line_types(json_text) as try(json_type(
    json_text, ['$'] || list_transform(raw.redial_conversation_fields(), field -> '$.' || field.name)
));
-- Whether those types make a conversation, as one regular expression built from the list (a
-- missing field is skipped when the types are joined, so it cannot match):
create or replace macro raw.redial_types_are_conversation(types) as regexp_full_match(
    coalesce(array_to_string(types, ','), ''),
    '(OBJECT),' || array_to_string(
        list_transform(raw.redial_conversation_fields(), field -> '(' || array_to_string(field.types, '|') || ')'), ','
    )
);
-- The first key that an object of the JSON text repeats, or null: the top-level object, then every
-- object nested in it at any depth (inside lists too; `$..*` is each value below the top, and
-- json_keys gives an object's keys as written, repeats included). JSON parsers disagree on which
-- value of a repeated key counts (DuckDB keeps the first, Python's json the last), so such a line
-- is rejected with its text rather than read one way silently.
create or replace macro raw.json_repeated_key(json_text) as (
    list_filter(
        list_transform(
            [try(json_keys(json_text))] || try(json_keys(json_text, '$..*')),
            keys -> list_filter(keys, (k, i) -> list_position(keys, k) < i)[1]
        ),
        repeated -> repeated is not null
    )[1]
);
-- The warehouse's ReDial keys join ids with ":" (`redial:<conversationId>`, and a judgement's unit
-- `redial:<conversationId>:<movie id>`): an id holding ":" could make another record's key
-- (conversation 1 with movie 2:3 and conversation 1:2 with movie 3 are both unit redial:1:2:3). Ids
-- are data, kept as written, so such a line is rejected, naming the id; null when there is none.
create or replace macro raw.redial_id_with_key_separator(json_text) as case
    when contains(json_extract_string(json_text, '$.conversationId'), ':')
        then 'conversationId "' || json_extract_string(json_text, '$.conversationId') || '"'
    else 'movie id "' || list_filter(
        flatten(coalesce(try(json_keys(json_text, ['$.movieMentions', '$.initiatorQuestions', '$.respondentQuestions'])), [])),
        movie_id -> contains(movie_id, ':')
    )[1] || '"'
end;
