-- Every source's rater attributes with a value, long: a source's model may give its attributes
-- without a value too (a dataset's raters.csv as landed), which are no attribute of the rater.
with

unioned as (

    {{ union_source_models('rater_attributes') }}

),

with_a_value as (

    select * from unioned
    where value is not null

),

final as (

    select
        {{ contract_columns() }}
    from with_a_value

)

select * from final
