{#-
    dbt_utils' `sequential_values`, with its name, arguments and meaning: within each group of
    `group_by_columns`, ordered by `column_name`, every value is the previous one plus `interval`.
    Fails on each row that is not, with the value before it. (The first row of a group has no
    previous value and is not checked: where a sequence must start matters, test that apart.)
-#}
{% test sequential_values(model, column_name, interval=1, group_by_columns=[]) %}

with

windowed as (

    select
        {% for group_column in group_by_columns -%}
            {{ group_column }},
        {% endfor -%}
        {{ column_name }},
        lag({{ column_name }}) over (
            {% if group_by_columns %}partition by {{ group_by_columns | join(', ') }}{% endif %}
            order by {{ column_name }}
        ) as previous_{{ column_name }}
    from {{ model }}

)

select *
from windowed
where not ({{ column_name }} = previous_{{ column_name }} + {{ interval }})

{% endtest %}
