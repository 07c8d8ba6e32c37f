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
