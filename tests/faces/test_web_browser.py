"""The page in headless Chromium, as a person uses it: drop a filing, wait for it, ask, read the boxed page
in the viewer, follow up, delete.

Needs Debian's ``chromium`` (.ci/setup.d/20-chromium.sh installs it in CI). Set DOCQA_UPDATE_SCREENSHOT=1
to refresh docs/screenshot-viewer.png and docs/screenshot-thread.png from this run.
"""

from __future__ import annotations

import base64
import os
import re
from pathlib import Path

import pytest
from playwright.sync_api import expect, sync_playwright

from tests.conftest import SAMPLES, require
from tests.faces.web_helpers import ROOT, Server, highlight_pixels

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--no-first-run"]
NETFLIX = SAMPLES / "NETFLIX_2017_10K.pdf"
FIGURE_QUESTION = "What was Netflix's operating income in 2017?"
VIEWER_SHOT = ROOT / "docs" / "screenshot-viewer.png"
THREAD_SHOT = ROOT / "docs" / "screenshot-thread.png"

# Every text the asking line shows, kept as it is shown: a stage can pass quicker than a poll.
WATCH_STAGES = """() => {
  window.stageTexts = [];
  new MutationObserver((records) => {
    for (const r of records) for (const n of r.addedNodes) window.stageTexts.push(n.textContent);
  }).observe(document.getElementById("ask-stage"), { childList: true });
}"""

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
def test_the_workbench_from_upload_to_a_deleted_document(browser, server, tmp_path):
    """Upload, ask, read the cited page in the viewer, zoom, leave the page and come back to the
    citation, ask a follow-up that keeps the company, see the thread, delete the filing and see
    its answers marked in the history."""
    page = browser.new_page(viewport={"width": 1440, "height": 1000})
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.on("dialog", lambda dialog: dialog.accept())  # the delete confirmation
    page.goto(server.url + "/")
    page.get_by_text("No documents yet").wait_for()

    # drop a filing on the drop zone, and a text file named .pdf through the chooser
    transfer = page.evaluate_handle(DROP_FILE, [NETFLIX.name, base64.b64encode(NETFLIX.read_bytes()).decode()])
    page.dispatch_event("#drop", "drop", {"dataTransfer": transfer})
    notes = tmp_path / "notes.pdf"
    notes.write_text("not a PDF at all\n" * 10)
    page.set_input_files("#file-input", [str(notes)])
    refused = page.locator("#uploads li[data-status=refused]", has_text="notes.pdf")
    refused.get_by_text("not a PDF").wait_for()
    refused.locator("button.dismiss").click()  # dismissable
    expect(refused).to_have_count(0)
    # one row per file while it uploads and indexes, and once it is ready
    rows = page.locator("#uploads li, #documents li").filter(has_text=NETFLIX.name)
    expect(rows).to_have_count(1)
    ready = page.locator("#documents li[data-status=ready]", has_text=NETFLIX.name)
    ready.wait_for(timeout=180_000)
    expect(rows).to_have_count(1)
    assert "Netflix" in ready.inner_text() and "73 pages" in ready.inner_text()

    # ask: the stages shown as the server reports them, then a verified figure, its cited page open
    # in the viewer with the evidence boxed
    page.evaluate(WATCH_STAGES)
    page.fill("#question", FIGURE_QUESTION)
    page.click("#ask-button")
    badge = page.locator("#answer-badge")
    expect(badge).to_have_text("Verified", timeout=120_000)
    shown = page.evaluate("window.stageTexts")
    assert "Searching 73 pages of 1 filing…" in shown, shown
    steps = page.locator("#ask-steps li")
    assert [steps.nth(i).get_attribute("data-stage") for i in range(steps.count())] == [
        "understanding", "searching", "reading", "verifying"]
    expect(page.locator("#answer-understood")).to_contain_text("Netflix operating income, FY2017")
    caption = page.locator("#page-caption")
    expect(caption).to_have_attribute("data-page", "42", timeout=30_000)
    expect(caption).to_contain_text("printed page 40")  # the physical page and the number printed on it
    expect(page.locator("#citations .page-button").first).to_contain_text("p. 42 (printed 40)")
    cited = page.locator(".vpage[data-page='42']")
    expect(cited.locator("img")).to_have_js_property("complete", True, timeout=60_000)
    assert cited.get_attribute("data-evidence") in ("quote", "figures")
    assert highlight_pixels(cited.screenshot(), tolerance=40) > 50, "the boxed evidence is not visible"
    expect(page.locator(".vpage")).to_have_count(73)  # the whole filing, laid out for scrolling
    fit_width = cited.locator("img").evaluate("(img) => img.naturalWidth")

    # zoom: the page is drawn again, larger, the box still on it and in view
    page.select_option("#viewer-zoom", "200")
    expect(cited).to_have_attribute("data-scale", re.compile(r"^[2-8]"), timeout=60_000)
    expect(cited.locator("img")).to_have_js_property("complete", True, timeout=60_000)
    assert cited.locator("img").evaluate("(img) => img.naturalWidth") > 1.5 * fit_width
    frame_shot = page.locator("#viewer-pages").screenshot()
    assert highlight_pixels(frame_shot, tolerance=40) > 50, "zoomed in, the evidence is not in view"
    if os.environ.get("DOCQA_UPDATE_SCREENSHOT") == "1":
        page.select_option("#viewer-zoom", "100")
        expect(cited).to_have_attribute("data-scale", re.compile(r"^[12]"), timeout=60_000)
        expect(cited.locator("img")).to_have_js_property("complete", True, timeout=60_000)
        page.evaluate("document.querySelector('#evidence').scrollIntoView()")
        page.wait_for_timeout(300)
        page.screenshot(path=str(VIEWER_SHOT))
        page.select_option("#viewer-zoom", "200")

    # jump to another page, and back to the citation
    page.fill("#page-input", "10")
    page.press("#page-input", "Enter")
    expect(caption).to_have_attribute("data-page", "10")
    expect(page.locator(".vpage[data-page='10'] img")).to_have_js_property("complete", True, timeout=60_000)
    page.click("#page-next")
    expect(caption).to_have_attribute("data-page", "11")
    page.click("#cite-next")  # one citation: next comes back round to it
    expect(caption).to_have_attribute("data-page", "42")
    expect(caption).to_contain_text("cited")

    # a follow-up that names only the year: the company and the metric come from the thread; asked of
    # a server without the stream, the page falls back to the plain POST /api/ask
    page.route("**/api/ask/stream", lambda route: route.fulfill(
        status=404, content_type="application/json",
        body='{"error": {"code": "not_found", "message": "no such endpoint"}}'))
    page.fill("#question", "and in 2016?")
    page.click("#ask-button")
    expect(page.locator("#thread li")).to_have_count(2, timeout=120_000)
    page.unroute("**/api/ask/stream")
    expect(page.locator("#answer-understood")).to_contain_text("Netflix operating income, FY2016")
    expect(page.locator("#answer-understood")).to_contain_text("company")
    expect(page.locator("#answer-question")).to_contain_text("What was Netflix's operating income in 2016?")
    expect(badge).to_have_text("Verified")
    assert "2016" in page.inner_text("#answer-text")
    expect(page.locator("#thread li").first).to_contain_text(FIGURE_QUESTION)
    expect(page.locator("#thread li").nth(1)).to_contain_text("and in 2016?")
    expect(page.locator("#history li")).to_have_count(2)
    expect(page.locator("#history li .origin").first).to_have_text("WEB")
    expect(page.locator(".vpage[data-page='42'] img")).to_have_js_property("complete", True, timeout=60_000)
    if os.environ.get("DOCQA_UPDATE_SCREENSHOT") == "1":
        page.select_option("#viewer-zoom", "fit")
        expect(page.locator(".vpage[data-page='42'] img")).to_have_js_property("complete", True, timeout=60_000)
        page.evaluate("window.scrollTo(0, 0)")
        page.wait_for_timeout(300)
        page.screenshot(path=str(THREAD_SHOT))

    # history search finds the follow-up by the words it was asked with
    page.fill("#history-search", "2016")
    expect(page.locator("#history li")).to_have_count(1)
    page.fill("#history-search", "")
    expect(page.locator("#history li")).to_have_count(2)

    # delete the filing: its answers stay in the history, marked, no longer "Verified"
    page.locator("#documents li", has_text=NETFLIX.name).get_by_role("button", name=f"Delete {NETFLIX.name}").click()
    expect(page.locator("#documents li")).to_have_count(0)
    expect(page.locator("#history li[data-deleted=true]")).to_have_count(2)
    expect(page.locator("#history li .badge").first).to_have_text("Document deleted")
    page.locator("#history li button.open").first.click()
    expect(badge).to_have_text("Document deleted")
    expect(page.locator("#evidence")).to_be_hidden()

    # a narrow screen: one column, nothing wider than the phone
    page.set_viewport_size({"width": 390, "height": 844})
    page.wait_for_timeout(200)
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 392, f"page is {width}px wide on a 390px screen"
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
        page.fill("#question", "What was Netflix's revenue in 2017?")  # and so does the streamed ask
        page.click("#ask-button")
        expect(page.locator("#answer-badge")).to_have_text("Not found", timeout=60_000)
        expect(page.locator("#answer-reason")).to_contain_text("no documents yet")
        expect(page.locator("#ask-steps li").first).to_have_attribute("data-stage", "understanding")
