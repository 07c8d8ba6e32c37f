"""`dwh fetch OUT`: download the real releases, verify them, and only then lay them out for ingest.

Every download goes to `<final name>.part` under OUT/.fetch/, is checked against its published
size and SHA-256 (DUO: the pinned commit's archive, checked file by file against the manifest in
dwh/transfer/manifests/), and is moved into the ingest layout only when it matches. A mismatch is a
clear error and leaves no file behind. An interrupted download resumes from its `.part` file
with an HTTP Range request where the server allows it.
"""

import hashlib
import os
import shutil
import tempfile
import urllib.error
import urllib.request
import zipfile
from dataclasses import dataclass, replace
from importlib import resources
from pathlib import Path, PurePosixPath
from urllib.parse import urlparse

from tqdm import tqdm

from common.errors import DwhError
from ingest.archives import unsafe_member_reason

DUO_COMMIT = "a1c424371fc6fb716184bb177beaba91a183093a"
CHUNK_BYTES = 1 << 20


@dataclass(frozen=True)
class Release:
    """One downloadable file: where it comes from, what it must be, where it goes under OUT."""

    name: str
    url: str
    destination: str
    size: int | None
    sha256: str | None
    manifest: str | None = None  # per-file manifest of an archive, instead of size and sha256


OFFICIAL_RELEASES = (
    Release(
        "dices-350",
        "https://raw.githubusercontent.com/google-research-datasets/dices-dataset/main/350/diverse_safety_adversarial_dialog_350.csv",
        "dices/350/diverse_safety_adversarial_dialog_350.csv",
        31143485,
        "63cb8620eb04e64957f9e45b1f7cb3d079c4eed8e8b28909f46e0b7038ce4301",
    ),
    Release(
        "dices-990",
        "https://raw.githubusercontent.com/google-research-datasets/dices-dataset/main/990/diverse_safety_adversarial_dialog_990.csv",
        "dices/990/diverse_safety_adversarial_dialog_990.csv",
        50399432,
        "14332b6391cdee80383b765c734de3bebf6d8553141ee7d2f47ef0910a12fcf7",
    ),
    Release(
        "redial",
        "https://github.com/ReDialData/website/raw/data/redial_dataset.zip",
        "redial/redial_dataset.zip",
        5765261,
        "b48756681ec6f84e0af36979c5e9baa21ea8d9e7036b8764ea9b787bb0baf69b",
    ),
    Release(
        "duo",
        f"https://github.com/ikuminumaya/duo-dataset/archive/{DUO_COMMIT}.zip",
        "duo",
        None,
        None,
        manifest=f"duo-{DUO_COMMIT}.sha256",
    ),
)


def fetch_releases(
    out_dir: Path, releases: tuple[Release, ...] = OFFICIAL_RELEASES, mirror: str | None = None
) -> list[Path]:
    """Download, verify and lay out each release; returns the paths placed under `out_dir`."""
    work_dir = out_dir / ".fetch"
    work_dir.mkdir(parents=True, exist_ok=True)
    placed = []
    for release in releases:
        if mirror:
            release = replace(release, url=mirrored_url(release.url, mirror))
        part = work_dir / (release.name + ".part")
        download(release.url, part, release.name)
        try:
            placed.append(_verify_and_place(release, part, out_dir))
        finally:
            part.unlink(missing_ok=True)
    shutil.rmtree(work_dir, ignore_errors=True)
    return placed


def mirrored_url(url: str, mirror: str) -> str:
    """The same file on a mirror laid out as <mirror>/<host>/<path> (used by tests and offline copies)."""
    parsed = urlparse(url)
    return f"{mirror.rstrip('/')}/{parsed.netloc}{parsed.path}"


def download(url: str, part: Path, label: str) -> None:
    """Fetch `url` into `part`, resuming from what `part` already holds when the server supports ranges."""
    already = part.stat().st_size if part.exists() else 0
    request = urllib.request.Request(url, headers={"Range": f"bytes={already}-"} if already else {})
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            resumed = already and response.status == 206
            total = _expected_total(response, already if resumed else 0)
            with (
                open(part, "ab" if resumed else "wb") as sink,
                tqdm(
                    total=total, initial=already if resumed else 0, unit="B", unit_scale=True, desc=label, disable=None
                ) as bar,
            ):
                while chunk := response.read(CHUNK_BYTES):
                    sink.write(chunk)
                    bar.update(len(chunk))
    except urllib.error.HTTPError as exc:
        if exc.code == 416 and already:  # the part file is already complete
            return
        raise DwhError(f"{url}: download failed with HTTP {exc.code} {exc.reason}") from exc
    except (urllib.error.URLError, OSError) as exc:
        raise DwhError(f"{url}: download failed ({exc}); run dwh fetch again to resume") from exc


def _expected_total(response, offset: int) -> int | None:
    length = response.headers.get("Content-Length")
    return int(length) + offset if length else None


def _verify_and_place(release: Release, part: Path, out_dir: Path) -> Path:
    if release.manifest:
        return _place_verified_archive(release, part, out_dir)
    _check_size_and_hash(release, part)
    destination = out_dir / release.destination
    destination.parent.mkdir(parents=True, exist_ok=True)
    os.replace(part, destination)
    return destination


def _check_size_and_hash(release: Release, part: Path) -> None:
    size = part.stat().st_size
    if release.size is not None and size != release.size:
        raise DwhError(f"{release.url}: got {size:,} bytes, expected {release.size:,}; nothing was kept")
    digest = sha256_of(part)
    if release.sha256 and digest != release.sha256:
        raise DwhError(
            f"{release.url}: SHA-256 {digest} does not match the published {release.sha256}; nothing was kept"
        )


def sha256_of(path: Path) -> str:
    """SHA-256 of a file, read in chunks."""
    digest = hashlib.sha256()
    with open(path, "rb") as source:
        while chunk := source.read(CHUNK_BYTES):
            digest.update(chunk)
    return digest.hexdigest()


def read_manifest(name: str) -> dict[str, str]:
    """`<sha256>  <relative path>` lines of a shipped manifest, as {path: sha256}."""
    text = (resources.files("dwh.transfer") / "manifests" / name).read_text(encoding="utf-8")
    return {path: digest for digest, path in (line.split("  ", 1) for line in text.splitlines() if line.strip())}


def _place_verified_archive(release: Release, part: Path, out_dir: Path) -> Path:
    """Extract an archive to a temporary folder, check every manifest file, then move the tree in."""
    expected = read_manifest(release.manifest)
    destination = out_dir / release.destination
    with tempfile.TemporaryDirectory(prefix="dwh-fetch-", dir=out_dir) as scratch:
        extracted = _extract_archive_files(release, part, Path(scratch), set(expected))
        problems = [f"{path}: missing" for path in sorted(set(expected) - set(extracted))]
        problems += [
            f"{path}: SHA-256 differs" for path, file in sorted(extracted.items()) if sha256_of(file) != expected[path]
        ]
        if problems:
            shown = "; ".join(problems[:3]) + (f"; and {len(problems) - 3} more" if len(problems) > 3 else "")
            raise DwhError(f"{release.url}: the archive does not match the pinned commit ({shown}); nothing was kept")
        staged = Path(scratch) / "verified"
        for path, file in extracted.items():
            (staged / path).parent.mkdir(parents=True, exist_ok=True)
            os.replace(file, staged / path)
        if destination.exists():
            shutil.rmtree(destination)
        os.replace(staged, destination)
    return destination


def _extract_archive_files(release: Release, part: Path, scratch: Path, wanted: set[str]) -> dict[str, Path]:
    """Manifest files of the archive by their path inside the release (the archive's top folder dropped)."""
    try:
        archive = zipfile.ZipFile(part)
    except zipfile.BadZipFile as exc:
        raise DwhError(f"{release.url}: not a zip archive ({exc}); nothing was kept") from exc
    found: dict[str, Path] = {}
    with archive:
        for index, info in enumerate(archive.infolist()):
            if info.is_dir():
                continue
            if reason := unsafe_member_reason(info.filename):
                raise DwhError(f"{release.url}: refusing member {info.filename!r}: it {reason}; nothing was kept")
            inner = PurePosixPath(*PurePosixPath(info.filename).parts[1:]).as_posix()
            if inner in wanted:
                target = scratch / "members" / str(index)
                target.parent.mkdir(parents=True, exist_ok=True)
                with archive.open(info) as source, open(target, "wb") as sink:
                    shutil.copyfileobj(source, sink)
                found[inner] = target
    return found
