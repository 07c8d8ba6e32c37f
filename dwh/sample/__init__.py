"""`dwh sample`: the embedded sample data, all datasets in their real release layouts."""

from pathlib import Path

from dwh.sample.dices import write_dices_sample
from dwh.sample.duo import write_duo_sample
from dwh.sample.redial import write_redial_sample
from ingest.errors import DwhError


def write_sample(out_dir: Path, scale: float = 1, seed: int = 0, force: bool = False) -> list[Path]:
    """Write every dataset's sample under `out_dir`; returns the paths written.

    `out_dir` must be new or empty unless `force`: the sample's files would silently replace a
    release's files of the same names (a copy of the real DUO release, say) with synthetic ones."""
    prepare_output_folder(out_dir, force)
    return [
        *write_duo_sample(out_dir, scale, seed),
        write_redial_sample(out_dir, scale, seed),
        *write_dices_sample(out_dir, scale, seed),
    ]


def prepare_output_folder(out_dir: Path, force: bool = False) -> None:
    """Create `out_dir` (and its parents), or say in one line why it cannot be, before writing anything."""
    if out_dir.exists() and not out_dir.is_dir():
        raise DwhError(
            f"{out_dir}: is a file, not a folder; `dwh sample` writes duo/, redial/ and dices/ "
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
