"""The one exception type the command line turns into a one-line reason."""


class DwhError(Exception):
    """A failure the user can act on; the message names the file (and line or row)."""


def one_line(exc: Exception) -> str:
    """An exception's message on one line (DuckDB's span several)."""
    return " ".join(str(exc).split())
