// docqa's page: upload, watch indexing, ask, and check the answer against the highlighted page.
// Plain JavaScript, no build step. Text from the server is only ever set with textContent.
"use strict";

const $ = (id) => document.getElementById(id);
const TOKEN_KEY = "docqa-token";
const BADGES = { verified: "Verified", partial: "Partially verified", not_found: "Not found" };
const STATUS_WORDS = { queued: "queued", processing: "indexing", ready: "ready", failed: "failed" };

const state = {
  documents: [],
  uploads: new Map(),   // local key -> {row, id, name}
  answer: null,         // the answer shown
  page: null,           // {document, document_id, page, pages}
  pollTimer: null,
  readyIds: "",
  pageUrl: null,
};

// --- talking to the API ------------------------------------------------------------------------

class ApiError extends Error {
  constructor(status, code, message, body) { super(message); this.status = status; this.code = code; this.body = body; }
}

function authHeaders() {
  const token = sessionStorage.getItem(TOKEN_KEY);
  return token ? { Authorization: `Bearer ${token}` } : {};
}

async function api(path, { method = "GET", json, raw = false } = {}) {
  const headers = authHeaders();
  const init = { method, headers };
  if (json !== undefined) { headers["Content-Type"] = "application/json"; init.body = JSON.stringify(json); }
  const res = await fetch(path, init);
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

function describe(doc) {
  const m = doc.meta || {};
  const parts = [m.company, m.doc_type ? m.doc_type.toUpperCase() : null,
    m.fiscal_year ? "FY" + m.fiscal_year + (m.fiscal_quarter ? " Q" + m.fiscal_quarter : "") : null,
    doc.pages ? doc.pages + (doc.pages === 1 ? " page" : " pages") : null];
  return parts.filter(Boolean).join(" · ");
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
  const { name, status, fraction, indeterminate, message, isError } = item;
  const row = el("li", { class: "upload", "data-status": status },
    el("div", { class: "row" }, el("span", { class: "name", text: name }),
      el("span", { class: `status ${status}`, text: STATUS_WORDS[status] || status })),
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
  state.uploads.set(key, { row, name: file.name, id: null });
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
  xhr.addEventListener("error", () => setUpload(key, { status: "refused", message: "network error; try again", isError: true }));
  xhr.send(form);
}

function followUploads() {
  // An upload row follows its document from queued to ready (or failed), then steps aside.
  const byId = new Map(state.documents.map((d) => [d.id, d]));
  for (const [key, entry] of state.uploads) {
    if (!entry.id || entry.done) continue;
    const doc = byId.get(entry.id);
    if (!doc) continue;
    if (doc.status === "ready") {
      setUpload(key, { status: "ready", fraction: 1, indeterminate: false, message: describe(doc) || "indexed" });
      entry.done = true;
      setTimeout(() => { entry.row.remove(); state.uploads.delete(key); }, 4000);
    } else if (doc.status === "failed") {
      setUpload(key, { status: "failed", fraction: 0, indeterminate: false, message: doc.reason, isError: true });
      entry.done = true;
    } else if (doc.status === "processing") {
      const f = doc.pages_total ? doc.pages_done / doc.pages_total : 0;
      setUpload(key, { status: "processing", fraction: f, indeterminate: !doc.pages_total || doc.pages_done === 0,
        message: doc.pages_total ? `reading pages: ${doc.pages_done} of ${doc.pages_total}` : "reading the PDF" });
    }
  }
}

// --- the documents list -----------------------------------------------------------------------------

function documentRow(doc) {
  const status = doc.status;
  const pending = status === "queued" || status === "processing";
  const fraction = doc.pages_total ? doc.pages_done / doc.pages_total : 0;
  const progressText = status === "processing"
    ? (doc.pages_total ? `${doc.pages_done} of ${doc.pages_total} pages` : "reading the PDF") : null;
  return el("li", { "data-id": doc.id, "data-status": status },
    el("div", { class: "row" },
      el("span", { class: "name", text: doc.file_name }),
      el("span", { class: `status ${status}`, text: STATUS_WORDS[status] || status })),
    el("div", { class: "meta", text: [describe(doc), progressText].filter(Boolean).join(" · ") }),
    pending ? bar(fraction, status === "queued" || !doc.pages_done) : null,
    status === "failed" && doc.reason ? el("div", { class: "reason", text: doc.reason }) : null,
    status !== "failed" && doc.reason ? el("div", { class: "note", text: doc.reason }) : null,
    el("div", { class: "row" }, el("span"),
      el("button", { class: "delete", type: "button", "aria-label": `Delete ${doc.file_name}`,
        onclick: () => deleteDocument(doc), text: pending ? "Cancel" : "Delete" })));
}

function renderDocuments() {
  const list = $("documents");
  list.replaceChildren(...state.documents.map(documentRow));
  $("docs-empty").hidden = state.documents.length > 0;
  // The scope picker lists ready documents.
  const scope = $("scope");
  const chosen = scope.value;
  const ready = state.documents.filter((d) => d.status === "ready");
  scope.replaceChildren(el("option", { value: "", text: "All documents" }),
    ...ready.map((d) => el("option", { value: d.id, text: d.file_name })));
  scope.value = ready.some((d) => d.id === chosen) ? chosen : "";
}

async function deleteDocument(doc) {
  if (!confirm(`Delete ${doc.file_name} from the index?`)) return;
  try {
    await api(`/api/documents/${encodeURIComponent(doc.id)}`, { method: "DELETE" });
  } catch (err) { showError(err); }
  refreshDocuments();
}

async function refreshDocuments() {
  try {
    const body = await api("/api/documents");
    state.documents = body.documents;
  } catch (err) { showError(err); return; }
  renderDocuments();
  followUploads();
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

// --- example questions -----------------------------------------------------------------------------

async function refreshExamples() {
  let examples = [];
  try { examples = (await api("/api/examples")).examples; } catch (err) { return; }
  $("examples").replaceChildren(...examples.map((q) =>
    el("button", { type: "button", text: q, onclick: () => { $("question").value = q; ask(); } })));
}

// --- asking ---------------------------------------------------------------------------------------

$("ask-form").addEventListener("submit", (ev) => { ev.preventDefault(); ask(); });

async function ask() {
  const question = $("question").value.trim();
  if (!question) { $("question").focus(); return; }
  const button = $("ask-button");
  button.disabled = true;
  button.textContent = "Asking…";
  const body = { question };
  if ($("scope").value) body.document = $("scope").value;
  try {
    const answer = await api("/api/ask", { method: "POST", json: body });
    showError(null);
    renderAnswer(answer, { helpful: null, note: null });
    refreshHistory();
  } catch (err) {
    showError(err);
  } finally {
    button.disabled = false;
    button.textContent = "Ask";
  }
}

function renderAnswer(answer, feedback) {
  state.answer = answer;
  $("answer").hidden = false;
  const badge = $("answer-badge");
  badge.className = `badge ${answer.verification}`;
  badge.textContent = BADGES[answer.verification] || answer.verification;
  badge.dataset.verification = answer.verification;
  const ms = answer.timings && answer.timings.total_ms;
  $("answer-meta").textContent = [answer.answerer, ms !== undefined ? `${Math.round(ms)} ms` : null,
    answer.citations_dropped ? `${answer.citations_dropped} unsupported citation(s) dropped` : null].filter(Boolean).join(" · ");
  $("answer-question").textContent = answer.question;
  $("answer-text").textContent = answer.text;
  const reason = $("answer-reason");
  reason.hidden = !answer.reason;
  reason.textContent = answer.reason ? `Why: ${answer.reason}` : "";

  const formula = $("answer-formula");
  formula.hidden = !answer.formula;
  formula.replaceChildren(el("strong", { text: "Formula " }), el("code", { text: answer.formula || "" }));

  const figures = $("answer-figures");
  figures.hidden = !(answer.figures && answer.figures.length);
  figures.tBodies[0].replaceChildren(...(answer.figures || []).map((f) => el("tr", {},
    el("td", { text: f.name }),
    el("td", { text: f.text + (f.computed ? " (computed)" : "") }),
    el("td", { text: f.period || "" }),
    el("td", {}, f.page && f.document ? pageButton(f.document, documentIdFor(f.document), f.page, true) : "—"))));

  const citations = $("citations");
  citations.replaceChildren(...(answer.citations || []).map((c) => el("div", { class: "citation" },
    pageButton(c.document, c.document_id, c.page),
    el("blockquote", { text: `“${c.quote}”` }))));

  for (const b of document.querySelectorAll("#feedback button")) {
    b.classList.toggle("chosen", feedback.helpful !== null && String(feedback.helpful) === b.dataset.helpful);
  }
  $("feedback-note").value = feedback.note || "";
  $("feedback-status").textContent = feedback.helpful === null ? "" : "Thanks — recorded.";
  $("feedback").hidden = !answer.id;

  const first = (answer.pages && answer.pages[0]) || null;
  if (first) showPage(first.document, first.document_id, first.page);
  else { $("evidence").hidden = true; state.page = null; }
}

function documentIdFor(fileName) {
  const doc = state.documents.find((d) => d.file_name === fileName);
  return doc ? doc.id : null;
}

function pageButton(documentName, documentId, page, short = false) {
  const label = short ? `p. ${page}` : `${documentName} · p. ${page}`;
  if (!documentId) return el("span", { text: label });
  return el("button", { type: "button", class: "page-button", "data-doc": documentId, "data-page": String(page),
    title: `Show page ${page} of ${documentName}`, text: label,
    onclick: () => {
      showPage(documentName, documentId, page);
      if (window.matchMedia("(max-width: 900px)").matches) $("evidence").scrollIntoView({ behavior: "smooth" });
    } });
}

async function showPage(documentName, documentId, page) {
  const doc = state.documents.find((d) => d.id === documentId);
  state.page = { document: documentName, document_id: documentId, page, pages: doc ? doc.pages : null };
  for (const b of document.querySelectorAll(".page-button")) {
    b.classList.toggle("active", b.dataset.doc === documentId && b.dataset.page === String(page));
  }
  $("evidence").hidden = false;
  $("page-caption").textContent = `${documentName} · page ${page}${state.page.pages ? " of " + state.page.pages : ""}`;
  $("page-prev").disabled = page <= 1;
  $("page-next").disabled = state.page.pages ? page >= state.page.pages : false;
  const frame = document.querySelector(".page-frame");
  frame.classList.add("loading");
  const img = $("page-img");
  const answerId = state.answer && state.answer.id;
  const url = `/api/documents/${encodeURIComponent(documentId)}/pages/${page}.png` + (answerId ? `?answer=${encodeURIComponent(answerId)}` : "");
  try {
    const res = await api(url, { raw: true });
    const boxed = res.headers.get("X-Evidence") || "none";
    const blob = await res.blob();
    if (state.page.document_id !== documentId || state.page.page !== page) return; // another page was asked for meanwhile
    if (state.pageUrl) URL.revokeObjectURL(state.pageUrl);
    state.pageUrl = URL.createObjectURL(blob);
    img.dataset.evidence = boxed;
    img.dataset.page = String(page);
    img.alt = boxed === "none" ? `Page ${page} of ${documentName}` : `Page ${page} of ${documentName}, the evidence boxed`;
    img.src = state.pageUrl;
  } catch (err) {
    showError(err);
  } finally {
    frame.classList.remove("loading");
  }
}

$("page-prev").addEventListener("click", () => {
  if (state.page && state.page.page > 1) showPage(state.page.document, state.page.document_id, state.page.page - 1);
});
$("page-next").addEventListener("click", () => {
  if (state.page) showPage(state.page.document, state.page.document_id, state.page.page + 1);
});

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

async function refreshHistory() {
  let records = [];
  try { records = (await api("/api/questions?limit=30")).questions; } catch (err) { return; }
  $("history-empty").hidden = records.length > 0;
  $("history").replaceChildren(...records.map((r) => el("li", {},
    el("button", { type: "button", onclick: () => { renderAnswer(r.answer, r); window.scrollTo({ top: $("answer").offsetTop - 10, behavior: "smooth" }); } },
      el("span", { class: `badge ${r.answer.verification}`, text: BADGES[r.answer.verification] || r.answer.verification }),
      el("span", { class: "q", text: r.question }),
      r.helpful === null ? null : el("span", { class: "muted", text: r.helpful ? "helpful" : "not helpful" }),
      el("span", { class: "when", text: ago(r.created_at) })))));
}

function refreshAll() {
  refreshDocuments();
  refreshHistory();
}

refreshAll();
