"""The strategy contract: a Chunk type, declared parameters, and a registry.

A strategy is one class with one method, `chunk(source, settings)`, registered under
a name with `@register`. The UI's dropdown, its parameter form and the CLI's choices
all come from `STRATEGIES`, so adding a strategy means one module, one test and one
import line in `visualiser/strategies/__init__.py`.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar, Literal

from visualiser.errors import BadParameter, LimitExceeded, UnknownStrategy
from visualiser.markdown import SourceMarkdown, Traced

# A banner as the strategy writes it: text, with chunk numbers (ints) where it names chunks.
BannerParts = list[str | int]

ChunkType = Literal["text", "table", "table_context", "table_full", "list", "image", "code"]


@dataclass(slots=True)
class Chunk:
    """A chunk as a strategy emits it: its text, traced back to the markdown."""

    text: Traced
    chunk_type: ChunkType = "text"
    heading_path: tuple[str, ...] = ()
    # Why the strategy made this chunk, as data; `analysis.why` turns it into words.
    # e.g. {"rule": "token_window", "window": 2, "of": 3, "overlap": 100}
    origin: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Param:
    name: str
    kind: Literal["int", "bool", "choice"]
    default: Any
    help: str
    minimum: int | None = None
    maximum: int | None = None
    choices: tuple[str, ...] = ()
    optional: bool = False  # None is allowed and means "derive it" (see help)

    def parse(self, raw: Any) -> Any:
        """Validate one value from a query string, CLI flag or JSON body."""
        if raw is None or (isinstance(raw, str) and raw.strip().lower() in ("", "none")):
            if self.optional:
                return None
            raise BadParameter(self.name, "a value is required")
        if self.kind == "bool":
            if isinstance(raw, bool):
                return raw
            text = str(raw).strip().lower()
            if text in ("1", "true", "yes", "on"):
                return True
            if text in ("0", "false", "no", "off"):
                return False
            raise BadParameter(self.name, f"expected true or false, got {raw!r}")
        if self.kind == "choice":
            if raw not in self.choices:
                raise BadParameter(
                    self.name, f"expected one of {', '.join(self.choices)}, got {raw!r}"
                )
            return raw
        try:
            value = int(raw)
        except (TypeError, ValueError):
            raise BadParameter(self.name, f"expected a whole number, got {raw!r}") from None
        if self.minimum is not None and value < self.minimum:
            raise BadParameter(self.name, f"must be at least {self.minimum}, got {value}")
        if self.maximum is not None and value > self.maximum:
            raise BadParameter(self.name, f"must be at most {self.maximum}, got {value}")
        return value

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "kind": self.kind,
            "default": self.default,
            "help": self.help,
            "minimum": self.minimum,
            "maximum": self.maximum,
            "choices": list(self.choices),
            "optional": self.optional,
        }


class Strategy(ABC):
    name: ClassVar[str]
    label: ClassVar[str]
    explanation: ClassVar[str]  # one paragraph: how this strategy cuts a document
    banner: ClassVar[str | None] = None  # shown above the pages when set
    # (size parameter, overlap parameter, unit) for strategies cut by a size budget with
    # an overlap, so the analysis can flag zero or excessive overlap and character sizing
    sizing: ClassVar[tuple[str, str, str] | None] = None
    params: ClassVar[tuple[Param, ...]] = ()

    @classmethod
    def settings(cls, raw: Mapping[str, Any] | None = None) -> dict[str, Any]:
        """Defaults overridden by `raw`; unknown names and bad values are errors."""
        raw = dict(raw or {})
        known = {p.name: p for p in cls.params}
        unknown = sorted(set(raw) - set(known))
        if unknown:
            raise BadParameter(
                unknown[0],
                f"{cls.name} has no such parameter; valid: {', '.join(known) or 'none'}",
            )
        settings = {p.name: p.default for p in cls.params}
        settings.update({name: known[name].parse(value) for name, value in raw.items()})
        cls.check(settings)
        if cls.sizing is not None:
            check_overlap(settings, cls.sizing[0], cls.sizing[1])
        return settings

    @classmethod  # noqa: B027 (an optional hook: most strategies need no cross-checks)
    def check(cls, settings: dict[str, Any]) -> None:
        """Cross-parameter rules (e.g. overlap < size); raise BadParameter."""

    @abstractmethod
    def chunk(self, source: SourceMarkdown, settings: dict[str, Any]) -> list[Chunk]: ...

    @classmethod
    def banner_for(cls, settings: dict[str, Any]) -> str | None:
        """The banner for these settings (a setting can remove what it explains)."""
        return cls.banner

    @classmethod
    def banner_for_document(cls, settings: dict[str, Any],
                            figures: Mapping[str, list[int]]) -> BannerParts | None:
        """The banner for one document: pieces of text and chunk numbers (the viewer
        makes each number a link to its chunk). `figures` is what the analysis counted
        (`analysis.banner_figures`); a strategy that explains deliberate spanning names
        the chunks concerned. By default, the banner for the settings, as one piece."""
        text = cls.banner_for(settings)
        return [text] if text else None

    @classmethod
    def describe(cls) -> dict[str, Any]:
        return {
            "name": cls.name,
            "label": cls.label,
            "explanation": cls.explanation,
            "banner": cls.banner,
            "params": [p.to_dict() for p in cls.params],
        }


def check_overlap(settings: Mapping[str, Any], size_name: str, overlap_name: str) -> None:
    """An overlap of at most half the size: beyond it every word is stored more than
    twice, and a window advancing by one unit makes as many chunks as the text is long."""
    size, overlap = settings[size_name], settings[overlap_name]
    if overlap > size // 2:
        raise LimitExceeded(
            overlap_name, f"at most half of {size_name} ({size} // 2 = {size // 2}), got "
            f"{overlap}", size // 2)


STRATEGIES: dict[str, type[Strategy]] = {}


def register(cls: type[Strategy]) -> type[Strategy]:
    if cls.name in STRATEGIES:
        raise ValueError(f"strategy {cls.name!r} is registered twice")
    STRATEGIES[cls.name] = cls
    return cls


def get_strategy(name: str) -> type[Strategy]:
    try:
        return STRATEGIES[name]
    except KeyError:
        raise UnknownStrategy(
            f"no chunking strategy named {name!r}; available: {', '.join(STRATEGIES)}",
            available=list(STRATEGIES),
        ) from None
