// docqa's page: upload, watch indexing, ask, and check the answer against the highlighted page.
// Plain JavaScript, no build step. Text from the server is only ever set with textContent.
"use strict";

const $ = (id) => document.getElementById(id);
const TOKEN_KEY = "docqa-token";
// The badge's words come from the server (app/badge.py, the same on every face); these only stand in
// for a reply from an older server without them.
const BADGES = { verified: "Verified", partial: "Partially verified", passages: "Passages found — not an answer",
  not_found: "Not found", deleted: "Document deleted" };

function badgeOf(answer, deleted) {
  const key = deleted ? "deleted" : (answer.badge_key || answer.verification);
  const words = deleted && !answer.badge_key ? BADGES.deleted : (answer.badge || BADGES[key] || key);
  return { key, words };
}
const STATUS_WORDS = { queued: "queued", processing: "indexing", ready: "ready", failed: "failed" };

const state = {
  documents: [],
  uploads: new Map(),   // local key -> {row, id, name}
  answer: null,         // the answer shown
  citedPages: [],       // the answer's cited pages (PageLink), in order: next/previous citation steps through them
  labels: new Map(),    // "docid:page" -> the page number the filing prints there
  thread: null,         // the conversation a follow-up continues
  scope: { documents: [], company: "" },
  viewer: null,
  conversation: null,   // the conversation open (its id, kept in the address as ?c=)
  historyRows: [],      // the conversations listed, newest activity first
  historyTotal: 0,
  historyShown: 0,
  pendingDeletes: new Map(),  // conversation id -> {conversation, timer}: deleted unless undone
  unreachable: false,   // the server could not be reached: the banner says so until /healthz answers again
  htmlMode: "html",     // how an HTML filing's page is shown: "html" (its own layout) or "image"
  pollTimer: null,
  readyIds: "",
};

// --- talking to the API ------------------------------------------------------------------------

class ApiError extends Error {
  constructor(status, code, message, body) { super(message); this.status = status; this.code = code; this.body = body; }
}

function authHeaders() {
  const token = sessionStorage.getItem(TOKEN_KEY);
  return token ? { Authorization: `Bearer ${token}` } : {};
}

// A server that cannot be reached (stopped, restarting, the network gone) makes fetch throw a bare
// "Failed to fetch": it is said in words here, and the page tries again until the server is back.
const UNREACHABLE = "The docqa server cannot be reached (is docqa serve still running?). Trying again…";

async function reach(path, init) {
  try {
    return await fetch(path, init);
  } catch (err) {
    if (err && err.name === "AbortError") throw err;
    serverUnreachable();
    throw new ApiError(0, "unreachable", UNREACHABLE);
  }
}

function serverUnreachable() {
  if (state.unreachable) return;
  state.unreachable = true;
  const banner = $("error-banner");
  clearTimeout(showError.timer);
  banner.replaceChildren(el("span", { text: UNREACHABLE + " " }),
    el("button", { type: "button", class: "small", id: "retry-now", text: "Retry now", onclick: () => pollServer() }));
  banner.hidden = false;
  pollServer();
}

async function pollServer() {
  clearTimeout(state.reachTimer);
  let back = false;
  try { back = (await fetch("/healthz", { cache: "no-store" })).ok; } catch (_) { back = false; }
  if (!back) { state.reachTimer = setTimeout(pollServer, 3000); return; }
  state.unreachable = false;
  $("error-banner").hidden = true;
  $("error-banner").replaceChildren();
  refreshAll();
}

async function api(path, { method = "GET", json, raw = false } = {}) {
  const headers = authHeaders();
  const init = { method, headers };
  if (json !== undefined) { headers["Content-Type"] = "application/json"; init.body = JSON.stringify(json); }
  const res = await reach(path, init);
  if (res.status === 401) { askForToken(); }
  if (!res.ok) { throw await toError(res); }
  return raw ? res : res.json();
}

async function toError(res) {
  let body = null;
  try { body = await res.json(); } catch (_) { /* not JSON */ }
  const err = body && body.error ? body.error : { code: "http_" + res.status, message: res.statusText || "request failed" };
  return new ApiError(res.status, err.code, err.message, body);
}

function showError(err) {
  const banner = $("error-banner");
  if (state.unreachable) return;  // the banner says the server cannot be reached until it is back
  if (!err) { banner.hidden = true; return; }
  if (err.status === 401) return; // the token banner says it
  banner.textContent = err.message || String(err);
  banner.hidden = false;
  clearTimeout(showError.timer);
  showError.timer = setTimeout(() => { banner.hidden = true; }, 8000);
}

function askForToken() {
  $("token-banner").hidden = false;
  $("token-input").focus();
}

$("token-form").addEventListener("submit", (ev) => {
  ev.preventDefault();
  sessionStorage.setItem(TOKEN_KEY, $("token-input").value.trim());
  $("token-banner").hidden = true;
  refreshAll();
});

// --- small DOM helpers -----------------------------------------------------------------------------

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (key === "class") node.className = value;
    else if (key === "text") node.textContent = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else if (key.startsWith("data")) node.setAttribute(key.replace(/[A-Z]/g, (c) => "-" + c.toLowerCase()), value);
    else node.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children) if (child !== null && child !== undefined) node.append(child);
  return node;
}

function bar(fraction, indeterminate = false) {
  const fill = el("span");
  fill.style.width = `${Math.round(Math.max(0, Math.min(1, fraction)) * 100)}%`;
  return el("div", { class: "bar" + (indeterminate ? " indeterminate" : ""), role: "progressbar",
    "aria-valuemin": "0", "aria-valuemax": "100", "aria-valuenow": String(Math.round(fraction * 100)) }, fill);
}

const DOC_TYPE_WORDS = { "10k": "10-K", "20f": "20-F", "40f": "40-F", annual_report: "annual report",
  financial_statements: "financial statements", "10q": "10-Q", "8k": "8-K", earnings: "earnings release", other: "other" };

function filingWords(doc) {  // "Apple Inc. · 10-Q · FY2023 Q3"
  const m = doc.meta || {};
  return [m.company, m.doc_type ? (DOC_TYPE_WORDS[m.doc_type] || m.doc_type) : null,
    m.fiscal_year ? "FY" + m.fiscal_year + (m.fiscal_quarter ? " Q" + m.fiscal_quarter : "") : null]
    .filter(Boolean).join(" · ");
}

function describe(doc) {
  const pages = doc.pages ? doc.pages + (doc.pages === 1 ? " page" : " pages") : null;
  return [filingWords(doc), pages].filter(Boolean).join(" · ");
}

function ago(iso) {
  if (!iso) return "";
  const seconds = (Date.now() - new Date(iso).getTime()) / 1000;
  if (seconds < 60) return "just now";
  if (seconds < 3600) return Math.floor(seconds / 60) + " min ago";
  if (seconds < 86400) return Math.floor(seconds / 3600) + " h ago";
  return new Date(iso).toLocaleDateString();
}

// --- uploading ------------------------------------------------------------------------------------

const drop = $("drop");
const fileInput = $("file-input");
drop.addEventListener("click", () => fileInput.click());
drop.addEventListener("keydown", (ev) => { if (ev.key === "Enter" || ev.key === " ") { ev.preventDefault(); fileInput.click(); } });
fileInput.addEventListener("change", () => { uploadFiles(fileInput.files); fileInput.value = ""; });
for (const name of ["dragenter", "dragover"]) {
  drop.addEventListener(name, (ev) => { ev.preventDefault(); drop.classList.add("over"); });
}
for (const name of ["dragleave", "dragend"]) drop.addEventListener(name, () => drop.classList.remove("over"));
drop.addEventListener("drop", (ev) => {
  ev.preventDefault();
  drop.classList.remove("over");
  if (ev.dataTransfer && ev.dataTransfer.files.length) uploadFiles(ev.dataTransfer.files);
});
// A file dropped beside the box should not make the browser leave the page to open it.
window.addEventListener("dragover", (ev) => ev.preventDefault());
window.addEventListener("drop", (ev) => ev.preventDefault());

function uploadFiles(files) {
  for (const file of Array.from(files)) uploadOne(file);
}

function uploadRow(item) {
  const { key, name, status, fraction, indeterminate, message, isError } = item;
  const settled = status === "refused" || status === "failed" || status === "ready";
  const row = el("li", { class: "upload", "data-status": status },
    el("div", { class: "row" }, el("span", { class: "name", text: name }),
      el("span", { class: "row" }, el("span", { class: `status ${status}`, text: STATUS_WORDS[status] || status }),
        settled ? el("button", { type: "button", class: "dismiss", "aria-label": `Dismiss ${name}`, title: "Dismiss",
          text: "×", onclick: () => removeUpload(key) }) : null)),
    bar(fraction, indeterminate),
    message ? el("div", { class: isError ? "reason" : "meta", text: message }) : null);
  return row;
}

function setUpload(key, item) {
  const entry = state.uploads.get(key);
  const row = uploadRow({ ...entry, ...item });
  Object.assign(entry, item);
  entry.row.replaceWith(row);
  entry.row = row;
}

function uploadOne(file) {
  const key = Math.random().toString(36).slice(2);
  const row = el("li");
  $("uploads").prepend(row);
  state.uploads.set(key, { key, row, name: file.name, id: null });
  setUpload(key, { status: "uploading", fraction: 0, message: `uploading ${(file.size / 1048576).toFixed(1)} MB` });

  const form = new FormData();
  form.append("files", file, file.name);
  const xhr = new XMLHttpRequest();
  xhr.open("POST", "/api/documents");
  for (const [k, v] of Object.entries(authHeaders())) xhr.setRequestHeader(k, v);
  xhr.upload.addEventListener("progress", (ev) => {
    if (ev.lengthComputable) setUpload(key, { fraction: ev.loaded / ev.total, message: `uploading ${Math.round(100 * ev.loaded / ev.total)}%` });
  });
  xhr.addEventListener("load", () => {
    let body = null;
    try { body = JSON.parse(xhr.responseText); } catch (_) { /* not JSON */ }
    if (xhr.status === 401) { askForToken(); }
    const result = body && body.files && body.files[0];
    if (result && result.accepted) {
      setUpload(key, { id: result.id, status: "queued", fraction: 0, indeterminate: true, message: "uploaded; waiting to be indexed" });
      schedulePoll(300);
    } else {
      const reason = result ? result.reason : (body && body.error ? body.error.message : `upload failed (HTTP ${xhr.status})`);
      setUpload(key, { status: "refused", fraction: 0, indeterminate: false, message: reason, isError: true });
    }
  });
  xhr.addEventListener("error", () => {
    setUpload(key, { status: "refused", message: "the server cannot be reached: upload it again once it is back",
      isError: true });
    serverUnreachable();
  });
  xhr.send(form);
}

function followUploads() {
  // An upload row follows its document from queued to ready (or failed), then steps aside; a row
  // whose job is gone (cancelled, or deleted elsewhere) is cleared.
  const byId = new Map(state.documents.map((d) => [d.id, d]));
  for (const [key, entry] of state.uploads) {
    if (!entry.id || entry.done) continue;
    const doc = byId.get(entry.id);
    if (!doc) { removeUpload(key); continue; }
    if (doc.status === "ready") {  // the document's own row takes over: one row per file
      removeUpload(key);
    } else if (doc.status === "failed") {
      setUpload(key, { status: "failed", fraction: 0, indeterminate: false, message: doc.reason, isError: true });
      entry.done = true;
    } else if (doc.status === "processing") {
      const f = doc.pages_total ? doc.pages_done / doc.pages_total : 0;
      setUpload(key, { status: "processing", fraction: f, indeterminate: !doc.pages_total || doc.pages_done === 0,
        message: doc.pages_total ? `reading pages: ${doc.pages_done} of ${doc.pages_total}` : "reading the file" });
    }
  }
}

function removeUpload(key) {
  const entry = state.uploads.get(key);
  if (!entry) return;
  entry.row.remove();
  state.uploads.delete(key);
}

function tracked(id) {
  for (const entry of state.uploads.values()) if (entry.id === id && !entry.done) return true;
  return false;
}

// --- the documents list -----------------------------------------------------------------------------

function documentRow(doc) {
  const status = doc.status;
  const pending = status === "queued" || status === "processing";
  const fraction = doc.pages_total ? doc.pages_done / doc.pages_total : 0;
  const progressText = status === "processing"
    ? (doc.pages_total ? `${doc.pages_done} of ${doc.pages_total} pages` : "reading the file") : null;
  return el("li", { "data-id": doc.id, "data-status": status },
    el("div", { class: "row" },
      el("span", { class: "name", text: doc.file_name }),
      el("span", { class: `status ${status}`, text: STATUS_WORDS[status] || status })),
    el("div", { class: "meta", text: [describe(doc), progressText].filter(Boolean).join(" · ") }),
    pending ? bar(fraction, status === "queued" || !doc.pages_done) : null,
    status === "failed" && doc.reason ? el("div", { class: "reason", text: doc.reason }) : null,
    status !== "failed" && doc.reason ? el("div", { class: "note", text: doc.reason }) : null,
    ...(doc.warnings || []).map((w) => el("div", { class: "note", text: `warning: ${w}` })),
    el("div", { class: "row" }, el("span"),
      el("button", { class: "delete", type: "button", "aria-label": `Delete ${doc.file_name}`,
        onclick: () => deleteDocument(doc), text: pending ? "Cancel" : "Delete" })));
}

function renderDocuments() {
  // A file being uploaded has one row: its upload row, until it is indexed (or fails).
  const shown = state.documents.filter((d) => d.status === "ready" || !tracked(d.id));
  $("documents").replaceChildren(...shown.map(documentRow));
  $("docs-empty").hidden = state.documents.length > 0 || state.uploads.size > 0;
  renderScopePicker();
}

async function deleteDocument(doc) {
  if (!confirm(`Delete ${doc.file_name} from the index?`)) return;
  try {
    await api(`/api/documents/${encodeURIComponent(doc.id)}`, { method: "DELETE" });
  } catch (err) { showError(err); }
  for (const [key, entry] of state.uploads) if (entry.id === doc.id) removeUpload(key);
  if (state.viewer.documentId === doc.id) closeViewer();
  await refreshDocuments();
  refreshHistory();
}

async function refreshDocuments() {
  try {
    const body = await api("/api/documents");
    state.documents = body.documents;
  } catch (err) { showError(err); return; }
  followUploads();
  renderDocuments();
  const readyIds = state.documents.filter((d) => d.status === "ready").map((d) => d.id).join(",");
  if (readyIds !== state.readyIds) { state.readyIds = readyIds; refreshExamples(); }
  const busy = state.documents.some((d) => d.status === "queued" || d.status === "processing")
    || Array.from(state.uploads.values()).some((u) => !u.done && u.status !== "refused");
  schedulePoll(busy ? 1000 : 15000);
}

function schedulePoll(ms) {
  clearTimeout(state.pollTimer);
  state.pollTimer = setTimeout(refreshDocuments, ms);
}

// --- scope: several documents or a company ------------------------------------------------------------

function readyDocuments() { return state.documents.filter((d) => d.status === "ready"); }

function renderScopePicker() {
  const ready = readyDocuments();
  state.scope.documents = state.scope.documents.filter((id) => ready.some((d) => d.id === id));
  const companies = [...new Set(ready.map((d) => d.meta && d.meta.company).filter(Boolean))].sort();
  if (state.scope.company && !companies.includes(state.scope.company)) state.scope.company = "";
  $("scope-company").replaceChildren(el("option", { value: "", text: "any" }),
    ...companies.map((c) => el("option", { value: c, text: c })));
  $("scope-company").value = state.scope.company;
  $("scope-documents").replaceChildren(...ready.map((d) => el("label", { class: "scope-doc" },
    el("input", { type: "checkbox", value: d.id, checked: state.scope.documents.includes(d.id),
      onchange: (ev) => {
        const ids = new Set(state.scope.documents);
        if (ev.target.checked) ids.add(d.id); else ids.delete(d.id);
        state.scope.documents = [...ids];
        renderScopeSummary();
      } }),
    el("span", { class: "scope-doc-words" }, el("span", { class: "scope-doc-filing", text: filingWords(d) || d.file_name }),
      filingWords(d) ? el("span", { class: "scope-doc-name", text: d.file_name }) : null))));
  renderScopeSummary();
}

function scopeWords(scope) {
  const names = (scope.document_names && scope.document_names.length ? scope.document_names
    : (scope.documents || []).map((id) => { const d = state.documents.find((x) => x.id === id); return d ? d.file_name : id; }));
  const parts = [];
  if (names.length) parts.push(names.length > 2 ? `${names.length} documents` : names.join(", "));
  if (scope.company) parts.push(scope.company);
  if (scope.year) parts.push("FY" + scope.year);
  if (scope.doc_type) parts.push(scope.doc_type);
  return parts.join(" · ");
}

function renderScopeSummary() {
  $("scope-summary").textContent = "Scope: " + (scopeWords(state.scope) || "all documents");
}

$("scope-company").addEventListener("change", (ev) => { state.scope.company = ev.target.value; renderScopeSummary(); });
// The picker closes as a menu does: on Escape (focus back on it) and on a click or focus outside it.
function closeScopePicker(focusSummary) {
  const picker = $("scope-picker");
  if (!picker.open) return;
  picker.open = false;
  if (focusSummary) $("scope-summary").focus();
}
document.addEventListener("keydown", (ev) => {
  if (ev.key === "Escape" && $("scope-picker").open) { ev.preventDefault(); closeScopePicker(true); }
});
document.addEventListener("pointerdown", (ev) => { if (!$("scope-picker").contains(ev.target)) closeScopePicker(false); });
document.addEventListener("focusin", (ev) => { if (!$("scope-picker").contains(ev.target)) closeScopePicker(false); });
$("scope-clear").addEventListener("click", () => {
  state.scope = { documents: [], company: "" };
  renderScopePicker();
  $("scope-picker").open = false;
});

function pagesInScope() {
  let docs = readyDocuments();
  if (state.scope.documents.length) docs = docs.filter((d) => state.scope.documents.includes(d.id));
  if (state.scope.company) docs = docs.filter((d) => d.meta && d.meta.company === state.scope.company);
  return docs.reduce((n, d) => n + (d.pages || 0), 0);
}

// --- example questions -----------------------------------------------------------------------------

// Each suggestion was asked by the server and answered, Verified; while it is still checking them
// ("pending") the page asks again for more.
async function refreshExamples(tries = 0) {
  clearTimeout(state.examplesTimer);
  let body = { examples: [], pending: false };
  try { body = await api("/api/examples"); } catch (err) { return; }
  $("examples").replaceChildren(...body.examples.map((q) =>
    el("button", { type: "button", text: q, onclick: () => { $("question").value = q; ask(); } })));
  $("examples").dataset.pending = body.pending ? "true" : "false";
  if (body.pending && tries < 120) state.examplesTimer = setTimeout(() => refreshExamples(tries + 1), 2000);
}

// --- asking, in a conversation ------------------------------------------------------------------------

$("ask-form").addEventListener("submit", (ev) => { ev.preventDefault(); ask(); });

// The server says each stage of its work as it begins (POST /api/ask/stream, Server-Sent Events):
// the line shows the stage it is on and what it works on, with the elapsed time; the stages passed
// stay listed. A server without the stream gets the plain POST /api/ask, and the line then says
// only how long it has been.
const TIMING_WORDS = [["search_ms", "search"], ["figures_ms", "statements"], ["answer_ms", "reading and verifying"]];

function timingWords(timings) {
  if (!timings) return "";
  const parts = TIMING_WORDS.filter(([key]) => timings[key] !== undefined)
    .map(([key, words]) => `${words} ${(timings[key] / 1000).toFixed(1)} s`);
  return parts.length ? `(${parts.join(" · ")})` : "";
}

function startProgress() {
  const started = performance.now();
  const pages = pagesInScope();
  $("ask-progress").hidden = false;
  $("ask-stage").textContent = `Asking about ${pages.toLocaleString()} page${pages === 1 ? "" : "s"}…`;
  $("ask-stage").dataset.stage = "";
  $("ask-steps").replaceChildren();
  const tick = () => {
    const ms = performance.now() - started;
    $("ask-elapsed").textContent = `${(ms / 1000).toFixed(1)} s`;
  };
  tick();
  const timer = setInterval(tick, 100);
  return {
    stage(s) {  // a StageOut: name, title, detail, elapsed_s
      // the line says what it works on ("Searching 15,435 pages of 111 filings…"); the list names the stage
      $("ask-stage").textContent = s.detail ? `${s.detail[0].toUpperCase()}${s.detail.slice(1)}…` : `${s.title}…`;
      $("ask-stage").dataset.stage = s.name;
      const steps = $("ask-steps");
      for (const li of steps.children) li.className = "done";
      steps.append(el("li", { class: "current", "data-stage": s.name, text: s.title }));
    },
    stop() { clearInterval(timer); $("ask-progress").hidden = true; return performance.now() - started; },
  };
}

// The answer, its stages told to onStage as they begin; falls back to the plain endpoint when this
// server (or browser) cannot stream. Errors are the plain endpoint's, status and code alike.
async function askWatching(body, onStage) {
  if (!window.ReadableStream || !window.TextDecoderStream) return api("/api/ask", { method: "POST", json: body });
  const headers = { ...authHeaders(), "Content-Type": "application/json", Accept: "text/event-stream" };
  const res = await reach("/api/ask/stream", { method: "POST", headers, body: JSON.stringify(body) });
  if (res.status === 401) { askForToken(); }
  if (!res.ok) {
    const err = await toError(res);
    if (res.status === 405 || err.code === "not_found") return api("/api/ask", { method: "POST", json: body });
    throw err;
  }
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += value.replace(/\r\n/g, "\n");
    let end;
    while ((end = buffer.indexOf("\n\n")) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const event = { event: "message", data: "" };
      for (const line of block.split("\n")) {
        const colon = line.indexOf(":");
        if (colon <= 0) continue;
        const field = line.slice(0, colon), text = line.slice(colon + 1).replace(/^ /, "");
        if (field === "event") event.event = text;
        else if (field === "data") event.data += (event.data ? "\n" : "") + text;
      }
      if (!event.data) continue;
      const data = JSON.parse(event.data);
      if (event.event === "stage") onStage(data);
      else if (event.event === "answer") { reader.cancel().catch(() => {}); return data; }
      else if (event.event === "error") throw new ApiError(500, data.error.code, data.error.message, data);
    }
  }
  throw new ApiError(0, "stream_ended", "the server stopped before it answered; ask again");
}

async function ask() {
  const question = $("question").value.trim();
  if (!question) { $("question").focus(); return; }
  const button = $("ask-button");
  button.disabled = true;
  button.textContent = "Asking…";
  const body = { question };
  if (state.scope.documents.length) body.documents = state.scope.documents;
  if (state.scope.company) body.company = state.scope.company;
  if (state.thread) body.thread = state.thread;
  const progress = startProgress();
  try {
    const answer = await askWatching(body, progress.stage);
    const ms = progress.stop();
    showError(null);
    state.thread = answer.thread_id || null;
    rememberConversation(state.thread);
    $("question").value = "";
    $("question").placeholder = "Ask a follow-up, e.g. “and in 2017?” — or start a new conversation";
    renderAnswer(answer, { helpful: null, note: null }, ms);
    bringIntoView($("answer"));
    refreshThread();
    refreshHistory();
  } catch (err) {
    progress.stop();
    if (err.code === "thread_not_found") startNewConversation(false);
    showError(err);
  } finally {
    button.disabled = false;
    button.textContent = "Ask";
  }
}

function startNewConversation(focus = true) {
  state.thread = null;
  rememberConversation(null);
  renderThread([]);
  $("question").placeholder = "e.g. What were Amazon's capital expenditures in 2017?";
  if (focus) $("question").focus();
  renderHistory($("history-search").value.trim());
}

$("new-thread").addEventListener("click", () => startNewConversation());

// The answer scrolled into view once it is there: on a phone it comes far below the question box
// (the conversation, the box and the suggestions above it), where nobody saw it arrive.
function bringIntoView(node) {
  const top = node.getBoundingClientRect().top;
  if (top < 0 || top > window.innerHeight * 0.6) {
    const smooth = !window.matchMedia("(prefers-reduced-motion: reduce)").matches;
    window.scrollTo({ top: window.scrollY + top - 8, behavior: smooth ? "smooth" : "auto" });
  }
}

async function refreshThread() {
  if (!state.thread) { renderThread([]); return; }
  try {
    const body = await api(`/api/conversations/${encodeURIComponent(state.thread)}`);
    renderThread(body.turns, body.named ? body.title : null);
  } catch (err) { renderThread([]); }
}

function renderThread(questions, name = null) {
  $("thread").hidden = questions.length === 0;
  $("examples").hidden = questions.length > 0;  // in a conversation the follow-up box is the prompt
  $("thread-bar").hidden = questions.length === 0;
  const count = `${questions.length} question${questions.length === 1 ? "" : "s"}`;
  $("thread-status").textContent = questions.length ? `${name ? `“${name}”` : "Conversation"} · ${count}` : "";
  $("thread").replaceChildren(...questions.map((r) => el("li", { "data-id": r.id },
    el("button", { type: "button", class: state.answer && state.answer.id === r.id ? "turn current" : "turn",
      onclick: () => renderAnswer(r.answer, r) },
      badgeFor(r),
      el("span", { class: "q" },
        el("span", { class: "asked", text: (r.answer.asked || r.question) }),
        r.answer.understood && r.answer.understood !== (r.answer.asked || r.question)
          ? el("span", { class: "understood-small", text: `→ ${r.answer.understood}` }) : null),
      el("span", { class: "turn-text", text: shortAnswer(r.answer) })))));
}

function shortAnswer(answer) {
  const text = answer.text || "";
  return text.length > 110 ? text.slice(0, text.lastIndexOf(" ", 107)) + " …" : text;
}

const INHERITED_WORDS = { company: "company", period: "period", metric: "what was asked", scope: "scope" };

function renderAnswer(answer, record, elapsedMs) {
  state.answer = answer;
  // first: the page buttons below read the printed page numbers from it
  state.citedPages = (answer.pages || []).filter((p) => state.documents.some((d) => d.id === p.document_id));
  $("answer").hidden = false;
  const deleted = record && record.document_deleted;
  const badge = $("answer-badge");
  const shown = badgeOf(answer, deleted);
  badge.className = `badge ${shown.key}`;
  badge.textContent = shown.words;
  badge.dataset.verification = shown.key;
  const ms = answer.timings && answer.timings.total_ms;
  $("answer-meta").textContent = [
    elapsedMs !== undefined ? `answered in ${(elapsedMs / 1000).toFixed(1)} s ${timingWords(answer.timings)}`
      : (ms !== undefined ? `${(ms / 1000).toFixed(1)} s` : null),
    answer.origin && answer.origin !== "web" ? `asked from ${answer.origin.toUpperCase()}` : null,
    answer.citations_dropped ? `${answer.citations_dropped} unsupported citation(s) dropped` : null].filter(Boolean).join(" · ");
  const understood = $("answer-understood");
  understood.hidden = !answer.understood;
  const inherited = (answer.inherited || []).map((k) => INHERITED_WORDS[k] || k);
  understood.replaceChildren(el("strong", { text: "Understood as: " }), el("span", { text: answer.understood || "" }),
    ...(inherited.length ? [el("span", { class: "muted", text: ` (${inherited.join(", ")} from the conversation)` })] : []));
  $("answer-question").textContent = answer.asked && answer.asked !== answer.question
    ? `“${answer.asked}” — asked as: ${answer.question}` : answer.question;
  const scopeText = answer.scope ? scopeWords(answer.scope) : "";
  $("answer-scope").hidden = !scopeText;
  $("answer-scope").textContent = scopeText ? `Scope: ${scopeText}` : "";
  $("answer-text").textContent = answer.text;
  const reason = $("answer-reason");
  const why = deleted ? `${record.deleted_documents.join(", ")} was deleted since; the pages that proved this answer are gone.`
    : answer.reason;
  reason.hidden = !why;
  reason.textContent = why ? `Why: ${why}` : "";
  const notice = $("answer-notice");
  notice.hidden = !answer.notice;
  notice.textContent = answer.notice ? `Note: ${answer.notice}` : "";

  const formula = $("answer-formula");
  formula.hidden = !answer.formula;
  formula.replaceChildren(el("strong", { text: "Formula " }), el("code", { text: answer.formula || "" }));

  const figures = $("answer-figures");
  figures.hidden = !(answer.figures && answer.figures.length);
  const values = answer.figure_values || [];
  figures.tBodies[0].replaceChildren(...(answer.figures || []).map((f, i) => el("tr", {},
    el("td", { text: f.name }),
    // as printed with its unit and scale, a margin as a percentage (app/figures.py)
    el("td", { text: (values[i] || f.text) + (f.computed ? " (computed)" : "") }),
    el("td", { text: f.period || "" }),
    el("td", {}, f.page && f.document ? pageButton(f.document, documentIdFor(f.document), f.page, true) : "—"))));

  const citations = $("citations");
  citations.replaceChildren(...(answer.citations || []).map((c) => el("div", { class: "citation" },
    pageButton(c.document, c.document_id, c.page),
    // which segment or period the quote is about, beside it: the quote itself stays verbatim
    c.about ? el("span", { class: "about", text: c.about }) : null,
    el("blockquote", { text: `“${c.quote}”` }))));

  for (const b of document.querySelectorAll("#feedback button")) {
    b.classList.toggle("chosen", record.helpful !== null && record.helpful !== undefined && String(record.helpful) === b.dataset.helpful);
  }
  $("feedback-note").value = record.note || "";
  $("feedback-status").textContent = record.helpful === null || record.helpful === undefined ? "" : "Thanks — recorded.";
  $("feedback").hidden = !answer.id;
  for (const b of document.querySelectorAll("#thread .turn")) b.classList.toggle("current", b.parentElement.dataset.id === answer.id);

  if (state.citedPages.length && !deleted) openCitation(0);
  else closeViewer();
}

function documentIdFor(fileName) {
  const doc = state.documents.find((d) => d.file_name === fileName);
  return doc ? doc.id : null;
}

function labelFor(documentId, page) {
  const cited = (state.citedPages || []).find((p) => p.document_id === documentId && p.page === page);
  if (cited && cited.label) return cited.label;
  return state.labels.get(`${documentId}:${page}`) || null;
}

function pageWords(page, label) {
  // Physical page first (what citations count), the printed number beside it when the filing prints one.
  return label && label !== String(page) ? `p. ${page} (printed ${label})` : `p. ${page}`;
}

function pageButton(documentName, documentId, page, short = false) {
  const words = pageWords(page, labelFor(documentId, page));
  const label = short ? words : `${documentName} · ${words}`;
  if (!documentId) return el("span", { text: label });
  return el("button", { type: "button", class: "page-button", "data-doc": documentId, "data-page": String(page),
    title: `Show page ${page} of ${documentName}`, text: label,
    onclick: () => {
      const i = state.citedPages.findIndex((p) => p.document_id === documentId && p.page === page);
      if (i >= 0) openCitation(i); else openViewer(documentId, page);
      if (window.matchMedia("(max-width: 900px)").matches) $("evidence").scrollIntoView({ behavior: "smooth" });
    } });
}

// --- the document viewer: the whole filing, page images drawn by the server at the zoom asked -------

const CSS_PX_PER_PT = 96 / 72;
const KEEP_AROUND = 4;   // pages kept drawn either side of the ones in view; the rest are let go

function closeViewer() {
  $("evidence").hidden = true;
  if (state.viewer.observer) state.viewer.observer.disconnect();
  for (const url of state.viewer.urls.values()) URL.revokeObjectURL(url);
  state.viewer = freshViewer();
}

function freshViewer() {
  return { documentId: null, name: "", sizes: [], format: "pdf", mode: "image",
    zoom: $("viewer-zoom") ? $("viewer-zoom").value : "fit", current: 1,
    urls: new Map(), loading: new Map(), words: new Map(), observer: null, visible: new Set(), citation: -1,
    answerId: null };
}

function openCitation(i) {
  const pages = state.citedPages;
  if (!pages.length) return;
  const n = ((i % pages.length) + pages.length) % pages.length;
  state.viewer.citation = n;
  const p = pages[n];
  $("cite-status").textContent = `citation ${n + 1} of ${pages.length}`;
  openViewer(p.document_id, p.page);
}

$("cite-prev").addEventListener("click", () => openCitation(state.viewer.citation - 1));
$("cite-next").addEventListener("click", () => openCitation(state.viewer.citation + 1));

async function openViewer(documentId, page) {
  const v = state.viewer;
  const answerId = state.answer && state.answer.id;
  $("evidence").hidden = false;
  for (const b of document.querySelectorAll(".page-button")) {
    b.classList.toggle("active", b.dataset.doc === documentId && b.dataset.page === String(page));
  }
  const cited = state.citedPages.length > 0;
  // with one citation the buttons still bring the viewer back to it from wherever it was scrolled
  $("cite-prev").disabled = $("cite-next").disabled = !cited;
  if (!cited) $("cite-status").textContent = "no citations";
  if (v.documentId !== documentId || v.answerId !== answerId) {
    if (v.observer) v.observer.disconnect();
    for (const url of v.urls.values()) URL.revokeObjectURL(url);
    const fresh = freshViewer();
    Object.assign(v, fresh, { documentId, answerId, citation: v.citation });
    try {
      const body = await api(`/api/documents/${encodeURIComponent(documentId)}/pages`);
      if (v.documentId !== documentId) return;
      v.sizes = body.pages;
      v.name = body.file_name;
      v.format = body.format || "pdf";
      // an HTML filing is read in its own layout unless the page image is asked for
      v.mode = v.format === "html" ? state.htmlMode : "image";
    } catch (err) { showError(err); return; }
    $("viewer-layout-group").hidden = v.format !== "html";
    $("viewer-layout").value = v.mode;
    layoutPages();
  }
  goToPage(page);
}

function cssScale() {
  const v = state.viewer;
  const frame = $("viewer-pages");
  if (v.zoom === "fit") {
    const widest = Math.max(...v.sizes.map((s) => s.width), 1);
    return Math.max(0.2, (frame.clientWidth - 24) / widest);   // 24: the page's margin
  }
  return (Number(v.zoom) / 100) * CSS_PX_PER_PT;
}

function layoutPages() {
  const v = state.viewer;
  const frame = $("viewer-pages");
  if (v.mode === "html") { layoutHtml(); return; }
  const scale = cssScale();
  v.scale = scale;
  if (v.observer) v.observer.disconnect();
  v.visible.clear();
  v.observer = new IntersectionObserver(onPagesSeen, { root: frame, rootMargin: "300px 0px" });
  const cited = new Set(state.citedPages.filter((p) => p.document_id === v.documentId).map((p) => p.page));
  frame.replaceChildren(...v.sizes.map((s) => {
    const holder = el("div", { class: "vpage" + (cited.has(s.number) ? " cited" : ""), "data-page": String(s.number) },
      el("span", { class: "vpage-tag", text: pageWords(s.number, labelFor(v.documentId, s.number)) }));
    holder.style.width = `${Math.round(s.width * scale)}px`;
    holder.style.height = `${Math.round(s.height * scale)}px`;
    v.observer.observe(holder);
    return holder;
  }));
  $("page-input").max = String(v.sizes.length);
  $("page-of").textContent = `of ${v.sizes.length}`;
}

function onPagesSeen(entries) {
  const v = state.viewer;
  for (const entry of entries) {
    const n = Number(entry.target.dataset.page);
    if (entry.isIntersecting) { v.visible.add(n); drawPage(entry.target, n); } else v.visible.delete(n);
  }
  // Let go of pages far from view: a 300-page filing keeps a handful of images, not all of them.
  if (v.visible.size) {
    const lo = Math.min(...v.visible) - KEEP_AROUND, hi = Math.max(...v.visible) + KEEP_AROUND;
    for (const [n, url] of v.urls) {
      if (n < lo || n > hi) {
        URL.revokeObjectURL(url);
        v.urls.delete(n);
        const holder = pageHolder(n);
        const img = holder && holder.querySelector("img");
        if (img) img.remove();
      }
    }
  }
}

function pageHolder(n) { return $("viewer-pages").querySelector(`.vpage[data-page="${n}"]`); }

function imageScale() {
  // Pixels per PDF point for the image: the CSS scale times the screen's density, in steps of 1/4 so
  // that nearby zooms share the server's and the browser's cache; at most 4 (300 % on a 1x screen):
  // 8 (300 % on a 2x screen) cost 6x the CPU of 2 for a 549-page filing's pages (docs/web.md).
  const want = state.viewer.scale * (window.devicePixelRatio || 1);
  return Math.min(4, Math.max(0.25, Math.ceil(want * 4) / 4));
}

async function drawPage(holder, n) {
  const v = state.viewer;
  const scale = imageScale();
  const key = `${n}@${scale}`;
  if (v.urls.has(n) && holder.dataset.scale === String(scale)) return;
  if (v.loading.get(n) === key) return;
  v.loading.set(n, key);
  const documentId = v.documentId;
  const answerId = v.answerId;
  const url = `/api/documents/${encodeURIComponent(documentId)}/pages/${n}.png?scale=${scale}` +
    (answerId ? `&answer=${encodeURIComponent(answerId)}` : "");
  holder.classList.add("loading");
  try {
    const res = await api(url, { raw: true });
    const boxed = res.headers.get("X-Evidence") || "none";
    const label = res.headers.get("X-Page-Label");
    const blob = await res.blob();
    if (v.documentId !== documentId || v.loading.get(n) !== key) return;  // another document or zoom meanwhile
    if (label) { state.labels.set(`${documentId}:${n}`, label); }
    holder.querySelector(".vpage-tag").textContent = pageWords(n, labelFor(documentId, n));
    if (v.urls.has(n)) URL.revokeObjectURL(v.urls.get(n));
    const objectUrl = URL.createObjectURL(blob);
    v.urls.set(n, objectUrl);
    let img = holder.querySelector("img");
    if (!img) { img = el("img", { alt: "" }); holder.prepend(img); }
    img.dataset.evidence = boxed;
    img.dataset.page = String(n);
    img.alt = boxed === "none" ? `Page ${n} of ${v.name}` : `Page ${n} of ${v.name}, the evidence boxed`;
    img.src = objectUrl;
    holder.dataset.scale = String(scale);
    holder.dataset.evidence = boxed;
    const region = res.headers.get("X-Evidence-Region");
    if (region) holder.dataset.region = region;
    if (n === v.current) updateCaption();
    if (n === v.target && region) showRegion(holder, region);
    drawTextLayer(holder, n);
  } catch (err) {
    if (v.documentId === documentId) holder.dataset.error = err.message || "cannot draw this page";
    showError(err);
  } finally {
    if (v.loading.get(n) === key) v.loading.delete(n);
    holder.classList.remove("loading");
  }
}

// --- an HTML filing's page in its own layout (GET …/pages/{n}/html) -----------------------------------
// The server sends the page as a tree of allowed elements, never HTML; it is built here with
// createElement and textContent, from the same allow-list, so nothing of the filing runs or loads.

const HTML_TAGS = new Set(("table thead tbody tfoot tr td th caption p div span b strong i em u sup sub br " +
  "h1 h2 h3 h4 h5 h6 ul ol li blockquote pre hr").split(" "));
const HTML_MARKS = new Set(["quoted", "cited", "num"]);

function buildHtml(node) {
  if (typeof node === "string") return document.createTextNode(node);
  const tag = HTML_TAGS.has(node.t) ? node.t : "span";
  const out = document.createElement(tag);
  for (const [k, v] of Object.entries(node.a || {})) {
    if ((k === "colspan" || k === "rowspan") && /^\d{1,2}$/.test(v)) out.setAttribute(k, v);
  }
  const marks = (node.k || []).filter((k) => HTML_MARKS.has(k));
  if (marks.length) out.className = marks.map((k) => "f-" + k).join(" ");
  for (const child of node.c || []) out.append(buildHtml(child));
  return out;
}

function layoutHtml() {
  const v = state.viewer;
  const holder = el("div", { class: "html-page", "data-page": String(v.current), lang: "en" });
  holder.style.fontSize = v.zoom === "fit" ? "" : `${Number(v.zoom) * 0.85}%`;
  $("viewer-pages").replaceChildren(holder);
  $("page-input").max = String(v.sizes.length);
  $("page-of").textContent = `of ${v.sizes.length}`;
}

async function drawHtmlPage(n) {
  const v = state.viewer;
  const documentId = v.documentId, answerId = v.answerId;
  const holder = $("viewer-pages").querySelector(".html-page");
  if (!holder) return;
  holder.dataset.page = String(n);
  holder.classList.add("loading");
  const key = `${documentId}:${n}:${answerId}`;
  v.htmlKey = key;
  let body;
  try {
    body = await api(`/api/documents/${encodeURIComponent(documentId)}/pages/${n}/html` +
      (answerId ? `?answer=${encodeURIComponent(answerId)}` : ""));
  } catch (err) {
    if (v.htmlKey !== key) return;
    holder.classList.remove("loading");
    if (err.code === "no_html_layout") { v.mode = "image"; $("viewer-layout").value = "image"; layoutPages(); goToPage(n); return; }
    showError(err);
    return;
  }
  if (v.htmlKey !== key) return;  // another page or document meanwhile
  holder.classList.remove("loading");
  holder.replaceChildren(...body.nodes.map(buildHtml));
  holder.dataset.evidence = body.quoted || body.cited ? "marked" : "none";
  const mark = holder.querySelector(".f-cited") || holder.querySelector(".f-quoted");
  const frame = $("viewer-pages");
  const top = mark ? mark.getBoundingClientRect().top - frame.getBoundingClientRect().top + frame.scrollTop : 0;
  frame.scrollTop = Math.max(0, top - frame.clientHeight / 3);
}

// The rendered pages dropped and laid out again, staying on the page shown (a new zoom or layout).
function relayout(v) {
  const page = v.current;
  for (const url of v.urls.values()) URL.revokeObjectURL(url);
  v.urls.clear();
  v.loading.clear();
  layoutPages();
  goToPage(page);
}

$("viewer-layout").addEventListener("change", (ev) => {
  const v = state.viewer;
  state.htmlMode = ev.target.value;
  v.mode = v.format === "html" ? state.htmlMode : "image";
  relayout(v);
});

// A transparent text layer over the page image, from the page's words and their boxes (GET …/words):
// quotes and figures can be selected, double-clicked and copied as on the filing itself.
async function drawTextLayer(holder, n) {
  const v = state.viewer;
  const documentId = v.documentId;
  let words = v.words.get(n);
  if (!words) {
    try { words = await api(`/api/documents/${encodeURIComponent(documentId)}/pages/${n}/words`); } catch (err) { return; }
    if (v.documentId !== documentId) return;
    v.words.set(n, words);
  }
  const scale = v.scale;
  const old = holder.querySelector(".textlayer");
  if (old && old.dataset.scale === String(scale)) return;
  const ctx = drawTextLayer.ctx || (drawTextLayer.ctx = document.createElement("canvas").getContext("2d"));
  const layer = el("div", { class: "textlayer", "data-scale": String(scale), "data-source": words.source });
  for (const line of words.lines) {
    line.forEach((w, i) => {
      const [x0, y0, x1, y1] = w.b;
      const size = Math.max(1, (y1 - y0) * scale);
      const span = el("span", { text: w.t + (i < line.length - 1 ? " " : "") });
      span.style.left = `${x0 * scale}px`;
      span.style.top = `${y0 * scale}px`;
      span.style.fontSize = `${size}px`;
      ctx.font = `${size}px sans-serif`;
      const natural = ctx.measureText(w.t).width;
      if (natural > 0) span.style.transform = `scaleX(${((x1 - x0) * scale) / natural})`;
      layer.append(span);
    });
    layer.append(el("br"));
  }
  if (old) old.replaceWith(layer); else holder.append(layer);
}

function goToPage(n) {
  const v = state.viewer;
  if (!v.sizes.length) return;
  const page = Math.min(Math.max(1, Math.round(n)), v.sizes.length);
  if (v.mode === "html") { v.current = page; drawHtmlPage(page); updateCaption(); return; }
  const holder = pageHolder(page);
  if (!holder) return;
  v.current = page;
  v.target = page;   // once drawn, its evidence (if any) is scrolled into view
  v.jumping = true;
  const frame = $("viewer-pages");
  frame.scrollTop = holder.offsetTop - 8;
  if (holder.dataset.region && holder.dataset.scale) showRegion(holder, holder.dataset.region);
  drawPage(holder, page);
  updateCaption();
  setTimeout(() => { v.jumping = false; }, 50);
}

function showRegion(holder, region) {
  // The boxed evidence in the middle of the frame (at any zoom), the page's top when it fits anyway.
  const v = state.viewer;
  const frame = $("viewer-pages");
  const [x0, y0, x1, y1] = region.split(",").map(Number);
  const top = holder.offsetTop;
  const cy = top + ((y0 + y1) / 2) * v.scale;
  v.jumping = true;
  if (holder.offsetHeight > frame.clientHeight) frame.scrollTop = Math.max(top - 8, cy - frame.clientHeight / 2);
  const cx = holder.offsetLeft + ((x0 + x1) / 2) * v.scale;
  if (holder.offsetWidth > frame.clientWidth) frame.scrollLeft = Math.max(0, Math.min(x0 * v.scale + holder.offsetLeft - 12, cx - frame.clientWidth / 2));
  v.target = null;
  setTimeout(() => { v.jumping = false; }, 50);
}

function updateCaption() {
  const v = state.viewer;
  const n = v.current;
  const label = labelFor(v.documentId, n);
  const cited = state.citedPages.some((p) => p.document_id === v.documentId && p.page === n);
  $("page-input").value = String(n);
  $("page-prev").disabled = n <= 1;
  $("page-next").disabled = n >= v.sizes.length;
  $("page-caption").textContent = `${v.name} · page ${n} of ${v.sizes.length}` +
    (label && label !== String(n) ? ` · printed page ${label}` : "") + (cited ? " · cited, evidence boxed" : "");
  $("page-caption").dataset.page = String(n);
  $("page-caption").dataset.label = label || "";
}

$("viewer-pages").addEventListener("scroll", () => {
  const v = state.viewer;
  if (v.jumping || !v.sizes.length || v.mode === "html") return;
  const frame = $("viewer-pages");
  const middle = frame.scrollTop + frame.clientHeight / 3;
  let current = v.current;
  for (const holder of frame.children) {
    if (holder.offsetTop <= middle) current = Number(holder.dataset.page); else break;
  }
  if (current !== v.current) { v.current = current; updateCaption(); }
}, { passive: true });

$("page-form").addEventListener("submit", (ev) => { ev.preventDefault(); goToPage(Number($("page-input").value)); });
$("page-input").addEventListener("change", () => goToPage(Number($("page-input").value)));
$("page-prev").addEventListener("click", () => goToPage(state.viewer.current - 1));
$("page-next").addEventListener("click", () => goToPage(state.viewer.current + 1));
$("viewer-zoom").addEventListener("change", (ev) => {
  const v = state.viewer;
  v.zoom = ev.target.value;
  // Zoomed in, the viewer takes the panel's whole width (below the answer): a page at 150 % is
  // wider than the column beside the answer.
  const wasWide = $("answer").classList.contains("wide");
  $("answer").classList.toggle("wide", v.zoom !== "fit");
  if (wasWide !== (v.zoom !== "fit")) $("evidence").scrollIntoView({ block: "start" });
  relayout(v);
});
window.addEventListener("resize", () => {
  const v = state.viewer;
  if (v.zoom !== "fit" || !v.sizes.length) return;
  clearTimeout(state.resizeTimer);
  state.resizeTimer = setTimeout(() => { const page = v.current; layoutPages(); goToPage(page); }, 200);
});

// --- exports ------------------------------------------------------------------------------------------

async function download(path, fallbackName) {
  try {
    const res = await api(path, { raw: true });
    const blob = await res.blob();
    const disposition = res.headers.get("Content-Disposition") || "";
    const name = (disposition.match(/filename="([^"]+)"/) || [])[1] || fallbackName;
    const link = el("a", { href: URL.createObjectURL(blob), download: name });
    document.body.append(link);
    link.click();
    setTimeout(() => { URL.revokeObjectURL(link.href); link.remove(); }, 1000);
  } catch (err) { showError(err); }
}

$("export-md").addEventListener("click", () => state.answer && download(`/api/questions/${state.answer.id}/export?format=markdown`, "answer.md"));
$("export-json").addEventListener("click", () => state.answer && download(`/api/questions/${state.answer.id}/export?format=json`, "answer.json"));
$("thread-export-md").addEventListener("click", () => state.thread && download(`/api/threads/${state.thread}/export?format=markdown`, "thread.md"));
$("thread-export-json").addEventListener("click", () => state.thread && download(`/api/threads/${state.thread}/export?format=json`, "thread.json"));

// --- feedback and history ----------------------------------------------------------------------------

for (const button of document.querySelectorAll("#feedback button")) {
  button.addEventListener("click", async () => {
    if (!state.answer || !state.answer.id) return;
    const helpful = button.dataset.helpful === "true";
    const note = $("feedback-note").value.trim() || null;
    try {
      await api("/api/feedback", { method: "POST", json: { answer_id: state.answer.id, helpful, note } });
      for (const b of document.querySelectorAll("#feedback button")) b.classList.toggle("chosen", b === button);
      $("feedback-status").textContent = "Thanks — recorded.";
      refreshHistory();
    } catch (err) { showError(err); }
  });
}

function badgeFor(record) {
  const b = badgeOf(record.answer, record.document_deleted);
  return el("span", { class: `badge ${b.key}`, text: b.words });
}

// --- conversations: the question log grouped by thread (GET /api/conversations), paged ----------------

const PAGE_SIZE = 20;
const UNDO_MS = 8000;   // a deleted conversation can be brought back this long; then it is deleted

async function refreshHistory() {
  const q = $("history-search").value.trim();
  const want = Math.min(100, Math.max(PAGE_SIZE, state.historyShown || 0));  // keep what "Show more" opened
  let body;
  try {
    body = await api(`/api/conversations?limit=${want}` + (q ? `&q=${encodeURIComponent(q)}` : ""));
  } catch (err) { return; }
  state.historyRows = body.conversations;
  state.historyTotal = body.total;
  renderHistory(q);
}

async function showMoreHistory() {
  const q = $("history-search").value.trim();
  try {
    const body = await api(`/api/conversations?limit=${PAGE_SIZE}&offset=${state.historyRows.length}` +
      (q ? `&q=${encodeURIComponent(q)}` : ""));
    const seen = new Set(state.historyRows.map((c) => c.id));
    state.historyRows.push(...body.conversations.filter((c) => !seen.has(c.id)));
    state.historyTotal = body.total;
  } catch (err) { showError(err); return; }
  renderHistory(q);
}

function renderHistory(q) {
  const rows = state.historyRows.filter((c) => !state.pendingDeletes.has(c.id));
  const total = state.historyTotal - [...state.pendingDeletes.keys()].filter((id) => state.historyRows.some((c) => c.id === id)).length;
  state.historyShown = state.historyRows.length;
  $("history-empty").hidden = rows.length > 0;
  $("history-empty").textContent = q ? "No conversation matches." : "Conversations you have appear here.";
  $("history").replaceChildren(...rows.map(historyRow));
  $("history-count").textContent = rows.length ? `Showing ${rows.length} of ${total}` : "";
  $("history-more").hidden = state.historyRows.length >= state.historyTotal;
}

function historyRow(c) {
  const current = state.conversation === c.id;
  const more = c.questions > 1 ? `${c.questions} questions · last: ${c.last_question}` : "";
  return el("li", { "data-id": c.id, "data-deleted": c.document_deleted ? "true" : "false",
    class: current ? "current" : null },
    el("button", { type: "button", class: "open", "aria-current": current ? "true" : null,
      onclick: () => openConversation(c.id) },
      el("span", { class: `badge ${c.badge_key}`, text: c.badge }),
      el("span", { class: "origin", text: (c.origin || "cli").toUpperCase(), title: `begun from the ${c.origin}` }),
      el("span", { class: "when", text: ago(c.updated_at) }),
      el("span", { class: "q" }, el("span", { class: "title", text: c.title }),
        c.named ? el("span", { class: "scope-tag", text: `first asked: ${c.first_question}` }) : null,
        more ? el("span", { class: "scope-tag", text: more }) : null)),
    el("span", { class: "row-actions" },
      el("button", { type: "button", class: "rename", "aria-label": `Rename “${c.title}”`, title: "Rename",
        text: "✎", onclick: (ev) => startRename(ev.currentTarget.closest("li"), c) }),
      el("button", { type: "button", class: "remove", "aria-label": `Delete “${c.title}”`,
        title: "Delete (can be undone for a few seconds)", text: "×", onclick: () => deleteConversation(c) })));
}

function startRename(li, c) {
  const input = el("input", { type: "text", value: c.named ? c.title : "", maxlength: "200", class: "rename-input",
    "aria-label": `New name for “${c.title}” (empty: its first question)`, placeholder: c.first_question });
  const form = el("form", { class: "rename-form" }, input,
    el("button", { type: "submit", class: "small", text: "Save" }),
    el("button", { type: "button", class: "small", text: "Cancel", onclick: () => renderHistory($("history-search").value.trim()) }));
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    try {
      await api(`/api/conversations/${encodeURIComponent(c.id)}`, { method: "PATCH", json: { title: input.value } });
    } catch (err) { showError(err); }
    refreshHistory();
    if (state.conversation === c.id) refreshThread();
  });
  input.addEventListener("keydown", (ev) => { if (ev.key === "Escape") { ev.preventDefault(); renderHistory($("history-search").value.trim()); } });
  li.replaceChildren(form);
  input.focus();
  input.select();
}

// A deleted conversation leaves the list at once, and is deleted once its undo has run out (or the
// page is left): until then Undo brings it back untouched.
function deleteConversation(c) {
  flushDeletes();  // one undo at a time: an earlier one is carried out now
  const timer = setTimeout(() => flushDeletes(), UNDO_MS);
  state.pendingDeletes.set(c.id, { conversation: c, timer });
  $("undo-text").textContent = `Deleted “${c.title}”.`;
  $("undo-bar").hidden = false;
  $("undo-button").focus();
  renderHistory($("history-search").value.trim());
  if (state.conversation === c.id) startNewConversation(false);
}

function flushDeletes(keepalive = false) {
  for (const [id, { timer }] of state.pendingDeletes) {
    clearTimeout(timer);
    fetch(`/api/conversations/${encodeURIComponent(id)}`, { method: "DELETE", headers: authHeaders(), keepalive })
      .catch(() => {}).finally(() => { if (!keepalive) refreshHistory(); });
  }
  state.pendingDeletes.clear();
  $("undo-bar").hidden = true;
}

$("undo-button").addEventListener("click", () => {
  for (const { timer } of state.pendingDeletes.values()) clearTimeout(timer);
  state.pendingDeletes.clear();
  $("undo-bar").hidden = true;
  renderHistory($("history-search").value.trim());
});
window.addEventListener("pagehide", () => flushDeletes(true));

async function openConversation(id, { quiet = false } = {}) {
  let body;
  try {
    body = await api(`/api/conversations/${encodeURIComponent(id)}`);
  } catch (err) {
    if (err.status === 404) { rememberConversation(null); if (!quiet) showError(err); return; }
    showError(err);
    return;
  }
  const turns = body.turns;
  state.thread = body.thread_id || null;
  rememberConversation(body.id);
  renderThread(turns, body.named ? body.title : null);
  const last = turns[turns.length - 1];
  if (last) renderAnswer(last.answer, last);
  renderHistory($("history-search").value.trim());
  if (!quiet) window.scrollTo({ top: $("answer").offsetTop - 10, behavior: "smooth" });
}

// The open conversation is kept in the address (?c=<id>): a reload, a bookmark or a link reopens it.
function rememberConversation(id) {
  state.conversation = id;
  const url = new URL(window.location.href);
  if (id) url.searchParams.set("c", id); else url.searchParams.delete("c");
  if (url.href !== window.location.href) window.history.replaceState(null, "", url);
}

$("history-more").addEventListener("click", showMoreHistory);
$("history-clear").addEventListener("click", async () => {
  if (!confirm("Delete every conversation from the history?")) return;
  try { await api("/api/questions?all=true", { method: "DELETE" }); } catch (err) { showError(err); }
  startNewConversation(false);
  refreshHistory();
});
$("history-search").addEventListener("input", () => {
  clearTimeout(state.searchTimer);
  state.historyShown = 0;
  state.searchTimer = setTimeout(refreshHistory, 250);
});

function refreshAll() {
  refreshDocuments();
  refreshHistory();
}

async function start() {
  state.viewer = freshViewer();
  const reopen = new URLSearchParams(window.location.search).get("c");
  await refreshDocuments();  // first: an answer shows the cited pages of the documents it knows
  refreshHistory();
  if (reopen) openConversation(reopen, { quiet: true });
}

start();
