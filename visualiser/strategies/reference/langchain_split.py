"""LangChain's RecursiveCharacterTextSplitter and MarkdownHeaderTextSplitter.

The recursive splitter (default settings: separators "\\n\\n", "\\n", " ", "", each
kept at the start of the piece after it; sizes in characters) is worked in source
offsets. The header splitter rewrites lines — it strips them, drops unprintable
characters and joins blocks with "  \\n" — so it works on `Traced` lines, which keep
the source offset of every character that survives.
"""

from __future__ import annotations

from array import array
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass, field

from visualiser.markdown import Traced
from visualiser.strategies.reference.common import Span, characters, split_keeping_separator

SEPARATORS = ("\n\n", "\n", " ", "")


# --- RecursiveCharacterTextSplitter ----------------------------------------------------

@dataclass(frozen=True, slots=True)
class CharChunk:
    start: int
    end: int
    strip: bool = True  # an oversized piece that nothing could split is kept as it is


def recursive_character_splitter(text: str, size: int, overlap: int) -> list[CharChunk]:
    out: list[CharChunk] = []
    _split(text, 0, len(text), SEPARATORS, size, overlap, out)
    return out


def _split(text: str, start: int, end: int, separators: Sequence[str], size: int,
           overlap: int, out: list[CharChunk]) -> None:
    separator, fallbacks = _first_present(text, start, end, separators)
    spans = (split_keeping_separator(text, start, end, separator) if separator
             else characters(start, end))
    short: list[Span] = []  # pieces under the size wait to be merged
    for piece in spans:
        if piece[1] - piece[0] < size:
            short.append(piece)
            continue
        out.extend(_merge(short, size, overlap))
        short = []
        if fallbacks:
            _split(text, *piece, fallbacks, size, overlap, out)
        else:
            out.append(CharChunk(*piece, strip=False))
    out.extend(_merge(short, size, overlap))


def _first_present(text: str, start: int, end: int, separators: Sequence[str]
                   ) -> tuple[str, Sequence[str]]:
    """The first separator found in the text, and the ones after it to fall back on.
    Reaching "" (characters) leaves nothing to fall back on."""
    for n, separator in enumerate(separators):
        if not separator:
            return separator, ()
        if text.find(separator, start, end) != -1:
            return separator, separators[n + 1 :]
    return separators[-1], ()


def _merge(pieces: list[Span], size: int, overlap: int) -> list[CharChunk]:
    """Greedy merge; on overflow emit, then drop pieces from the front while what is
    left exceeds the overlap or still leaves no room for the next piece."""
    chunks: list[CharChunk] = []
    current: deque[Span] = deque()
    total = 0
    for start, end in pieces:
        length = end - start
        if current and total + length > size:
            chunks.append(CharChunk(current[0][0], current[-1][1]))
            while current and (total > overlap or total + length > size):
                first = current.popleft()
                total -= first[1] - first[0]
        current.append((start, end))
        total += length
    if current:
        chunks.append(CharChunk(current[0][0], current[-1][1]))
    return chunks


# --- MarkdownHeaderTextSplitter --------------------------------------------------------

HEADER_MARKS = ("####", "###", "##", "#")  # longest first, so "##" is not read as "#"


@dataclass(slots=True)
class HeaderSection:
    text: Traced
    headers: dict[int, str]  # level -> heading text, the splitter's metadata


@dataclass(slots=True)
class _Block:
    lines: list[Traced]
    headers: dict[int, str]


@dataclass(slots=True)
class _State:
    blocks: list[_Block] = field(default_factory=list)
    content: list[Traced] = field(default_factory=list)
    current: dict[int, str] = field(default_factory=dict)  # metadata of the open block
    active: dict[int, str] = field(default_factory=dict)  # headings in force
    fence: str = ""  # the open code fence, if inside one

    def flush(self, headers: dict[int, str]) -> None:
        if self.content:
            self.blocks.append(_Block(self.content, dict(headers)))
            self.content = []


def markdown_header_splitter(text: Traced, strip_headers: bool) -> list[HeaderSection]:
    state = _State()
    for raw in text.lines():
        line = _printable(raw.strip())
        if _in_code(state, line.text):
            state.content.append(line)  # code lines are never headings, kept even if blank
            continue
        level = _header_level(line.text)
        if level:
            _open_header(state, level, line, strip_headers)
        elif line.text:
            state.content.append(line)
        else:
            state.flush(state.current)  # a blank line ends a block
        state.current = dict(state.active)
    state.flush(state.current)
    return _aggregate(state.blocks, strip_headers)


def _in_code(state: _State, line: str) -> bool:
    """Track code fences; True while the line is inside one (the opening fence counts,
    the closing one does not)."""
    if not state.fence:
        if line.startswith("```") and line.count("```") == 1:
            state.fence = "```"
        elif line.startswith("~~~"):
            state.fence = "~~~"
    elif line.startswith(state.fence):
        state.fence = ""
    return bool(state.fence)


def _header_level(line: str) -> int:
    for mark in HEADER_MARKS:
        if line.startswith(mark) and (len(line) == len(mark) or line[len(mark)] == " "):
            return len(mark)
    return 0


def _open_header(state: _State, level: int, line: Traced, strip_headers: bool) -> None:
    for deeper in [lv for lv in state.active if lv >= level]:
        del state.active[deeper]  # a heading closes those at its level and below
    state.active[level] = line.text[level:].strip()
    state.flush(state.current)
    if not strip_headers:
        state.content.append(line)


def _aggregate(blocks: list[_Block], strip_headers: bool) -> list[HeaderSection]:
    """Join consecutive blocks under the same headings with "  \\n". Keeping headings,
    a heading line followed by a deeper section joins that section."""
    groups: list[tuple[list[Traced], dict[int, str]]] = []
    for block in blocks:
        text = Traced.join("\n", block.lines)
        if groups and groups[-1][1] == block.headers:
            groups[-1][0].append(text)
        elif (groups and not strip_headers
              and len(groups[-1][1]) < len(block.headers)
              and _last_line(groups[-1][0]).startswith("#")):
            groups[-1][0].append(text)
            groups[-1] = (groups[-1][0], block.headers)
        else:
            groups.append(([text], block.headers))
    return [HeaderSection(Traced.join("  \n", parts), headers) for parts, headers in groups]


def _last_line(parts: list[Traced]) -> str:
    return parts[-1].text.rsplit("\n", 1)[-1]


def _printable(line: Traced) -> Traced:
    """Drop characters Python deems unprintable (tabs, no-break spaces, zero-width
    marks...), as the splitter does, keeping the positions of the rest."""
    if line.text.isprintable():
        return line
    keep = [n for n, ch in enumerate(line.text) if ch.isprintable()]
    return Traced("".join(line.text[n] for n in keep), array("i", (line.pos[n] for n in keep)))
