-- Judges: one raw row per judgement an outside judge (a model, a heuristic, a person) gave a unit
-- of the warehouse, loaded with `dwh ingest --judges` and checked against the last build's marts
-- (ingest/judges.py). Loading a judge again replaces all of that judge's rows; other judges stay.
-- source: the dialogue's source (duo / dices / redial); movie_id: ReDial only, else null;
-- value_text: the value exactly as given; value_number: DUO the number, labels their value_code
-- (seeds/judgement_labels.csv); line_number: CSV the file's line (header = line 1), JSONL the
-- physical line, Parquet the row number from 1.
create table if not exists raw.judge_judgements (
    load_id varchar not null,
    judge varchar not null,
    source varchar not null,
    dialogue_key varchar not null,
    question varchar not null,
    movie_id varchar,
    value_text varchar not null,
    value_number double not null,
    source_file varchar not null,
    line_number bigint not null
);
