-- The units to judge, one JSON object each (`dwh tasks`): every unit with human ratings in
-- marts.ratings{only}, with the question's wording, its scale (interval and ratio questions: the
-- seeds' codes, a dataset's min and max, null where not given) or labels (the label texts that are
-- judgements, in order) with what each means where its text does not say (`label_meanings`,
-- ReDial's 0 / 1), and the conversation's turns (a dataset's unit: its turns, or its text as one
-- turn). The questions and labels are those judgements are checked against (judges/reference.sql).
-- DUO questions are one unit per dialogue and metric, whatever the rating kind; movie_id and
-- movie_title are those of a source whose units are keyed by a movie (temp.judge_sources: ReDial).
-- Three statements, so that no sort carries the turns: the units (keys and question, small) are
-- sorted on their own, each conversation's turns become JSON once, and the last statement joins
-- them as the units come (`dwh tasks` runs it in one thread, which keeps the units' order).
-- a number as JSON: a whole number without a fraction, null as null
create or replace temp macro json_number(number) as
    if(number = round(number), round(number)::bigint::json, number::json);

create or replace temp table task_units as
with

units as (
    select distinct
        ratings.source,
        ratings.dialogue_key,
        ratings.question,
        if(sources.units_keyed_by_movie, ratings.movie_id, null) as movie_id
    from marts.ratings
    left join temp.judge_sources as sources on ratings.source = sources.source
    {only}
),

questions as (
    select
        *,
        if(
            matches_numbers,
            json_object('min', json_number(scale_min), 'max', json_number(scale_max)),
            null
        ) as given_scale
    from temp.judge_questions
),

answers as (
    select
        label_set,
        json_object('min', min(value_code), 'max', max(value_code)) as scale,
        to_json(list(value_text order by value_code) filter (where not counts_as_missing)) as labels,
        if(
            count(meaning) filter (where not counts_as_missing) = 0,
            null,
            to_json(map(
                list(value_text order by value_code) filter (where not counts_as_missing),
                list(meaning order by value_code) filter (where not counts_as_missing)
            ))
        ) as label_meanings
    from temp.judge_labels
    group by label_set
),

movies as (
    select movie_id, coalesce(movie_title, movie_name_raw) as movie_title
    from marts.movies
)

select
    units.dialogue_key,
    units.question,
    units.movie_id,
    movies.movie_title,
    questions.wording,
    questions.level_of_measurement in ('interval', 'ratio') as is_scale,
    coalesce(questions.given_scale, answers.scale) as scale,
    answers.labels,
    answers.label_meanings
from units
inner join questions on units.source = questions.source and units.question = questions.question
left join answers on questions.label_set = answers.label_set
left join movies on units.movie_id = movies.movie_id
order by units.source, units.dialogue_key, units.question, units.movie_id;

-- a plain list sorted afterwards: `list(… order by turn_index)` keeps a sort per dialogue and ran
-- out of 512MB on the scale-1 sample's 20,000 dialogues
create or replace temp table task_turns as
select
    dialogue_key,
    to_json(list_transform(
        list_sort(list({{'turn_index': turn_index, 'speaker_role': speaker_role, 'text': text}})),
        turn -> {{'speaker_role': turn.speaker_role, 'text': turn.text}}
    )) as turns
from marts.turns
where dialogue_key in (select dialogue_key from temp.task_units)
group by dialogue_key;

select
    if(
        units.is_scale,
        json_object(
            'dialogue_key', units.dialogue_key, 'question', units.question, 'movie_id', units.movie_id,
            'movie_title', units.movie_title, 'wording', units.wording, 'scale', units.scale,
            'turns', coalesce(turns.turns, '[]'::json)
        ),
        json_object(
            'dialogue_key', units.dialogue_key, 'question', units.question, 'movie_id', units.movie_id,
            'movie_title', units.movie_title, 'wording', units.wording, 'labels', units.labels,
            'label_meanings', units.label_meanings, 'turns', coalesce(turns.turns, '[]'::json)
        )
    )::varchar as task
from temp.task_units as units
left join temp.task_turns as turns on units.dialogue_key = turns.dialogue_key
