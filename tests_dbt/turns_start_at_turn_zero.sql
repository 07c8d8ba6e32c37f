-- Every dialogue's turns start at turn_index 0 (the rule turn_index_sequential of turns_rules proves
-- that they then go up by one): one row per dialogue whose first turn has another index.
select
    dialogue_key,
    min(turn_index) as first_turn_index,
    count(*) as n_turns
from {{ ref('turns') }}
group by dialogue_key
having min(turn_index) <> 0
