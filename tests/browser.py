"""Open a page in headless Chromium (Debian's `chromium`, driven by Playwright) as a person would,
with the network cut off, and report what went wrong: console errors, page errors, failed
requests, and any request that tried to leave the machine."""

import os
import shutil
from dataclasses import dataclass, field
from pathlib import Path

import pytest

LOCAL_SCHEMES = ("file:", "data:", "blob:", "about:")


@dataclass
class PageVisit:
    """What happened while a page loaded and settled."""

    title: str = ""
    console_errors: list[str] = field(default_factory=list)
    failed_requests: list[str] = field(default_factory=list)
    network_requests: list[str] = field(default_factory=list)
    drawn_charts: list[dict] = field(default_factory=list)


def chromium_executable() -> str:
    """Debian's chromium; `make test` installs it. Missing in CI is a failure, elsewhere a skip."""
    found = shutil.which("chromium") or shutil.which("chromium-browser")
    if found:
        return found
    message = "Debian's chromium is not installed (`make test` installs it: apt-get install chromium)"
    if os.environ.get("CI"):
        pytest.fail(message)
    pytest.skip(message)


# every <svg> and <canvas> on the page, with its size and how many marks it drew
CHARTS_SCRIPT = """() => [...document.querySelectorAll('svg, canvas')]
    .filter(element => !element.parentElement.closest('svg'))
    .map(element => {
        const box = element.getBoundingClientRect();
        return {
            tag: element.tagName.toLowerCase(),
            section: element.closest('section') ? element.closest('section').id : null,
            width: box.width, height: box.height,
            marks: element.tagName.toLowerCase() === 'canvas' ? 1 :
                element.querySelectorAll('[class~="role-mark"] > *').length,
        };
    })"""


def visit(page_path: Path, screenshot: Path, settle_ms: int = 1000) -> PageVisit:
    """Load `page_path` from file://, block every request that is not local, screenshot the full page."""
    from playwright.sync_api import sync_playwright

    result = PageVisit()
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium_executable(), args=["--no-sandbox"])
        try:
            context = browser.new_context(viewport={"width": 1400, "height": 1000})

            def local_only(route) -> None:
                if route.request.url.startswith(LOCAL_SCHEMES):
                    route.continue_()
                else:
                    result.network_requests.append(route.request.url)
                    route.abort()

            context.route("**/*", local_only)
            page = context.new_page()
            page.on(
                "console",
                lambda message: (
                    message.type == "error"
                    and result.console_errors.append(f"{message.text} (at {message.location.get('url', '?')})")
                ),
            )
            page.on("pageerror", lambda error: result.console_errors.append(str(error)))
            page.on("requestfailed", lambda request: result.failed_requests.append(request.url))
            page.goto(page_path.resolve().as_uri(), wait_until="load")
            page.wait_for_timeout(settle_ms)
            result.title = page.title()
            result.drawn_charts = page.evaluate(CHARTS_SCRIPT)
            screenshot.parent.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(screenshot), full_page=True)
        finally:
            browser.close()
    return result
