"""The embedded sample data, which `dwh sample` writes and the tests read: fixture data, not the
product. All datasets in their real release layouts, a few judges of known character beside them
(`judges/`, for `dwh ingest --judges`), and a small dataset folder in the long form of
docs/DATASETS.md (`datasets/chatbot_study/`, for `dwh ingest --dataset`)."""

from pathlib import Path

from common.errors import DwhError
from common.outputs import kind_of, refuse_warehouse_files, resolved, warehouse_files
from common.paths import configured_warehouse_path
from sample_data.datasets import datasets_files, write_datasets_sample
from sample_data.dices import dices_release_files, write_dices_sample
from sample_data.duo import duo_release_files, write_duo_sample
from sample_data.judges import judges_files, write_judges_sample
from sample_data.redial import redial_release_file, write_redial_sample


def write_sample(out_dir: Path, scale: float = 1, seed: int = 0, force: bool = False) -> list[Path]:
    """Write every dataset's sample under `out_dir`; returns the paths written.

    `out_dir` must be new or empty unless `force`: the sample's files would silently replace a
    release's files of the same names (a copy of the real DUO release, say) with synthetic ones.
    With `force` only regular files are replaced, each by a new file renamed onto it: never a
    link (nor what it names), a FIFO, a device or a folder, nor the warehouse or a file beside it."""
    prepare_output_folder(out_dir, force)
    refuse_unreplaceable_release_paths(release_files(out_dir, scale), out_dir)
    return [
        *write_duo_sample(out_dir, scale, seed),
        write_redial_sample(out_dir, scale, seed),
        *write_dices_sample(out_dir, scale, seed),
        *write_judges_sample(out_dir, seed),
        *write_datasets_sample(out_dir, seed),
    ]


def prepare_output_folder(out_dir: Path, force: bool = False) -> None:
    """Create `out_dir` (and its parents), or say in one line why it cannot be, before writing anything."""
    if out_dir.exists() and not out_dir.is_dir():
        raise DwhError(
            f"{out_dir}: is {kind_of(out_dir)}, not a folder; `dwh sample` writes duo/, redial/ and dices/ "
            f"inside a folder (give a new or existing folder)"
        )
    held = sorted(entry.name for entry in out_dir.iterdir()) if out_dir.is_dir() else []
    if held and not force:
        raise DwhError(
            f"{out_dir}: already holds files ({', '.join(held[:3])}{', …' if len(held) > 3 else ''}); dwh sample "
            "writes into a new or empty folder: choose another, or pass --force to overwrite its files there"
        )
    try:
        out_dir.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise DwhError(f"{out_dir}: cannot create this folder ({exc.strerror or exc})") from exc


def release_files(out_dir: Path, scale: float) -> list[Path]:
    """Every file the sample writes under `out_dir` at this scale."""
    return [
        *duo_release_files(out_dir, scale),
        redial_release_file(out_dir),
        *dices_release_files(out_dir),
        *judges_files(out_dir),
        *datasets_files(out_dir),
    ]


def refuse_unreplaceable_release_paths(files: list[Path], out_dir: Path) -> None:
    """Before anything is written: each folder on the way to a release file is a folder (or absent),
    and each release file is absent or a regular file that is neither the warehouse nor beside it."""
    db_path = configured_warehouse_path()
    warehouse = warehouse_files(db_path)
    folders = sorted({folder for path in files for folder in path.parents if out_dir in folder.parents})
    for folder in folders:
        refuse_non_folder(folder)
    for path in files:
        if resolved(path) in warehouse:
            refuse_warehouse_files(path, db_path, "dwh sample")
        refuse_non_regular_release_file(path)


def refuse_non_folder(folder: Path) -> None:
    """Where the sample makes a folder, there is a folder (a link to one too) or nothing."""
    if folder.is_symlink() and not folder.exists():
        raise DwhError(f"{folder}: is a symbolic link to nothing; dwh sample writes a folder there: remove the link")
    if folder.exists() and not folder.is_dir():
        raise DwhError(
            f"{folder}: is {kind_of(folder)}; dwh sample writes a folder there: remove it or choose another folder"
        )


def refuse_non_regular_release_file(path: Path) -> None:
    """A release file the sample would replace is a regular file: never a link, FIFO, device or folder."""
    if path.is_symlink():
        raise DwhError(
            f"{path}: is a symbolic link (to {path.readlink()}); dwh sample --force replaces only regular "
            "release files, never a link or what it names: remove the link or choose another folder"
        )
    if path.exists() and not path.is_file():
        raise DwhError(
            f"{path}: is {kind_of(path)}; dwh sample --force replaces only regular release files: "
            "remove it or choose another folder"
        )
