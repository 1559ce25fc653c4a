"""What the chunking did: overlaps, containment, their reasons, and diagnostics.

Every odd-looking box gets a reason. Overlaps follow the `bbox_adjacent` method:
chunk i and chunk i+1 on the same page whose enclosing boxes intersect. Containment
is textual: one chunk's whitespace-normalised text wholly inside another's. Reasons
come from provenance (which words two chunks share) and from the strategy's own
account of each chunk (`Chunk.origin`), never from guessing at text.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from visualiser import budget
from visualiser.align import Region, regions_of, shared_ground, sideways_notes, without_notes
from visualiser.geometry import BBox, area, intersection
from visualiser.layout.model import Layout
from visualiser.markdown import SourceMarkdown
from visualiser.strategies.base import (
    CHUNK_TYPE_WHY,
    EMBEDDING_LIMIT,
    Chunk,
    Context,
    Strategy,
    rule_of,
)
from visualiser.tokenizers import count_tokens

OVERLAP_METHOD = "bbox_adjacent"
TINY_TAIL_TOKENS = 20
HIGH_OVERLAP_SHARE = 0.30
_SENTENCE_END = re.compile(r"""[.!?:;)\]"'”’|*`]\s*$""")


@dataclass(slots=True)
class Placed:
    """A chunk with everything the analysis needs about where it sits."""

    index: int
    chunk: Chunk
    tokens: int
    words: set[int]
    regions: list[Region]
    norm: str = field(init=False)

    def __post_init__(self) -> None:
        self.norm = " ".join(self.chunk.text.text.split())

    @property
    def kind(self) -> str:
        return self.chunk.chunk_type

    @property
    def origin(self) -> dict[str, Any]:
        return self.chunk.origin


@dataclass(frozen=True, slots=True)
class Overlap:
    """Two neighbours whose enclosing boxes cross on a page (`bbox`, the pair compared
    under `bbox_adjacent`), and where on that page they hold the same words (`rects`,
    `area`): only the shared text is hatched; crossing boxes alone are an outline."""

    a: int
    b: int
    page: int
    bbox: BBox
    reason: str
    rects: tuple[BBox, ...] = ()
    area: float = 0.0
    shared_words: int = 0

    def to_dict(self) -> dict[str, Any]:
        return {"a": self.a, "b": self.b, "page": self.page,
                "bbox": [round(v, 2) for v in self.bbox],
                "rects": [[round(v, 2) for v in r] for r in self.rects],
                "area": round(self.area, 2), "box_area": round(area(self.bbox), 2),
                "shared_words": self.shared_words,
                "reason": self.reason, "intended": self.reason != "unexplained"}


@dataclass(frozen=True, slots=True)
class Containment:
    container: int
    contained: int
    reason: str

    def to_dict(self) -> dict[str, Any]:
        return {"container": self.container, "contained": self.contained,
                "reason": self.reason, "intended": self.reason != "unexplained"}


def find_overlaps(chunks: list[Placed], layout: Layout) -> list[Overlap]:
    """Neighbours (i, i+1) whose enclosing boxes cross on a page (`bbox_adjacent`), each
    measured on the text they share there: the words both hold, on both of their lines."""
    found = []
    for a, b in zip(chunks, chunks[1:], strict=False):
        regions_b = {r.page: r for r in b.regions}
        shared_words = a.words & b.words
        shared = {r.page: r for r in regions_of(shared_words, layout)} if shared_words else {}
        for region in a.regions:
            other = regions_b.get(region.page)
            common = intersection(region.bbox, other.bbox) if other else None
            if common is None or other is None:
                continue
            rects, shared_area = shared_ground(region, other, shared.get(region.page))
            words = sum(1 for w in shared_words if layout.words[w].page == region.page)
            reason = _reason(a, b)
            if reason == "layout_only" and intersection(without_notes(region),
                                                        without_notes(other)) is None:
                reason = "margin_note"  # only a note set sideways in the margin crosses
            found.append(Overlap(a.index, b.index, region.page, common, reason,
                                 tuple(rects), shared_area, words))
    return found


SHINGLE = 3  # words per key of the candidate index
FEW_CHUNKS = 64  # below this, comparing every pair is cheaper than building the index


def find_containment(chunks: list[Placed]) -> list[Containment]:
    """Every pair where one chunk's normalised text lies inside a longer one's.

    Near-linear rather than every pair by substring: a text of several words holds its
    inner words (all but the first and last, which may be cut) whole and in order, so
    only chunks holding its rarest run of three inner words are candidates (windows
    with an overlap of at most half their size share such a run with a handful of
    chunks). Texts of fewer inner words fall back to the rarest inner word, or to every
    longer chunk; the chunk limits keep those few. Identical texts are compared as the
    quadratic version did: a pair only when the later one in `chunks` has the smaller
    index.
    """
    order = {id(c): n for n, c in enumerate(sorted(chunks, key=lambda c: len(c.norm)))}
    words = [c.norm.split(" ") for c in chunks]
    index = _CandidateIndex(words) if _worth_indexing(words) else None
    everyone = range(len(chunks))
    found = []
    for n, small in enumerate(chunks):
        if n % 256 == 0:
            budget.check("finding contained chunks")
        if not small.norm:
            continue
        candidates = index.candidates(n) if index else everyone
        size = len(small.norm)
        for m in candidates if candidates is not None else everyone:
            big = chunks[m]
            if len(big.norm) < size or m == n:
                continue
            if len(big.norm) == size and (order[id(big)] < order[id(small)]
                                          or big.index > small.index):
                continue  # as the quadratic loop: only later (by length order) containers
            if small.norm in big.norm:
                found.append(Containment(big.index, small.index, _reason(big, small)))
    return sorted(found, key=lambda c: (c.container, c.contained))


def _worth_indexing(words: list[list[str]]) -> bool:
    """Few chunks are cheaper to compare pair by pair, in C, than to index word by word
    in Python. Only few: comparing every pair of a few hundred long chunks was once
    allowed too (while the pairs were fewer than the words), and that made twice the
    document four times the work (tests/test_linear.py)."""
    return len(words) > FEW_CHUNKS


class _CandidateIndex:
    """Which chunks may contain each chunk: those holding its rarest run of SHINGLE
    inner words (or, with fewer inner words, its rarest inner word) as whole words.

    Built in passes that run in C (counting every run, then matching each chunk's runs
    against the set of the runs asked about), not run by run in Python: indexing every
    run of every chunk was a quarter of a report's time. Only the asked-about runs get
    a list of their chunks."""

    def __init__(self, words: list[list[str]]) -> None:
        self._words = words
        self._probes: list[tuple[str, ...] | str | None] | None = None
        self._postings: dict[tuple[str, ...] | str, list[int]] = {}

    def candidates(self, n: int) -> list[int] | None:
        """Chunks that may contain chunk `n` (by its inner words); None: any chunk."""
        if self._probes is None:
            self._probes = self._build()
        probe = self._probes[n]
        return None if probe is None else self._postings[probe]

    def _build(self) -> list[tuple[str, ...] | str | None]:
        inner = [w[1:-1] for w in self._words]
        probes: list[tuple[str, ...] | str | None] = [None] * len(inner)
        long_ones = [n for n, i in enumerate(inner) if len(i) >= SHINGLE]
        if long_ones:
            counts: Counter[tuple[str, ...]] = Counter()
            for w in self._words:
                counts.update(_runs(w))
            for n in long_ones:
                probes[n] = min(_runs(inner[n]), key=counts.__getitem__)
            self._post({p for p in probes if isinstance(p, tuple)}, _runs)
        short_ones = [n for n, i in enumerate(inner) if 0 < len(i) < SHINGLE]
        if short_ones:
            word_counts: Counter[str] = Counter()
            for w in self._words:
                word_counts.update(w)
            for n in short_ones:
                probes[n] = min(inner[n], key=word_counts.__getitem__)
            self._post({probes[n] for n in short_ones}, iter)  # type: ignore[arg-type]
        return probes

    def _post(self, wanted: set, keys_of: Callable[[list[str]], Iterable]) -> None:
        """The chunks holding each key of `wanted`, in chunk order."""
        for key in wanted:
            self._postings[key] = []
        for n, w in enumerate(self._words):
            for key in wanted.intersection(keys_of(w)):
                self._postings[key].append(n)


def _runs(words: list[str]) -> Iterator[tuple[str, ...]]:
    """Every run of SHINGLE consecutive words."""
    return zip(*(words[k:] for k in range(SHINGLE)), strict=False)


def _reason(a: Placed, b: Placed) -> str:
    """Why two chunks share ground, from what their strategies' rules say about them:
    the first chunk's rule is asked first, then the second's; nobody claims it, a defect."""
    if not (a.words & b.words):
        return "layout_only"
    for mine, other in ((a, b), (b, a)):
        rule = rule_of(mine)
        reason = rule.shares(mine, other) if rule else None
        if reason:
            return reason
    return "unexplained"


def why(origin: Mapping[str, Any], chunk_type: str, tokens: int,
        heading_path: Sequence[str], layout_engine: str = "") -> str:
    """A plain-language account of the rule that made a chunk, in the rule's own words
    (works on stored chunks too: it needs only what is stored). `layout_engine` (the
    report's) says who found the headings, for rules that start at one."""
    rule = rule_of(origin)
    if rule is None:
        return CHUNK_TYPE_WHY.get(chunk_type, "Made by the strategy; it gave no further reason.")
    return rule.explain(origin, Context(chunk_type, tokens, tuple(heading_path), layout_engine))


def flags_by_chunk(count: int, overlaps: list[Overlap], containment: list[Containment],
                   placed: Sequence[Placed] = ()) -> list[list[dict[str, Any]]]:
    """Per chunk, what a reader should notice about it, in one pass over the pairs
    (and over `placed`, the chunks, for boxes a margin note stretches).

    Each flag says whether what it reports is intended (and the reason: an overlap
    window, a table-context chunk, ...) or unexplained, so the viewer can show defects
    as defects. Containment pairs of one chunk are grouped by reason.
    """
    contains: list[dict[str, list[int]]] = [{} for _ in range(count)]
    inside: list[dict[str, list[int]]] = [{} for _ in range(count)]
    for pair in containment:
        contains[pair.container].setdefault(pair.reason, []).append(pair.contained)
        inside[pair.contained].setdefault(pair.reason, []).append(pair.container)
    flags: list[list[dict[str, Any]]] = [[] for _ in range(count)]

    def add(index: int, code: str, reason: str, message: str) -> None:
        intended = reason != "unexplained"
        flags[index].append({"code": code if intended else f"{code}_defect",
                             "message": message, "intended": intended, "reason": reason})

    for index in range(count):
        for reason, numbers in contains[index].items():
            add(index, "contains_others", reason,
                f"contains {_chunks(numbers)} ({_reason_words(reason)})")
        for reason, numbers in inside[index].items():
            add(index, "contained_in", reason,
                f"wholly inside {_chunks(numbers)} ({_reason_words(reason)})")
    for o in overlaps:
        for this, other in ((o.a, o.b), (o.b, o.a)):
            add(this, "overlap", o.reason,
                f"box overlaps chunk {other} on page {o.page} ({_reason_words(o.reason)})")
    for chunk in placed:
        noted = [r.page for r in chunk.regions if sideways_notes(r)]
        if noted:
            add(chunk.index, "margin_note", "margin_note",
                f"box widened by sideways text beside it on page"
                f"{'s' if len(noted) > 1 else ''} {', '.join(map(str, noted))} (a margin "
                "stamp or note)")
    return flags


def _reason_words(reason: str) -> str:
    return "unexplained: a defect" if reason == "unexplained" else reason.replace("_", " ")


def banner_figures(chunk_types: Sequence[str]) -> dict[str, list[int]]:
    """What a strategy's banner may speak of, counted on this document's chunks."""
    return {"table_context": [i for i, kind in enumerate(chunk_types) if kind == "table_context"]}


def banner(strategy: type[Strategy], settings: dict[str, Any],
           chunk_types: Sequence[str]) -> dict[str, Any]:
    """The banner of `strategy` for this document, as plain text and as parts (text
    pieces and `{"chunk": n}` links) for the viewer; both None when there is none."""
    parts = strategy.banner_for_document(settings, banner_figures(chunk_types))
    if not parts:
        return {"banner": None, "banner_parts": None}
    return {"banner": "".join(str(p) for p in parts),
            "banner_parts": [{"chunk": p} if isinstance(p, int) else {"text": p}
                             for p in parts]}


def diagnostics(chunks: list[Placed], source_tokens: int) -> list[dict[str, Any]]:
    """Known failure modes, each naming the chunk and what to look at."""
    found: list[dict[str, Any]] = []

    def add(code: str, message: str, chunk: int | None = None) -> None:
        found.append({"code": code, "chunk": chunk, "message": message})

    for c in chunks:
        if c.tokens > EMBEDDING_LIMIT:
            add("over_embedding_limit",
                f"chunk {c.index} has {c.tokens:,} tokens, over the {EMBEDDING_LIMIT:,}-token "
                "embedding limit", c.index)
        if c.kind == "text" and 0 < c.tokens < TINY_TAIL_TOKENS:
            add("tiny_chunk", f"chunk {c.index} has only {c.tokens} tokens", c.index)
        if c.kind == "text" and c.norm and not _SENTENCE_END.search(c.norm):
            add("sentence_cut", f"chunk {c.index} ends mid-sentence: …{c.norm[-40:]}", c.index)
        if c.kind == "text" and "|" in c.norm and _cut_table(c.chunk.text.text):
            add("table_without_header",
                f"chunk {c.index} holds table rows without the table's header row", c.index)
        if not c.chunk.heading_path:
            add("no_heading", f"chunk {c.index} carries no heading to say what it is about",
                c.index)
    for a, b in zip(chunks, chunks[1:], strict=False):
        shared = len(a.words & b.words)
        smaller = min(len(a.words), len(b.words)) or 1
        if (b.kind != "table_context" and a.kind != "table_context"
                and shared / smaller > HIGH_OVERLAP_SHARE):
            add("high_overlap", f"chunks {a.index} and {b.index} share "
                f"{shared / smaller:.0%} of their words (over {HIGH_OVERLAP_SHARE:.0%})", b.index)
    stored = sum(c.tokens for c in chunks)
    if source_tokens and stored > source_tokens:
        add("token_inflation", f"the chunks store {stored:,} tokens for {source_tokens:,} "
            f"tokens of text (+{stored / source_tokens - 1:.0%})")
    return found


def split_probability(length: int, size: int, overlap: int) -> float:
    """How likely windows of `size` advancing by size − overlap are to leave no window
    holding a table of `length` whole, the table's start being anywhere: none when it
    fits in the overlap, certain when it is longer than a window, in between linear."""
    stride = size - overlap
    if length <= overlap:
        return 0.0
    if length >= size or stride <= 0:
        return 1.0
    return (length - overlap) / stride


def table_figures(source: SourceMarkdown, chunks: list[Placed], encoding: str,
                  windows: tuple[int, int, str] | None) -> list[dict[str, Any]]:
    """Per markdown table: its length in tokens, its rows, the chance a window cuts it
    (`windows` = size, overlap and unit of a strategy whose windows run through tables;
    None, and the prediction is None, where tables are units of their own), whether it was
    cut (no chunk holds all of its words) and the chunks holding any of it."""
    found = []
    tables = [b for b in source.blocks if b.kind == "table"]
    table_words = [{w for w in source.word_at[b.start:b.end] if w >= 0} for b in tables]
    # Which chunks hold each table word, made in one pass (asking every chunk about every
    # table made twice the document four times the work).
    holders: dict[int, list[int]] = {}
    in_tables = set().union(*table_words)
    for position, chunk in enumerate(chunks):
        for w in chunk.words & in_tables:
            holders.setdefault(w, []).append(position)
    for number, block in enumerate(tables):
        words = table_words[number]
        text = source.text[block.start:block.end]
        tokens = count_tokens(text, encoding)
        predicted = None
        if windows is not None:
            size, overlap, unit = windows
            length = tokens if unit == "tokens" else len(text)
            predicted = round(split_probability(length, size, overlap), 4)
        positions = sorted({p for w in words for p in holders.get(w, ())})
        holding = [chunks[p].index for p in positions]
        whole = any(words <= chunks[p].words for p in positions)
        found.append({"table": number, "tokens": tokens, "rows": len(block.rows),
                      "predicted_split": predicted, "split": bool(words) and not whole,
                      "chunks": holding})
    return found


def sizing_diagnostics(sizing: tuple[str, str, str] | None, settings: dict[str, Any],
                       chunks: list[Placed]) -> list[dict[str, Any]]:
    """What the configuration itself risks: no overlap, too much, characters for tokens."""
    if sizing is None:
        return []
    size_name, overlap_name, unit = sizing
    size, overlap = settings[size_name], settings[overlap_name]
    found = []
    if overlap == 0 and len(chunks) > 1:
        found.append({"code": "zero_overlap", "chunk": None, "message": (
            f"{overlap_name} is 0: a sentence or table row cut at a chunk boundary is whole "
            "in neither chunk")})
    elif overlap / size > HIGH_OVERLAP_SHARE:
        found.append({"code": "high_overlap_setting", "chunk": None, "message": (
            f"{overlap_name} is {overlap / size:.0%} of {size_name}: over "
            f"{HIGH_OVERLAP_SHARE:.0%}, much of what is stored is stored twice")})
    if unit == "characters" and chunks:
        largest = max(chunks, key=lambda c: c.tokens)
        found.append({"code": "character_sizing", "chunk": largest.index, "message": (
            f"{size_name} counts characters, not tokens (4,000 characters are about 1,000 "
            f"tokens of English, more in other scripts); the largest chunk here is "
            f"{largest.tokens:,} tokens")})
    return found


def _cut_table(text: str) -> bool:
    """Does the text start with table rows that have lost their header row?"""
    lines = [ln for ln in text.splitlines() if ln.strip()]
    return bool(lines) and lines[0].lstrip().startswith("|") and not any(
        re.match(r"^\s*\|?\s*:?-{3,}", ln) for ln in lines[:3])


def _chunks(numbers: list[int]) -> str:
    listed = ", ".join(str(n) for n in sorted(numbers))
    return f"chunk{'s' if len(numbers) > 1 else ''} {listed}"
