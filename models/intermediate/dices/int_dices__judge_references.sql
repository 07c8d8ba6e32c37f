-- DICES's references for the judges that are not a kind of rater: DICES 350's experts (`expert`,
-- each item's `safety_gold` on `Q_overall`, as `replication_agreement` compares the crowd with
-- them). The raters and their groups come from `seeds/judge_references.csv`.
with

replications as (

    select * from {{ ref('int_dices__replications') }}

),

final as (

    select
        source,
        scope,
        rating_kind,
        question,
        unit_key,
        rater_key,
        replication as reference,
        value_code
    from replications
    where replication = 'expert'

)

select * from final
