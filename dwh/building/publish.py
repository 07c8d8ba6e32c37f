"""Writers never touch the live warehouse file: they work on a private copy and swap it in.

BI tools and notebooks keep read-only connections open on the warehouse. DuckDB would refuse a
writer while they hold the file, and a reader must never see a half-built state. So `dwh ingest`
and `dwh build` copy the live file to `<name>.next`, write there, and publish with one atomic
`os.replace`: open readers keep the version they opened, new ones get the new version, and a
crash or kill before the swap leaves the live file as it was. A lock file keeps two writers
from racing each other.
"""

import errno
import fcntl
import os
import shutil
import struct
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import duckdb

from common.errors import DwhError
from dwh import raise_if_terminated
from ingest.raw_schema import refuse_foreign_raw_tables


def staging_path(db_path: Path) -> Path:
    """Where a writer builds the next version of the warehouse."""
    return db_path.with_name(db_path.name + ".next")


# the one name dbt opens the staged copy by, whatever the warehouse is called: dbt hashes its profile,
# which names the file (profiles.yml), and reuses the last build's parse only where the hash is the same
DBT_FILE_NAME = "warehouse.duckdb"


def dbt_view_path(staged: Path) -> Path:
    """The staged copy as dbt opens it: `DBT_FILE_NAME` in a folder of its own beside the copy."""
    return staged.with_name(staged.name + ".dbt") / DBT_FILE_NAME


@contextmanager
def dbt_view(staged: Path) -> Iterator[Path]:
    """The staged copy under the name dbt opens it by (`dbt_view_path`): a hard link, the same file,
    so that every build reuses the last parse whatever the warehouse's name. DuckDB's write-ahead log
    and spill folder then sit beside the link: afterwards a log is moved beside the staged copy (where
    publishing refuses it, as always) and the folder is removed. Where the file system has no hard
    links, the staged copy itself (dbt then parses again when the name changes)."""
    view = dbt_view_path(staged)
    _remove_view(view)
    try:
        view.parent.mkdir()
    except OSError:  # a file of the user's at that name: left as it is
        yield staged
        return
    try:
        try:
            os.link(staged, view)
        except OSError:  # no hard links on this file system
            yield staged
        else:
            yield view
    finally:
        for suffix in DUCKDB_LOGS:
            if view.with_name(view.name + suffix).exists():
                os.replace(view.with_name(view.name + suffix), staged.with_name(staged.name + suffix))
        _remove_view(view)


def _remove_view(view: Path) -> None:
    """A view's folder, left by a writer that was killed, or by this one."""
    if view.parent.is_dir() and not view.parent.is_symlink():
        shutil.rmtree(view.parent, ignore_errors=True)


@contextmanager
def writer_lock(db_path: Path) -> Iterator[None]:
    """One writer at a time per warehouse; a second one gets a clear error instead of waiting."""
    try:
        db_path.parent.mkdir(parents=True, exist_ok=True)
        lock_file = open(db_path.with_name(db_path.name + ".lock"), "w", encoding="utf-8")
    except OSError as exc:
        raise folder_not_writable(db_path, exc) from exc
    with lock_file:
        try:
            fcntl.flock(lock_file, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError as exc:
            raise DwhError(f"{db_path}: another dwh ingest or build is writing this warehouse") from exc
        refuse_read_write_holder(db_path)
        yield


def folder_not_writable(db_path: Path, exc: OSError) -> DwhError:
    """The one-line answer when the warehouse's folder cannot take the new version's files."""
    why = {
        errno.EROFS: "is on a read-only file system",
        errno.EACCES: "is not writable by this user",
        errno.EPERM: "is not writable by this user",
        errno.ENOSPC: "has no space left on device",
        errno.EDQUOT: "has no space left on device (disk quota exceeded)",
    }.get(exc.errno, f"cannot be written ({exc.strerror or exc})")
    remedy = "free space there" if exc.errno in (errno.ENOSPC, errno.EDQUOT) else "make it writable"
    return DwhError(
        f"{db_path.parent}: the warehouse's folder {why}; dwh ingest and dwh build write the new version "
        f"beside {db_path.name} (about its size again): {remedy}, or point DWH_DB_PATH at another folder. "
        "Reading needs no writing: dwh summary, dwh report OUT, duckdb -readonly"
    )


# how DuckDB words a full disk in its errors (and dbt, quoting DuckDB, in a failed model's message)
NO_SPACE = "No space left on device"


def folder_is_full(db_path: Path) -> DwhError:
    """The answer when DuckDB or dbt reports a full disk while writing the staged copy."""
    return folder_not_writable(db_path, OSError(errno.ENOSPC, NO_SPACE))


def refuse_unusable_warehouse(db_path: Path, require_a_load: bool = False) -> None:
    """Before a writer takes its lock: a client holding the file read-write, a DuckDB file of
    another project or (with `require_a_load`) a file no ingest loaded is refused in one line,
    and nothing is left beside the file."""
    refuse_folders_in_the_writers_way(db_path)
    refuse_read_write_holder(db_path)
    refuse_foreign_raw_tables(db_path, require_a_load)


# the files a writer creates, replaces or removes beside the warehouse
WRITER_FILES = (".lock", ".next", ".next.wal", ".next.wal.checkpoint", ".failed", ".wal", ".wal.checkpoint")


def refuse_folders_in_the_writers_way(db_path: Path) -> None:
    """A folder where a writer keeps one of its files beside the warehouse (`<name>.next`, say) would
    stop it halfway with "Is a directory": refused up front, naming it."""
    for suffix in WRITER_FILES:
        path = db_path.with_name(db_path.name + suffix)
        if path.is_dir() and not path.is_symlink():
            raise DwhError(
                f"{path}: is a folder, where dwh ingest and dwh build keep a file of their own beside "
                f"{db_path.name}; move or remove it, then run this again (nothing was changed)"
            )


@contextmanager
def answering_a_full_disk(db_path: Path) -> Iterator[None]:
    """A full disk while DuckDB or dbt writes the staged copy is named as the warehouse's folder
    being full (DuckDB's own message names `<name>.next.wal`, a file the user never made)."""
    try:
        yield
    except duckdb.Error as exc:
        if NO_SPACE in str(exc):
            raise folder_is_full(db_path) from exc
        raise
    except OSError as exc:
        if exc.errno in (errno.ENOSPC, errno.EDQUOT):
            raise folder_not_writable(db_path, exc) from exc
        raise


def refuse_read_write_holder(db_path: Path) -> None:
    """Stop before any work (and again before a swap) when another process holds the live file
    open read-write, e.g. a notebook's `duckdb.connect(path)`: the swap would discard whatever
    that client writes from then on. Read-only holders are fine; they keep the version they opened."""
    holder = read_write_holder(db_path)
    if holder is not None:
        raise DwhError(
            f"{db_path}: held open read-write by process {holder} ({_process_name(holder)}); its writes would be "
            f"lost when the new version is published. Close that connection, or open the warehouse with "
            f"duckdb.connect(path, read_only=True), then run this again"
        )


def read_write_holder(db_path: Path) -> int | None:
    """The PID of a process holding DuckDB's write lock on `db_path`, if any.

    DuckDB takes a POSIX record lock on the whole file: a write lock for a read-write connection, a
    read lock for a read-only one. F_GETLK asks, without taking anything, which lock would stop us
    from reading."""
    try:
        fd = os.open(db_path, os.O_RDONLY)
    except (FileNotFoundError, IsADirectoryError):
        return None
    try:
        request = struct.pack("hhqqi", fcntl.F_RDLCK, os.SEEK_SET, 0, 0, 0)
        lock_type, _, _, _, pid = struct.unpack("hhqqi", fcntl.fcntl(fd, fcntl.F_GETLK, request))
    finally:
        os.close(fd)
    return pid if lock_type == fcntl.F_WRLCK else None


def _process_name(pid: int) -> str:
    try:
        arguments = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
    except OSError:
        return "a process this user cannot inspect"
    command_line = " ".join(" ".join(a.decode(errors="replace").split()) for a in arguments if a)
    return (command_line[:77] + "…" if len(command_line) > 80 else command_line) or f"pid {pid}"


@contextmanager
def staged_copy(db_path: Path) -> Iterator[Path]:
    """A private copy of the warehouse to write; the caller publishes it with `publish`."""
    staged = staging_path(db_path)
    _remove(staged)
    try:
        if db_path.exists():
            try:
                shutil.copyfile(db_path, staged)
                if _wal(db_path).exists():  # left by a writer that was killed before the swap existed
                    shutil.copyfile(_wal(db_path), _wal(staged))
            except OSError as exc:
                raise folder_not_writable(db_path, exc) from exc
        yield staged
    finally:
        _remove(staged)


def publish(staged: Path, db_path: Path) -> None:
    """Swap the staged file in for the live one, atomically (same folder, same file system), unless
    the command was interrupted on the way (the staged file is then removed by its caller)."""
    raise_if_terminated()
    if _wal(staged).exists():
        raise DwhError(f"{staged}: still has a write-ahead log; its connection was not closed")
    refuse_read_write_holder(db_path)
    os.replace(staged, db_path)
    _remove(_wal(db_path))


def keep_for_inspection(staged: Path, db_path: Path) -> Path:
    """Keep a staged file that was not published (a failed build) beside the live one."""
    kept = db_path.with_name(db_path.name + ".failed")
    os.replace(staged, kept)
    return kept


def _wal(path: Path) -> Path:
    return path.with_name(path.name + ".wal")


# what DuckDB writes beside a database file: its write-ahead log, and `<file>.wal.checkpoint` while it
# checkpoints (a failed checkpoint leaves it)
DUCKDB_LOGS = (".wal", ".wal.checkpoint")


def _remove(path: Path) -> None:
    for candidate in (path, *(path.with_name(path.name + suffix) for suffix in DUCKDB_LOGS)):
        candidate.unlink(missing_ok=True)
