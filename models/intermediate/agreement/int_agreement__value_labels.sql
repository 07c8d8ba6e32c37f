-- Every value a unit can hold, numbered: the agreement models count small integer codes
-- instead of repeating answer texts on millions of rows. DICES values are the answer texts;
-- DUO scores and ReDial form codes are numbers, written without decimals ('3', '0', '1').
with

ratings as (

    select * from {{ ref('ratings') }}
    where rating_kind in {{ agreement_unit_rating_kinds() }}

),

dices_answers as (

    select * from {{ ref('int_dices__answers') }}

),

dices_values as (

    select distinct
        answer as value_text,
        cast(null as double) as value_numeric
    from dices_answers
    where answer is not null

),

numeric_values as (

    select distinct
        {{ agreement_number_text('value_numeric') }} as value_text,
        value_numeric
    from ratings
    where value_numeric is not null

),

unioned as (

    select * from dices_values
    union
    select * from numeric_values

),

final as (

    select
        cast(row_number() over (order by value_text) as integer) as value_code,
        value_text,
        value_numeric
    from unioned

)

select * from final
