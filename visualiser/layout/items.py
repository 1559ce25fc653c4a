"""What a layout engine reads off a page: plain, picklable data (`PageRead`).

Every engine (see `engines.py`) produces these; `build.py` turns them into the
Layout. Coordinates are in the page's own text space (unrotated, where lines run
left to right); `PageRead.matrix` maps them to the displayed page.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from visualiser.geometry import BBox

WordBox = tuple[BBox, str]

# What an engine may know about an item beyond its geometry. The builtin engine
# leaves most of this to `build.py`'s font statistics; an ML engine says it outright.
# "note": margin or rotated note (or an engine's footnote), read apart from the body
# (after the paragraph it stands beside, or after the page's text);
# "label": a figure's label or a callout on a picture, read where it stands; neither
# is ever a heading or part of a paragraph of the body. "running": a page header or
# footer, left out of the chunks with a warning.
Role = Literal["heading", "paragraph", "list_item", "caption", "code", "note", "label",
               "running"]


@dataclass(slots=True)
class RawLine:
    bbox: BBox
    words: list[WordBox]
    size: float
    bold: bool
    mono: bool
    horizontal: bool = True  # runs left to right; False for rotated and vertical text
    bold_lead: bool = False  # opens with words in bold, the rest not: a run-in head
    text: str = field(init=False)

    def __post_init__(self) -> None:
        self.text = " ".join(w for _, w in self.words)


@dataclass(slots=True)
class Item:
    """A line, table or image in reading order."""

    kind: Literal["line", "table", "image"]
    bbox: BBox
    line: RawLine | None = None
    rows: list[list[list[WordBox]]] | None = None  # tables: rows → cells → words
    role: Role | None = None  # set by an engine that knows; None lets build.py decide
    level: int = 0  # heading rank, with role="heading" (`build` makes levels of ranks)
    group: int | None = None  # lines an engine knows form one block share a group
    seq: int = 0  # position in the order the engine read it (the content stream's)


@dataclass(slots=True)
class PageRead:
    number: int  # 1-based
    width: float  # displayed size (rotation applied)
    height: float
    rotation: int
    matrix: tuple[float, float, float, float, float, float]  # text space → displayed
    items: list[Item]
    ocr: bool = False
    warning: str | None = None
    warnings: list[str] = field(default_factory=list)  # more than one thing to say
    watermarks: list[str] = field(default_factory=list)  # slanted text left out of it

    @property
    def text_size(self) -> tuple[float, float]:
        """The page's width and height in text space, where `items` are: the displayed
        size turned back on a page rotated a quarter turn."""
        return ((self.width, self.height) if self.rotation % 180 == 0
                else (self.height, self.width))
