{#-
    Fails on every row where `expression` is not true (null counts as a failure), and returns
    the offending rows so that the build output names the item and value at fault: whole, or
    only `show_columns` (e.g. the item, rater and row of a wide DICES row). dbt_utils' name and
    argument, plus `show_columns`; rows are restricted with dbt's own `config: where:`.
-#}
{% test expression_is_true(model, expression, show_columns=none, column_name=none) %}

select
    {{ show_columns | join(',\n    ') if show_columns else '*' }}
from {{ model }}
where not coalesce(({{ expression }}), false)

{% endtest %}
