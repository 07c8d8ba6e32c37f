-- One JSON object per unit to judge (every unit with human ratings in marts.ratings{only}), in
-- source, dialogue, question and movie order: the unit, the question's wording, its scale (interval
-- questions) or labels (the label texts that are judgements, in order), and the conversation's turns.
-- DUO questions are one unit per dialogue and metric, whatever the rating kind; movie_id is ReDial's.
with

units as (
    select distinct
        source,
        dialogue_key,
        question,
        if(source = 'redial', movie_id, null) as movie_id
    from marts.ratings
    {only}
),

questions as (
    select distinct source, question, label_set, level_of_measurement, wording
    from read_csv({questions}, header = true, auto_detect = false, columns = {{
        'source': 'VARCHAR', 'rating_kind': 'VARCHAR', 'question': 'VARCHAR', 'label_set': 'VARCHAR',
        'level_of_measurement': 'VARCHAR', 'several_raters_per_unit': 'BOOLEAN', 'wording': 'VARCHAR'}})
),

label_lists as (
    select
        label_set,
        min(value_code) as lowest,
        max(value_code) as highest,
        list(value_text order by value_code) filter (where not counts_as_missing) as labels
    from temp.judge_labels
    group by label_set
),

conversations as (
    select
        dialogue_key,
        list({{'speaker_role': speaker_role, 'text': text}} order by turn_index) as turns
    from marts.turns
    where dialogue_key in (select dialogue_key from units)
    group by dialogue_key
)

select
    case
        when questions.level_of_measurement = 'interval'
            then json_object(
                'dialogue_key', units.dialogue_key, 'question', units.question, 'movie_id', units.movie_id,
                'wording', questions.wording, 'scale', json_object('min', label_lists.lowest, 'max', label_lists.highest),
                'turns', to_json(coalesce(conversations.turns, []))
            )
        else json_object(
            'dialogue_key', units.dialogue_key, 'question', units.question, 'movie_id', units.movie_id,
            'wording', questions.wording, 'labels', to_json(label_lists.labels),
            'turns', to_json(coalesce(conversations.turns, []))
        )
    end::varchar as task
from units
inner join questions on units.source = questions.source and units.question = questions.question
inner join label_lists on questions.label_set = label_lists.label_set
left join conversations on units.dialogue_key = conversations.dialogue_key
order by units.source, units.dialogue_key, units.question, units.movie_id
