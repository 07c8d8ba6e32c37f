-- Every demographic value of the raters who rated a scope has its row in `agreement`
-- for every question of that scope (and `all` for every source). Fails naming the missing row.
with

rater_scopes as (

    select distinct
        rater_key,
        source,
        scope
    from {{ ref('rater_agreement') }}

),

raters as (

    select * from {{ ref('raters') }}

),

questions as (

    select distinct
        source,
        scope,
        rating_kind,
        question
    from {{ ref('rating_distributions') }}

),

agreement as (

    select * from {{ ref('agreement') }}

),

expected_groups as (

    select distinct
        rater_scopes.source,
        rater_scopes.scope,
        dimension.group_dimension,
        dimension.group_value
    from rater_scopes
    inner join raters on rater_scopes.rater_key = raters.rater_key
    cross join
        lateral (
            values
            ('all', 'all'),
            ('gender', raters.gender),
            ('race', raters.race),
            ('age_group', raters.age_group),
            ('education', raters.education),
            ('locale', raters.locale),
            ('race_gender', raters.race || ' / ' || raters.gender)
        ) as dimension (group_dimension, group_value)
    where dimension.group_value is not null

),

expected_rows as (

    select
        questions.source,
        questions.scope,
        questions.rating_kind,
        questions.question,
        expected_groups.group_dimension,
        expected_groups.group_value
    from questions
    inner join expected_groups
        on
            questions.source = expected_groups.source
            and questions.scope = expected_groups.scope

),

final as (

    select expected_rows.*
    from expected_rows
    anti join agreement
        on
            expected_rows.source = agreement.source
            and expected_rows.scope = agreement.scope
            and expected_rows.rating_kind = agreement.rating_kind
            and expected_rows.question = agreement.question
            and expected_rows.group_dimension = agreement.group_dimension
            and expected_rows.group_value = agreement.group_value

)

select * from final
