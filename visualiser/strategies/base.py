"""The strategy contract: a Chunk type, declared parameters, and a registry.

A strategy is one class with one method, `chunk(source, settings)`, registered under
a name with `@register`. The UI's dropdown, its parameter form and the CLI's choices
all come from `STRATEGIES`, so adding a strategy means one module, one test and one
import line in `visualiser/strategies/__init__.py`.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Literal, Protocol

from visualiser.errors import BadParameter, LimitExceeded, UnknownStrategy
from visualiser.markdown import SourceMarkdown, Traced
from visualiser.tokenizers import DEFAULT_ENCODING, ENCODINGS

# A banner as the strategy writes it: text, with chunk numbers (ints) where it names chunks.
BannerParts = list[str | int]

ChunkType = Literal["text", "table", "table_context", "table_full", "list", "image", "code"]

# Limits and texts more than one strategy (and the analysis) speak of, kept in one place.
EMBEDDING_LIMIT = 8191  # tokens; OpenAI's embedding models refuse more
# What a chunk's type alone says, for chunks whose rule is unknown (e.g. imported ones)
CHUNK_TYPE_WHY: dict[str, str] = {
    "table": "A table chunk.",
    "table_full": "The whole table in one chunk, kept alongside its split parts.",
    "table_context": ("Context chunk: a table joined with the text before and after it, so a "
                      "question asked in words can find it. It repeats its neighbours on "
                      "purpose, so its box spans theirs."),
}


@dataclass(slots=True)
class Chunk:
    """A chunk as a strategy emits it: its text, traced back to the markdown."""

    text: Traced
    chunk_type: ChunkType = "text"
    heading_path: tuple[str, ...] = ()
    # Why the strategy made this chunk, as data: `origin["rule"]` names the `Rule` that
    # turns it into words, e.g. {"rule": "token_window", "window": 2, "of": 3, ...}
    origin: dict[str, Any] = field(default_factory=dict)


class Neighbour(Protocol):
    """What a rule may look at when two chunks share ground (`analysis.Placed` is one)."""

    @property
    def index(self) -> int: ...
    @property
    def kind(self) -> str: ...
    @property
    def origin(self) -> dict[str, Any]: ...


@dataclass(frozen=True, slots=True)
class Context:
    """What a why-text may speak of besides the origin: all of it is stored with a chunk,
    so a stored chunk can be explained again without its strategy's settings."""

    chunk_type: str
    tokens: int
    heading_path: Sequence[str]
    layout_engine: str = ""


def _nothing_intended(mine: Neighbour, other: Neighbour) -> str | None:
    return None


@dataclass(frozen=True, slots=True)
class Rule:
    """One way a strategy makes chunks, named by `Chunk.origin["rule"]`.

    `explain` is the plain-language why-text of one chunk. `shares` says why a chunk made
    by this rule (`mine`) shares words with `other`, when that is intended: a reason such
    as "table_context", or None. The analysis asks both chunks' rules, the first chunk's
    first, and calls a pair nobody claims "unexplained". `window` marks rules whose
    neighbouring chunks repeat each other's edges by design (see `window_overlap`).
    """

    name: str
    explain: Callable[[Mapping[str, Any], Context], str]
    shares: Callable[[Neighbour, Neighbour], str | None] = _nothing_intended
    window: bool = False


RULES: dict[str, Rule] = {}


def register_rule(rule: Rule) -> Rule:
    """Make `rule` known by its name (strategies' rules are registered with them; chunks
    made outside any strategy, such as imported ones, register theirs directly)."""
    known = RULES.setdefault(rule.name, rule)
    if known is not rule:
        raise ValueError(f"two different rules are named {rule.name!r}")
    return rule


def rule_of(chunk: Neighbour | Mapping[str, Any]) -> Rule | None:
    """The registered rule that made a chunk (or an origin), None when unknown."""
    origin = chunk if isinstance(chunk, Mapping) else chunk.origin
    name = origin.get("rule")
    return RULES.get(name) if isinstance(name, str) else None


def window_overlap(mine: Neighbour, other: Neighbour) -> str | None:
    """`shares` for window rules: two windows side by side repeat each other's edges on
    purpose, unless the first was made with no overlap."""
    other_rule = rule_of(other)
    if other_rule is not None and other_rule.window and mine.origin.get("overlap", 1):
        return "overlap_window"
    return None


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


# The tokenizer parameter of every strategy that counts tokens to cut.
TOKENIZER = Param("tokenizer", "choice", DEFAULT_ENCODING, "tiktoken encoding",
                  choices=ENCODINGS)


class Strategy(ABC):
    name: ClassVar[str]
    label: ClassVar[str]
    explanation: ClassVar[str]  # one paragraph: how this strategy cuts a document
    banner: ClassVar[str | None] = None  # shown above the pages when set
    # (size parameter, overlap parameter, unit) for strategies cut by a size budget with
    # an overlap, so the analysis can flag zero or excessive overlap and character sizing
    sizing: ClassVar[tuple[str, str, str] | None] = None
    # True when tables go through the size windows like any other text, so a window
    # boundary may fall inside one (the analysis predicts how often); False when the
    # strategy treats a table as a unit of its own
    windows_cut_tables: ClassVar[bool] = False
    params: ClassVar[tuple[Param, ...]] = ()
    # The rules its chunks name in `origin["rule"]`: their why-texts and intended overlaps
    rules: ClassVar[tuple[Rule, ...]] = ()

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
        """Cross-parameter rules beyond the overlap of `sizing` (which `check_overlap`
        checks for every strategy); raise BadParameter."""

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
    def implementation(cls) -> str | None:
        """Whose code cuts the chunks, when it is not this project's own: a library
        and its version ("LangChain 1.1.3"), or the port that reproduces one ("port
        equal to LangChain 1.1.3"). Named in the report beside the strategy."""
        return None

    @classmethod
    def implementation_key(cls) -> str | None:
        """What tells one implementation from another without running anything (no
        import of a library, which costs seconds): a cached report is reused only
        while this is the same."""
        return cls.implementation()

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
    """An overlap smaller than the size (a window must advance), and at most half of it:
    beyond that every word is stored more than twice, and a window advancing by one unit
    makes as many chunks as the text is long. Run for every strategy that declares its
    `sizing`; a strategy with an overlap it does not declare there calls it in `check`."""
    size, overlap = settings[size_name], settings[overlap_name]
    if overlap >= size:
        raise BadParameter(overlap_name, f"must be smaller than {size_name} ({size})")
    if overlap > size // 2:
        raise LimitExceeded(
            overlap_name, f"at most half of {size_name} ({size} // 2 = {size // 2}), got "
            f"{overlap}", size // 2)


STRATEGIES: dict[str, type[Strategy]] = {}


def register(cls: type[Strategy]) -> type[Strategy]:
    if cls.name in STRATEGIES:
        raise ValueError(f"strategy {cls.name!r} is registered twice")
    for rule in cls.rules:
        register_rule(rule)
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
