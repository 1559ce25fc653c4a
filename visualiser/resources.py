"""Where the top-level folders are: beside the package in a checkout, inside it
(`visualiser/_data/…`) in an installed wheel."""

from __future__ import annotations

from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent


def _find(folder: str) -> Path:
    installed = _PACKAGE / "_data" / folder
    if installed.is_dir():
        return installed
    return _PACKAGE.parent / folder


def samples_dir() -> Path:
    return _find("sample_pdfs")


def templates_dir() -> Path:
    return _find("templates")


def static_dir() -> Path:
    return _find("static")
