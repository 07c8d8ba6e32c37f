-- One row per question of a scope: the grain of `agreement` and of the rater agreement, with
-- what its figures need (level of measurement, vocabulary size).
with

units as (

    select * from {{ ref('int_agreement__units') }}

),

final as (

    select distinct
        question_id,
        source,
        scope,
        rating_kind,
        question,
        level_of_measurement,
        n_labels
    from units

)

select * from final
