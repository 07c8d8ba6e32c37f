-- The datasets' judgements for the agreement models, in the judgements feed's shape: a unit is a
-- (dataset unit, question); its scope is the one the units file gives, else `all`. The value code
-- is the label's place in the question's order (nominal, ordinal) or the number given (interval,
-- ratio), as `int_agreement__judgement_labels` codes them; a value meaning "no judgement" has none.
-- A rater's rounds order their judgements of a unit (the first counts, the later are repeats).
with

judgements as (

    select * from {{ ref('stg_dataset__judgements') }}

),

units as (

    select * from {{ ref('stg_dataset__units') }}

),

final as (

    select
        judgements.source,
        coalesce(units.scope, 'all') as scope,
        'judgement' as rating_kind,
        judgements.question,
        judgements.dialogue_key as unit_key,
        judgements.dialogue_key,
        cast(null as varchar) as movie_id,
        judgements.rater_key,
        case
            when not judgements.is_missing
                then coalesce(cast(judgements.label_position as double), judgements.value_number)
        end as value_code,
        cast(judgements.round_rank as varchar) as judgement_round,
        judgements.line_number as judgement_row
    from judgements
    left join units on judgements.dialogue_key = units.dialogue_key

)

select * from final
