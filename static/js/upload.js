// One file to the upload API, with the upload's own progress. XMLHttpRequest rather
// than fetch: fetch cannot report how much of a request body has been sent.

/**
 * Resolves with {status, body} (body: the parsed JSON, or null); never rejects, so a
 * network failure is an answer like any other: status 0 with a message.
 */
export function sendFile(url, file, onProgress) {
  return new Promise((resolve) => {
    const request = new XMLHttpRequest();
    request.open("POST", url);
    request.setRequestHeader("Accept", "application/json");
    request.responseType = "text";
    request.upload.addEventListener("progress", (event) => {
      if (event.lengthComputable) onProgress(event.loaded / event.total);
    });
    request.addEventListener("load", () => {
      let body;
      try {
        body = JSON.parse(request.responseText);
      } catch {
        body = null; // not JSON (a proxy's error page, an empty answer)
      }
      resolve({ status: request.status, body });
    });
    const failed = (what) => () =>
      resolve({ status: 0, body: { error: "Upload failed", message: what } });
    request.addEventListener("error", failed("the connection to the server was lost during the upload"));
    request.addEventListener("abort", failed("the upload was cancelled"));
    request.addEventListener("timeout", failed("the server did not answer in time"));
    const form = new FormData();
    form.append("file", file, file.name);
    request.send(form);
  });
}
