{#-
    `unique_at_scale` and `unique_combination_of_columns_at_scale`: dbt's `unique` test and
    dbt_utils' `unique_combination_of_columns` (same arguments, same result rows: each repeated
    value or combination with its count) for the tables that grow with the corpus, computed another
    way; every other key is a rule of the relation's `keys_hold` test (macros/test_keys_hold.sql),
    which groups the key's columns as those plain tests do. A plain test groups every value as itself (at scale 10, 34.6 million rating ids held as
    strings in one hash table); this sorts the values' 64-bit hashes and compares each with the one
    before it, in 256 partitions by the hash's top bits (a repeated value lands in one partition),
    so the window is never over the whole table: DuckDB spills its partitions to disk within the
    build's memory bound (at scale 30, 104 million rating ids under 1.4GB; a window over the whole
    table, a grouping of the hashes, and a grouping of the 97 million first judgements by their six
    text keys ran out of memory there). Only the values whose hash repeats are then compared as
    themselves: two different values sharing a hash are not reported, so the answer is the plain
    test's. `after` (optional, e.g. `ref('int_agreement__judgements')`) only orders the test after
    that model, which it does not read: two scans of every rating under the build's one memory
    bound spill side by side.
-#}
{% test unique_at_scale(model, column_name, after=none) %}
{{ repeated_at_scale(model, [column_name], ['unique_field'], 'n_records', column_name ~ ' is not null') }}
{% endtest %}

{% test unique_combination_of_columns_at_scale(model, combination_of_columns) %}
{{ repeated_at_scale(model, combination_of_columns, combination_of_columns, 'n_rows') }}
{% endtest %}

{% macro repeated_at_scale(model, expressions, output_names, count_name, where='true') %}

with

value_hashes as (

    select hash({{ expressions | join(', ') }}) as value_hash
    from {{ model }}
    where {{ where }}

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

    select
        {%- for expression in expressions %}
        {{ expression }} as {{ output_names[loop.index0] }}{{ ',' if not loop.last }}
        {%- endfor %}
    from {{ model }}
    where {{ where }} and hash({{ expressions | join(', ') }}) in (select value_hash from repeated_hashes)

)

select
    {{ output_names | join(', ') }},
    count(*) as {{ count_name }}
from candidates
group by {{ output_names | join(', ') }}
having count(*) > 1

{% endmacro %}
