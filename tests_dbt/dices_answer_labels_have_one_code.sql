-- `int_agreement__dices_records` codes every question column's answers through one map from
-- label to code: a label of two question vocabularies must have the same code in both.
with

dices_questions as (

    select * from {{ ref('dices_questions') }}

),

dices_vocabularies as (

    select * from {{ ref('vocabularies') }}
    where source = 'dices'

)

select
    dices_vocabularies.label,
    count(distinct dices_vocabularies.code) as n_codes
from dices_vocabularies
semi join dices_questions on dices_vocabularies.vocabulary = dices_questions.answer_vocabulary
group by dices_vocabularies.label
having count(distinct dices_vocabularies.code) > 1
