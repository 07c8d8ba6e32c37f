{#-
    dbt's `not_null`, returning the whole offending rows as the project's own tests do: the build
    output then names the record whose column is null (its key's other parts, its file and line
    where the model has them), not a column of nulls, which it would show as blank rows. dbt
    dispatches `test_not_null` to this macro before its own.
-#}
{% macro default__test_not_null(model, column_name) %}

select *
from {{ model }}
where {{ column_name }} is null

{% endmacro %}

{#-
    `not_null_columns`: the same rule for several columns of a model in one scan (one test node
    instead of one per column). Each offending row is returned whole, with the names of its null
    columns in `null_columns`.
-#}
{% test not_null_columns(model, columns) %}

select
    list_filter(
        [{% for column in columns %}case when {{ column }} is null then '{{ column }}' end{{ ", " if not loop.last }}{% endfor %}],
        name -> name is not null
    ) as null_columns,
    *
from {{ model }}
where {{ columns | join(" is null or ") }} is null

{% endtest %}
