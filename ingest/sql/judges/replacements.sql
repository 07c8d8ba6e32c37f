-- What a judges load does to earlier judgements, per (judge, source) that has some: replaced when
-- the load lands at least one judgement of that judge on that source; kept when none of its rows
-- landed there (every row of the judge rejected, or every row of it on that source). A (judge,
-- source) the load does not name is neither and is not listed.
with

given as (
    select
        judge,
        source,
        count(*) filter (where reason is null) as landed,
        count(*) as n_rows
    from temp.judge_checked
    where not no_judge
    group by judge, source
),

named_judges as (
    select
        judge,
        sum(landed) as landed_any,
        sum(n_rows) as n_rows_of_judge
    from given
    group by judge
),

earlier as (
    select
        judge,
        source,
        count(*) as n_earlier
    from raw.judge_judgements
    where judge in (select named_judges.judge from named_judges)
    group by judge, source
)

select
    earlier.judge,
    earlier.source,
    earlier.n_earlier,
    coalesce(given.landed, 0) as landed,
    coalesce(given.n_rows, 0) as n_rows,
    named_judges.landed_any,
    named_judges.n_rows_of_judge
from earlier
inner join named_judges on earlier.judge = named_judges.judge
left join given on earlier.judge = given.judge and earlier.source = given.source
where given.landed > 0 or named_judges.landed_any = 0 or (given.n_rows > 0 and given.landed = 0)
order by earlier.judge, earlier.source
