"""`dwh recipe`: the real ConvAbuse and MultiPICo releases (../shared/data, read in place; skipped
where absent) turned into dataset folders that `dwh ingest --dataset` lands whole, every count
checked against the release itself; a wrong SRC is one line."""

import json
import shutil
from pathlib import Path

import duckdb
import pytest
import yaml

from ingest.recipes.convabuse import FILE, SECONDARY
from tests.bad_input import the_one_error
from tests.helpers import PROJECT_ROOT, query, run_dwh_in_this_process

SHARED_DATA = PROJECT_ROOT.parent / "shared" / "data"
CONVABUSE = SHARED_DATA / "convabuse"
MULTIPICO = SHARED_DATA / "multipico"
SEVERITY_COLUMNS = ("is_abuse.1", "is_abuse.0", "is_abuse.-1", "is_abuse.-2", "is_abuse.-3")


def release(folder: Path) -> Path:
    if not folder.is_dir():
        pytest.skip(f"the real release is not at {folder} (only the project's CI machine has it)")
    return folder


def recipe_and_ingest(name: str, src: Path, tmp_path: Path) -> tuple[Path, Path, str]:
    """The recipe's folder, the warehouse it was ingested into, and the ingest's output."""
    out, db_path = tmp_path / name, tmp_path / "warehouse.duckdb"
    written = run_dwh_in_this_process(["recipe", name, str(src), str(out)], db_path, check=True)
    assert written.stdout.splitlines()[-1] == f"recipe {name}: load it with dwh ingest --dataset {out}"
    landed = run_dwh_in_this_process(["ingest", "--dataset", str(out)], db_path, check=True)
    return out, db_path, landed.stdout


@pytest.mark.real_data
def test_convabuse_becomes_a_dataset_that_lands_whole(tmp_path: Path) -> None:
    src = release(CONVABUSE)
    out, db_path, output = recipe_and_ingest("convabuse", src, tmp_path)

    with duckdb.connect() as con:
        con.execute(
            f"create table rows as select * from read_csv('{src / 'ConvAbuseEMNLPfull.csv'}', all_varchar = true)"
        )
        rows, items, annotators, abusive = con.execute(
            'select count(*), count(distinct (conv_id, prev_agent, prev_user, agent, "user")), '
            "count(distinct annotator_id), count(*) filter (where \"is_abuse.-1\" = '1' or \"is_abuse.-2\" = '1' "
            "or \"is_abuse.-3\" = '1') from rows"
        ).fetchone()
        labels = " ".join(f"when \"{column}\" then '{column[9:]}'" for column in SEVERITY_COLUMNS)
        severities = dict(
            con.execute(
                f"select label, count(*) from (select case '1' {labels} end as label from rows) group by all"
            ).fetchall()
        )
        repeats = con.execute(
            'select count(*) - count(distinct (conv_id, prev_agent, prev_user, agent, "user", annotator_id)) from rows'
        ).fetchone()[0]
    secondary = 12  # 7 types, 3 targets, 2 directions
    assert query(db_path, "select count(*) from raw.ingest_rejects") == [(0,)]
    assert query(db_path, "select count(*) from raw.dataset_units") == [(items,)]
    assert query(db_path, "select count(*), count(*) filter (where rater_kind = 'expert') from raw.dataset_raters") == [
        (annotators, annotators)
    ]
    assert query(
        db_path,
        "select count(*) filter (where not is_missing), count(*) filter (where is_missing) from raw.dataset_judgements",
    ) == [(rows + secondary * abusive, secondary * (rows - abusive))]
    assert (
        dict(
            query(
                db_path, "select value, count(*) from raw.dataset_judgements where question = 'severity' group by all"
            )
        )
        == severities
    )
    assert query(
        db_path, "select count(*) from raw.dataset_judgements where question = 'severity' and round_rank > 1"
    ) == [(repeats,)]
    assert query(db_path, "select labels from raw.dataset_questions where question = 'severity'") == [
        (["-3", "-2", "-1", "0", "1"],)
    ]
    assert f"dataset convabuse: {rows + secondary * abusive:,} judgement(s), " in output
    manifest = yaml.safe_load((out / "dataset.yml").read_text())
    assert (manifest["license"], manifest["url"]) == ("CC BY 4.0", "https://github.com/amandacurry/convabuse")
    assert "Cercas Curry, Amanda" in manifest["citation"]
    first_unit = json.loads((out / "units.jsonl").read_text().splitlines()[0])
    assert [turn["speaker_role"] for turn in first_unit["turns"]] == ["agent", "user", "agent", "user"]


@pytest.mark.real_data
def test_multipico_becomes_a_dataset_with_every_annotator_attribute_a_dimension(tmp_path: Path) -> None:
    src = release(MULTIPICO)
    out, db_path, output = recipe_and_ingest("multipico", src, tmp_path)

    splits = {split: json.loads((src / f"MP_{split}.json").read_text()) for split in ("dev", "test")}
    meta = json.loads((src / "MP_annotators_meta.json").read_text())
    judgements = sum(len(item["annotations"]) for items in splits.values() for item in items.values())
    young = sum(1 for person in meta.values() if person["Age"] == person["Age"] and 18 <= person["Age"] < 25)
    no_answer = sum(
        1 for person in meta.values() for value in person.values() if value in ("DATA_EXPIRED", "Prefer not to say")
    )
    assert query(db_path, "select count(*) from raw.ingest_rejects") == [(0,)]
    assert query(db_path, "select count(*), count(distinct language) from raw.dataset_units") == [
        (sum(len(items) for items in splits.values()), 9)
    ]
    assert query(db_path, "select unit_id from raw.dataset_units order by line_number limit 1") == [
        (f"dev:{next(iter(splits['dev']))}",)
    ]
    assert query(db_path, "select count(*), count(distinct rater_id) from raw.dataset_judgements") == [
        (judgements, len(meta))
    ]
    assert query(db_path, "select count(*) from raw.dataset_raters") == [(len(meta),)]
    assert query(db_path, "select dimensions from raw.dataset_manifests") == [
        (
            [
                "age",
                "gender",
                "ethnicity",
                "country_of_birth",
                "country_of_residence",
                "nationality",
                "student_status",
                "employment_status",
            ],
        )
    ]
    banded = query(
        db_path,
        "select count(*) from raw.dataset_rater_attributes as a inner join raw.dataset_bins as b "
        "on a.attribute = b.attribute and b.band = '18-24' "
        "and try_cast(a.value as double) between b.lower and b.upper - 1",
    )
    assert banded == [(young,)]
    assert query(
        db_path,
        "select count(*) from raw.dataset_rater_attributes where value in ('DATA_EXPIRED', 'Prefer not to say')",
    ) == [(no_answer,)]
    assert query(
        db_path,
        "select count(*) from raw.dataset_rater_attributes where value in ('DATA_EXPIRED', 'Prefer not to say') "
        "and not is_missing",
    ) == [(0,)]
    assert "no row in raters.csv" not in output  # every annotator of this release has metadata


@pytest.mark.real_data
def test_multipico_annotators_without_metadata_are_named_by_the_ingest(tmp_path: Path) -> None:
    src = tmp_path / "release"
    shutil.copytree(release(MULTIPICO), src, ignore=shutil.ignore_patterns("SOURCE.md"))
    meta = json.loads((src / "MP_annotators_meta.json").read_text())
    for key in ("0", "1", "2"):
        del meta[key]
    (src / "MP_annotators_meta.json").chmod(0o644)
    (src / "MP_annotators_meta.json").write_text(json.dumps(meta))

    _, db_path, output = recipe_and_ingest("multipico", src, tmp_path)

    assert (
        "dataset multipico: 3 rater(s) of the judgements have no row in raters.csv and load without attributes: "
        "Ann0, Ann1, Ann2"
    ) in output.splitlines()
    assert query(db_path, "select count(*) from raw.dataset_rater_attributes where rater_id = 'Ann0'") == [(0,)]


def test_a_recipe_given_a_wrong_src_is_one_line(tmp_path: Path) -> None:
    db_path, out = tmp_path / "unused.duckdb", tmp_path / "out"
    (tmp_path / "empty").mkdir()
    answers = {
        ("convabuse", tmp_path / "empty"): (
            f"dwh: error: {tmp_path / 'empty'}: no ConvAbuseEMNLPfull.csv; give the folder holding ConvAbuse's "
            "ConvAbuseEMNLPfull.csv"
        ),
        ("multipico", tmp_path / "nowhere"): (
            f"dwh: error: {tmp_path / 'nowhere'}: not a folder; give the folder holding MultiPICo (LeWiDi 2025)'s "
            "MP_dev.json, MP_test.json, MP_annotators_meta.json"
        ),
        ("chatbot", tmp_path / "empty"): (
            "dwh: error: no recipe 'chatbot'; the recipes are convabuse, lewidi, multipico (dwh recipe --list)"
        ),
    }
    for (name, src), answer in answers.items():
        assert the_one_error(run_dwh_in_this_process(["recipe", name, str(src), str(out)], db_path)) == answer
    assert not out.exists()


def test_a_convabuse_file_without_its_columns_is_one_line_and_writes_nothing(tmp_path: Path) -> None:
    src = tmp_path / "release"
    src.mkdir()
    (src / "ConvAbuseEMNLPfull.csv").write_text("example_no,annotator_id,conv_id\n0,Annotator1,1\n")
    completed = run_dwh_in_this_process(
        ["recipe", "convabuse", str(src), str(tmp_path / "out")], tmp_path / "unused.duckdb"
    )
    assert the_one_error(completed) == (
        f"dwh: error: {src / 'ConvAbuseEMNLPfull.csv'}: no column 'prev_agent'; not ConvAbuse's "
        "ConvAbuseEMNLPfull.csv as published"
    )
    assert sorted(path.name for path in tmp_path.iterdir()) == ["release"]  # no partial folder left


@pytest.mark.real_data
def test_convabuse_one_hot_cells_written_as_floats_give_the_same_dataset(tmp_path: Path) -> None:
    """A pandas round trip writes the one-hot 0/1 cells as `0.0` / `1.0`: they were read as text, and
    every judgement came out missing. The recipe reads them as numbers."""
    src = release(CONVABUSE)
    floats = tmp_path / "floats"
    floats.mkdir()
    one_hot = [*SEVERITY_COLUMNS, *SECONDARY]
    with duckdb.connect() as con:
        con.execute(f"create table rows as select * from read_csv('{src / FILE}', all_varchar = true)")
        for column in one_hot:
            con.execute(f"""update rows set "{column}" = "{column}" || '.0' where "{column}" in ('0', '1')""")
        con.execute(f"copy rows to '{floats / FILE}' (format csv, header true)")
    as_published = run_dwh_in_this_process(
        ["recipe", "convabuse", str(src), str(tmp_path / "a")], tmp_path / "a.duckdb", check=True
    )
    as_floats = run_dwh_in_this_process(
        ["recipe", "convabuse", str(floats), str(tmp_path / "b")], tmp_path / "b.duckdb", check=True
    )
    assert as_published.returncode == as_floats.returncode == 0
    published = (tmp_path / "a" / "judgements.csv").read_text()
    assert (tmp_path / "b" / "judgements.csv").read_text() == published
    assert published.count(",1,") > 100  # the secondary questions' 1s are there, as labels


def test_a_convabuse_file_without_any_judgement_is_one_line_and_writes_nothing(tmp_path: Path) -> None:
    src = tmp_path / "release"
    src.mkdir()
    header = ["example_no", "annotator_id", "conv_id", "prev_agent", "prev_user", "agent", "user", "bot"]
    header += [*SEVERITY_COLUMNS, *SECONDARY]
    row = ["0", "Annotator1", "1", "hi", "hello", "how can I help", "you cannot", "E.L.I.Z.A."]
    row += ["0"] * (len(SEVERITY_COLUMNS) + len(SECONDARY))
    (src / FILE).write_text(",".join(header) + "\n" + ",".join(row) + "\n")
    completed = run_dwh_in_this_process(
        ["recipe", "convabuse", str(src), str(tmp_path / "out")], tmp_path / "unused.duckdb"
    )
    assert the_one_error(completed) == (
        f"dwh: error: {src / FILE}: no judgement: no row has a 1 in any of is_abuse.-3, is_abuse.-2, is_abuse.-1, "
        "is_abuse.0, is_abuse.1; not ConvAbuse's ConvAbuseEMNLPfull.csv as published"
    )
    assert sorted(path.name for path in tmp_path.iterdir()) == ["release"]  # no partial folder left


def test_recipe_list_names_every_recipe(tmp_path: Path) -> None:
    completed = run_dwh_in_this_process(["recipe", "--list"], tmp_path / "unused.duckdb", check=True)
    assert [line.split()[0] for line in completed.stdout.splitlines()] == ["convabuse", "lewidi", "multipico"]
