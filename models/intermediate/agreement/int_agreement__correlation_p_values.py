"""The two-sided p-values of `score_correlations`' Pearson r and Spearman ρ, one row per pair of
scores: Student's t with n − 2 degrees of freedom, as scipy.stats.pearsonr / spearmanr give them
(`agreement_core.maths.correlation_p_value`). DuckDB has no t distribution, hence Python."""

from agreement_core.maths import correlation_p_value

PAIR = ["source", "scope", "question_a", "rating_kind_a", "question_b", "rating_kind_b"]


def model(dbt, session):
    correlations = dbt.ref("int_agreement__score_correlations").df()
    # "string", not object: without DUO the frame is empty, and empty object columns reach DuckDB as INTEGER
    p_values = correlations[PAIR].astype("string")
    p_values["pearson_p"] = correlation_p_value(correlations["pearson_r"], correlations["n_dialogues"])
    p_values["spearman_p"] = correlation_p_value(correlations["spearman_rho"], correlations["n_dialogues"])
    return p_values.astype({"pearson_p": "float64", "spearman_p": "float64"})
