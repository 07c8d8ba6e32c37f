-- Bookkeeping shared by every source. Each raw_<source>.sql beside this file adds that
-- source's landing tables (DICES's are made from its seeded column list: ingest/releases/dices_columns.py). Every statement is idempotent: ingest runs them before each load.
create schema if not exists raw;

-- A release file may open with a UTF-8 byte order mark. Raw keeps it (raw text is lossless), but
-- it is not part of the JSON: whatever parses raw text (ingest's checks, dbt's staging) reads the
-- text through this macro, the one place that knows about the mark.
create or replace macro raw.without_byte_order_mark(raw_text) as ltrim(raw_text, chr(65279));

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
