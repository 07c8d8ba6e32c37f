{#-
    Every value of each of `columns` must be in the vocabulary of the same name of `source` in the
    `vocabularies` seed; a null fails. The wider form of `in_vocabulary` for a model whose columns
    each hold one documented list of values (a DICES rater's gender, race, age group, …): one test
    scans the model once for all of them. Fails on each offending value, showing `show_columns`, the
    column (`vocabulary`, its vocabulary's name) and the value, so that the build output names them.
    Restrict the rows with dbt's own `config: where:`.
-#}
{% test columns_in_vocabularies(model, source, columns, show_columns=[]) %}

with

vocabularies as (

    select * from {{ ref('vocabularies') }}
    where source = '{{ source }}'

),

checked as (

    select *
    from (
        select {{ (show_columns + columns) | join(', ') }}
        from {{ model }}
    )
    unpivot include nulls (value for vocabulary in ({{ columns | join(', ') }}))

)

select checked.*
from checked
where
    not exists (
        select 1
        from vocabularies
        where
            vocabularies.vocabulary = checked.vocabulary
            and vocabularies.label = checked.value
    )

{% endtest %}
