-- One row per day: the calendar MetricFlow joins time dimensions to. It covers every day a DICES
-- rater could have answered on (the only timestamps in `ratings`), with years to spare.
with

days as (

    select cast(range as date) as date_day
    from range(date '2015-01-01', date '2036-01-01', interval 1 day)

),

final as (

    select date_day from days

)

select * from final
