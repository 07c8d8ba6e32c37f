"""A warehouse folder on a read-only or a full file system: one line naming the folder and the
cause, a non-zero exit, the live file as it was and no staged leftovers (`.next`, its WAL or
checkpoint WAL, `.failed`).

Each case mounts a small tmpfs in a private user and mount namespace (`unshare -rm`, no root
needed), so the real disk is never filled."""

import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import PROJECT_ROOT

MOUNT = "/mnt"  # inside the private namespace only


def unshare_available() -> bool:
    if not shutil.which("unshare"):
        return False
    probe = subprocess.run(["unshare", "-rm", "mount", "-t", "tmpfs", "tmpfs", MOUNT], capture_output=True, check=False)
    return probe.returncode == 0


pytestmark = pytest.mark.skipif(
    not unshare_available(), reason="needs `unshare -rm` (user namespaces) to mount a small tmpfs"
)


def in_small_mount(size: str, steps: list[str], tmp_path: Path) -> list[str]:
    """Run `steps` (shell lines; `dwh` is the project's command on $MOUNT/warehouse.duckdb) on a fresh
    tmpfs of `size`; returns the output of each step (stdout and stderr, without progress lines, then
    `exit=N`), then the listing of the mount."""
    dwh = f"DWH_DB_PATH={MOUNT}/warehouse.duckdb {shlex.quote(sys.executable)} -m dwh.cli"
    script = [f"mount -t tmpfs -o size={size} tmpfs {MOUNT} || exit 99", f"cd {shlex.quote(str(PROJECT_ROOT))}"]
    for step in steps:
        script += [
            step.replace("dwh ", dwh + " ", 1) + " 2>&1 | grep -v '^landing '; echo \"exit=${PIPESTATUS[0]}\"",
            "echo '@@'",
        ]
    script.append(f"ls -A {MOUNT}")
    (tmp_path / "steps.sh").write_text("\n".join(script) + "\n", encoding="utf-8")
    ran = subprocess.run(
        ["unshare", "-rm", "bash", str(tmp_path / "steps.sh")], capture_output=True, text=True, timeout=600, check=False
    )
    assert ran.returncode == 0, ran.stdout + ran.stderr
    return [part.strip() for part in ran.stdout.split("@@")]


def refused(output: str, cause: str) -> bool:
    """The step printed exactly one line, the folder error with `cause`, and exited 1."""
    return output.splitlines() == [output.splitlines()[0], "exit=1"] and output.startswith(folder_error(cause))


def folder_error(cause: str) -> str:
    return (
        f"dwh: error: {MOUNT}: the warehouse's folder {cause}; dwh ingest and dwh build write the new version "
        "beside warehouse.duckdb (about its size again): "
    )


def test_disk_full_during_the_first_ingest(real_duo: Path, tmp_path: Path) -> None:
    ingest, listing = in_small_mount("2m", [f"dwh ingest --duo {real_duo}"], tmp_path)
    assert refused(ingest, "has no space left on device"), ingest
    assert listing.split() == ["warehouse.duckdb.lock"]


def test_disk_full_while_copying_the_live_warehouse(real_duo: Path, tmp_path: Path) -> None:
    # after the first load, a filler leaves 1 MB: the ~4 MB warehouse cannot be copied to `.next`
    fill = f"fallocate -l $(( $(df --output=avail -B1 {MOUNT} | tail -1) - 1048576 )) {MOUNT}/filler; echo filled"
    first, _, second, listing = in_small_mount(
        "64m", [f"dwh ingest --duo {real_duo}", fill, f"dwh ingest --duo {real_duo}"], tmp_path
    )
    assert first.splitlines()[-1] == "exit=0"
    assert refused(second, "has no space left on device"), second
    assert sorted(listing.split()) == ["filler", "warehouse.duckdb", "warehouse.duckdb.lock"]


def test_disk_full_during_a_build_names_the_cause_and_keeps_no_failed_copy(real_duo: Path, tmp_path: Path) -> None:
    ingest, build, summary, listing = in_small_mount(
        "10m", [f"dwh ingest --duo {real_duo}", "dwh build", "dwh summary"], tmp_path
    )
    assert ingest.splitlines()[-1] == "exit=0"
    # the models it stopped are listed with DuckDB's message, then the cause in one line, last
    assert build.splitlines()[-2].startswith(folder_error("has no space left on device")), build
    assert build.splitlines()[-1] == "exit=1" and sum(line.startswith("dwh: ") for line in build.splitlines()) == 1
    assert "write-ahead log" not in build and "Traceback" not in build
    assert sorted(listing.split()) == ["warehouse.duckdb", "warehouse.duckdb.lock"]
    assert "not built yet" in summary  # the live file is still the ingested one, unbuilt


def test_a_read_only_warehouse_folder_is_refused_and_still_read(real_duo: Path, tmp_path: Path) -> None:
    steps = [
        f"dwh ingest --duo {real_duo}",
        "dwh build",
        f"mount -o remount,ro {MOUNT}; echo remounted",
        f"dwh ingest --duo {real_duo}",
        "dwh build",
        "dwh summary",
    ]
    ingest, build, _, ingest_again, build_again, summary, listing = in_small_mount("64m", steps, tmp_path)
    assert ingest.splitlines()[-1] == build.splitlines()[-1] == "exit=0"
    for answer in (ingest_again, build_again):
        assert refused(answer, "is on a read-only file system"), answer
    assert summary.splitlines()[-1] == "exit=0"  # reading needs no writing
    assert sorted(listing.split()) == ["warehouse.duckdb", "warehouse.duckdb.lock"]
