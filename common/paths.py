"""Where things live: project root, warehouse file, dbt folders."""

import os
from pathlib import Path

from common.errors import DwhError

PROJECT_ROOT = Path(__file__).resolve().parent.parent
DEFAULT_DB_RELATIVE_PATH = Path("data") / "warehouse.duckdb"


# Every DuckDB database file carries these bytes at offset 8 (its storage header).
DUCKDB_FILE_MAGIC = b"DUCK"


def warehouse_path() -> Path:
    """The DuckDB file: `DWH_DB_PATH` if set (relative to the working directory), else data/warehouse.duckdb.

    Both are resolved the same way: a symbolic link (to a bigger disk, say) names its target, so a
    writer's staged copy and atomic swap happen beside the target and the link stays a link.
    Refused up front, naming the setting, when it is a folder, anything else that is not a regular
    file (a FIFO would block the first read forever) or a file that is not a DuckDB database:
    nothing is locked, copied or written for it.
    """
    path = configured_warehouse_path()
    setting = warehouse_setting()
    if path.is_dir():
        raise DwhError(
            f"{path}: is a folder, not a DuckDB file ({setting}); name a file, e.g. {path / 'warehouse.duckdb'}"
        )
    if path.exists() and not path.is_file():
        raise DwhError(
            f"{path}: is not a regular file (a FIFO, socket or device) ({setting}); name a warehouse or a new file"
        )
    if path.is_file() and path.stat().st_size > 0 and not _is_duckdb_file(path):
        raise DwhError(f"{path}: is not a DuckDB database file ({setting}); name a warehouse or a new file")
    return path


def configured_warehouse_path() -> Path:
    """The warehouse's path as `warehouse_path` finds it, resolved, whatever is there (not checked)."""
    configured = os.environ.get("DWH_DB_PATH")
    return (Path(configured).expanduser() if configured else PROJECT_ROOT / DEFAULT_DB_RELATIVE_PATH).resolve()


def warehouse_setting() -> str:
    """What chose the warehouse's path, for messages: DWH_DB_PATH, or the default path when it is unset."""
    if os.environ.get("DWH_DB_PATH"):
        return "DWH_DB_PATH"
    return f"the default warehouse path {DEFAULT_DB_RELATIVE_PATH}; set DWH_DB_PATH to name another"


def _is_duckdb_file(path: Path) -> bool:
    with open(path, "rb") as file:
        return file.read(12)[8:12] == DUCKDB_FILE_MAGIC
