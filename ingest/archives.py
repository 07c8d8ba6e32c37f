"""Safe extraction of release zips: only into a temporary folder, never outside it."""

import shutil
import zipfile
import zlib
from collections.abc import Callable
from pathlib import Path, PurePosixPath

from common.errors import DwhError


def unsafe_member_reason(name: str) -> str | None:
    """Why a zip member name could escape the extraction folder, or None when it is safe."""
    posix = PurePosixPath(name.replace("\\", "/"))
    if posix.is_absolute() or (posix.parts and posix.parts[0].endswith(":")):
        return "is an absolute path"
    if ".." in posix.parts:
        return "climbs out of the folder with '..'"
    return None


# A release file compresses about tenfold (JSON, CSV); a member that expands far more than that and
# to more than a few MiB is padding or a zip bomb, not a release file.
MAX_EXPANSION = 100
MAX_EXPANDED_BYTES_UNCHECKED = 16 * 2**20


def out_of_proportion_reason(info: zipfile.ZipInfo) -> str | None:
    """Why a member's declared size is out of proportion to its compressed size, or None."""
    if info.file_size <= MAX_EXPANDED_BYTES_UNCHECKED or info.file_size <= MAX_EXPANSION * info.compress_size:
        return None
    return (
        f"expands to {info.file_size / 2**20:,.1f} MiB from {info.compress_size / 2**10:,.1f} KiB, "
        f"over {MAX_EXPANSION} times its compressed size: out of proportion for a release file"
    )


def extract_members(zip_path: Path, destination: Path, is_wanted: Callable[[str], bool] | None = None) -> list[Path]:
    """Extract the members of a zip that `is_wanted` names (all without it) into `destination`.

    Every member name is checked first, so a zip with one hostile name extracts nothing; members
    not wanted are never written, and a wanted one of a size out of proportion is refused by name.
    """
    try:
        archive = zipfile.ZipFile(zip_path)
    except (zipfile.BadZipFile, OSError) as exc:
        raise DwhError(f"{zip_path}: not a readable zip archive ({exc})") from exc
    with archive:
        members = [info for info in archive.infolist() if not info.is_dir()]
        for info in members:
            reason = unsafe_member_reason(info.filename)
            if reason:
                raise DwhError(f"{zip_path}: refusing member {info.filename!r}: it {reason}")
        chosen = [info for info in members if is_wanted is None or is_wanted(info.filename)]
        for info in chosen:
            refuse_out_of_proportion(zip_path, info)
        return [_extract_member(zip_path, archive, info, destination) for info in chosen]


# what zipfile raises on a member whose data does not match its header (a bad CRC-32, a size the
# header understates) or ends early (a truncated or corrupt deflate stream)
CORRUPT_MEMBER_ERRORS = (zipfile.BadZipFile, EOFError, zlib.error)


def _extract_member(zip_path: Path, archive: zipfile.ZipFile, info: zipfile.ZipInfo, destination: Path) -> Path:
    """Extract one member; a member whose data is corrupt is refused by name."""
    try:
        return Path(archive.extract(info, destination))
    except CORRUPT_MEMBER_ERRORS as exc:
        raise DwhError(f"{zip_path}: member {info.filename!r} is corrupt ({exc})") from exc


def refuse_out_of_proportion(zip_path: Path, info: zipfile.ZipInfo) -> None:
    reason = out_of_proportion_reason(info)
    if reason:
        raise DwhError(f"{zip_path}: refusing member {info.filename!r}: it {reason}")


def member_base_name(name: str) -> str:
    """The base name of a zip member, whichever separator the zip used."""
    return PurePosixPath(name.replace("\\", "/")).name


def extract_by_base_name(zip_path: Path, destination: Path, names: list[str]) -> dict[str, tuple[Path, str]]:
    """Copy the members whose base name is one of `names` out of a zip, flat into `destination`
    (wherever the zip keeps them; macOS's `__MACOSX/` copies are skipped): base name -> (path on
    disk, `zip!member` for messages). Every member name is checked first, and two members with
    one wanted base name are ambiguous."""
    try:
        with zipfile.ZipFile(zip_path) as archive:
            infos = [info for info in archive.infolist() if not info.is_dir()]
            for info in infos:
                reason = unsafe_member_reason(info.filename)
                if reason:
                    raise DwhError(f"{zip_path}: refusing member {info.filename!r}: it {reason}")
            wanted = _members_by_base_name(zip_path, infos, names)
            for info in wanted.values():
                refuse_out_of_proportion(zip_path, info)
            return {base: _copy_member(zip_path, archive, info, destination / base) for base, info in wanted.items()}
    except (zipfile.BadZipFile, OSError) as exc:
        raise DwhError(f"{zip_path}: not a readable zip archive ({exc})") from exc


def _members_by_base_name(zip_path: Path, infos: list[zipfile.ZipInfo], names: list[str]) -> dict[str, zipfile.ZipInfo]:
    wanted: dict[str, zipfile.ZipInfo] = {}
    for info in infos:
        base = member_base_name(info.filename)
        if base not in names or info.filename.startswith("__MACOSX/"):
            continue
        if base in wanted:
            raise DwhError(f"{zip_path}: {base} appears twice ({wanted[base].filename!r} and {info.filename!r})")
        wanted[base] = info
    return wanted


def _copy_member(zip_path: Path, archive: zipfile.ZipFile, info: zipfile.ZipInfo, target: Path) -> tuple[Path, str]:
    """Copy one member's bytes to target (never to a path taken from the zip)."""
    label = f"{zip_path}!{info.filename}"
    try:
        with archive.open(info) as source, target.open("wb") as sink:
            shutil.copyfileobj(source, sink, 1 << 20)
    except CORRUPT_MEMBER_ERRORS as exc:
        raise DwhError(f"{zip_path}: member {info.filename!r} is corrupt ({exc})") from exc
    except OSError as exc:
        raise DwhError(f"{label}: cannot be extracted ({exc})") from exc
    return target, label
