-- The correlations of `score_correlations` (its p-values come from `int_agreement__correlation_p_values`):
-- how each score of a dialogue goes with every other, per scope, for the questions scored on an
-- interval scale (DUO's metrics, by its users and by its annotators). A dialogue's score on a
-- (question, rating kind) is the mean of its raters' values: the user's own score, or the mean
-- of the annotators' (not the rounded published mean). Pearson on the scores, Spearman as
-- Pearson on their ranks, tied scores sharing their mean rank.
with

judgements as (

    select * from {{ ref('int_agreement__judgements') }}
    where is_first and value_code is not null and not is_excluded

),

units as (

    select * from {{ ref('int_agreement__units') }}

),

questions as (

    select * from {{ ref('int_agreement__questions') }}
    where level_of_measurement = 'interval'

),

-- value codes are the scores of an interval question
dialogue_scores as (

    select
        questions.source,
        questions.scope,
        units.dialogue_key,
        questions.question,
        questions.rating_kind,
        avg(judgements.value_code) as score
    from judgements
    inner join units on judgements.unit_id = units.unit_id
    inner join questions on judgements.question_id = questions.question_id
    group by questions.source, questions.scope, units.dialogue_key, questions.question, questions.rating_kind

),

measures as (

    select distinct
        source,
        scope,
        question,
        rating_kind
    from dialogue_scores

),

measure_pairs as (

    select
        row_number() over () as pair_id,
        measure_a.source,
        measure_a.scope,
        measure_a.question as question_a,
        measure_a.rating_kind as rating_kind_a,
        measure_b.question as question_b,
        measure_b.rating_kind as rating_kind_b
    from measures as measure_a
    inner join measures as measure_b
        on
            measure_a.source = measure_b.source
            and measure_a.scope = measure_b.scope
            and (measure_a.question <> measure_b.question or measure_a.rating_kind <> measure_b.rating_kind)

),

paired_scores as (

    select
        measure_pairs.pair_id,
        measure_pairs.source,
        measure_pairs.scope,
        measure_pairs.question_a,
        measure_pairs.rating_kind_a,
        measure_pairs.question_b,
        measure_pairs.rating_kind_b,
        score_a.score as score_a,
        score_b.score as score_b
    from measure_pairs
    inner join dialogue_scores as score_a
        on
            measure_pairs.source = score_a.source
            and measure_pairs.scope = score_a.scope
            and measure_pairs.question_a = score_a.question
            and measure_pairs.rating_kind_a = score_a.rating_kind
    inner join dialogue_scores as score_b
        on
            score_a.dialogue_key = score_b.dialogue_key
            and measure_pairs.question_b = score_b.question
            and measure_pairs.rating_kind_b = score_b.rating_kind
    where score_a.score is not null and score_b.score is not null

),

-- average ranks: the lowest rank of a tie plus half the tie's width
ranked as (

    select
        *,
        rank() over pair_by_a + (count(*) over (partition by pair_id, score_a) - 1) / 2 as rank_a,
        rank() over pair_by_b + (count(*) over (partition by pair_id, score_b) - 1) / 2 as rank_b
    from paired_scores
    window
        pair_by_a as (partition by pair_id order by score_a),
        pair_by_b as (partition by pair_id order by score_b)

),

correlated as (

    select
        source,
        scope,
        question_a,
        rating_kind_a,
        question_b,
        rating_kind_b,
        count(*) as n_dialogues,
        count(distinct score_a) > 1 and count(distinct score_b) > 1 as both_vary,
        corr(score_a, score_b) as pearson_r,
        corr(rank_a, rank_b) as spearman_rho
    from ranked
    group by all

),

final as (

    select
        measure_pairs.source,
        measure_pairs.scope,
        measure_pairs.question_a,
        measure_pairs.rating_kind_a,
        measure_pairs.question_b,
        measure_pairs.rating_kind_b,
        coalesce(correlated.n_dialogues, 0) as n_dialogues,
        case when correlated.both_vary then correlated.pearson_r end as pearson_r,
        case when correlated.both_vary then correlated.spearman_rho end as spearman_rho
    from measure_pairs
    left join correlated
        on
            measure_pairs.source = correlated.source
            and measure_pairs.scope = correlated.scope
            and measure_pairs.question_a = correlated.question_a
            and measure_pairs.rating_kind_a = correlated.rating_kind_a
            and measure_pairs.question_b = correlated.question_b
            and measure_pairs.rating_kind_b = correlated.rating_kind_b

)

select * from final
