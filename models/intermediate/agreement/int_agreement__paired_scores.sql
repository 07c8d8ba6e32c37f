-- What `score_correlations` correlates: every ordered pair of different scores of a dialogue, per
-- scope, for the questions scored on an interval scale (DUO's metrics, by its users and by its
-- annotators), one row per (pair, dialogue with both scores); a pair with no such dialogue has one
-- row with null scores. A dialogue's score on a (question, rating kind) is the mean of its raters'
-- values: the user's own score, or the mean of the annotators' (not the rounded published mean).
-- The correlations: `int_agreement__score_correlations` (`agreement_core.maths.correlations`).
with

judgements as (

    select * from {{ ref('int_agreement__judgements') }}
    where is_first and value_code is not null and not is_excluded and not is_judge

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

final as (

    select
        measure_pairs.pair_id,
        measure_pairs.source,
        measure_pairs.scope,
        measure_pairs.question_a,
        measure_pairs.rating_kind_a,
        measure_pairs.question_b,
        measure_pairs.rating_kind_b,
        paired_scores.score_a,
        paired_scores.score_b
    from measure_pairs
    left join paired_scores on measure_pairs.pair_id = paired_scores.pair_id

)

select * from final
