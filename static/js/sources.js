// What a view shows, as one string: a strategy name, "import:<sha256>" for chunks
// imported from a file, or "" / "stored" for a knowledgebase document's stored chunks
// (the same grammar as visualiser/web/sources.py). One place turns it into the chunks
// API's query string and into words.
import { h } from "./dom.js";

export const IMPORT = "import:";
export const STORED = "stored";

export const isImport = (source) => typeof source === "string" && source.startsWith(IMPORT);
export const importId = (source) => source.slice(IMPORT.length);
export const isStored = (source) => !source || source === STORED;

/** The chunks API's query string for `source` with its parameters ("" for stored). */
export function sourceQuery(source, params = {}) {
  if (isStored(source)) return "";
  if (isImport(source)) return new URLSearchParams({ import: importId(source) }).toString();
  const query = new URLSearchParams({ strategy: source });
  for (const [key, value] of Object.entries(params)) query.set(key, value);
  return query.toString();
}

export const importLabel = (name) => `Imported: ${name}`;

/**
 * Add an imported file to a strategy selector, under an "Imported chunks" group (or
 * relabel it: the same bytes uploaded again under another name take that name);
 * returns the option's value.
 */
export function addImportOption(select, imported) {
  const value = IMPORT + imported.import;
  const known = [...select.options].find((o) => o.value === value);
  if (known) {
    known.textContent = importLabel(imported.name);
    return value;
  }
  let group = select.querySelector('optgroup[data-group="imports"]');
  if (!group) {
    group = h("optgroup", { label: "Imported chunks (from a file)", "data-group": "imports" });
    select.append(group);
  }
  group.append(h("option", { value }, importLabel(imported.name)));
  return value;
}

/** A refused import as an error body: the server's reason, naming the file. */
export function importRefusal(body, status, file) {
  const reason = body?.message || "the server did not say why";
  return { error: `Import refused (${body?.error || `HTTP ${status}`})`, message: `${file.name}: ${reason}` };
}
