"""Layout engines behind one interface, like strategies: a small registry.

An engine turns PDF bytes into `PageRead`s (lines with words, tables with cells,
images; optionally roles such as headings), and `build.py` makes the Layout from
them, so nothing downstream knows which engine read the page.
"""

from __future__ import annotations

import os
import re
from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import ClassVar

from visualiser.errors import BadParameter
from visualiser.files import source_digest
from visualiser.layout.items import PageRead

Progress = Callable[[int, int], None]
DEFAULT_ENGINE = "builtin"


@dataclass(frozen=True, slots=True)
class LayoutOptions:
    """How to read a document's layout. Part of a layout's identity: a cached or
    stored layout is reused only for the same options."""

    engine: str = DEFAULT_ENGINE
    ocr: bool = True
    ocr_lang: str = "eng"  # Tesseract language packs, "+"-joined: "eng+ara"
    workers: int = 1  # processes reading pages; 1 reads in the calling process

    def key(self) -> str:
        return f"{self.engine}@{get_engine(self.engine).version()}:ocr={self.ocr}:{self.ocr_lang}"


@cache
def layout_code_digest() -> str:
    """A digest of the code that turns pages into a Layout (this package, and the
    geometry and text patterns it uses). Its rules change from one release to the
    next: a kept layout says which code read it (`saved.py`)."""
    package = Path(__file__).resolve().parent
    root = package.parent
    return source_digest([*package.glob("*.py"), root / "geometry.py", root / "patterns.py"],
                         root)


class LayoutEngine(ABC):
    name: ClassVar[str]
    label: ClassVar[str]
    explanation: ClassVar[str]

    @classmethod
    def available(cls) -> str | None:
        """None when the engine can run here, else why not (e.g. a missing extra)."""
        return None

    @classmethod
    @abstractmethod
    def version(cls) -> str: ...

    @abstractmethod
    def read(self, data: bytes, options: LayoutOptions,
             progress: Progress | None = None) -> list[PageRead]: ...


# Page-reading processes for one document by core count, as bench/bench_pipeline.py
# measured them (README, "Speed"): on 2 cores one process was fastest; 2 processes ran
# at 0.64-0.87x and 4 at 0.46-0.74x its speed (600 synthetic pages, DA-619p). Machines
# with more cores were not measured: they keep the count of the largest one that was.
MEASURED_WORKERS = {2: 1}


def default_workers(cores: int | None = None) -> int:
    """Page-reading processes when nobody says (`--layout-workers` does)."""
    count = (os.cpu_count() or 1) if cores is None else cores
    measured = [c for c in MEASURED_WORKERS if c <= count]
    return MEASURED_WORKERS[max(measured)] if measured else 1


DEFAULT_OPTIONS = LayoutOptions()
ENGINES: dict[str, type[LayoutEngine]] = {}


def register(cls: type[LayoutEngine]) -> type[LayoutEngine]:
    ENGINES[cls.name] = cls
    return cls


def get_engine(name: str) -> type[LayoutEngine]:
    try:
        cls = ENGINES[name]
    except KeyError:
        raise BadParameter("layout", f"unknown layout engine {name!r}; choose one of "
                           f"{', '.join(sorted(ENGINES))}") from None
    missing = cls.available()
    if missing:
        raise BadParameter("layout", f"the {name!r} layout engine cannot run here: {missing}")
    return cls


_LANGS = re.compile(r"^[A-Za-z0-9_]+(\+[A-Za-z0-9_]+)*$")


def layout_options(engine: str | None = None, ocr_lang: str | None = None,
                   workers: int | None = None, ocr: bool = True) -> LayoutOptions:
    """Options from user input (CLI flags, a query string, stored metadata), checked:
    BadParameter naming the bad one. None means the default."""
    name = engine or DEFAULT_ENGINE
    get_engine(name)  # unknown or unavailable: BadParameter("layout", …) listing the valid
    langs = ocr_lang or DEFAULT_OPTIONS.ocr_lang
    if not _LANGS.match(langs):
        raise BadParameter("ocr_lang", f"Tesseract language codes joined by '+', such as "
                           f"'eng' or 'eng+ara'; got {langs!r}")
    count = default_workers() if workers is None else workers
    if count < 1:
        raise BadParameter("workers", f"at least 1 page-reading process, got {count}")
    return LayoutOptions(name, ocr, langs, count)


def describe_engines() -> list[dict[str, object]]:
    """Every registered engine for the UI and the API: available or why not."""
    return [{"name": cls.name, "label": cls.label, "explanation": cls.explanation,
             "available": cls.available() is None, "unavailable_reason": cls.available(),
             "version": cls.version(), "default": cls.name == DEFAULT_ENGINE}
            for cls in ENGINES.values()]
