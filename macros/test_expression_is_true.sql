{#-
    Fails on every row where `expression` is not true (null counts as a failure), and returns
    those rows whole so that the build output names the offending item and value. dbt_utils'
    name and argument; rows are restricted with dbt's own `config: where:`.
-#}
{% test expression_is_true(model, expression, column_name=none) %}

select *
from {{ model }}
where not coalesce(({{ expression }}), false)

{% endtest %}
