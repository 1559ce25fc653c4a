// Fixture mode (?fixture=1), for visual-regression suites: nothing that moves (no
// progress counters, no caret, no animations) and, once the pages in view have their
// images decoded and their overlays drawn, `data-ready` on <body> to wait on.
// Only the pages the column has shown (those in or near the viewport) are awaited, so
// a 600-page document does not load 600 images; scroll with `page=N` to pick others.
export const fixtureMode = new URLSearchParams(window.location.search).get("fixture") === "1";

if (fixtureMode) document.documentElement.classList.add("fixture");

/** Resolve once every shown page of `containers` has a decoded image and an overlay. */
export async function markReady(containers) {
  if (!fixtureMode) return;
  await document.fonts.ready;
  for (;;) {
    const shown = containers.flatMap((c) => [...c.querySelectorAll("section.page")]
      .filter((el) => el.querySelector("img")));
    const images = shown.map((el) => el.querySelector("img"));
    const drawn = shown.every((el) => el.querySelector("svg.overlay"));
    if (shown.length && drawn && images.every((img) => img.complete && img.naturalWidth > 0)) {
      await Promise.all(images.map((img) => img.decode().catch(() => null)));
      break;
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
  document.body.setAttribute("data-ready", "");
}
