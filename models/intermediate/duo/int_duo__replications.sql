-- DUO's replications for `replication_agreement`: the same dialogue and metric scored by its own
-- user (`user`, the subjective score) and by the three annotators (`annotators`, the objective
-- scores). One row per score, in the judgements feed's shape, named by the comparison it is in.
with

judgements as (

    select * from {{ ref('int_duo__judgements') }}

),

final as (

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
        'user' as replication_a,
        'annotators' as replication_b,
        case rating_kind when 'subjective' then 'user' when 'objective' then 'annotators' end as replication
    from judgements
    where rating_kind in ('subjective', 'objective')

)

select * from final
