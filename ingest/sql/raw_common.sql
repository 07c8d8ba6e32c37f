-- Bookkeeping shared by every source. Each raw_<source>.sql beside this file adds that
-- source's landing tables (DICES's are made from its seeded column list: ingest/releases/dices_columns.py). Every statement is idempotent: ingest runs them before each load.
create schema if not exists raw;

-- A release file may open with a UTF-8 byte order mark. Raw keeps it (raw text is lossless), but
-- it is not part of the JSON: whatever parses raw text (ingest's checks, dbt's staging) reads the
-- text through this macro, the one place that knows about the mark.
create or replace macro raw.without_byte_order_mark(raw_text) as ltrim(raw_text, chr(65279));

-- The rules by which a value is read, written once here for both sides of the build: ingest's
-- checks (a dataset's and a judge's value against its question's labels, a dataset's round) and
-- dbt's models (which code values and order rounds with the same macros).
-- A value's key, what matches it to a label: trimmed, and a number by its value (`1`, `1.0` and
-- ` 1 ` are the same label).
create or replace macro raw.value_key(value_text) as
    coalesce(cast(try_cast(trim(value_text) as double) as varchar), trim(value_text));

-- A round's key: its value's key, and 1 where none is given.
create or replace macro raw.round_key(round_text) as raw.value_key(coalesce(nullif(trim(round_text), ''), '1'));

-- A text's key in natural order, its numbers as numbers: `Phase2` before `Phase10`. The text is
-- split into runs of digits and runs of other characters; each run of digits becomes the count of
-- its significant digits (four digits) followed by those digits, which sorts as text in the order
-- of the numbers.
create or replace macro raw.natural_order_key(text) as
    array_to_string(
        list_transform(
            regexp_extract_all(text, '\d+|\D+'),
            run -> case
                when regexp_full_match(run, '\d+') then lpad(cast(length(ltrim(run, '0')) as varchar), 4, '0') || ltrim(run, '0')
                else run
            end
        ),
        ''
    );

-- What orders rounds, earliest first: a number by its value (`2` before `10`, `1.5` before `2`),
-- then other texts in natural order (`Phase2` before `Phase10`). A dataset's rounds are ranked by
-- it at ingest, and dbt orders every source's rounds by it (macros/judgement_order.sql).
create or replace macro raw.round_order(round_text) as {
    'is_text': try_cast(trim(round_text) as double) is null,
    'number': coalesce(try_cast(trim(round_text) as double), 0),
    'text': raw.natural_order_key(round_text)
};

create table if not exists raw.ingest_loads (
    load_id varchar primary key,
    started_at timestamp not null,
    finished_at timestamp,
    sources varchar[] not null,
    dwh_version varchar not null
);

-- One row per file landed by a load: what was read, landed and rejected.
create table if not exists raw.ingest_files (
    load_id varchar not null,
    source varchar not null,
    file_path varchar not null,
    given_path varchar not null,
    sha256 varchar,
    size_bytes bigint,
    records_read bigint not null,
    records_landed bigint not null,
    records_rejected bigint not null
);

-- Records that could not be landed, with where they came from and why.
create table if not exists raw.ingest_rejects (
    load_id varchar not null,
    source varchar not null,
    file_path varchar not null,
    line_number bigint,
    reason varchar not null,
    raw_text varchar
);

-- One row per `dwh build` that chose its own selection and passed: which load of each source it
-- was built from and a fingerprint of the dbt project, so that the next `dwh build` rebuilds only
-- what depends on a source loaded since (or everything, when the project changed).
create table if not exists raw.warehouse_builds (
    built_at timestamp not null,
    project_fingerprint varchar not null,
    source_loads map(varchar, varchar) not null,
    rebuilt_sources varchar[] not null,
    dwh_version varchar not null
);
