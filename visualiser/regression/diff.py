"""What changed between two chunkings of one document, in words a reviewer reads.

Chunks are matched by the lines they cover (page + line rectangle), not by index, so
one moved boundary reads as one change ("chunk 7 now starts 2 lines earlier") instead
of every later chunk being renumbered.
"""

from __future__ import annotations

import difflib
from collections.abc import Mapping, Sequence
from typing import Any

Line = tuple[int, float, float, float, float]


def _lines(chunk: Mapping[str, Any]) -> list[Line]:
    return [(r["page"], *(round(v, 1) for v in rect))  # type: ignore[misc]
            for r in chunk.get("regions", []) for rect in r["rects"]]


def _order(old: Sequence[Mapping[str, Any]], new: Sequence[Mapping[str, Any]]) -> dict[Line, int]:
    """Every line of either side in reading position (page, top, left)."""
    every = {line for c in (*old, *new) for line in _lines(c)}
    return {line: n for n, line in enumerate(sorted(every, key=lambda ln: (ln[0], ln[2], ln[1])))}


def match_chunks(old: Sequence[Mapping[str, Any]], new: Sequence[Mapping[str, Any]]
                 ) -> list[tuple[int, int]]:
    """Pairs (old index, new index) of chunks sharing the most lines, each side used once."""
    old_sets = [set(_lines(c)) for c in old]
    new_sets = [set(_lines(c)) for c in new]
    owners: dict[Line, list[int]] = {}
    for j, lines in enumerate(new_sets):
        for line in lines:
            owners.setdefault(line, []).append(j)
    scored = []
    for i, lines in enumerate(old_sets):
        shared: dict[int, int] = {}
        for line in lines:
            for j in owners.get(line, []):
                shared[j] = shared.get(j, 0) + 1
        for j, count in shared.items():
            same_text = old[i].get("text") == new[j].get("text")
            scored.append((-count, not same_text, abs(i - j), i, j))
    pairs, used_old, used_new = [], set(), set()
    for _, _, _, i, j in sorted(scored):
        if i not in used_old and j not in used_new:
            used_old.add(i)
            used_new.add(j)
            pairs.append((i, j))
    # Chunks without lines (or whose lines all changed) pair by identical text.
    by_text: dict[str, list[int]] = {}
    for j, chunk in enumerate(new):
        if j not in used_new:
            by_text.setdefault(chunk.get("text", ""), []).append(j)
    for i, chunk in enumerate(old):
        if i not in used_old and by_text.get(chunk.get("text", "")):
            j = by_text[chunk.get("text", "")].pop(0)
            used_old.add(i)
            used_new.add(j)
            pairs.append((i, j))
    return sorted(pairs)


def _edge_words(old_text: str, new_text: str) -> tuple[int, int]:
    """(words gained at the start, words gained at the end); negative for lost."""
    a, b = old_text.split(), new_text.split()
    codes = difflib.SequenceMatcher(a=a, b=b, autojunk=False).get_opcodes()
    start = end = 0
    if codes and codes[0][0] != "equal":
        _, i1, i2, j1, j2 = codes[0]
        start = (j2 - j1) - (i2 - i1)
    if len(codes) > 1 and codes[-1][0] != "equal":
        _, i1, i2, j1, j2 = codes[-1]
        end = (j2 - j1) - (i2 - i1)
    return start, end


def _moved(word: str, lines: int, words: int, page: int | None) -> str:
    where = f" (page {page})" if page is not None else ""
    direction = "earlier" if lines < 0 or (lines == 0 and words > 0) else "later"
    parts = []
    if lines:
        parts.append(f"{abs(lines)} line{'s' * (abs(lines) != 1)}")
    if words:
        parts.append(f"{abs(words)} word{'s' * (abs(words) != 1)}")
    return f"{word} {' / '.join(parts) or 'elsewhere'} {direction}{where}"


def diff_reports(old: Mapping[str, Any], new: Mapping[str, Any]) -> dict[str, Any]:
    """The changes from `old` to `new` (two chunk reports); `same` when there are none."""
    old_chunks, new_chunks = old.get("chunks", []), new.get("chunks", [])
    order = _order(old_chunks, new_chunks)
    pairs = match_chunks(old_chunks, new_chunks)
    to_new = dict(pairs)
    matched_new = set(to_new.values())
    changes: list[dict[str, Any]] = []
    for i, chunk in enumerate(old_chunks):
        if i not in to_new:
            changes.append({"kind": "removed", "old": i, "pages": chunk.get("pages", []),
                            "message": f"chunk {i} ({chunk.get('chunk_type')}) was removed"})
    for j, chunk in enumerate(new_chunks):
        if j not in matched_new:
            changes.append({"kind": "added", "new": j, "pages": chunk.get("pages", []),
                            "message": f"chunk {j} ({chunk.get('chunk_type')}) was added"})
    for i, j in pairs:
        a, b = old_chunks[i], new_chunks[j]
        name = f"chunk {j}" if i == j else f"chunk {i} (now {j})"
        if a.get("chunk_type") != b.get("chunk_type"):
            changes.append({"kind": "type", "old": i, "new": j,
                            "from": a.get("chunk_type"), "to": b.get("chunk_type"),
                            "message": f"{name} changed type from {a.get('chunk_type')} "
                                       f"to {b.get('chunk_type')}"})
        la, lb = _lines(a), _lines(b)
        start_words, end_words = _edge_words(a.get("text", ""), b.get("text", ""))
        if la and lb and la[0] != lb[0] or (not la or not lb) and start_words:
            lines = (order[lb[0]] - order[la[0]]) if la and lb else 0
            page = lb[0][0] if lb else None
            changes.append({"kind": "start", "old": i, "new": j, "lines": lines,
                            "words": start_words, "page": page,
                            "message": f"{name} now {_moved('starts', lines, start_words, page)}"})
        if la and lb and la[-1] != lb[-1] or (not la or not lb) and end_words:
            lines = (order[lb[-1]] - order[la[-1]]) if la and lb else 0
            page = lb[-1][0] if lb else None
            changes.append({"kind": "end", "old": i, "new": j, "lines": lines,
                            "words": -end_words, "page": page,
                            "message": f"{name} now {_moved('ends', lines, -end_words, page)}"})
        elif la == lb and a.get("text") != b.get("text"):
            changes.append({"kind": "text", "old": i, "new": j,
                            "message": f"{name} covers the same lines with other text"})
    changes.extend(_relations(old, new, to_new))
    return {"same": not changes, "old_chunks": len(old_chunks), "new_chunks": len(new_chunks),
            "changes": changes}


def _relations(old: Mapping[str, Any], new: Mapping[str, Any],
               to_new: Mapping[int, int]) -> list[dict[str, Any]]:
    """Overlaps, containment pairs and diagnostics the new side has and the old had not
    (old chunk numbers mapped to new ones first)."""
    out: list[dict[str, Any]] = []
    before = {(to_new.get(o["a"]), to_new.get(o["b"]), o["page"]) for o in old.get("overlaps", [])}
    for o in new.get("overlaps", []):
        if (o["a"], o["b"], o["page"]) not in before:
            out.append({"kind": "overlap", "new": [o["a"], o["b"]], "page": o["page"],
                        "message": f"chunks {o['a']} and {o['b']} now overlap on page "
                                   f"{o['page']} ({o.get('reason')})"})
    held = {(to_new.get(c["container"]), to_new.get(c["contained"]))
            for c in old.get("containment", [])}
    for c in new.get("containment", []):
        if (c["container"], c["contained"]) not in held:
            out.append({"kind": "containment", "new": [c["container"], c["contained"]],
                        "message": f"chunk {c['container']} now contains chunk "
                                   f"{c['contained']} ({c.get('reason')})"})
    said = {_diagnostic(d) for d in old.get("diagnostics", [])}
    for d in new.get("diagnostics", []):
        if _diagnostic(d) not in said:
            out.append({"kind": "diagnostic", "message": f"new diagnostic: {_diagnostic(d)}"})
    return out


def _diagnostic(d: Any) -> str:
    return d.get("message", str(d)) if isinstance(d, Mapping) else str(d)


def diff_manifests(old: Mapping[str, Any], new: Mapping[str, Any]) -> dict[str, Any]:
    """Pictures whose chunking digest changed (the chunking changed) and those whose
    output alone changed (only the drawing changed), keyed by strategy and page."""
    def key(p: Mapping[str, Any]) -> tuple[str, int]:
        return (p["strategy"], p["page"])

    before = {key(p): p for p in old.get("pictures", [])}
    after = {key(p): p for p in new.get("pictures", [])}
    changes: list[dict[str, Any]] = []
    for k in sorted(before.keys() | after.keys()):
        a, b = before.get(k), after.get(k)
        where = f"{k[0]} page {k[1]}"
        if a is None or b is None:
            kind = "added" if a is None else "removed"
            changes.append({"kind": kind, "strategy": k[0], "page": k[1],
                            "message": f"{where}: picture {kind}"})
        elif a["chunking_sha256"] != b["chunking_sha256"]:
            changes.append({"kind": "chunking", "strategy": k[0], "page": k[1],
                            "message": f"{where}: the chunking changed"})
        elif a["output_sha256"] != b["output_sha256"]:
            changes.append({"kind": "drawing", "strategy": k[0], "page": k[1],
                            "message": f"{where}: only the drawing changed"})
    chunking = [c for c in changes if c["kind"] != "drawing"]
    return {"same": not chunking, "changes": changes}


def is_manifest(data: Any) -> bool:
    return isinstance(data, Mapping) and "pictures" in data


def diff_any(old: Any, new: Any) -> dict[str, Any]:
    if is_manifest(old) and is_manifest(new):
        return diff_manifests(old, new)
    for side in (old, new):
        if not isinstance(side, Mapping) or not isinstance(side.get("chunks"), list):
            raise ValueError("expected two chunk reports (`visualiser chunk --format json`) "
                             "or two render manifests")
    return diff_reports(old, new)


def as_text(result: Mapping[str, Any]) -> str:
    if result["same"] and not result["changes"]:
        return "no change in the chunking\n"
    return "".join(f"- {c['message']}\n" for c in result["changes"])
