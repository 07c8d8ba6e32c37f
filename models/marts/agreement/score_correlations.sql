-- DUO: how each score of a dialogue goes with every other, per language and setting. A
-- dialogue's subjective score is its user's; its objective score the mean of its annotators'
-- scores (not the rounded published mean). Pearson on the values, Spearman as Pearson on their
-- ranks, tied values sharing their mean rank.
with

ratings as (

    select * from {{ ref('ratings') }}
    where source = 'duo' and rating_kind in ('subjective', 'objective')

),

dialogues as (

    select * from {{ ref('dialogues') }}

),

dialogue_scores as (

    select
        dialogues.language || ':' || dialogues.setting as scope,
        ratings.dialogue_key,
        ratings.question,
        ratings.rating_kind,
        avg(ratings.value_numeric) as score
    from ratings
    inner join dialogues on ratings.dialogue_key = dialogues.dialogue_key
    group by all

),

measures as (

    select distinct
        scope,
        question,
        rating_kind
    from dialogue_scores

),

measure_pairs as (

    select
        measure_a.scope,
        measure_a.question as question_a,
        measure_a.rating_kind as rating_kind_a,
        measure_b.question as question_b,
        measure_b.rating_kind as rating_kind_b
    from measures as measure_a
    inner join measures as measure_b
        on
            measure_a.scope = measure_b.scope
            and (measure_a.question <> measure_b.question or measure_a.rating_kind <> measure_b.rating_kind)

),

paired_scores as (

    select
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
            measure_pairs.scope = score_a.scope
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
        rank() over pair_by_a
        + (count(*) over (partition by scope, question_a, rating_kind_a, question_b, rating_kind_b, score_a) - 1)
        / 2 as rank_a,
        rank() over pair_by_b
        + (count(*) over (partition by scope, question_a, rating_kind_a, question_b, rating_kind_b, score_b) - 1)
        / 2 as rank_b
    from paired_scores
    window
        pair_by_a as (partition by scope, question_a, rating_kind_a, question_b, rating_kind_b order by score_a),
        pair_by_b as (partition by scope, question_a, rating_kind_a, question_b, rating_kind_b order by score_b)

),

correlated as (

    select
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
        'duo' as source,
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
            measure_pairs.scope = correlated.scope
            and measure_pairs.question_a = correlated.question_a
            and measure_pairs.rating_kind_a = correlated.rating_kind_a
            and measure_pairs.question_b = correlated.question_b
            and measure_pairs.rating_kind_b = correlated.rating_kind_b

)

select * from final
