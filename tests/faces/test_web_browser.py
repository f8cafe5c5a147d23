"""The page in headless Chromium, as a person uses it: drop a filing, wait for it, ask, check the boxed page.

Needs Debian's ``chromium`` (.ci/setup.d/20-chromium.sh installs it in CI). Set DOCQA_UPDATE_SCREENSHOT=1
to refresh docs/screenshot-answer.png from this run.
"""

from __future__ import annotations

import base64
import os
from pathlib import Path

import pytest
from playwright.sync_api import expect, sync_playwright

from tests.conftest import SAMPLES, require
from tests.faces.web_helpers import ROOT, Server, highlight_pixels, small_pdf

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--no-first-run"]
NETFLIX = SAMPLES / "NETFLIX_2017_10K.pdf"
QUESTION = "How many times does 'streaming' appear in NETFLIX_2017_10K.pdf?"
FIGURE_QUESTION = "What was Netflix's operating margin in 2017?"
SCREENSHOT = ROOT / "docs" / "screenshot-answer.png"

DROP_FILE = """([name, b64]) => {
  const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
  const transfer = new DataTransfer();
  transfer.items.add(new File([bytes], name, { type: "application/pdf" }));
  return transfer;
}"""


@pytest.fixture
def browser():
    require(CHROMIUM.exists(), "chromium (/usr/bin/chromium)")
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS, headless=True)
        yield browser
        browser.close()


@pytest.fixture
def server(tmp_path):
    with Server(tmp_path / "index", tmp_path / "server.log") as s:
        yield s


@pytest.mark.slow
def test_upload_ask_and_see_the_highlighted_page(browser, server, tmp_path):
    page = browser.new_page(viewport={"width": 1440, "height": 1100})
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(server.url + "/")
    page.get_by_text("No documents yet").wait_for()

    # drag and drop a filing onto the drop zone ...
    transfer = page.evaluate_handle(DROP_FILE, [NETFLIX.name, base64.b64encode(NETFLIX.read_bytes()).decode()])
    page.dispatch_event("#drop", "drop", {"dataTransfer": transfer})
    # ... and pick another through the file chooser, with a text file beside it
    notes = tmp_path / "notes.pdf"
    notes.write_text("not a PDF at all\n" * 10)
    page.set_input_files("#file-input", [str(small_pdf(tmp_path / "example.pdf")), str(notes)])

    page.locator("#uploads li[data-status=refused]", has_text="notes.pdf").get_by_text("not a PDF").wait_for()
    ready = page.locator("#documents li[data-status=ready]", has_text=NETFLIX.name)
    ready.wait_for(timeout=180_000)
    assert "Netflix" in ready.inner_text() and "73 pages" in ready.inner_text()
    page.locator("#documents li[data-status=ready]", has_text="example.pdf").wait_for(timeout=60_000)
    page.locator("#examples button", has_text="Netflix").first.wait_for()

    page.fill("#question", QUESTION)
    page.click("#ask-button")
    badge = page.locator("#answer-badge")
    badge.wait_for()
    expect(badge).not_to_be_empty()
    assert badge.inner_text() == "Verified"
    assert "streaming" in page.inner_text("#answer-text")
    assert page.locator("#citations .page-button").count() >= 1
    assert page.locator("#citations .page-button.active").count() == 1

    expect(page.locator("#page-img")).to_have_attribute("data-evidence", "quote")
    expect(page.locator("#page-img")).to_have_js_property("complete", True)
    assert page.locator("#page-img").evaluate("(img) => img.naturalWidth") > 500
    shot = page.locator("#page-img").screenshot()
    assert highlight_pixels(shot, tolerance=40) > 50, "the boxed evidence is not visible on the page image"

    page.click("#helpful-yes")
    page.get_by_text("Thanks — recorded.").wait_for()
    page.locator("#history li", has_text="streaming").wait_for()

    # a figure question: the answer with its formula and inputs, for the screenshot in docs/
    expect(page.locator("#uploads li[data-status=ready]")).to_have_count(0, timeout=15_000)  # done rows step aside
    page.fill("#question", FIGURE_QUESTION)
    page.click("#ask-button")
    expect(page.locator("#answer-question")).to_have_text(FIGURE_QUESTION)
    expect(badge).not_to_be_empty()
    expect(page.locator("#history li")).to_have_count(2)
    if page.locator("#page-img").get_attribute("data-evidence"):
        expect(page.locator("#page-img")).to_have_js_property("complete", True)
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=str(tmp_path / "answer.png"), full_page=True)
    if os.environ.get("DOCQA_UPDATE_SCREENSHOT") == "1":
        SCREENSHOT.parent.mkdir(exist_ok=True)
        page.screenshot(path=str(SCREENSHOT), full_page=False)

    # a narrow screen: one column, nothing wider than the phone
    page.set_viewport_size({"width": 390, "height": 844})
    page.wait_for_timeout(200)
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 392, f"page is {width}px wide on a 390px screen"
    assert page.locator("#page-img").bounding_box()["width"] <= 390
    assert page.is_visible("#answer-badge") and page.is_visible("#question")
    page.screenshot(path=str(tmp_path / "narrow.png"), full_page=True)
    assert errors == []


def test_a_server_with_a_token_asks_for_it_once(browser, tmp_path):
    with Server(tmp_path / "index", tmp_path / "server.log", env={"DOCQA_API_TOKEN": "t0ken-for-test"}) as server:
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        page.goto(server.url + "/")
        page.locator("#token-banner").wait_for()
        page.fill("#token-input", "t0ken-for-test")
        page.click("#token-form button")
        page.get_by_text("No documents yet").wait_for()
        expect(page.locator("#token-banner")).to_be_hidden()
        notes = tmp_path / "notes.pdf"
        notes.write_text("plain text\n" * 10)
        page.set_input_files("#file-input", str(notes))  # the upload carries the token too
        page.locator("#uploads li[data-status=refused]").get_by_text("not a PDF").wait_for()
