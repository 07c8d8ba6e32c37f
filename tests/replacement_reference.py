"""The alternative annotator test (Calderon, Reichart & Dror, ACL 2025) written from the paper's
definition alone, with plain loops, scipy's `ttest_1samp` and scipy's Benjamini–Yekutieli
(`false_discovery_control`): the yardstick `agreement_core.judge_figures.replacement` and the
marts `judge_replacement` and `judge_replacement_raters` are checked against."""

import math
import warnings

import scipy.stats


def paper_alt_test(values: dict, judge: dict, level: str, epsilon: float, min_units: int) -> dict:
    """The alt-test as the paper defines it. `values[rater][unit]` the reference's values (positions
    1..K for ordinal questions), `judge[unit]` the judge's. Returns per tested rater (n_units,
    judge_advantage, rater_advantage, p_value, wins) and the reference's verdict."""
    raters_on = {}
    for rater, of_rater in values.items():
        for unit in of_rater:
            raters_on.setdefault(unit, []).append(rater)
    units = sorted(unit for unit, raters in raters_on.items() if len(raters) >= 2 and unit in judge)
    raters = sorted({rater for unit in units for rater in raters_on[unit]})
    tested = {}
    for h in raters:
        own_units = [unit for unit in units if unit in values[h]]
        if len(own_units) < min_units:
            continue
        d, judge_wins, rater_wins = [], [], []
        for unit in own_units:
            others = [values[o][unit] for o in raters if o != h and unit in values[o]]

            def score(x: float, others: list = others) -> float:
                if level == "nominal":
                    return sum(1 for o in others if o == x) / len(others)
                return -math.sqrt(sum((x - o) ** 2 for o in others) / len(others))

            w_judge = 1 if score(judge[unit]) >= score(values[h][unit]) else 0
            w_rater = 1 if score(values[h][unit]) >= score(judge[unit]) else 0
            d.append(w_rater - w_judge)
            judge_wins.append(w_judge)
            rater_wins.append(w_rater)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            p = scipy.stats.ttest_1samp(d, epsilon, alternative="less").pvalue
        tested[h] = {
            "n_units": len(own_units),
            "judge_advantage": sum(judge_wins) / len(own_units),
            "rater_advantage": sum(rater_wins) / len(own_units),
            "p_value": float(p),
        }
    family = [h for h in tested if not math.isnan(tested[h]["p_value"])]
    adjusted = (
        scipy.stats.false_discovery_control([tested[h]["p_value"] for h in family], method="by") if family else []
    )
    for h in tested:
        tested[h]["wins"] = False
    for h, q in zip(family, adjusted):
        tested[h]["wins"] = bool(q <= 0.05)
    verdict = {"n_units": len(units), "n_raters": len(raters), "n_raters_tested": len(tested)}
    if tested:
        rate = sum(t["wins"] for t in tested.values()) / len(tested)
        advantage = sum(t["judge_advantage"] for t in tested.values()) / len(tested)
        verdict |= {"winning_rate": rate, "advantage_probability": advantage, "replaces": rate >= 0.5}
    else:
        verdict |= {"winning_rate": None, "advantage_probability": None, "replaces": None}
    return {"raters": tested, "verdict": verdict}
