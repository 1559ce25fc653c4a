"""The shared tools' scores (`../shared/tools/*.py`), computed in-process on a chunks
report, for `bench_layout.py` and the corpus tests: the same definitions, without a
process per file. Plus one the tools lack: reading order against the PDF's content
order after both sides are normalised the way our text is (NFKC, words broken at a
line end joined), so that joining "detec-" and "tion" is not counted as disorder.
"""

from __future__ import annotations

import collections
import re
import statistics
import unicodedata

import pymupdf

from visualiser.layout.scripts import UNSPACED_CHAR

WORD = re.compile(r"[^\W_]+", re.UNICODE)
PLACEHOLDER = re.compile(r"!\[[^\]]*\]\([^)]*\)")  # image placeholders carry no page words


def toks(text: str) -> list[str]:
    return [w.lower() for w in WORD.findall(text)]


def bag(text: str) -> collections.Counter[str]:
    return collections.Counter(toks(PLACEHOLDER.sub(" ", text)))


def structure(md: str, chunks: list[dict]) -> tuple[float, float, float]:
    """structure_score.py: heading recall, paragraphs whole, in order."""
    heads = [" ".join(toks(line.lstrip("#"))) for line in md.splitlines() if line.startswith("#")]
    heads = [h for h in heads if h]
    paras = []
    for block in md.split("\n\n"):
        b = block.strip()
        if not b or b.startswith(("#", "|", "<!--", "```", "$$")):
            continue
        for item in (b.splitlines() if b.startswith("- ") else [b]):
            t = toks(item)
            if len(t) >= 8:
                paras.append(t)
    gt = toks(md)
    gpairs = set(zip(gt, gt[1:], strict=False))
    ours = set()
    for c in chunks:
        for h in c.get("heading_path") or []:
            ours.add(" ".join(toks(h)))
        for line in c["text"].splitlines():
            if line.startswith("#"):
                ours.add(" ".join(toks(line.lstrip("#"))))
    headings = sum(h in ours for h in heads) / len(heads) if heads else 1.0
    cpairs = [set(zip(t, t[1:], strict=False)) for t in (toks(c["text"]) for c in chunks)]
    whole = 0
    for p in paras:
        pp = list(zip(p, p[1:], strict=False))
        if any(len(pp) - sum(x in cp for x in pp) <= max(1, 0.03 * len(pp)) for cp in cpairs):
            whole += 1
    paragraphs = whole / len(paras) if paras else 1.0
    return headings, paragraphs, _pairs_in(chunks, gpairs)


def _pairs_in(chunks: list[dict], pairs: set[tuple[str, str]]) -> float:
    total = ok = 0
    for c in chunks:
        if c["chunk_type"].startswith("table"):
            continue
        t = toks(c["text"])
        for a, b in zip(t, t[1:], strict=False):
            total += 1
            ok += (a, b) in pairs
    return ok / total if total else float("nan")


def pdf_order(pdf: pymupdf.Document, chunks: list[dict]) -> float | None:
    """order_score.py: None when the text layer has under 50 words to compare with."""
    seq = [t for p in pdf for w in p.get_text("words", sort=False) for t in toks(w[4])]
    if len(seq) < 50:
        return None
    score = _pairs_in(chunks, set(zip(seq, seq[1:], strict=False)))
    return None if score != score else score  # only tables: nothing to say


def coverage(pdf: pymupdf.Document, chunks: list[dict]) -> tuple[float, float] | None:
    """coverage_score.py: coverage and inflation; None without a text layer (the tool
    divides by the document's words)."""
    document = bag(" ".join(w[4] for p in pdf for w in p.get_text("words")))
    if not document:
        return None
    union: collections.Counter[str] = collections.Counter()
    stored = 0
    for c in chunks:
        words = bag(c["text"])
        union += words
        stored += sum(words.values())
    total = sum(document.values())
    return sum((document & union).values()) / total, stored / total


def boxes(pdf: pymupdf.Document, chunks: list[dict]) -> tuple[float, float] | None:
    """box_score.py: median recall and precision over the chunks; None without a text
    layer to check against."""
    page_words: dict[int, list[tuple]] = {}
    recalls, precisions = [], []
    for c in chunks:
        want = bag(c["text"])
        if not want:
            continue
        got: collections.Counter[str] = collections.Counter()
        for region in c["regions"]:
            number = region["page"] - 1
            if number not in page_words:
                page = pdf[number]
                m = page.rotation_matrix
                page_words[number] = [tuple(pymupdf.Rect(w[:4]) * m) + (w[4],)
                                      for w in page.get_text("words")]
            for x0, y0, x1, y1 in region["rects"]:
                rect = pymupdf.Rect(x0, y0, x1, y1) + (-1, -1, 1, 1)
                for w in page_words[number]:
                    if rect.contains(pymupdf.Point((w[0] + w[2]) / 2, (w[1] + w[3]) / 2)):
                        got.update(toks(w[4]))
        if not got and not any(page_words.get(r["page"] - 1) for r in c["regions"]):
            continue  # every page of this chunk lacks a text layer
        inter = sum((want & got).values())
        recalls.append(inter / sum(want.values()))
        precisions.append(inter / sum(got.values()) if got else 0.0)
    if not recalls:
        return None
    return statistics.median(recalls), statistics.median(precisions)


def _split_cjk(text: str) -> str:
    """A character of Chinese or Japanese as a token of its own, for the normalised
    order: their words have no spaces, so a tool splitting at spaces sees a line of
    the PDF (a vertical column: one character) where our text has the whole unbroken
    paragraph."""
    return UNSPACED_CHAR.sub(r" \g<0> ", text)


def pdf_order_normalised(pdf: pymupdf.Document, chunks: list[dict]) -> float | None:
    """Like `pdf_order`, with the PDF's words and ours both NFKC-normalised, Chinese
    and Japanese read a character at a time, and the PDF's line-end hyphenation either
    joined ("detec-" + "tion") or kept: our text joins a word broken by the typesetter
    and keeps the hyphen of a compound ("self-publishing"), so a pair in order under
    either spelling is in order."""
    words: list[str] = []
    unjoined: list[str] = []
    for page in pdf:
        for w in page.get_text("words", sort=False):
            text = _split_cjk(unicodedata.normalize("NFKC", w[4]))
            unjoined.append(text)
            last = words[-1] if words else ""
            if len(last) > 1 and last[-1] == "-" and last[-2].isalpha() and text[:1].islower():
                words[-1] = last[:-1] + text
            else:
                words.append(text)
    seq = [t for w in words for t in toks(w)]
    if len(seq) < 50:
        return None
    pairs = set(zip(seq, seq[1:], strict=False))
    kept = [t for w in unjoined for t in toks(w)]
    pairs.update(zip(kept, kept[1:], strict=False))
    normalised = [dict(c, text=_split_cjk(unicodedata.normalize("NFKC", c["text"])))
                  for c in chunks]
    score = _pairs_in(normalised, pairs)
    return None if score != score else score
