-- Every landed record that did not reach the marts, with the reason. The landed records and the
-- key each should have are what the sources declare (`int_reconciliation__landed_records`); the
-- keys the marts hold are read from the marts themselves, the layer being checked.
-- Scheduled after the agreement spine's one big table (a dependency in order only, nothing is read
-- from it): both scan every rating under the build's one memory bound, and side by side they spill
-- (at scale 10 the spine's table took 129 s beside this mart, 35 s without it: BENCHMARKS.md).
-- depends_on: {{ ref('int_agreement__judgements') }}
with

landed as (

    select * from {{ ref('int_reconciliation__landed_records') }}

),

dialogues as (

    select * from {{ ref('dialogues') }}

),

movies as (

    select * from {{ ref('movies') }}

),

ratings as (

    select * from {{ ref('ratings') }}

),

raters as (

    select * from {{ ref('raters') }}

),

-- the DICES CSV records the ratings come from: a record is reached when any of its answers is
dices_records as (

    select distinct
        dialogue_key,
        source_row_id
    from ratings
    where source = 'dices'

),

reached as (

    select
        'dialogues' as mart,
        dialogue_key as reached_key
    from dialogues
    union all
    select distinct
        'movies' as mart,
        movie_id as reached_key
    from movies
    union all
    select
        'raters' as mart,
        rater_key as reached_key
    from raters
    union all
    -- the ratings a record is expected to become by their own key (a dataset's judgements row)
    select
        'ratings' as mart,
        rating_id as reached_key
    from ratings
    where
        rating_id in (
            select landed.expected_key from landed
            where landed.expected_mart = 'ratings'
        )
    union all
    select
        'ratings' as mart,
        {{ dices_record_key('dialogues.dataset_config', 'dices_records.source_row_id') }} as reached_key
    from dices_records
    inner join dialogues on dices_records.dialogue_key = dialogues.dialogue_key

),

unreached as (

    select landed.*
    from landed
    left join reached
        on landed.expected_mart = reached.mart and landed.expected_key = reached.reached_key
    where reached.reached_key is null

),

mart_rows as (

    select
        source,
        file_path,
        record_number,
        expected_mart,
        expected_key,
        case
            when expected_key is null then 'the record has no id to key it by'
            else 'no row in marts.' || expected_mart || ' has this key'
        end as reason
    from unreached

),

final as (

    select
        {{ contract_columns() }}
    from mart_rows

)

select * from final
