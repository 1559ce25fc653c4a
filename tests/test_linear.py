"""Linear everywhere: every registered strategy, and every analysis step (placing the
chunks on the pages, overlaps, containment, label placement), does at most about twice
the work on a document twice as long. Work is counted (Python lines and calls, C
calls: `operations.count_operations`), not timed, so the test means the same on a
loaded machine; a quadratic step doubles its share of the count fourfold.

Two documents, each repeated end to end: the operations report (headings, tables,
lists) and the Apex agreement with its headings made paragraphs, one long section
(where `structure_aware` once called `blocks.index` for every block).
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable

import pytest
from operations import count_operations, repeated_layout, without_headings

from tests.conftest import APEX, REPORT
from visualiser import analysis, labels, pipeline, tokenizers
from visualiser.layout.items import Item, RawLine
from visualiser.layout.model import Layout
from visualiser.layout.order import reading_order
from visualiser.layout.stacks import split_stacked_letters
from visualiser.strategies import STRATEGIES, get_strategy

GROWTH_LIMIT = 2.2  # twice the input: at most 2.2 times the work
# Copies of each document: n, then 2n. Large enough that every step is past its
# small-input shortcut (containment compares every pair below 65 chunks).
SIZES = {"report": (12, 24), "one long section": (24, 48)}


@pytest.fixture(scope="module")
def bases(processed):
    """name → the layout of one copy."""
    return {"report": processed(REPORT).layout,
            "one long section": without_headings(processed(APEX).layout)}


@pytest.fixture(scope="module")
def layouts(bases):
    """(name → (layout of n copies, layout of 2n copies)); documents are made fresh
    from them for every count, so no count profits from what an earlier one cached."""
    return {name: tuple(repeated_layout(layout, times) for times in SIZES[name])
            for name, layout in bases.items()}


def fresh(layout) -> pipeline.ProcessedDocument:
    # a copy: without what an earlier count made and kept on it (`Layout.words_box`)
    return pipeline.from_layout(repr(len(layout.pages)).encode(), "repeated",
                                dataclasses.replace(layout))


def growth(run: Callable[[pipeline.ProcessedDocument], object], small: Layout,
           large: Layout) -> tuple[float, int, int]:
    """Operations of `run` on a document of `large` over those on one of `small`."""
    run(fresh(small))  # warm: tokenizers loaded, patterns compiled
    a = counted(functools.partial(run, fresh(small)))
    b = counted(functools.partial(run, fresh(large)))
    return b / a, a, b


def counted(run: Callable[[], object]) -> int:
    """Operations of `run` with no token count or label width remembered from an
    earlier run (the warming one measured the small document's already)."""
    tokenizers.forget_counts()
    labels.text_width.cache_clear()
    return count_operations(run)


@pytest.mark.parametrize("document", list(SIZES))
@pytest.mark.parametrize("name", list(STRATEGIES))
def test_every_strategy_grows_linearly(layouts, name, document):
    cls = get_strategy(name)
    settings = cls.settings({})
    ratio, a, b = growth(lambda doc: cls().chunk(doc.source, settings), *layouts[document])
    assert a > 500, f"{name} did almost nothing ({a} operations): the input is wrong"
    assert ratio <= GROWTH_LIMIT, f"{name} on {document}: {a} → {b} operations (×{ratio:.2f})"


@pytest.mark.parametrize("name", list(STRATEGIES))
def test_the_whole_report_grows_linearly(bases, name):
    """Chunking, placing, overlaps, containment, diagnostics, table figures, labels,
    on the document with tables (each strategy cuts them its own way)."""
    document, cls = "report", get_strategy(name)
    times = SIZES[document][0]
    # Below FEW_CHUNKS chunks containment compares every pair (a fixed cost, cheaper
    # there than its index): start where every strategy is past it.
    while len(cls().chunk(fresh(repeated_layout(bases[document], times)).source,
                          cls.settings({}))) <= analysis.FEW_CHUNKS:
        times *= 2
    ratio, a, b = growth(lambda doc: pipeline.chunk_report(doc, name),
                         repeated_layout(bases[document], times),
                         repeated_layout(bases[document], 2 * times))
    assert ratio <= GROWTH_LIMIT, f"{name} on {document}: {a} → {b} operations (×{ratio:.2f})"


class Steps:
    """One document's chunks under a strategy, and what each analysis step needs."""

    def __init__(self, doc: pipeline.ProcessedDocument, strategy: str) -> None:
        cls = get_strategy(strategy)
        self.doc = doc
        self.chunks = cls().chunk(doc.source, cls.settings({}))
        self.placed = pipeline.place_chunks(doc, self.chunks)
        self.overlaps = analysis.find_overlaps(self.placed, doc.layout)
        self.containment = analysis.find_containment(self.placed)
        self.report = pipeline.chunk_report(doc, strategy)


@pytest.fixture(scope="module")
def steps(layouts):
    """(strategy, document) → the Steps of n and of 2n copies, made once."""
    made: dict[tuple[str, str], tuple[Steps, Steps]] = {}

    def get(strategy: str, document: str) -> tuple[Steps, Steps]:
        if (strategy, document) not in made:
            small, large = (Steps(fresh(layout), strategy) for layout in layouts[document])
            made[strategy, document] = small, large
        return made[strategy, document]

    return get


STEPS: dict[str, Callable[[Steps], object]] = {
    "placing chunks on pages": lambda s: pipeline.place_chunks(s.doc, s.chunks),
    "overlaps": lambda s: analysis.find_overlaps(s.placed, s.doc.layout),
    "containment": lambda s: analysis.find_containment(s.placed),
    "flags": lambda s: analysis.flags_by_chunk(len(s.placed), s.overlaps, s.containment),
    "labels": lambda s: labels.place_all(s.report),
    "table figures": lambda s: analysis.table_figures(s.doc.source, s.placed, "cl100k_base",
                                                      None),
}


# token_based: overlapping windows and table-context chunks holding whole tables (so
# overlaps and containment have work); structure_aware: the default.
@pytest.mark.parametrize("strategy", ["token_based", "structure_aware"])
@pytest.mark.parametrize("document", list(SIZES))
@pytest.mark.parametrize("step", list(STEPS))
def test_every_analysis_step_grows_linearly(steps, strategy, document, step):
    small, large = steps(strategy, document)
    if strategy == "token_based":
        assert small.overlaps and small.report["labels"], "the steps would have nothing to do"
        if document == "report":
            assert small.containment
    STEPS[step](small)  # warm
    a = counted(lambda: STEPS[step](small))
    b = counted(lambda: STEPS[step](large))
    assert b / a <= GROWTH_LIMIT, (
        f"{step} ({strategy} on {document}): {a} → {b} operations (×{b / a:.2f})")


def test_a_quadratic_step_is_caught():
    """The measure itself: every pair compared grows fourfold, and the test sees it."""
    def pairs(n: int) -> int:
        return sum(1 for i in range(n) for j in range(n) if i < j)

    assert count_operations(lambda: pairs(400)) / count_operations(lambda: pairs(200)) > 3.5


def _two_column_page(lines: int) -> list[Item]:
    """A tall page of `lines` lines in each of two columns, written column by column,
    with a short heading every tenth line (the kind of page `reading_order` cuts into
    many bands)."""
    items = []
    for x0 in (40.0, 320.0):
        for n in range(lines):
            top = 40.0 + 14.0 * n
            text = ["Heading"] if n % 10 == 0 else ["some", "words", "of", "running", "text"]
            words = [((x0 + 40.0 * k, top, x0 + 40.0 * k + 35.0, top + 12.0), w)
                     for k, w in enumerate(text)]
            box = (x0, top, words[-1][0][2], top + 12.0)
            items.append(Item("line", box, line=RawLine(box, words, 10.0, False, False)))
    return items


def test_reading_order_grows_linearly_with_the_lines_of_a_page():
    """`order._groups` once re-walked the group's items for every band it added."""
    reading_order(_two_column_page(10))  # warm
    a = count_operations(lambda: reading_order(_two_column_page(200)))
    b = count_operations(lambda: reading_order(_two_column_page(400)))
    assert b / a <= GROWTH_LIMIT, f"reading order: {a} → {b} operations (×{b / a:.2f})"


def _letter_page(rows: int, *, staggered: bool) -> list[RawLine]:
    """A page set one letter a line, in `rows` rows of 20 (as some CJK pages come out
    of the text layer). Staggered, each row is shifted half a letter from the one
    above, so no letter stands under another: every letter starts a stack in vain."""
    lines = []
    for row in range(rows):
        shift = 7.0 * (row % 2) if staggered else 0.0
        for column in range(20):
            x0, y0 = 40.0 + 14.0 * column + shift, 40.0 + 14.0 * row
            box = (x0, y0, x0 + 9.0, y0 + 10.0)
            lines.append(RawLine(box, [(box, "x")], 10.0, False, False))
    return lines


def test_stacked_letters_are_found_without_comparing_every_pair_of_letters():
    """`stacks.split_stacked_letters` once compared every letter with every other."""
    a = count_operations(lambda: split_stacked_letters(_letter_page(40, staggered=True)))
    b = count_operations(lambda: split_stacked_letters(_letter_page(80, staggered=True)))
    assert b / a <= GROWTH_LIMIT, f"stacked letters: {a} → {b} operations (×{b / a:.2f})"
    lines, stacks = split_stacked_letters(_letter_page(3, staggered=False))
    assert not lines and [stack.text for stack in stacks] == ["xxx"] * 20  # one per column
    lines, stacks = split_stacked_letters(_letter_page(3, staggered=True))
    assert len(lines) == 60 and not stacks
