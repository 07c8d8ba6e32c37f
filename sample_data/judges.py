"""The sample's judges: a few judges of known character, written as `dwh ingest --judges` reads them
(one CSV per judge in `judges/`), from the sample release just written, so that their keys are the
marts' keys (DUO `duo:<language>:<dialogue_id>`, DICES `dices<config>:<item_id>`, ReDial
`redial:<conversationId>`).

- judge_like_users: DUO, each dialogue's user score per metric plus small noise, clipped to 1–5;
- judge_like_annotators: DUO, the mean of the three annotators' scores plus small noise;
- judge_siding_with_women: DICES Q_overall, the plurality of the women raters' answers on each item;
- judge_like_seekers: ReDial liked, the seeker's own form answer, one in ten flipped;
- judge_random: uniform random scores and labels for every unit of those questions (DUO metrics,
  DICES Q_overall, ReDial liked and seen).

Everything is SQL over the release files with DuckDB (memory flat at any scale); the noise is a hash
of the sample's seed and the unit, so the same seed writes the same bytes.
"""

import shutil
import tempfile
import zipfile
from pathlib import Path

import duckdb

from common.database import memory_limit, sql_string
from common.outputs import replacing

JUDGES = ("judge_like_users", "judge_like_annotators", "judge_siding_with_women", "judge_like_seekers", "judge_random")
REDIAL_SPLITS = ("train_data.jsonl", "test_data.jsonl")
DICES_FILES = "dices/*/diverse_safety_adversarial_dialog_*.csv"


def judges_files(out_dir: Path) -> list[Path]:
    """The files `write_judges_sample` writes."""
    return [out_dir / "judges" / f"{judge}.csv" for judge in JUDGES]


def write_judges_sample(out_dir: Path, seed: int = 0) -> list[Path]:
    """Write `out_dir/judges/<judge>.csv` from the sample under `out_dir`; returns the files."""
    with tempfile.TemporaryDirectory(prefix="dwh-sample-judges-") as scratch:
        con = duckdb.connect(config={"memory_limit": memory_limit(), "temp_directory": str(Path(scratch) / "spill")})
        try:
            _units(con, out_dir, Path(scratch))
            written = []
            for judge, path in zip(JUDGES, judges_files(out_dir)):
                with replacing(path) as partial:
                    con.execute(
                        f"copy ({_JUDGE_SQL[judge].format(seed=int(seed))} order by dialogue_key, question, movie_id) "
                        f"to {sql_string(str(partial))} (format csv, header true)"
                    )
                written.append(path)
            return written
        finally:
            con.close()


def _units(con: duckdb.DuckDBPyConnection, out_dir: Path, scratch: Path) -> None:
    """What the judges read: DUO scores, DICES answers, ReDial seeker forms and form units, as temp tables."""
    duo = sql_string(str(out_dir / "duo" / "*" / "*" / "*.json"))
    con.execute(f"""
        create temp table duo_scores as
        with files as (
            select
                'duo:' || regexp_extract(filename, '([^/]+)/[^/]+\\.json$', 1) || ':'
                    || json_extract_string(content, '$.dialogue_id') as dialogue_key,
                json_extract(content, '$.subjective_evaluation') as subjective,
                json_extract(content, '$.objective_evaluation') as objective
            from read_text({duo})
        ),
        metrics as (
            select dialogue_key, subjective, objective, unnest(json_keys(subjective)) as question from files
        )
        select
            dialogue_key,
            question,
            json_extract(subjective, '$.' || question)::double as user_score,
            if(json_type(objective) = 'OBJECT',
               list_avg(json_extract(objective, '$.' || question || '_scores')::double[]), null) as annotator_mean
        from metrics
    """)
    con.execute(f"""
        create temp table dices_answers as
        select 'dices' || regexp_extract(filename, '_(\\d+)\\.csv$', 1) || ':' || item_id as dialogue_key,
            rater_gender, Q_overall as answer
        from read_csv({sql_string(str(out_dir / DICES_FILES))}, union_by_name = true, all_varchar = true,
            filename = true)
    """)
    _redial_forms(con, out_dir, scratch)


def _redial_forms(con: duckdb.DuckDBPyConnection, out_dir: Path, scratch: Path) -> None:
    """The ReDial zip's conversations, unpacked to `scratch` and read by DuckDB: each form's answers."""
    with zipfile.ZipFile(out_dir / "redial" / "redial_dataset.zip") as archive:
        for member in archive.namelist():
            if Path(member).name in REDIAL_SPLITS:
                with archive.open(member) as source, (scratch / Path(member).name).open("wb") as target:
                    shutil.copyfileobj(source, target)
    lines = sql_string(str(scratch / "*.jsonl"))
    con.execute(f"""
        create temp table redial_answers as
        with conversations as (
            select 'redial:' || json_extract_string(json, '$.conversationId') as dialogue_key,
                json_extract(json, '$.initiatorQuestions') as seeker_form,
                json_extract(json, '$.respondentQuestions') as recommender_form
            from read_json_objects({lines}, format = 'newline_delimited')
        ),
        forms as (
            select dialogue_key, 'seeker' as form, seeker_form as answers from conversations
            union all
            select dialogue_key, 'recommender', recommender_form from conversations
        ),
        movies as (
            select dialogue_key, form, answers, unnest(json_keys(answers)) as movie_id
            from forms where json_type(answers) = 'OBJECT'
        )
        select dialogue_key, form, movie_id, question,
            json_extract_string(answers, '$."' || movie_id || '".' || question) as answer
        from movies, (values ('liked'), ('seen')) as questions(question)
        where json_extract_string(answers, '$."' || movie_id || '".' || question) is not null
    """)


# a number in [0, 1) drawn from the seed and the unit (and what it is for)
UNIFORM = "(hash({seed}, {parts}) % 1000000) / 1000000.0"


def _uniform(parts: str) -> str:
    return UNIFORM.replace("{parts}", parts)


_JUDGE_SQL = {
    "judge_like_users": f"""
        select 'judge_like_users' as judge, dialogue_key, question, null as movie_id,
            round(greatest(1, least(5, user_score + {_uniform("dialogue_key, question, 'users'")} - 0.5)), 2) as value
        from duo_scores where user_score is not null""",
    "judge_like_annotators": f"""
        select 'judge_like_annotators' as judge, dialogue_key, question, null as movie_id,
            round(greatest(1, least(5, annotator_mean + 0.6 * {_uniform("dialogue_key, question, 'annotators'")}
                - 0.3)), 2) as value
        from duo_scores where annotator_mean is not null""",
    "judge_siding_with_women": """
        select 'judge_siding_with_women' as judge, dialogue_key, 'Q_overall' as question, null as movie_id,
            arg_max(answer, (votes, answer = 'Yes', answer = 'Unsure')) as value
        from (
            select dialogue_key, answer, count(*) as votes
            from dices_answers
            where rater_gender = 'Woman' and answer in ('Yes', 'No', 'Unsure')
            group by dialogue_key, answer
        )
        group by dialogue_key""",
    "judge_like_seekers": f"""
        select 'judge_like_seekers' as judge, dialogue_key, question, movie_id,
            if({_uniform("dialogue_key, movie_id, 'seekers'")} < 0.1, 1 - answer::integer, answer::integer)::varchar
                as value
        from redial_answers where form = 'seeker' and question = 'liked' and answer in ('0', '1')""",
    "judge_random": f"""
        select 'judge_random' as judge, dialogue_key, question, null as movie_id,
            round(1 + 4 * {_uniform("dialogue_key, question, 'random'")}, 2)::varchar as value
        from duo_scores
        union all
        select distinct 'judge_random', dialogue_key, 'Q_overall', null,
            ['Yes', 'No', 'Unsure'][1 + floor(3 * {_uniform("dialogue_key, 'random'")})::integer]
        from dices_answers
        union all
        select distinct 'judge_random', dialogue_key, question, movie_id,
            if({_uniform("dialogue_key, movie_id, question, 'random'")} < 0.5, '0', '1')
        from redial_answers""",
}
