"""What the bad-input tests (tests/*/test_bad_input_*.py) share: small releases written to order,
and `dwh` run as a user runs it, with a time limit."""

import csv
import hashlib
import io
import json
import os
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

from ingest.releases.dices_columns import COLUMNS_350
from sample_data.dices import write_dices_sample
from sample_data.duo import write_duo_sample
from sample_data.redial import CONVERSATION_391, generate_conversations
from tests.helpers import PROJECT_ROOT


def duo_release(root: Path, edit: Callable[[Path], None] | None = None) -> Path:
    write_duo_sample(root, seed=11)
    if edit:
        edit(root / "duo")
    return root / "duo"


def redial_folder(root: Path, train: bytes | None = None) -> Path:
    folder = root / "redial"
    folder.mkdir(parents=True)
    train_conversations, test_conversations = generate_conversations(6, 2, seed=3)
    default_train = "\n".join(json.dumps(c) for c in [CONVERSATION_391, *train_conversations]).encode() + b"\n"
    (folder / "train_data.jsonl").write_bytes(default_train if train is None else train)
    (folder / "test_data.jsonl").write_text("\n".join(json.dumps(c) for c in test_conversations) + "\n")
    return folder


def dices_csv(root: Path, header: list[str], mutate_rows: Callable[[list[list[str]]], None] | None = None) -> Path:
    """A small 350 file re-written with another header and / or altered rows."""
    written = write_dices_sample(root / "sample", seed=2, items_350=1, items_990=1)[0]
    rows = list(csv.reader(io.StringIO(written.read_text(encoding="utf-8"), newline="")))[1:]
    if mutate_rows:
        mutate_rows(rows)
    target = root / "dices.csv"
    with target.open("w", encoding="utf-8", newline="") as handle:
        csv.writer(handle, lineterminator="\n").writerows([header, *rows])
    return target


def write_text(path: Path, text: str | bytes) -> None:
    path.write_bytes(text if isinstance(text, bytes) else text.encode("utf-8"))


def run_dwh_with(env_overrides: dict[str, str], args: list[str]) -> subprocess.CompletedProcess:
    env = {**os.environ, **env_overrides}
    env.pop("DWH_DEBUG", None)
    return subprocess.run(
        [sys.executable, "-m", "dwh.cli", *args], cwd=PROJECT_ROOT, env=env, capture_output=True, text=True, check=False
    )


HOLDER = """
import duckdb, sys, time
con = duckdb.connect(sys.argv[1], read_only=sys.argv[2] == "read-only")
if sys.argv[2] == "read-write":
    con.execute("create table if not exists main.notebook_notes (note varchar)")
    con.execute("insert into main.notebook_notes values ('written while dwh ran')")
print("holding", flush=True)
sys.stdin.readline()  # hold the file until the test says so
if sys.argv[2] == "read-write":
    con.execute("insert into main.notebook_notes values ('written after dwh ran')")
con.close()
"""


def hold_open(db_path: Path, mode: str) -> subprocess.Popen:
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLDER, str(db_path), mode], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )
    assert holder.stdout.readline() == "holding\n"
    return holder


def release(holder: subprocess.Popen) -> None:
    holder.communicate("done\n", timeout=60)
    assert holder.returncode == 0


MOUNT = "/mnt"  # inside the private namespace only


def refused(output: str, cause: str) -> bool:
    """The step printed exactly one line, the folder error with `cause`, and exited 1."""
    return output.splitlines() == [output.splitlines()[0], "exit=1"] and output.startswith(folder_error(cause))


def folder_error(cause: str) -> str:
    return (
        f"dwh: error: {MOUNT}: the warehouse's folder {cause}; dwh ingest and dwh build write the new version "
        "beside warehouse.duckdb (about its size again): "
    )


def checksum(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def the_one_error(completed: subprocess.CompletedProcess) -> str:
    """The single line a refused command printed (ingest's `landing …` progress lines aside)."""
    lines = [line for line in completed.stderr.splitlines() if not line.startswith("landing ")]
    assert completed.returncode == 1 and len(lines) == 1, (completed.returncode, completed.stderr)
    return lines[0]


def run_dwh_in(args: list[str], db_path: Path, timeout: float = 120, umask: int | None = None, **popen) -> tuple:
    """`dwh args` against db_path with a time limit (a hang fails the test instead of stalling it)."""
    env = {**os.environ, "DWH_DB_PATH": str(db_path)}
    env.pop("DWH_DEBUG", None)
    return subprocess.run(
        [sys.executable, "-m", "dwh.cli", *args],
        cwd=PROJECT_ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
        preexec_fn=None if umask is None else (lambda: os.umask(umask)),  # noqa: PLW1509
        **popen,
    )


def ingest_args(releases: dict[str, Path]) -> list[str]:
    return ["ingest", *(arg for source, path in releases.items() for arg in (f"--{source}", str(path)))]


def copy_of(db_path: Path, folder: Path) -> Path:
    copied = folder / db_path.name
    shutil.copyfile(db_path, copied)
    return copied


def _a_rater_repeated_with_another_answer(rows: list[list[str]]) -> None:
    repeated = list(rows[0])
    repeated[COLUMNS_350.index("id")] = str(max(int(row[0]) for row in rows) + 1)
    answer = COLUMNS_350.index("Q_overall")
    repeated[answer] = "No" if rows[0][answer] != "No" else "Yes"
    rows.append(repeated)


def _listing(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir())


def _run_patched(patch: str, args: list[str], db_path: Path) -> subprocess.CompletedProcess:
    """`dwh args` in a subprocess whose Python first runs `patch` (to simulate what a test cannot
    provoke for real: a full disk, another process winning a race)."""
    env = {**os.environ, "DWH_DB_PATH": str(db_path)}
    env.pop("DWH_DEBUG", None)
    script = f"{patch}\nimport sys\nfrom dwh.cli import run\nsys.argv = ['dwh', *{args!r}]\nrun()\n"
    return subprocess.run(
        [sys.executable, "-c", script], cwd=PROJECT_ROOT, env=env, capture_output=True, text=True, timeout=300
    )


def _with_key_separator(conversation_id: str, movie_id: str) -> dict:
    """Conversation 391 under another id, with one movie (mentioned and answered) under another id."""
    old_movie = next(iter(CONVERSATION_391["movieMentions"]))
    rename = lambda mapping: {movie_id if k == old_movie else k: v for k, v in mapping.items()}  # noqa: E731
    return {
        **CONVERSATION_391,
        "conversationId": conversation_id,
        "movieMentions": rename(CONVERSATION_391["movieMentions"]),
        "respondentQuestions": rename(CONVERSATION_391["respondentQuestions"]),
    }
