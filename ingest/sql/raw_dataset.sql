-- Datasets: a researcher's own evaluation data in one long form (`dwh ingest --dataset PATH`,
-- ingest/datasets/, docs/DATASETS.md). Every table is keyed by `dataset` (the name in its
-- dataset.yml, the dataset's `source`); loading a dataset again replaces all of its rows, and no
-- other dataset's. Loads are recorded in raw.ingest_loads under the source `dataset`; a dataset's
-- rejects are in raw.ingest_rejects under its own name. Text is kept as given: values, rounds and
-- attributes are never cast (the parsed columns beside them are for convenience).

-- One row per dataset: dataset.yml verbatim and its fields, defaults resolved.
-- dimensions: the rater attributes that are group dimensions (as given, or by default every
-- attribute that is text or has bins); rater_missing: the attribute texts that mean "no answer".
create table if not exists raw.dataset_manifests (
    load_id varchar not null,
    dataset varchar not null,
    folder varchar not null,
    manifest_text varchar not null,
    title varchar not null,
    license varchar not null,
    citation varchar not null,
    url varchar,
    description varchar,
    rater_missing varchar[] not null,
    dimensions varchar[] not null,
    dimensions_given boolean not null
);

-- One row per band of a binned rater attribute (`bins` in dataset.yml): a number x is in the band
-- where (lower is null or x >= lower) and (upper is null or x < upper). band: `<25`, `25-34`,
-- `55+` (integral cut points; otherwise `[1.5, 2.5)`); band_order: 1 for the lowest band.
create table if not exists raw.dataset_bins (
    load_id varchar not null,
    dataset varchar not null,
    attribute varchar not null,
    band_order integer not null,
    lower double,
    upper double,
    band varchar not null
);

-- One row per question of questions.csv (line_number: its line, the header is line 1).
-- labels: nominal and ordinal, in their order (a label's position is its order for ordinal);
-- null for interval and ratio. min_value / max_value: the scale's bounds when given.
-- missing: the values that mean "no judgement" (an empty value always does). meanings: what each
-- label means, in the labels' order, where questions.csv gives them (`no|yes` for `0|1`); added
-- to a warehouse made before it by ingest/raw_schema.py's ADDED_COLUMNS.
create table if not exists raw.dataset_questions (
    load_id varchar not null,
    dataset varchar not null,
    line_number bigint not null,
    question varchar not null,
    level varchar not null,
    labels varchar[],
    min_value double,
    max_value double,
    missing varchar[] not null,
    wording varchar,
    meanings varchar[]
);

-- One row per judgement row that landed, missing values included (is_missing: the value was empty
-- or one of the question's `missing` values; not a judgement, counted). Unique on (dataset,
-- unit_id, rater_id, question, round_rank): a second value for one of them is a reject.
-- value: the text as given (null when absent; an empty CSV field reads as null); label_position: nominal and ordinal, the value's
-- 1-based position in the question's labels; value_number: interval and ratio, the value as a
-- number. round: the text as given (null when absent: round 1); round_rank: the round's place
-- among the dataset's rounds in natural order (numbers by value, `2` before `10`; other texts
-- after them), 1 for the first. A rater's first round on a unit is the lowest round_rank.
-- file_path / line_number: the judgements file (its name in the folder) and line (CSV: the header
-- is line 1; JSONL: the physical line; Parquet: the row from 1).
create table if not exists raw.dataset_judgements (
    load_id varchar not null,
    dataset varchar not null,
    file_path varchar not null,
    line_number bigint not null,
    unit_id varchar not null,
    rater_id varchar not null,
    question varchar not null,
    value varchar,
    is_missing boolean not null,
    label_position integer,
    value_number double,
    round varchar,
    round_rank integer not null
);

-- One row per rater listed in raters.csv (raters of the judgements without a row there have none:
-- they load with no attributes). rater_kind: `crowd` (the default) or `expert`.
create table if not exists raw.dataset_raters (
    load_id varchar not null,
    dataset varchar not null,
    line_number bigint not null,
    rater_id varchar not null,
    rater_kind varchar not null
);

-- One row per (rater, attribute) of raters.csv: every column but rater_id and rater_kind, long
-- form. value: the text as given (null when empty); is_missing: empty or one of the dataset's
-- rater_missing texts; is_dimension: the attribute is one of the dataset's dimensions; is_banded:
-- the dataset bins the attribute (dataset.yml's `bins`), band: the band of raw.dataset_bins the
-- value falls in, null where it is no finite number or missing (ingest/datasets/banding.py).
create table if not exists raw.dataset_rater_attributes (
    load_id varchar not null,
    dataset varchar not null,
    rater_id varchar not null,
    attribute varchar not null,
    value varchar,
    is_missing boolean not null,
    is_dimension boolean not null,
    is_banded boolean,
    band varchar
);

-- One row per unit of units.csv / units.jsonl. scope: as given, else `all`; turns: a JSON list of
-- {speaker_role, text} (its text as given); other_columns: the row's other fields as a JSON object
-- of texts (null when it has none).
create table if not exists raw.dataset_units (
    load_id varchar not null,
    dataset varchar not null,
    file_path varchar not null,
    line_number bigint not null,
    unit_id varchar not null,
    scope varchar not null,
    split varchar,
    language varchar,
    turns varchar,
    text varchar,
    other_columns varchar
);

-- One row per file of a dataset's folder that was read: what it held, landed and rejected
-- (file_kind: questions, judgements, raters or units). A dataset's files are not in
-- raw.ingest_files: load_reconciliation reads both (stg_dataset__files).
create table if not exists raw.dataset_files (
    load_id varchar not null,
    dataset varchar not null,
    file_path varchar not null,
    file_kind varchar not null,
    file_format varchar not null,
    sha256 varchar not null,
    size_bytes bigint not null,
    records_read bigint not null,
    records_landed bigint not null,
    records_rejected bigint not null
);
