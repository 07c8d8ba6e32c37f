"""The judges' figures, on the same maths as the humans': whom a judge is compared with and each
(judge, reference) pair's values (judge_references.py); a judge's xRR with each reference, the human
ceiling, its rank correlations and the groups it sides with (judges.py, `judge_agreement`); judge A
against judge B (judge_comparison.py, `judge_comparison`); whether a judge may replace a
perspective's raters (replacement.py, `judge_replacement`); and the floors below which a figure is
not drawn (judge_floors.py)."""
