{#-
    dbt_utils' `unique_combination_of_columns`, with its name and argument (the package hub is out
    of reach, and the project writes its own): fails on each combination of
    `combination_of_columns` that occurs more than once, with its count.
-#}
{% test unique_combination_of_columns(model, combination_of_columns) %}

select
    {{ combination_of_columns | join(', ') }},
    count(*) as n_rows
from {{ model }}
group by {{ combination_of_columns | join(', ') }}
having count(*) > 1

{% endtest %}
