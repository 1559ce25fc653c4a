// The knowledgebase page: uploads (file picker or drag and drop) with their progress,
// documents' processing state kept current by polling, and deletes that ask first.
// The server renders the first state of the table; this script only keeps it current.
import { fill, h } from "./dom.js";
import { fileSize } from "./format.js";
import { sendFile } from "./upload.js";

const config = JSON.parse(document.getElementById("kb-config").textContent);
const $ = (selector) => document.querySelector(selector);
const els = {
  rows: $('[data-testid="kb-documents"] tbody'),
  empty: $('[data-testid="no-kb-documents"]'),
  error: $('[data-testid="kb-error"]'),
  dropzone: $('[data-testid="dropzone"]'),
  input: $('[data-testid="file-input"]'),
  uploads: $('[data-testid="uploads"]'),
};
const POLL_MS = 1000;
const RETRY_MS = 3000;
let pollTimer = null;

document.body.classList.add("scripted"); // hides the no-script upload button

// --- the documents table -------------------------------------------------------------

function stateCell(doc) {
  // Keep in step with templates/knowledgebase.html, which renders the first state.
  const cell = stateLabel(doc);
  if (!doc.attempts_text) return cell;
  // A worker stopped on it (killed, out of memory): say which attempt this is.
  return [cell, " ", h("span", { class: "doc-attempts", "data-testid": "doc-attempts" }, doc.attempts_text)].flat();
}

function stateLabel(doc) {
  if (doc.state === "processing") {
    // The server words the phase: queued behind other uploads, reading pages, chunking.
    return [
      h("span", { class: `state-label processing phase-${doc.phase}` }, doc.phase_text),
      h("progress", { max: 100, value: doc.percent, "aria-label": `Processing ${doc.name}` }),
    ];
  }
  if (doc.state === "failed") {
    return [
      h("span", { class: "state-label failed" }, "Failed"),
      " ",
      h("span", { class: "doc-error", "data-testid": "doc-error" }, doc.error || "no reason was recorded"),
    ];
  }
  return h("span", { class: "state-label ready" }, "Ready");
}

function renderState(row, doc) {
  row.dataset.state = doc.state;
  row.dataset.phase = doc.phase;
  row.dataset.percent = String(doc.percent);
  row.dataset.attempts = String(doc.attempts);
  fill(row.querySelector("td.state"), stateCell(doc));
}

function buildRow(doc) {
  const row = h(
    "tr",
    { "data-doc-id": doc.id },
    h("td", { class: "name" }, h("a", { href: doc.links.viewer, "data-testid": "doc-link" }, doc.name)),
    h("td", { class: "num" }, doc.page_count),
    h("td", { class: "num" }, fileSize(doc.size)),
    h("td", { class: "state", "data-testid": "doc-state" }),
    h(
      "td",
      { class: "actions" },
      // Keep in step with templates/knowledgebase.html.
      h("a", { class: "compare-link", href: doc.links.compare, "data-testid": "doc-compare", "aria-label": `Compare chunkings of ${doc.name}` }, "Compare…"),
      " ",
      h("button", { type: "button", class: "danger small", "data-action": "delete-document", "aria-label": `Delete ${doc.name}` }, "Delete…"),
    ),
  );
  renderState(row, doc);
  return row;
}

function rowOf(id) {
  return els.rows.querySelector(`tr[data-doc-id="${CSS.escape(id)}"]`);
}

/** Bring the table in line with the server's list, touching only rows that changed
 * (re-building a row would take the keyboard focus off its delete button). */
function syncRows(docs) {
  const seen = new Set();
  for (const doc of docs) {
    seen.add(doc.id);
    const row = rowOf(doc.id);
    if (!row) els.rows.append(buildRow(doc));
    else if (row.dataset.state !== doc.state || row.dataset.phase !== doc.phase || row.dataset.percent !== String(doc.percent) || row.dataset.attempts !== String(doc.attempts)) renderState(row, doc);
  }
  for (const row of els.rows.querySelectorAll("tr[data-doc-id]")) {
    if (!seen.has(row.dataset.docId)) row.remove();
  }
  els.empty.hidden = docs.length > 0;
}

function anyProcessing() {
  return els.rows.querySelector('tr[data-state="processing"]') !== null;
}

async function poll() {
  pollTimer = null;
  let wait = POLL_MS;
  try {
    const response = await fetch(config.urls.documents, { headers: { Accept: "application/json" } });
    const body = await response.json();
    if (!response.ok) throw new Error(body?.message || `HTTP ${response.status}`);
    syncRows(body.documents);
  } catch {
    wait = RETRY_MS; // the server may be restarting; try again a little later
  }
  if (anyProcessing()) schedulePoll(wait);
}

function schedulePoll(wait = POLL_MS) {
  if (pollTimer === null) pollTimer = setTimeout(poll, wait);
}

// --- uploads ---------------------------------------------------------------------------

function showError(message) {
  fill(els.error, message);
  els.error.hidden = !message;
}

function uploadItem(file) {
  const status = h("span", { class: "upload-status" }, "Waiting…");
  const bar = h("progress", { max: 100, value: 0, "aria-label": `Uploading ${file.name}` });
  const item = h(
    "li",
    { class: "upload", "data-state": "waiting", "data-testid": "upload-item" },
    h("span", { class: "upload-name" }, file.name),
    status,
    bar,
  );
  els.uploads.append(item);
  const dismiss = () =>
    h("button", { type: "button", class: "small", "aria-label": `Dismiss the message about ${file.name}`, onclick: () => item.remove() }, "Dismiss");
  return {
    progress(fraction) {
      item.dataset.state = "uploading";
      const pct = Math.floor(fraction * 100);
      status.textContent = `Uploading… ${pct} %`;
      bar.value = pct;
    },
    finish(state, message) {
      item.dataset.state = state;
      bar.remove();
      fill(status, message);
      if (state === "failed") status.setAttribute("role", "alert");
      item.append(dismiss());
    },
    remove: () => item.remove(),
  };
}

async function uploadFile(file) {
  const item = uploadItem(file);
  const limit = config.max_upload_bytes;
  if (limit && file.size > limit) {
    // Refused here: sending it would only earn a 413 after the whole upload.
    item.finish("failed", `Not added: it is ${fileSize(file.size)}; the limit is ${fileSize(limit)} per file.`);
    return;
  }
  item.progress(0);
  const { status, body } = await sendFile(config.urls.documents, file, (fraction) => item.progress(fraction));
  if (status === 202 || status === 200) {
    const row = rowOf(body.id);
    if (row) renderState(row, body);
    else els.rows.append(buildRow(body));
    els.empty.hidden = true;
    if (status === 200) item.finish("duplicate", `Already in this knowledgebase (as ${body.name}); nothing was added.`);
    else item.remove(); // its row now shows the processing progress
    if (body.state === "processing") schedulePoll();
    return;
  }
  const reason = body?.message || `the server answered HTTP ${status}`;
  item.finish("failed", `Not added: ${reason}`);
}

let queue = Promise.resolve();

function uploadAll(files) {
  // One at a time, in order: the server processes one document at a time anyway.
  for (const file of files) queue = queue.then(() => uploadFile(file));
  return queue;
}

els.input.addEventListener("change", () => {
  const files = [...els.input.files];
  els.input.value = ""; // choosing the same file again must fire "change" again
  uploadAll(files);
});
// Chromium opens a focused file input's picker on Space only; Enter should too, as it
// does for the button the input looks like.
els.input.addEventListener("keydown", (event) => {
  if (event.key !== "Enter") return;
  event.preventDefault();
  els.input.click();
});
els.dropzone.addEventListener("submit", (event) => {
  event.preventDefault(); // the script uploads on choice; the button is for no-script
  uploadAll([...els.input.files]);
});

for (const type of ["dragenter", "dragover"]) {
  els.dropzone.addEventListener(type, (event) => {
    event.preventDefault();
    els.dropzone.classList.add("dragging");
  });
}
els.dropzone.addEventListener("dragleave", (event) => {
  if (!els.dropzone.contains(event.relatedTarget)) els.dropzone.classList.remove("dragging");
});
els.dropzone.addEventListener("drop", (event) => {
  event.preventDefault();
  els.dropzone.classList.remove("dragging");
  uploadAll([...(event.dataTransfer?.files || [])]);
});
// A file dropped beside the zone would make the browser open it and leave the page.
window.addEventListener("dragover", (event) => event.preventDefault());
window.addEventListener("drop", (event) => event.preventDefault());

// --- deleting, after a confirmation ----------------------------------------------------

async function remove(url) {
  const response = await fetch(url, { method: "DELETE", headers: { Accept: "application/json" } });
  if (response.ok) return true;
  const body = await response.json().catch(() => null);
  showError(`Could not delete: ${body?.message || `HTTP ${response.status}`}`);
  return false;
}

async function deleteDocument(row) {
  const name = row.querySelector("td.name").textContent.trim();
  const question = `Delete “${name}” from “${config.knowledgebase.name}”? Its stored chunks are deleted with it.`;
  if (!window.confirm(question)) return;
  showError(null);
  if (await remove(`${config.urls.documents}/${encodeURIComponent(row.dataset.docId)}`)) {
    row.remove();
    els.empty.hidden = els.rows.querySelector("tr[data-doc-id]") !== null;
  }
}

async function deleteKnowledgebase() {
  const count = els.rows.querySelectorAll("tr[data-doc-id]").length;
  const documents = count === 1 ? "its document" : `its ${count} documents`;
  const question = `Delete the knowledgebase “${config.knowledgebase.name}” with ${documents} and their stored chunks? This cannot be undone.`;
  if (!window.confirm(question)) return;
  showError(null);
  if (await remove(config.urls.knowledgebase)) window.location.assign(config.urls.index);
}

document.addEventListener("click", (event) => {
  const button = event.target.closest?.("button[data-action]");
  if (!button) return;
  if (button.dataset.action === "delete-document") deleteDocument(button.closest("tr"));
  else if (button.dataset.action === "delete-knowledgebase") deleteKnowledgebase();
});

if (anyProcessing()) schedulePoll();
