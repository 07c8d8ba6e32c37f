{#-
    `unique_at_scale`: dbt's `unique` test (same arguments, same result rows: each repeated value
    with its count) for the tables that grow with the corpus, computed another way. dbt's groups
    every value as itself (at scale 10, 34.6 million rating ids held as strings in one hash
    table); this sorts the values' 64-bit hashes and compares each with the one before it, in 256
    partitions by the hash's top bits (a repeated value lands in one partition), so the window is
    never over the whole table: DuckDB spills its partitions to disk within the build's memory
    bound (at scale 30, 104 million rating ids under 1.4GB; a window over the whole table, and a
    grouping of the hashes, ran out of memory there). Only the values whose hash repeats are then
    compared as themselves: two different values sharing a hash are not reported, so the answer
    is dbt's.
-#}
{% test unique_at_scale(model, column_name) %}

with

value_hashes as (

    select hash({{ column_name }}) as value_hash
    from {{ model }}
    where {{ column_name }} is not null

),

sorted_hashes as (

    select
        value_hash,
        lag(value_hash) over (partition by value_hash >> 56 order by value_hash) as previous_hash
    from value_hashes

),

repeated_hashes as (

    select distinct value_hash
    from sorted_hashes
    where value_hash = previous_hash

),

candidates as (

    select {{ column_name }} as unique_field
    from {{ model }}
    where hash({{ column_name }}) in (select value_hash from repeated_hashes)

)

select
    unique_field,
    count(*) as n_records
from candidates
group by unique_field
having count(*) > 1

{% endtest %}
