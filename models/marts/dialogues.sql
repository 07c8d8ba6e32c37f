-- Every source's dialogues in one shape, with how many rows each has in `turns`: counted here,
-- once for every source, so that a source's dialogues model gives only what its release says.
with

unioned as (

    {{ union_source_models('dialogues') }}

),

turns as (

    select * from {{ ref('turns') }}

),

turn_counts as (

    select
        dialogue_key,
        count(*) as n_turns
    from turns
    group by dialogue_key

),

with_turn_counts as (

    select
        unioned.*,
        coalesce(turn_counts.n_turns, 0) as n_turns
    from unioned
    left join turn_counts on unioned.dialogue_key = turn_counts.dialogue_key

),

final as (

    select
        {{ contract_columns() }}
    from with_turn_counts

)

select * from final
