-- One row per (rater group, question) that `agreement` reports: every group with a rater who
-- judged anything in the question's scope, for every question of that scope. With how many of
-- the group's raters gave the question a value, and how many the exclusions seed leaves out.
with

judgements as (

    select * from {{ ref('int_agreement__judgements') }}
    where is_first and not is_judge

),

questions as (

    select * from {{ ref('int_agreement__questions') }}
    where several_raters_per_unit

),

rater_groups as (

    select * from {{ ref('int_agreement__rater_groups') }}

),

rater_questions as (

    select
        questions.question_id,
        questions.source,
        questions.scope,
        judgements.rater_id,
        judgements.is_excluded,
        count(judgements.value_code) > 0 as gave_a_value
    from judgements
    inner join questions on judgements.question_id = questions.question_id
    where judgements.rater_id is not null
    group by questions.question_id, questions.source, questions.scope, judgements.rater_id, judgements.is_excluded

),

scope_groups as (

    select distinct
        rater_questions.source,
        rater_questions.scope,
        rater_groups.group_id
    from rater_questions
    inner join rater_groups on rater_questions.rater_id = rater_groups.rater_id

),

group_raters as (

    select
        rater_groups.group_id,
        rater_questions.question_id,
        count(*) filter (where rater_questions.gave_a_value and not rater_questions.is_excluded) as n_raters,
        count(*) filter (where rater_questions.is_excluded) as n_excluded_raters
    from rater_questions
    inner join rater_groups on rater_questions.rater_id = rater_groups.rater_id
    group by rater_groups.group_id, rater_questions.question_id

),

final as (

    select
        scope_groups.group_id,
        questions.question_id,
        coalesce(group_raters.n_raters, 0) as n_raters,
        coalesce(group_raters.n_excluded_raters, 0) as n_excluded_raters
    from scope_groups
    inner join questions
        on
            scope_groups.source = questions.source
            and scope_groups.scope = questions.scope
    left join group_raters
        on
            scope_groups.group_id = group_raters.group_id
            and questions.question_id = group_raters.question_id

)

select * from final
