-- Every row of the excluded_raters seed names a rater the sources declare, once: a key that matches
-- none (a typo, another case: rater keys are case-sensitive data) would otherwise leave nobody out,
-- silently, and a key repeated with other spaces would count its rater twice. Surrounding spaces do
-- not count, as in int_agreement__raters' join. One row per such key, as written, with its problem;
-- `dwh build` names the seed's file and line of each (dwh/building/seed_checks.py).
with

excluded_raters as (

    select
        rater_key,
        reason,
        count(*) over (partition by trim(rater_key)) as n_rows_of_key
    from {{ ref('excluded_raters') }}

),

raters as (

    select distinct rater_key from {{ ref('int_agreement__raters') }}
    where not is_judge

)

select
    excluded_raters.rater_key,
    excluded_raters.reason,
    case
        when raters.rater_key is null then 'matches no rater'
        else 'names a rater another row names too (surrounding spaces do not count)'
    end as problem
from excluded_raters
left join raters on trim(excluded_raters.rater_key) = trim(raters.rater_key)
where raters.rater_key is null or excluded_raters.n_rows_of_key > 1
