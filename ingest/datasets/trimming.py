"""The ids of a dataset's files taken without their leading and trailing blanks, as a judges file's
are (`stripped` of ingest/sql/reason_text.sql; issue 63, case 5): `u1 ` from a spreadsheet is the
unit `u1`, not a second one. The checks of ingest/sql/datasets/ trim them; this counts, per file and
column, the values that had blanks, for the one line `dwh ingest` prints of them.
"""

from dataclasses import dataclass

import duckdb

from common.database import identifier

# how many trimmed values of one column the line shows
SHOWN = 3


@dataclass(frozen=True)
class Trimmed:
    """The values of one column of one file that had blanks around them."""

    file_path: str
    column: str
    count: int
    examples: list[str]

    def described(self) -> str:
        """`judgements.csv rater_id: 2 ('r1 ', 'r2\\t')`"""
        more = ", …" if self.count > len(self.examples) else ""
        return f"{self.file_path} {self.column}: {self.count:,} ({', '.join(map(repr, self.examples))}{more})"


def trimmed_ids(con: duckdb.DuckDBPyConnection, table: str, columns: tuple[str, ...]) -> list[Trimmed]:
    """Per file and column of `temp.<table>` (a scratch table of the long-form reader), the values
    that `stripped` changes."""
    found = []
    for column in columns:
        name = identifier(column)
        for file_path, count, examples in con.execute(
            f"""
            select _file_path, count(*), list(distinct {name} order by {name})[1:{SHOWN}]
            from temp.{identifier(table)}
            where _read_error is null and {name} <> stripped({name}) and stripped({name}) <> ''
            group by _file_order, _file_path
            order by _file_order
            """
        ).fetchall():
            found.append(Trimmed(file_path, column, int(count), list(examples)))
    return found


def trimmed_line(name: str, trimmed: list[Trimmed]) -> str | None:
    """What `dwh ingest` says of the ids it trimmed (None: none had blanks)."""
    if not trimmed:
        return None
    total = sum(item.count for item in trimmed)
    return (
        f"dataset {name}: {total:,} id(s) had invisible blanks (spaces, tabs, line ends) before or after them and "
        f"were trimmed, as a judges file's are ('u1 ' is 'u1'): {'; '.join(item.described() for item in trimmed)}"
    )
