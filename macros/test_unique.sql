{#-
    dbt's `unique` test, same name, same arguments, same result rows (each repeated value with
    its count), computed another way: instead of grouping every value (at scale 10, 34.6 million
    rating ids held as strings in one hash table: 4.3 GB and ~12 s), the values' 64-bit hashes
    are sorted, which DuckDB spills to disk when it must (~1 GB and ~5 s), and only the values
    whose hash repeats are compared as themselves. Two different values sharing a hash are
    compared exactly and not reported, so the answer is dbt's.
-#}
{% test unique(model, column_name) %}

with

value_hashes as (

    select hash({{ column_name }}) as value_hash
    from {{ model }}
    where {{ column_name }} is not null

),

sorted_hashes as (

    select
        value_hash,
        lag(value_hash) over (order by value_hash) as previous_hash
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
