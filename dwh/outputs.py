"""Where `dwh report`, `dwh export` and `dwh sample` may write: checked before any work starts.

None of them ever replaces what the user did not ask to replace: the warehouse and the files a
writer keeps beside it, anything that is not a regular file (a device node, a FIFO), a file that is
not the command's own earlier output, or a folder that already holds files. Each refusal is one
line naming the path.
"""

import os
from pathlib import Path

from ingest.errors import DwhError

# the files `dwh ingest` and `dwh build` keep beside the warehouse (dwh.publish)
WAREHOUSE_COMPANIONS = (".next", ".failed", ".wal", ".lock", ".next.wal", ".failed.wal", ".wal.checkpoint")


def warehouse_files(db_path: Path) -> set[Path]:
    """The warehouse and its companions, resolved."""
    resolved = db_path.resolve()
    return {resolved, *(resolved.with_name(resolved.name + suffix) for suffix in WAREHOUSE_COMPANIONS)}


def refuse_warehouse_files(out: Path, db_path: Path, command: str) -> None:
    """`out` must not be the warehouse (DWH_DB_PATH) or a file kept beside it."""
    if out.resolve() in warehouse_files(db_path):
        raise DwhError(
            f"{out}: is the warehouse (DWH_DB_PATH) or a file dwh keeps beside it; {command} never replaces it: "
            "choose another path"
        )


def refuse_non_regular_file(out: Path, command: str) -> None:
    """A folder, device node, FIFO or socket at `out` is never replaced by a file."""
    if out.is_dir():
        raise DwhError(f"{out}: is a folder; {command} writes one file: name it, e.g. {out / 'report.html'}")
    if out.exists() and not out.is_file():
        raise DwhError(f"{out}: is not a regular file (a device, FIFO or socket); {command} never replaces it")


def check_writable_file(out: Path) -> Path:
    """Create `out`'s folder and a `<out>.partial` beside it, now, so that a place that cannot be
    written is said before the work; returns the partial file, which the caller fills and renames."""
    partial = out.with_name(out.name + ".partial")
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        partial.touch()
    except OSError as exc:
        raise DwhError(f"{out}: cannot be written there ({exc.strerror or exc})") from exc
    return partial


def check_export_folder(out_dir: Path, db_path: Path) -> Path:
    """The folder an export goes to: absent or empty, never the warehouse; a symbolic link to an
    empty folder stands for that folder. Returns the path to write (the link resolved)."""
    refuse_warehouse_files(out_dir, db_path, "dwh export")
    if out_dir.is_symlink() and out_dir.is_dir():
        out_dir = out_dir.resolve()
    if out_dir.exists() and (not out_dir.is_dir() or any(out_dir.iterdir())):
        raise DwhError(f"{out_dir}: already exists and is not an empty folder; choose a new export folder")
    try:
        out_dir.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise DwhError(f"{out_dir}: cannot create the export folder there ({exc.strerror or exc})") from exc
    if not os.access(out_dir.parent, os.W_OK | os.X_OK):
        raise DwhError(f"{out_dir}: cannot create the export folder there (its folder is not writable)")
    return out_dir


def readable_by_umask(folder: Path) -> None:
    """Give a folder made private by `tempfile.mkdtemp` (0700) the mode the user's umask gives new folders."""
    umask = os.umask(0)
    os.umask(umask)
    folder.chmod(0o777 & ~umask)
