-- Toy: one row per line of toy.jsonl, kept verbatim.
create table if not exists raw.toy_dialogues (
    load_id varchar not null,
    file_path varchar not null,
    line_number bigint not null,
    raw_line varchar not null
);

-- Toy's later review rounds: one row per record of toy_reviews.csv, the header's columns as text.
create table if not exists raw.toy_reviews (
    load_id varchar not null,
    file_path varchar not null,
    row_number bigint not null,
    id varchar,
    review_round varchar,
    reviewer_r1 varchar,
    reviewer_r2 varchar,
    reviewer_r3 varchar
);
