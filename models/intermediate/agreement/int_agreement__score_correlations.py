"""The correlations of `score_correlations`, one row per pair of scores of a dialogue
(`int_agreement__paired_scores`): Pearson's r and Spearman's ρ with their two-sided p-values, from
`agreement_core.maths.correlations` — the one implementation, which the judges' ρ uses too."""

import pandas as pd

from agreement_core.maths import correlations

PAIR = ["source", "scope", "question_a", "rating_kind_a", "question_b", "rating_kind_b"]
FIGURES = {
    "n_dialogues": "int64",
    "pearson_r": "float64",
    "pearson_p": "float64",
    "spearman_rho": "float64",
    "spearman_p": "float64",
}


def model(dbt, session):
    paired = dbt.ref("int_agreement__paired_scores").df()
    rows = [
        {**dict(zip(PAIR, pair)), "n_dialogues": len(scores), **pair_figures(scores)}
        for pair, scores in paired.dropna(subset=["score_a"]).groupby(PAIR, sort=True)
    ]
    pairs = paired[PAIR].drop_duplicates()
    figures = pd.DataFrame(rows, columns=PAIR + list(FIGURES))
    # every pair, those with no dialogue scored on both sides with n 0; "string", not object: without
    # DUO the frame is empty, and empty object columns reach DuckDB as INTEGER
    result = pairs.merge(figures, on=PAIR, how="left").astype({column: "string" for column in PAIR})
    result["n_dialogues"] = result["n_dialogues"].fillna(0)
    return result.astype(FIGURES)


def pair_figures(scores: pd.DataFrame) -> dict[str, float]:
    return correlations(scores["score_a"].to_numpy(float), scores["score_b"].to_numpy(float))
