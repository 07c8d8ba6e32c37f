"""`dwh docs` (`make docs`): dbt's documentation site as one offline page, from the built warehouse.

The warehouse is opened read-only (profiles.yml's `DWH_DB_READ_ONLY`), so the page is made while
BI tools and notebooks hold it open for reading; dbt's output is kept unless it fails, when its
first error is the one line said."""

import os
import subprocess
from pathlib import Path

from common.errors import DwhError
from common.paths import PROJECT_ROOT, warehouse_setting
from dwh.building.build import dbt_executable, dbt_target_path
from dwh.building.publish import read_write_holder

STATIC_PAGE = "static_index.html"


def generate_docs(db_path: Path) -> Path:
    """Write dbt's static documentation page for the warehouse at `db_path`; return its path."""
    if not db_path.is_file():
        raise DwhError(
            f"{db_path}: no warehouse yet ({warehouse_setting()}); run make demo first, or point DWH_DB_PATH at a "
            "built warehouse"
        )
    holder = read_write_holder(db_path)
    if holder is not None:
        raise DwhError(
            f"{db_path}: held open read-write by process {holder}, so it cannot be read meanwhile; close that "
            "connection (or open it with read_only=True), then run make docs again"
        )
    target = dbt_target_path()
    env = {**os.environ, "DWH_DB_PATH": str(db_path), "DWH_DB_READ_ONLY": "True", "DBT_TARGET_PATH": str(target)}
    completed = subprocess.run(
        [dbt_executable(), "docs", "generate", "--static", "--quiet", "--no-use-colors", "--log-path", str(target)],
        cwd=PROJECT_ROOT,
        env=env,
        capture_output=True,
        text=True,
    )
    if completed.returncode != 0:
        said = [line.strip() for line in (completed.stdout + completed.stderr).splitlines() if line.strip()]
        last = said[-1][:300] if said else "no output"
        raise DwhError(
            f"{db_path}: dbt docs generate failed (exit code {completed.returncode}): {last}; "
            f"dbt's log: {target / 'dbt.log'}"
        )
    return target / STATIC_PAGE
