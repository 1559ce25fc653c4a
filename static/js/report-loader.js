// Fetching a chunk report, shared by the viewer and each side of the compare page:
// the request, the "Computing chunks… N s" counter while it runs, and one interval
// for asking again about a stored document that is still being processed.
export const POLL_MS = 1000;

/** Count seconds into `setProgress` until the returned function is called. */
export function startTicker(setProgress) {
  const started = performance.now();
  const tick = () => setProgress(`Computing chunks… ${Math.floor((performance.now() - started) / 1000)} s`);
  tick();
  const timer = setInterval(tick, 1000);
  return () => clearInterval(timer);
}

/** GET the report at `url?query`: {response, body}, body null when it is not JSON. */
export async function fetchReport(url, query, signal) {
  const response = await fetch(query ? `${url}?${query}` : url, {
    headers: { Accept: "application/json" },
    signal,
  });
  const body = await response.json().catch(() => null);
  return { response, body };
}

/** The stored report the viewer page began to fetch before its scripts loaded
 * (viewer.html sets window.viewerEarlyReport), as fetchReport answers: taken once,
 * and only for the stored chunks (`query` empty); null otherwise. */
export function earlyReport(query) {
  const early = window.viewerEarlyReport;
  window.viewerEarlyReport = null;
  if (!early || query) return null;
  return early.then(async (response) => ({ response, body: await response.json().catch(() => null) }));
}
