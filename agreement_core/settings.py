"""The dbt vars of the agreement figures' Monte Carlo, checked: `dwh build` checks them before dbt
starts (one line naming the var and what to give), and the dbt Python models read them the same way."""

import ast
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import pandas
from dataclasses import dataclass
from fnmatch import fnmatchcase

VARS = (
    "agreement_seed",
    "agreement_bootstrap",
    "agreement_permutations",
    "agreement_monte_carlo",
    "agreement_monte_carlo_questions",
)


class SettingsError(ValueError):
    """A var of the agreement figures that cannot be used; the message says which and what to give."""


@dataclass(frozen=True)
class MonteCarloSettings:
    enabled: bool
    seed: int
    n_bootstrap: int
    n_permutations: int
    # glob patterns over "<source>/<scope>/<question>": the questions the figures are computed for
    questions: tuple[str, ...]

    def wants(self, source: str, scope: str, question: str) -> bool:
        return self.enabled and any(fnmatchcase(f"{source}/{scope}/{question}", p) for p in self.questions)

    def draws_of(self, source: str, scope: str, question: str) -> tuple[int, int, int] | None:
        """What the question's Monte Carlo draws with (seed, draws, shuffles), None where it gets
        none: what of the settings its figures depend on (their fingerprint, `agreement_core.memo`)."""
        if not self.wants(source, scope, question):
            return None
        return (self.seed, self.n_bootstrap, self.n_permutations)

    def unmatched(self, questions: Iterable[tuple[str, str]]) -> list[str]:
        """The patterns that match none of the given (source, question), whatever the scope."""
        questions = list(questions)
        return [pattern for pattern in self.questions if not any(_matches(pattern, s, q) for s, q in questions)]

    @classmethod
    def from_frame(cls, frame: "pandas.DataFrame") -> "MonteCarloSettings":
        """From the one row of `int_agreement__settings` (the vars as text)."""
        return cls.from_vars(frame.iloc[0].to_dict())

    @classmethod
    def from_vars(cls, values: Mapping[str, object]) -> "MonteCarloSettings":
        """From the vars' values, as dbt gives them (a Python model's config holds them as text)."""
        return cls(
            enabled=enabled(values["agreement_monte_carlo"]),
            seed=seed(values["agreement_seed"]),
            n_bootstrap=n_draws("agreement_bootstrap", values["agreement_bootstrap"]),
            n_permutations=n_draws("agreement_permutations", values["agreement_permutations"]),
            questions=_patterns(values["agreement_monte_carlo_questions"]),
        )


def _matches(pattern: str, source: str, question: str) -> bool:
    """Whether `pattern` can match `<source>/<scope>/<question>` for some scope."""
    parts = pattern.split("/")
    if len(parts) == 3:
        return fnmatchcase(source, parts[0]) and fnmatchcase(question, parts[2])
    return fnmatchcase(f"{source}/*/{question}", pattern)


def seed(value: object) -> int:
    return _whole_number("agreement_seed", value, least=0)


def n_draws(name: str, value: object) -> int:
    return _whole_number(name, value, least=1)


def enabled(value: object) -> bool:
    text = str(value).strip().lower()
    if text not in ("true", "false"):
        raise SettingsError(f"var agreement_monte_carlo: {value!r} is not true or false")
    return text == "true"


def _whole_number(name: str, value: object, least: int) -> int:
    text = str(value).strip()
    if isinstance(value, bool) or not text.lstrip("-").isdigit() or int(text) < least:
        raise SettingsError(f"var {name}: {value!r} is not a whole number of at least {least}")
    return int(text)


def _patterns(value: object) -> tuple[str, ...]:
    """A list of patterns, or one pattern; a list given as text on the command line is read as one."""
    if isinstance(value, str):
        text = value.strip()
        try:
            value = ast.literal_eval(text) if text.startswith("[") else [text]
        except (ValueError, SyntaxError):
            value = None
    if not isinstance(value, (list, tuple)) or not value or not all(isinstance(p, str) and p.strip() for p in value):
        raise SettingsError(
            "var agreement_monte_carlo_questions: give a non-empty list of '<source>/<scope>/<question>' "
            "patterns, e.g. ['*'] or ['dices/*/Q_overall']"
        )
    return tuple(pattern.strip() for pattern in value)


# ------------------------------------------------------------------------- the replacement test

REPLACEMENT_VARS = ("alt_test_epsilon", "alt_test_min_units")


def alt_test_epsilon(value: object, where: str) -> float | None:
    """The alt-test's margin ε as given (a number in [0, 1)), None where none is given (nothing,
    `None` as dbt renders a null var, or an empty text); `where` names what gave it in the message:
    "var alt_test_epsilon", "<folder>/dataset.yml"."""
    if value is None or isinstance(value, str) and value.strip() in ("", "None", "none", "null", "~"):
        return None
    try:
        number = float(str(value).strip()) if not isinstance(value, bool) else None
    except ValueError:
        number = None
    if number is None or not 0 <= number < 1:
        raise SettingsError(f"{where}: alt_test_epsilon {value!r} is not a number in [0, 1) (e.g. 0.1, 0.2)")
    return number


def alt_test_min_units(value: object) -> int:
    """The var `alt_test_min_units`: the units a rater needs to be tested, a whole number of at least 2."""
    return _whole_number("alt_test_min_units", value, least=2)


def dataset_alt_test_epsilon(manifest_text: str, where: str) -> float | None:
    """`alt_test_epsilon` of a dataset.yml as loaded (its text), checked as `alt_test_epsilon`."""
    import yaml

    fields = yaml.safe_load(manifest_text) or {}
    return alt_test_epsilon(fields.get("alt_test_epsilon") if isinstance(fields, dict) else None, where)
