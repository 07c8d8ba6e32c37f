{#-
    `references_exist`: the references of one relation to its parents, in one test (one dbt node
    instead of one per column). `references` lists `{column:, to: ref(...) or source(...), field:}`
    (dbt's `relationships` arguments), each with an optional `name` (else `<column> ->
    <parent>.<field>`) and `where` (the rows it reads). Every non-null value of `column` must be a
    value of `field` in `to`; a null references nothing and passes, as in dbt's `relationships`.
    Fails on each orphan row, returned whole after `broken_rule`, the reference it breaks.

    The `ref()` or `source()` in `to` is rendered by dbt when it parses the test, which makes the
    test depend on the parent as `relationships` did.
-#}
{% test references_exist(model, references) %}

{%- set branches = [] -%}
{%- for reference in references -%}
    {%- do branches.append(references_exist__orphan_rows(model, reference) | trim) -%}
{%- endfor -%}
{%- if not branches -%}
    {{ exceptions.raise_compiler_error("references_exist on " ~ model ~ ": give at least one reference") }}
{%- endif %}

{{ branches | join('\n\nunion all\n\n') }}

{% endtest %}


{#- The rows whose non-null `column` is no non-null `field` of the parent `to`. -#}
{% macro references_exist__orphan_rows(model, reference) %}
{%- set column = reference['column'] -%}
{%- set field = reference['field'] -%}
select
    '{{ reference.get('name') or column ~ ' -> ' ~ reference['to'].identifier ~ '.' ~ field }}' as broken_rule,
    *
from {{ model }}
where
    {% if reference.get('where') %}({{ reference['where'] }}) and {% endif %}{{ column }} is not null
    and {{ column }} not in (
        select parent.{{ field }}
        from {{ reference['to'] }} as parent
        where parent.{{ field }} is not null
    )
{%- endmacro %}
