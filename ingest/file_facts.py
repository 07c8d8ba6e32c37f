"""What a landing needs to know about a file's bytes: size, sha256 and its line terminators.

One streaming pass of 4 MiB reads. hashlib and bytes.count release the GIL, so the pass runs in
a background thread while DuckDB reads the same file (`scanning`): on two cores the hash costs
little wall time instead of a serial pass over every release.
"""

import hashlib
import stat
from collections.abc import Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from common.errors import DwhError

READ_BYTES = 4 << 20


def unreadable_file_kind(path: Path) -> str | None:
    """What `path` is when it cannot be read as a release file (opening a FIFO waits for a writer
    forever), or None for a regular file, a folder or a path that does not exist."""
    if path.is_symlink() and not path.exists():
        return "a symbolic link whose target does not exist"
    try:
        mode = path.stat().st_mode
    except OSError:
        return None
    if stat.S_ISREG(mode) or stat.S_ISDIR(mode):
        return None
    if stat.S_ISFIFO(mode):
        return "a FIFO (named pipe)"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "a device"


def release_kind_of(path: Path) -> str | None:
    """Which release a file looks like from its first bytes, for "this looks like …" answers when a
    file is handed to the wrong --flag; None when it looks like none of them."""
    try:
        with path.open("rb") as handle:
            start = handle.read(4096).removeprefix(b"\xef\xbb\xbf").lstrip()
    except OSError:
        return None
    if start.startswith(b"PK\x03\x04"):
        return "a zip archive (ReDial's redial_dataset.zip, or a zipped DUO tree)"
    if start.startswith(b"{") and (b'"movieMentions"' in start or b'"conversationId"' in start):
        return "a ReDial JSONL file (--redial)"
    if start.startswith((b"{", b"[")):
        return "a JSON file (a DUO dialogue belongs in its release tree, --duo)"
    if start.startswith(b"id,rater_id,") or b"Q_overall" in start.split(b"\n", 1)[0]:
        return "a DICES CSV (--dices)"
    if start.startswith(b"movieId,movieName"):
        return "ReDial's movies_with_mentions.csv (--redial, inside its release)"
    return None


def refuse_another_release(path: Path, expected: str, own_kind: str) -> None:
    """Stop with "<path>: this looks like <kind>, not <expected>" when the file is recognisably
    another release's (a kind not containing `own_kind`)."""
    kind = release_kind_of(path)
    if kind and own_kind not in kind:
        raise DwhError(f"{path}: this looks like {kind}, not {expected}")


def refuse_unreadable_file(path: Path, hint: str) -> None:
    """Stop with one line naming `path` when it is a FIFO, socket, device or dangling link."""
    kind = unreadable_file_kind(path)
    if kind:
        raise DwhError(f"{path}: is {kind}, not a regular file; {hint}")


@dataclass(frozen=True)
class FileFacts:
    """Size, sha256 and line-terminator counts of a file's bytes."""

    size_bytes: int
    sha256: str
    newlines: int  # "\n" bytes
    crlf_pairs: int  # "\r\n" pairs (each also counted in newlines)
    ends_with_newline: bool

    @property
    def physical_lines(self) -> int:
        """Lines as an editor numbers them: a final newline does not start another line."""
        unterminated_last_line = self.size_bytes > 0 and not self.ends_with_newline
        return self.newlines + int(unterminated_last_line)

    @property
    def line_content_bytes(self) -> int:
        """Bytes of the lines without their "\\n" or "\\r\\n" terminators."""
        return self.size_bytes - self.newlines - self.crlf_pairs


def scan_file(path: Path, label: str, count_lines: bool = True) -> FileFacts:
    """Read the file once: its size, sha256 and (unless count_lines is False: zeros) line terminators."""
    digest = hashlib.sha256()
    size = newlines = crlf_pairs = 0
    previous_ended_with_cr = False
    last = b""
    try:
        with path.open("rb") as handle:
            while chunk := handle.read(READ_BYTES):
                digest.update(chunk)
                size += len(chunk)
                last = chunk[-1:]
                if count_lines:
                    newlines += chunk.count(b"\n")
                    crlf_pairs += _crlf_pairs(chunk, previous_ended_with_cr)
                    previous_ended_with_cr = last == b"\r"
    except OSError as exc:
        raise DwhError(f"{label}: cannot be read ({exc.strerror or exc})") from exc
    return FileFacts(size, digest.hexdigest(), newlines, crlf_pairs, last == b"\n")


def _crlf_pairs(chunk: bytes, previous_ended_with_cr: bool) -> int:
    """The "\r\n" pairs in a chunk, and the one its first byte completes (counting one byte is
    several times faster than counting a pair, so LF-only files skip the second count)."""
    completed = int(previous_ended_with_cr and chunk.startswith(b"\n"))
    return completed + (chunk.count(b"\r\n") if chunk.count(b"\r") else 0)


@contextmanager
def scanning(path: Path, label: str, count_lines: bool = True) -> Iterator["Future[FileFacts]"]:
    """Scan the file in a background thread while the body lands it; `.result()` waits for it."""
    with ThreadPoolExecutor(max_workers=1, thread_name_prefix="dwh-scan") as pool:
        yield pool.submit(scan_file, path, label, count_lines)


def lines_at_offsets(path: Path, offsets: list[int]) -> dict[int, int]:
    """The 1-based physical line on which each byte offset falls (one more than the newlines before it)."""
    pending = sorted(set(offsets))
    lines: dict[int, int] = {}
    position = newlines = next_index = 0
    with path.open("rb") as handle:
        while next_index < len(pending) and (chunk := handle.read(READ_BYTES)):
            end = position + len(chunk)
            while next_index < len(pending) and pending[next_index] <= end:
                offset = pending[next_index]
                lines[offset] = 1 + newlines + chunk.count(b"\n", 0, offset - position)
                next_index += 1
            newlines += chunk.count(b"\n")
            position = end
    lines.update({offset: 1 + newlines for offset in pending[next_index:]})
    return lines
