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
from tests.faces.web_helpers import ROOT, Server, highlight_pixels, small_pdf

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
    expect(page.locator("#history li")).to_have_count(1)  # one conversation of two questions
    expect(page.locator("#history li").first).to_contain_text("2 questions")
    expect(page.locator("#history li .origin").first).to_have_text("WEB")
    expect(page.locator(".vpage[data-page='42'] img")).to_have_js_property("complete", True, timeout=60_000)
    if os.environ.get("DOCQA_UPDATE_SCREENSHOT") == "1":
        page.select_option("#viewer-zoom", "fit")
        expect(page.locator(".vpage[data-page='42'] img")).to_have_js_property("complete", True, timeout=60_000)
        page.evaluate("window.scrollTo(0, 0)")
        page.wait_for_timeout(300)
        page.screenshot(path=str(THREAD_SHOT))

    # the conversation list's search finds it by the follow-up's words
    page.fill("#history-search", "2016")
    expect(page.locator("#history li")).to_have_count(1)
    page.fill("#history-search", "no such words here")
    expect(page.locator("#history li")).to_have_count(0)
    page.fill("#history-search", "")
    expect(page.locator("#history li")).to_have_count(1)

    # delete the filing: its answers stay in the history, marked, no longer "Verified"
    page.locator("#documents li", has_text=NETFLIX.name).get_by_role("button", name=f"Delete {NETFLIX.name}").click()
    expect(page.locator("#documents li")).to_have_count(0)
    expect(page.locator("#history li[data-deleted=true]")).to_have_count(1)
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


def upload_and_wait(page, path: Path) -> None:
    page.set_input_files("#file-input", str(path))
    page.locator("#documents li[data-status=ready]", has_text=path.name).wait_for(timeout=120_000)


def ask_in_page(page, question: str) -> None:
    turns = page.locator("#thread li").count()
    page.fill("#question", question)
    page.click("#ask-button")
    expect(page.locator("#thread li")).to_have_count(turns + 1, timeout=60_000)


COUNT = "How many times does '{}' appear in filing.pdf?"


def test_conversations_are_listed_paged_reopened_after_a_reload_and_a_restart_renamed_and_deleted(
        browser, tmp_path):
    """The conversation list: named by the first question, paged past 20, the open one kept in the
    address so a reload (and a server restart) reopens it with its turns and evidence; renamed; deleted
    with an undo; rows take a visible keyboard focus ring."""
    import httpx

    server = Server(tmp_path / "index", tmp_path / "server.log").start()
    try:
        page = browser.new_page(viewport={"width": 1440, "height": 900})
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.goto(server.url + "/")
        upload_and_wait(page, small_pdf(tmp_path / "filing.pdf", pages=3))
        ask_in_page(page, COUNT.format("revenue"))
        ask_in_page(page, COUNT.format("income"))
        thread = page.evaluate("new URLSearchParams(location.search).get('c')")
        assert thread and re.fullmatch(r"[0-9a-f]{12}", thread)
        rows = page.locator("#history li")
        expect(rows).to_have_count(1)  # one conversation of two questions, not two rows
        expect(rows.first).to_contain_text(COUNT.format("revenue"))
        expect(rows.first).to_contain_text("2 questions")
        for n in range(22):  # 23 conversations: more than a page of 20
            r = httpx.post(server.url + "/api/ask", json={"question": COUNT.format(f"word{n}")}, timeout=60)
            assert r.status_code == 200, r.text

        page.reload()  # the open conversation comes back with its turns and its evidence
        expect(page.locator("#thread li")).to_have_count(2, timeout=30_000)
        expect(page.locator("#answer-question")).to_contain_text(COUNT.format("income"))
        expect(page.locator("#evidence .vpage.cited img").first).to_have_js_property("complete", True, timeout=60_000)
        expect(rows).to_have_count(20)
        expect(page.locator("#history-count")).to_have_text("Showing 20 of 23")
        page.click("#history-more")
        expect(rows).to_have_count(23)
        expect(page.locator("#history-more")).to_be_hidden()

        # renamed, by the keyboard: the row's rename button, a name, Enter
        mine = page.locator(f"#history li[data-id='{thread}']")
        mine.get_by_role("button", name=re.compile("^Rename")).click()
        page.locator("#history .rename-input").fill("Word counts")
        page.keyboard.press("Enter")
        expect(mine.locator(".title")).to_have_text("Word counts")

        # a restart of the server on the same index and port: the reload reopens the conversation, named
        port = server.port
        server.stop()
        server = Server(tmp_path / "index", tmp_path / "server.log")
        server.port, server.url = port, f"http://127.0.0.1:{port}"
        server.start()
        page.reload()
        expect(page.locator("#thread li")).to_have_count(2, timeout=30_000)
        expect(page.locator("#thread-status")).to_have_text("“Word counts” · 2 questions")
        page.click("#history-more")  # the oldest conversation is on the second page
        expect(mine.locator(".title")).to_have_text("Word counts")
        assert page.evaluate("new URLSearchParams(location.search).get('c')") == thread

        # a visible focus ring on a row reached by the keyboard
        page.focus("#history-search")
        page.keyboard.press("Tab")
        page.keyboard.press("Tab")
        focused = page.evaluate("""() => { const el = document.activeElement; const s = getComputedStyle(el);
            return [el.className, s.outlineStyle, parseFloat(s.outlineWidth)]; }""")
        assert focused[0] == "open" and focused[1] == "solid" and focused[2] >= 2, focused

        # deleted: gone at once, back with Undo; deleted for good once the undo has run out
        mine.locator("button.remove").click()
        expect(mine).to_have_count(0)
        expect(page.locator("#thread")).to_be_hidden()  # the open conversation was the one deleted
        page.click("#undo-button")
        expect(mine).to_have_count(1)
        assert httpx.get(f"{server.url}/api/conversations/{thread}").status_code == 200
        mine.locator("button.remove").click()
        expect(page.locator("#undo-bar")).to_be_hidden(timeout=30_000)
        expect(page.locator("#history-count")).to_have_text("Showing 22 of 22", timeout=30_000)
        assert httpx.get(f"{server.url}/api/conversations/{thread}").status_code == 404
        page.reload()
        assert page.evaluate("new URLSearchParams(location.search).get('c')") is None
        assert errors == []
    finally:
        server.stop()


def test_an_html_filing_is_uploaded_and_its_evidence_read_in_the_filings_own_layout(browser, server, tmp_path):
    """An EDGAR .htm dropped on the page is indexed; its answer's cited page opens in the filing's own
    layout with the quoted row and the cited cell marked; nothing of the filing runs or loads."""
    from tests.faces.test_web_html import hostile_filing

    filing = hostile_filing(tmp_path)
    page = browser.new_page(viewport={"width": 1440, "height": 900})
    errors: list[str] = []
    requests: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.on("request", lambda request: requests.append(request.url))
    page.goto(server.url + "/")
    upload_and_wait(page, filing)
    expect(page.locator("#documents li", has_text=filing.name)).to_contain_text("Apple Inc.")
    page.fill("#question", "What was Apple's net income in Q3 2023?")
    page.click("#ask-button")
    expect(page.locator("#answer-badge")).to_have_text("Verified", timeout=60_000)
    expect(page.locator("#viewer-layout-group")).to_be_visible()
    html_page = page.locator("#viewer-pages .html-page[data-page='3']")
    expect(html_page.locator(".f-cited")).to_contain_text("19,881", timeout=30_000)
    expect(html_page.locator("tr.f-quoted")).to_have_count(1)
    expect(html_page.locator("tr.f-quoted")).to_contain_text("Net income")
    assert html_page.locator(".f-cited").evaluate("(c) => getComputedStyle(c).outlineStyle") == "solid"
    if os.environ.get("DOCQA_UPDATE_SCREENSHOT") == "1":
        page.evaluate("document.querySelector('#answer').scrollIntoView()")
        page.wait_for_timeout(300)
        page.screenshot(path=str(ROOT / "docs" / "screenshot-html.png"))
    # the page with the filing's script, image, link and frame: none of it is there, nothing was fetched
    page.fill("#page-input", "1")
    page.press("#page-input", "Enter")
    expect(page.locator("#viewer-pages .html-page[data-page='1']")).to_contain_text("a link")
    assert page.locator("#viewer-pages .html-page script, #viewer-pages .html-page img, "
                        "#viewer-pages .html-page a, #viewer-pages iframe").count() == 0
    assert page.evaluate("window.pwned") is None
    # the page image is still there to choose
    page.select_option("#viewer-layout", "image")
    expect(page.locator(".vpage[data-page='1'] img")).to_have_js_property("complete", True, timeout=60_000)
    assert all(u.startswith((server.url, "blob:", "data:")) for u in requests), [
        u for u in requests if not u.startswith((server.url, "blob:", "data:"))]
    assert errors == []


NO_SIDEWAYS = """(w) => [document.documentElement.scrollWidth,
  [...document.querySelectorAll('body *')].filter((e) => e.getBoundingClientRect().right > w + 1
    && !e.closest('.viewer-pages, .figures-wrap, .formula')).map((e) => e.tagName + '#' + e.id + '.' + e.className)]"""
ANSWER_IN_VIEW = """() => { const r = document.getElementById('answer').getBoundingClientRect();
  return r.top >= 0 && r.top < innerHeight * 0.6; }"""


def _settled(page, width: int, timeout: float = 10_000) -> None:
    """Wait until nothing is wider than ``width`` or the time is up (the assertion then says what is)."""
    try:
        page.wait_for_function(f"() => ({NO_SIDEWAYS})({width})[0] <= {width} && ({NO_SIDEWAYS})({width})[1].length === 0",
                               timeout=timeout)
    except Exception:  # noqa: BLE001 - the caller's assertion reports what is still too wide
        pass


def test_on_a_phone_the_answer_comes_into_view_and_nothing_overflows_sideways(browser, server, tmp_path):
    """At 390 px the answer is scrolled into view once it comes; at 360, 390 and 414 px nothing is wider
    than the screen (a long file name, the figure table, the scope picker open); a long badge leaves a
    conversation's name the row's width."""
    from tests.faces.test_web_html import hostile_filing

    page = browser.new_page(viewport={"width": 390, "height": 844})
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(server.url + "/")
    upload_and_wait(page, hostile_filing(tmp_path))
    upload_and_wait(page, small_pdf(tmp_path / ("A_VERY_LONG_FILE_NAME_WITHOUT_ANY_SPACES_IN_IT_" * 2 + "2023.pdf")))
    page.fill("#question", "What was Apple's net income in Q3 2023?")
    page.click("#ask-button")
    expect(page.locator("#answer-badge")).to_have_text("Verified", timeout=60_000)
    page.wait_for_function(ANSWER_IN_VIEW, timeout=30_000)  # a wait, not a speed check: a loaded CI runner scrolls late
    expect(page.locator("#answer-figures td").nth(1)).to_contain_text("(USD millions)")
    if os.environ.get("DOCQA_UPDATE_SCREENSHOT") == "1":
        page.wait_for_timeout(800)  # the smooth scroll ends
        page.screenshot(path=str(ROOT / "docs" / "screenshot-phone.png"))

    # a long badge beside a conversation's name (as a passages answer has)
    def long_badge(route):
        body = route.fetch().json()
        for c in body["conversations"]:
            c["badge"], c["badge_key"] = "Passages found — not an answer", "passages"
        route.fulfill(json=body)

    page.route("**/api/conversations?*", long_badge)
    page.fill("#history-search", "net income")
    expect(page.locator("#history li .badge").first).to_have_text("Passages found — not an answer")
    for width in (360, 390, 414):
        page.set_viewport_size({"width": width, "height": 844})
        _settled(page, width)  # the layout settles after a resize (slowly on a busy machine)
        scroll_width, wide = page.evaluate(NO_SIDEWAYS, width)
        assert scroll_width <= width and wide == [], (width, scroll_width, wide)
        title = page.locator("#history li .title").first.bounding_box()
        assert title["width"] > 0.6 * width - 60 and title["height"] < 80, (width, title)
        page.click("#scope-summary")
        expect(page.locator("#scope-picker .scope-body")).to_be_visible()
        _settled(page, width)  # the picker's rows are laid out after it opens (slowly on a busy machine)
        scroll_width, wide = page.evaluate(NO_SIDEWAYS, width)
        assert scroll_width <= width and wide == [], ("scope picker open", width, scroll_width, wide)
        page.keyboard.press("Escape")
    assert errors == []


def test_the_scope_picker_lists_filings_and_closes_like_a_menu(browser, server, tmp_path):
    """Each filing in the picker reads company · type · period (its file name below); Escape closes it
    and gives the focus back, and so does a click outside it."""
    from tests.faces.test_web_html import hostile_filing

    page = browser.new_page(viewport={"width": 1440, "height": 900})
    page.goto(server.url + "/")
    upload_and_wait(page, hostile_filing(tmp_path))
    picker = page.locator("#scope-picker")
    page.click("#scope-summary")
    expect(picker).to_have_js_property("open", True)
    entry = page.locator("#scope-documents .scope-doc").first
    expect(entry.locator(".scope-doc-filing")).to_have_text("Apple Inc. · 10-Q · FY2023 Q3")
    expect(entry.locator(".scope-doc-name")).to_have_text("aapl-10-q-2023-07-01.htm")
    entry.locator("input").check()
    expect(page.locator("#scope-summary")).to_contain_text("aapl-10-q-2023-07-01.htm")
    page.keyboard.press("Escape")
    expect(picker).to_have_js_property("open", False)
    assert page.evaluate("document.activeElement.id") == "scope-summary"
    page.click("#scope-summary")
    expect(picker).to_have_js_property("open", True)
    page.click("h1")  # outside
    expect(picker).to_have_js_property("open", False)
    page.click("#scope-summary")
    page.focus("#question")  # focus leaving it closes it too
    expect(picker).to_have_js_property("open", False)


def test_the_cited_page_has_a_text_layer_to_select_and_copy_quotes_and_figures(browser, server, tmp_path):
    """Over the page image lies a transparent layer of the page's words at their boxes: a double click
    selects a figure, a drag across a row selects the row's words."""
    page = browser.new_page(viewport={"width": 1440, "height": 900})
    page.goto(server.url + "/")
    upload_and_wait(page, small_pdf(tmp_path / "filing.pdf", pages=2))
    page.fill("#question", COUNT.format("revenue"))
    page.click("#ask-button")
    expect(page.locator("#answer-badge")).to_have_text("Verified", timeout=60_000)
    layer = page.locator(".vpage[data-page='1'] .textlayer")
    figure = layer.locator("span", has_text=re.compile(r"^1,234 ?$"))
    expect(figure).to_have_count(1, timeout=30_000)
    assert figure.evaluate("(s) => getComputedStyle(s).color") == "rgba(0, 0, 0, 0)"  # transparent over the image
    box = figure.bounding_box()
    image = page.locator(".vpage[data-page='1'] img").bounding_box()
    assert image["x"] <= box["x"] and box["x"] + box["width"] <= image["x"] + image["width"]
    figure.dblclick()
    assert page.evaluate("getSelection().toString().trim()") == "1,234"
    start = layer.locator("span", has_text=re.compile(r"^Total ?$")).first.bounding_box()
    end = layer.locator("span", has_text=re.compile(r"^1,000 ?$")).first.bounding_box()
    page.mouse.move(start["x"] + 1, start["y"] + start["height"] / 2)
    page.mouse.down()
    page.mouse.move(end["x"] + end["width"] - 1, end["y"] + end["height"] / 2, steps=8)
    page.mouse.up()
    assert " ".join(page.evaluate("getSelection().toString()").split()) == "Total revenue 1,234 1,000"


def test_the_main_page_has_no_serious_accessibility_violation(browser, server, tmp_path):
    """axe-core (axe-playwright-python ships it) over the page with a filing, an answer, its evidence
    and the conversation list: no serious or critical violation; a skip link leads to the question box."""
    from axe_playwright_python.sync_playwright import Axe

    page = browser.new_page(viewport={"width": 1440, "height": 900})
    page.goto(server.url + "/")
    upload_and_wait(page, small_pdf(tmp_path / "filing.pdf", pages=2))
    page.fill("#question", COUNT.format("revenue"))
    page.click("#ask-button")
    expect(page.locator("#answer-badge")).to_have_text("Verified", timeout=60_000)
    expect(page.locator(".vpage[data-page='1'] img")).to_have_js_property("complete", True, timeout=60_000)
    expect(page.locator("#history li")).to_have_count(1)
    results = Axe().run(page)
    serious = [v for v in results.response["violations"] if v["impact"] in ("serious", "critical")]
    assert serious == [], results.generate_snapshot() + "\n" + "\n".join(
        f"{v['id']}: {[n['target'] for n in v['nodes']][:5]}" for v in serious)
    # the first Tab reaches the skip link, and it leads to the question box
    print("axe:", results.generate_snapshot() or "no violation")
    page.reload()
    page.locator("#documents li").first.wait_for()
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.textContent") == "Skip to the question box"
    page.keyboard.press("Enter")
    assert page.evaluate("document.activeElement.id") == "question"


def test_a_server_that_cannot_be_reached_is_said_in_words_and_the_page_comes_back_with_it(browser, tmp_path):
    """Asking while the server is down says it cannot be reached (not "Failed to fetch") and keeps
    trying; once it is back on its port the banner goes and the page carries on."""
    server = Server(tmp_path / "index", tmp_path / "server.log").start()
    try:
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        page.goto(server.url + "/")
        upload_and_wait(page, small_pdf(tmp_path / "filing.pdf"))
        port = server.port
        server.stop()
        page.fill("#question", COUNT.format("revenue"))
        page.click("#ask-button")
        banner = page.locator("#error-banner")
        expect(banner).to_contain_text("The docqa server cannot be reached", timeout=20_000)
        assert "Failed to fetch" not in banner.inner_text()
        expect(page.locator("#ask-button")).to_be_enabled()
        server = Server(tmp_path / "index", tmp_path / "server.log")
        server.port, server.url = port, f"http://127.0.0.1:{port}"
        server.start()
        expect(banner).to_be_hidden(timeout=30_000)  # it came back by itself
        page.click("#ask-button")
        expect(page.locator("#answer-badge")).to_have_text("Verified", timeout=60_000)
    finally:
        server.stop()
