"""Errors that name the bad value and the fix. The web layer maps `status` to HTTP;
the CLI maps every one of them to exit code 2."""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager

import pymupdf

# Everything PyMuPDF raises on a damaged or hostile file, listed once. Its own types
# (FileDataError is a RuntimeError) and MuPDF's (FzErrorFormat, FzErrorArgument, … all
# derive from FzErrorBase, which is *not* a RuntimeError) — plus the ValueError and
# IndexError its Python layer raises on nonsense such as a negative page count.
PDF_ERRORS: tuple[type[Exception], ...] = (
    RuntimeError, ValueError, IndexError, pymupdf.mupdf.FzErrorBase)


class VisualiserError(Exception):
    status = 400
    title = "Bad request"

    def __init__(self, message: str, **details: object) -> None:
        super().__init__(message)
        self.message = message
        self.details = details

    def to_dict(self) -> dict[str, object]:
        return {"error": self.title, "message": self.message, **self.details}


class BadPdf(VisualiserError):
    """Bytes that are not a usable PDF: not a PDF, truncated, encrypted, empty, too big."""

    status = 422
    title = "Unusable PDF"


@contextmanager
def reading_pdf(what: str = "the PDF") -> Iterator[None]:
    """Turn whatever PyMuPDF raises inside the block into BadPdf naming `what`."""
    try:
        yield
    except VisualiserError:
        raise
    except PDF_ERRORS as exc:
        reason = re.sub(r"^code=\d+:\s*", "", str(exc).strip()) or type(exc).__name__
        raise BadPdf(f"{what} cannot be read: {reason}") from None


class UnknownStrategy(VisualiserError):
    title = "Unknown chunking strategy"


class BadParameter(VisualiserError):
    title = "Bad parameter"

    def __init__(self, parameter: str, message: str) -> None:
        super().__init__(f"{parameter}: {message}", parameter=parameter)


class NotFound(VisualiserError):
    status = 404
    title = "Not found"


class LimitExceeded(VisualiserError):
    """The request would make more work than this document warrants (too many chunks,
    an overlap that re-reads most of the text); the message names the limit."""

    status = 422
    title = "Over a limit"

    def __init__(self, parameter: str, message: str, limit: int | float) -> None:
        super().__init__(f"{parameter}: {message}", parameter=parameter, limit=limit)


class OutOfTime(VisualiserError):
    """The computation ran past its time budget and was stopped."""

    status = 503
    title = "Took too long"


class Forbidden(VisualiserError):
    status = 403
    title = "Forbidden"
