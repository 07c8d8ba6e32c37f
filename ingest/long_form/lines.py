"""A text file's physical lines as DuckDB reads them (a JSONL file's), and the one line for a CSV
whose lines end in both LF and CRLF, which DuckDB's CSV reader cannot split."""

from pathlib import Path

from common.database import sql_string


def lines_sql(path: Path) -> str:
    """A query of a text file as one row per physical line (`line`), in file order: chr(1) never
    occurs in JSON text, and a blank line reads as ''; a byte order mark and a line's final "\\r"
    are no part of its JSON. With CRLF as the line end the reader splits at LF and at CRLF alike: a
    file mixing them keeps every line's number (left to find the line end itself, the reader takes
    a later CRLF for two line ends)."""
    return (
        "select rtrim(ltrim(coalesce(line, ''), chr(65279)), chr(13)) as line "
        f"from read_csv({sql_string(str(path))}, columns = {{'line': 'VARCHAR'}}, header = false, "
        "delim = chr(1), quote = '', escape = '', new_line = '\\r\\n', auto_detect = false, strict_mode = false, "
        "encoding = 'utf-8')"
    )


def mixed_line_ends(path: Path) -> str | None:
    """Where a file's lines end in both CRLF and LF (the first line of each), or None: DuckDB's CSV
    reader splits at one of them. Read in blocks, only after the reader refused the file."""
    first: dict[str, int] = {}
    line, previous = 1, b""
    with path.open("rb") as handle:
        while (block := handle.read(1 << 20)) and len(first) < 2:
            start = 0
            while (end := block.find(b"\n", start)) >= 0 and len(first) < 2:
                before = block[end - 1 : end] if end else previous
                first.setdefault("CRLF" if before == b"\r" else "LF", line)
                line, start = line + 1, end + 1
            previous = block[-1:]
    if len(first) < 2:
        return None
    return (
        f"its lines end in both CRLF (first at line {first['CRLF']}) and LF (first at line {first['LF']}), which "
        "the CSV reader cannot split; save it with one kind of line end (e.g. dos2unix) and load it again"
    )
