"""Figures drawn with vector graphics (charts, diagrams, flowcharts) and their labels.

A chart's tick labels, a flowchart's box names and a diagram's callouts are text
lines like any other to the text layer. Left among the body lines, they bridge
column gutters (so a two-column page is read across), and the XY-cut reads them row
by row into the paragraph beside the figure ("perfor- [Katrina New Orleans] mance").
Here the page's drawings are clustered into figures; the short lines set on a figure
(or touching its edge, set smaller than the page's body text) are its labels. The
reading order treats a figure and its labels as one solid item (`order.py`), and
the labels are notes: never joined to a paragraph, never taken for headings.

A cluster of drawings holding running text (a boxed paragraph, a shaded code
listing, a frame around a page) is no figure: its text is read as body text.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from visualiser.geometry import BBox, union
from visualiser.layout.headings import CAPTION, size_class
from visualiser.layout.items import Item

MIN_SIDE = 24.0  # points: a smaller cluster of drawings is an icon, a bullet or a rule
JOIN = 6.0  # points: drawings this close to each other are parts of one figure
LABEL_WORDS = 6  # a line of this many words is running text, not a label
MIN_SHAPES = 3  # drawings with extent both ways a figure has besides its background
MAX_PROSE = 0.25  # share of a figure's lines that may be sentences (an example in a diagram)
LINE = 1.2  # a line of text is this many times its type size high
MAX_INK = 0.4  # share of a figure's area its labels may cover; denser is text in a box
MAX_DRAWINGS = 5000  # a page drawn with more paths (a map, a plot of points) is skipped
_WHITE = 0.95  # a fill this light on every channel is a background no one sees


@dataclass(slots=True)
class Figure:
    bbox: BBox
    members: list[Item]  # its labels (and any table or picture set inside it)


def drawing_boxes(paths: list[dict]) -> list[BBox]:
    """The boxes of the page's visible drawings (`page.get_cdrawings()`), in text
    space (as the words)."""
    boxes: list[BBox] = []
    for path in paths:
        fill = path.get("fill")
        if path.get("type") == "f" and fill is not None and all(c >= _WHITE for c in fill):
            continue
        x0, y0, x1, y1 = path["rect"]
        boxes.append((x0, y0, x1, y1))
        if len(boxes) > MAX_DRAWINGS:
            return []
    return boxes


def find_figures(drawings: list[BBox], items: list[Item]) -> list[Figure]:
    """The figures among `drawings` and the items (labels, tables, pictures) that
    belong to each; every item belongs to at most one figure."""
    lines = [i for i in items if i.line is not None and i.line.horizontal and i.role is None]
    if not drawings or not lines:
        return []
    body = _body_size(lines)
    prose = [i for i in lines if _is_prose(i, body)]
    solid = [i for i in items if i.kind in ("table", "image")]
    # Frames, backgrounds and boxed text hold running text; table rulings are the
    # table's. Neither is part of a figure.
    shapes = [b for b in drawings
              if not any(_holds(b, i.bbox) for i in prose)
              and not any(_inside(b, t.bbox) for t in solid if t.kind == "table")]
    figures: list[Figure] = []
    taken: set[int] = set()
    for group in _clusters(shapes):
        cluster = union(group)
        if cluster[2] - cluster[0] < MIN_SIDE or cluster[3] - cluster[1] < MIN_SIDE:
            continue
        free = [i for i in lines if id(i) not in taken]
        members = [i for i in free if _label_of(i, cluster, group, body)]
        members += _beside(members, free, body)
        prose_here = [i for i in members if _is_prose(i, body)]
        if (not members or MAX_PROSE * len(members) < len(prose_here)
                or any(size_class(i.line.size) > body for i in prose_here if i.line)):
            continue  # a title on a banner, sentences in a box: text, not a figure
        if not _drawn_among(group, members):
            continue  # one box behind a few lines (a shaded listing), or only rules
        ink = sum(_area(i.bbox) for i in members)
        box = union([cluster] + [i.bbox for i in members])
        if ink > MAX_INK * _area(box):
            continue  # text filling a drawn box: a text box or a listing
        # a table or picture set in the figure or right against it is part of it,
        # with the small labels beside it ("Obtained table" next to a grid)
        inner = [i for i in solid if id(i) not in taken and _near(i.bbox, box, LINE * body)]
        chosen = {id(m) for m in members}
        members += inner + _beside(inner, [i for i in free if id(i) not in chosen], body)
        taken.update(id(i) for i in members)
        figures.append(Figure(union([box] + [i.bbox for i in members]), members))
    return figures


def _body_size(lines: list[Item]) -> float:
    sizes: Counter[float] = Counter()
    for item in lines:
        assert item.line is not None
        sizes[size_class(item.line.size)] += len(item.line.text)
    return sizes.most_common(1)[0][0]


def _is_prose(item: Item, body: float) -> bool:
    """Running text, a caption or a line set larger than the body: never a label."""
    assert item.line is not None
    return (len(item.line.words) >= LABEL_WORDS or bool(CAPTION.match(item.line.text))
            or size_class(item.line.size) > body)


def _label_of(item: Item, cluster: BBox, group: list[BBox], body: float) -> bool:
    """Is the line `item` a label of the figure drawn with `group`: on or beside one
    of its drawings, inside the figure, or touching its edge in type smaller than the
    body text (a tick label, an axis title, a name beside a box)?"""
    assert item.line is not None
    pad = max(3.0, 0.8 * item.line.size)
    box = item.bbox
    if not _near(box, cluster, pad):
        return False
    if not _holds(cluster, box) and size_class(item.line.size) >= body:
        return False
    return any(_near(box, shape, pad) for shape in group)


def _beside(members: list[Item], lines: list[Item], body: float) -> list[Item]:
    """Small-type lines set next to labels already found (a name after an ellipsis
    mark beside a box, the second line of a two-line label), found transitively."""
    found: list[Item] = []
    chosen = {id(m) for m in members}
    frontier = list(members)
    while frontier:
        added = [i for i in lines if id(i) not in chosen and i.line is not None
                 and size_class(i.line.size) < body and not _is_prose(i, body)
                 and any(_near(i.bbox, m.bbox, max(3.0, 0.8 * i.line.size)) for m in frontier)]
        chosen.update(id(i) for i in added)
        found += added
        frontier = added
    return found


def _drawn_among(group: list[BBox], members: list[Item]) -> bool:
    """Are there shapes among the labels (boxes, curves, markers: at least
    `MIN_SHAPES` drawings with some extent both ways, none of them a background
    behind most of the labels)? A shaded listing has one box behind its lines; a
    table ruled by horizontal lines has no shape at all."""
    lines = [m for m in members if m.line is not None]
    shapes = 0
    for b in group:
        if b[2] - b[0] <= 3 or b[3] - b[1] <= 3:
            continue
        if 2 * sum(_holds(b, m.bbox) for m in lines) >= len(lines) and len(lines) > 1:
            continue  # behind most of the labels: a background
        shapes += 1
        if shapes >= MIN_SHAPES:
            return True
    return False


def _near(a: BBox, b: BBox, pad: float) -> bool:
    return a[0] < b[2] + pad and b[0] - pad < a[2] and a[1] < b[3] + pad and b[1] - pad < a[3]


def _clusters(boxes: list[BBox]) -> list[list[BBox]]:
    """`boxes` grouped where they lie within JOIN of each other, transitively (a
    sweep over x keeps it near linear on ordinary pages)."""
    parent = list(range(len(boxes)))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    order = sorted(range(len(boxes)), key=lambda i: boxes[i][0])
    active: list[int] = []
    for i in order:
        b = boxes[i]
        active = [j for j in active if boxes[j][2] + JOIN >= b[0]]
        for j in active:
            o = boxes[j]
            if o[1] - JOIN <= b[3] and b[1] - JOIN <= o[3]:
                parent[root(i)] = root(j)
        active.append(i)
    groups: dict[int, list[BBox]] = {}
    for i, b in enumerate(boxes):
        groups.setdefault(root(i), []).append(b)
    return list(groups.values())


def _holds(outer: BBox, inner: BBox) -> bool:
    """Does `outer` hold the centre of `inner`?"""
    x, y = (inner[0] + inner[2]) / 2, (inner[1] + inner[3]) / 2
    return outer[0] <= x <= outer[2] and outer[1] <= y <= outer[3]


def _inside(inner: BBox, outer: BBox, tolerance: float = 3.0) -> bool:
    return (inner[0] >= outer[0] - tolerance and inner[1] >= outer[1] - tolerance
            and inner[2] <= outer[2] + tolerance and inner[3] <= outer[3] + tolerance)


def _area(box: BBox) -> float:
    return max(0.0, box[2] - box[0]) * max(0.0, box[3] - box[1])
