-- Every source's dialogues in one shape, with how many rows each has in `turns`: counted here,
-- once for every source, so that a source's dialogues model gives only what its release says.
with

unioned as (

    {{ union_source_models('dialogues') }}

),

-- what the sources give but a turn count of their own: one written before this mart counted
-- turns would otherwise stand beside the mart's, and be the one selected
given as (

    select columns(column_name -> column_name <> 'n_turns') from unioned

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
        given.*,
        coalesce(turn_counts.n_turns, 0) as n_turns
    from given
    left join turn_counts on given.dialogue_key = turn_counts.dialogue_key

),

final as (

    select
        {{ contract_columns() }}
    from with_turn_counts

)

select * from final
