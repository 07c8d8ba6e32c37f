"""`dwh fetch` against a local HTTP server on 127.0.0.1 serving files these tests write."""

import hashlib
import http.server
import io
import threading
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from common.errors import DwhError
from dwh.transfer.fetch import DUO_COMMIT, OFFICIAL_RELEASES, Release, fetch_releases, mirrored_url
from tests.helpers import run_dwh


class RangeRequestHandler(http.server.SimpleHTTPRequestHandler):
    """Serves a folder and honours `Range: bytes=N-`, like GitHub's raw file hosts."""

    range_requests: list[str] = []

    def send_head(self):  # noqa: ANN201 - http.server's signature
        range_header = self.headers.get("Range")
        path = Path(self.translate_path(self.path))
        if not range_header or not path.is_file():
            return super().send_head()
        RangeRequestHandler.range_requests.append(range_header)
        start = int(range_header.removeprefix("bytes=").rstrip("-"))
        body = path.read_bytes()[start:]
        self.send_response(206)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)
        return None

    def log_message(self, *args) -> None:  # keep pytest output clean
        pass


@pytest.fixture
def server(tmp_path: Path) -> Iterator[tuple[str, Path]]:
    root = tmp_path / "served"
    root.mkdir()
    handler = lambda *args, **kwargs: RangeRequestHandler(*args, directory=str(root), **kwargs)  # noqa: E731
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}", root
    finally:
        httpd.shutdown()


def serve(root: Path, url: str, content: bytes) -> None:
    """Place `content` where a mirror of `url` serves it."""
    target = root / mirrored_url(url, "").lstrip("/")
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_bytes(content)


def release_for(content: bytes, name: str = "dices-350") -> Release:
    url = f"https://example.org/{name}.csv"
    return Release(name, url, f"dices/{name}.csv", len(content), hashlib.sha256(content).hexdigest())


def leftovers(out: Path) -> list[Path]:
    return [p for p in out.rglob("*") if p.is_file()] if out.exists() else []


def test_verified_file_is_placed_and_nothing_else_is_left(server: tuple[str, Path], tmp_path: Path) -> None:
    base, root = server
    content = b"id,rater_id\n1,123456789012345\n" * 1000
    release = release_for(content)
    serve(root, release.url, content)
    placed = fetch_releases(tmp_path / "out", (release,), mirror=base)
    assert placed == [tmp_path / "out" / "dices" / "dices-350.csv"]
    assert placed[0].read_bytes() == content
    assert leftovers(tmp_path / "out") == placed


def test_tampered_file_is_refused_and_leaves_nothing(server: tuple[str, Path], tmp_path: Path) -> None:
    base, root = server
    content = b"the published bytes\n" * 100
    release = release_for(content)
    serve(root, release.url, content.replace(b"published", b"tampered!"))
    with pytest.raises(DwhError, match="SHA-256 .* does not match the published"):
        fetch_releases(tmp_path / "out", (release,), mirror=base)
    assert leftovers(tmp_path / "out") == []


def test_interrupted_download_resumes_with_a_range_request(server: tuple[str, Path], tmp_path: Path) -> None:
    base, root = server
    content = bytes(range(256)) * 4096
    release = release_for(content)
    serve(root, release.url, content)
    work = tmp_path / "out" / ".fetch"
    work.mkdir(parents=True)
    (work / "dices-350.part").write_bytes(content[:300_000])
    RangeRequestHandler.range_requests.clear()
    fetch_releases(tmp_path / "out", (release,), mirror=base)
    assert RangeRequestHandler.range_requests == ["bytes=300000-"]
    assert (tmp_path / "out" / "dices" / "dices-350.csv").read_bytes() == content


def test_cli_names_the_url_when_the_size_is_wrong(server: tuple[str, Path], tmp_path: Path) -> None:
    base, root = server
    official = next(r for r in OFFICIAL_RELEASES if r.name == "redial")
    serve(root, official.url, b"PK\x03\x04 not the real release")
    completed = run_dwh(["fetch", str(tmp_path / "out"), "--only", "redial", "--mirror", base], tmp_path / "w.duckdb")
    assert completed.returncode == 1
    assert completed.stderr.strip().splitlines() == [
        f"dwh: error: {mirrored_url(official.url, base)}: got 25 bytes, expected 5,765,261; nothing was kept"
    ]
    assert leftovers(tmp_path / "out") == []


def duo_archive(real_duo: Path, tamper: str | None = None) -> bytes:
    """The GitHub archive of the pinned commit: the tree under one top folder, one file optionally altered."""
    data = io.BytesIO()
    with zipfile.ZipFile(data, "w") as zf:
        for file in sorted(p for p in real_duo.rglob("*") if p.is_file()):
            relative = file.relative_to(real_duo).as_posix()
            content = file.read_bytes()
            if relative == tamper:
                content = content.replace(b"Human", b"human", 1)
            zf.writestr(f"duo-dataset-{DUO_COMMIT}/{relative}", content)
    return data.getvalue()


@pytest.mark.slow
def test_duo_archive_is_verified_file_by_file(server: tuple[str, Path], real_duo: Path, tmp_path: Path) -> None:
    base, root = server
    official = next(r for r in OFFICIAL_RELEASES if r.name == "duo")
    serve(root, official.url, duo_archive(real_duo))
    completed = run_dwh(["fetch", str(tmp_path / "out"), "--only", "duo", "--mirror", base], tmp_path / "w.duckdb")
    assert completed.returncode == 0, completed.stderr
    fetched = sorted(p.relative_to(tmp_path / "out" / "duo") for p in (tmp_path / "out" / "duo").rglob("*.json"))
    assert len(fetched) == 455
    assert (tmp_path / "out" / "duo" / "ed" / "en" / "0003.json").read_bytes() == (
        real_duo / "ed/en/0003.json"
    ).read_bytes()

    serve(root, official.url, duo_archive(real_duo, tamper="wow/ja/3000.json"))
    completed = run_dwh(["fetch", str(tmp_path / "again"), "--only", "duo", "--mirror", base], tmp_path / "w.duckdb")
    assert completed.returncode == 1
    assert "wow/ja/3000.json: SHA-256 differs" in completed.stderr
    assert leftovers(tmp_path / "again") == []
