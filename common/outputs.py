"""Where `dwh report`, `dwh export` and `dwh sample` may write: checked before any work starts.

None of them ever replaces what the user did not ask to replace: the warehouse and the files a
writer keeps beside it, anything that is not a regular file (a device node, a FIFO, a symbolic link
where `dwh sample --force` would overwrite a release file), a file that is not the command's own
earlier output, or a folder that already holds files. Each refusal is one line naming the path.
Files are written to a new temporary file beside them and renamed into place (`replacing`), never
written through whatever already has their name.
"""

import errno
import os
import stat
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from common.errors import DwhError
from common.paths import warehouse_setting

# the files `dwh ingest` and `dwh build` keep beside the warehouse (dwh.building.publish)
WAREHOUSE_COMPANIONS = (".next", ".failed", ".wal", ".lock", ".next.wal", ".failed.wal", ".wal.checkpoint")


def warehouse_files(db_path: Path) -> set[Path]:
    """The warehouse and its companions, resolved."""
    resolved = db_path.resolve()
    return {resolved, *(resolved.with_name(resolved.name + suffix) for suffix in WAREHOUSE_COMPANIONS)}


def resolved(path: Path) -> Path:
    """`path` with its symbolic links followed (the name a dangling one gives), as the warehouse's path is."""
    try:
        return path.expanduser().resolve()
    except (OSError, RuntimeError) as exc:  # a loop of links
        raise DwhError(f"{path}: is a symbolic link that cannot be followed ({exc}); choose another path") from exc


def refuse_warehouse_files(out: Path, db_path: Path, command: str) -> None:
    """`out` must not be the warehouse (DWH_DB_PATH) or a file kept beside it."""
    if resolved(out) in warehouse_files(db_path):
        raise DwhError(
            f"{out}: is the warehouse ({warehouse_setting()}) or a file dwh keeps beside it; {command} never "
            "replaces it: choose another path"
        )


def refuse_non_regular_file(out: Path, command: str) -> None:
    """A folder, device node, FIFO or socket at `out` is never replaced by a file."""
    if out.is_dir():
        raise DwhError(f"{out}: is a folder; {command} writes one file: name it, e.g. {out / 'report.html'}")
    if out.exists() and not out.is_file():
        raise DwhError(f"{out}: is not a regular file (a device, FIFO or socket); {command} never replaces it")


def refuse_file_as_folder(out: Path, command: str) -> None:
    """`out`'s folder, or a folder above it, must not be a file: its name says where to write instead."""
    for folder in out.absolute().parents:
        if folder.exists() or folder.is_symlink():
            if not folder.is_dir():
                raise DwhError(
                    f"{out}: {folder} is {kind_of_or_link(folder)}, not a folder, so {command} cannot write under it; "
                    "choose a path in a folder"
                )
            return


def kind_of_or_link(path: Path) -> str:
    """`kind_of`, or "a broken symbolic link"."""
    return kind_of(path) if path.exists() else "a broken symbolic link"


def kind_of(path: Path) -> str:
    """What is at `path` (a link followed), in words: "a file", "a folder", "a FIFO", "a device", "a socket"."""
    mode = path.stat().st_mode
    if stat.S_ISREG(mode):
        return "a file"
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a FIFO"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "a device"


@contextmanager
def replacing(out: Path) -> Iterator[Path]:
    """A new temporary file beside `out`, for the caller to fill; renamed onto `out` when the block
    ends, removed when it fails. `out`'s folder is created and the file made on entry, so a place
    that cannot be written is said before the work. The file is new and uniquely named
    (`.<name>.<random>.partial`, created exclusively, as tempfile.mkstemp does): it is never an
    existing file, a link or a FIFO, and `out` is replaced by the rename, never written through."""
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        handle, name = tempfile.mkstemp(prefix=f".{out.name}.", suffix=".partial", dir=out.parent)
    except OSError as exc:
        raise DwhError(f"{out}: cannot be written there ({exc.strerror or exc})") from exc
    partial = Path(name)
    try:
        try:
            os.fchmod(handle, 0o666 & ~current_umask())  # mkstemp's 0600 would make the output private
        finally:
            os.close(handle)
        yield partial
        partial.replace(out)
    except OSError as exc:
        partial.unlink(missing_ok=True)
        raise not_written(out, exc) from exc
    except BaseException:
        partial.unlink(missing_ok=True)
        raise


def not_written(out: Path, exc: OSError) -> DwhError:
    """The one line for a file that could not be written (a full disk, say): the path, the cause and
    what to do; whatever was at `out` is left as it was."""
    cause = exc.strerror or str(exc)
    full = exc.errno in (errno.ENOSPC, errno.EDQUOT)
    remedy = "free space there or choose another path" if full else "choose another path"
    kept = f"an earlier {out.name} there is left as it was" if out.exists() else "nothing was written"
    return DwhError(f"{out}: could not be written ({cause}); {kept}: {remedy}")


def check_export_folder(out_dir: Path, db_path: Path) -> Path:
    """The folder an export goes to: absent or empty, never the warehouse; a symbolic link to an
    empty folder stands for that folder, and a dangling one for the folder it names, created when
    the folder it would be in exists. Returns the path to write (the link resolved)."""
    refuse_warehouse_files(out_dir, db_path, "dwh export")
    if out_dir.is_symlink():
        out_dir = link_target(out_dir)
    if out_dir.exists() and (not out_dir.is_dir() or any(out_dir.iterdir())):
        raise DwhError(f"{out_dir}: already exists and is not an empty folder; choose a new export folder")
    try:
        out_dir.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise DwhError(f"{out_dir}: cannot create the export folder there ({exc.strerror or exc})") from exc
    if not os.access(out_dir.parent, os.W_OK | os.X_OK):
        raise DwhError(f"{out_dir}: cannot create the export folder there (its folder is not writable)")
    return out_dir


def link_target(link: Path) -> Path:
    """The folder a symbolic link names, resolved; one that does not exist must be in a folder that does."""
    target = resolved(link)
    if not target.exists() and not target.parent.is_dir():
        raise DwhError(
            f"{link}: is a symbolic link to {target}, which does not exist, nor does the folder it would be in; "
            f"create {target.parent} first, or choose another export folder"
        )
    return target


def readable_by_umask(folder: Path) -> None:
    """Give a folder made private by `tempfile.mkdtemp` (0700) the mode the user's umask gives new folders."""
    folder.chmod(0o777 & ~current_umask())


def current_umask() -> int:
    """The process's umask (read by setting it and setting it back: dwh's writers run in one thread)."""
    umask = os.umask(0)
    os.umask(umask)
    return umask
