-- The agreement vars of this build, one row as text: what every Python model's Monte Carlo follows
-- (`agreement_core.settings` reads and checks them; `dwh build` checks them before dbt starts).
-- One place for the vars, so that no Python model names them one by one in its config.
select
    $${{ var('agreement_seed') }}$$ as agreement_seed,
    $${{ var('agreement_bootstrap') }}$$ as agreement_bootstrap,
    $${{ var('agreement_permutations') }}$$ as agreement_permutations,
    $${{ var('agreement_monte_carlo') }}$$ as agreement_monte_carlo,
    $${{ var('agreement_monte_carlo_questions') }}$$ as agreement_monte_carlo_questions,
    $${{ var('alt_test_epsilon') }}$$ as alt_test_epsilon,
    $${{ var('alt_test_min_units') }}$$ as alt_test_min_units
