// "Import chunks…": a chunks file made elsewhere, from the file picker or dropped on
// the pages, sent to the imports API. The server checks it (size, shape) and answers
// with its id, or with the reason it was refused; the caller then shows
// `?import=<id>` like any other chunking.
import { sendFile } from "./upload.js";

const hasFiles = (event) => [...(event.dataTransfer?.types || [])].includes("Files");

/**
 * @param input       the <input type="file">
 * @param dropTarget  the element a file may be dropped on
 * @param url         the imports API of this document
 * @param onBusy      (text or null) while the file is sent
 * @param onImported  (body) the server's answer: {import, name, size, chunks, links}
 * @param onFailed    (body, status, file) the server's (or the network's) refusal
 */
export function attachImport({ input, dropTarget, url, onBusy, onImported, onFailed }) {
  let sending = false;

  async function send(file) {
    if (!file || sending) return;
    sending = true;
    onBusy(`Importing ${file.name}…`);
    try {
      const { status, body } = await sendFile(url, file, (done) => {
        onBusy(`Importing ${file.name}… ${Math.floor(done * 100)} %`);
      });
      if (status === 200 || status === 201) onImported(body);
      else onFailed(body, status, file);
    } finally {
      sending = false;
      onBusy(null);
    }
  }

  input.addEventListener("change", () => {
    const [file] = input.files;
    input.value = ""; // choosing the same file again is a new import request
    send(file);
  });

  // Only a drag that carries files is ours; dragging text or a box is left alone.
  dropTarget.addEventListener("dragover", (event) => {
    if (!hasFiles(event)) return;
    event.preventDefault();
    event.dataTransfer.dropEffect = "copy";
    dropTarget.classList.add("dropping");
  });
  dropTarget.addEventListener("dragleave", (event) => {
    if (!dropTarget.contains(event.relatedTarget)) dropTarget.classList.remove("dropping");
  });
  dropTarget.addEventListener("drop", (event) => {
    if (!hasFiles(event)) return;
    event.preventDefault();
    dropTarget.classList.remove("dropping");
    send(event.dataTransfer.files[0]);
  });
}
