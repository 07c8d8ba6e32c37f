-- DICES's replications for `replication_agreement`: DICES 350's crowd (every rater's `Q_overall`)
-- against its experts (the item's `safety_gold`, Yes / No, one value per item, coded in
-- `Q_overall`'s label set: the crowd's Unsure is a third label, which differs from both). DICES
-- 990's repeats against first judgements are not declared here: `int_agreement__replication_values`
-- finds any source's repeats in the judgements feed. One row per value, in the judgements feed's shape.
with

judgements as (

    select * from {{ ref('int_dices__judgements') }}

),

items as (

    select * from {{ ref('int_dices__items') }}

),

judgement_questions as (

    select * from {{ ref('judgement_questions') }}

),

judgement_labels as (

    select * from {{ ref('judgement_labels') }}

),

crowd as (

    select
        source,
        scope,
        rating_kind,
        question,
        unit_key,
        rater_key,
        value_code,
        judgement_round,
        judgement_row,
        'crowd' as replication
    from judgements
    where question = 'Q_overall' and scope = '350'

),

experts as (

    select
        'dices' as source,
        items.dataset_config as scope,
        'safety' as rating_kind,
        judgement_questions.question,
        items.dialogue_key as unit_key,
        cast(null as varchar) as rater_key,
        judgement_labels.value_code,
        cast(null as varchar) as judgement_round,
        cast(null as bigint) as judgement_row,
        'expert' as replication
    from items
    inner join judgement_questions
        on
            judgement_questions.source = 'dices'
            and judgement_questions.question = 'Q_overall'
    inner join judgement_labels
        on
            judgement_questions.label_set = judgement_labels.label_set
            and items.safety_gold = judgement_labels.value_text
    where items.dataset_config = '350'

),

both_replications as (

    select * from crowd
    union all
    select * from experts

),

final as (

    select
        *,
        'crowd' as replication_a,
        'expert' as replication_b
    from both_replications

)

select * from final
