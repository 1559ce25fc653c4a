"""Every exception the project raises on purpose, in one place.

Each names the bad value and the fix. Nothing here knows about HTTP: the web layer
maps each class to a status (`visualiser/web/errors.py`), and the CLI ends with exit
code 2 and the message for every one of them.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager

from visualiser.mupdf import raised_by_pymupdf


class VisualiserError(Exception):
    title = "Bad request"

    def __init__(self, message: str, **details: object) -> None:
        super().__init__(message)
        self.message = message
        self.details = details

    def to_dict(self) -> dict[str, object]:
        return {"error": self.title, "message": self.message, **self.details}


class BadPdf(VisualiserError):
    """Bytes that are not a usable PDF: not a PDF, truncated, encrypted, empty, too big."""

    title = "Unusable PDF"


@contextmanager
def reading_pdf(what: str = "the PDF") -> Iterator[None]:
    """Turn what PyMuPDF raises inside the block on a damaged or hostile file into
    BadPdf naming `what`. Anything else (a bug of ours, a process that cannot start)
    goes on as it is: it says nothing about the PDF."""
    try:
        yield
    except VisualiserError:
        raise
    except Exception as exc:
        if not raised_by_pymupdf(exc):
            raise
        reason = re.sub(r"^code=\d+:\s*", "", str(exc).strip()) or type(exc).__name__
        raise BadPdf(f"{what} cannot be read: {reason}") from None


class UnknownStrategy(VisualiserError):
    title = "Unknown chunking strategy"


class BadParameter(VisualiserError):
    title = "Bad parameter"

    def __init__(self, parameter: str, message: str) -> None:
        super().__init__(f"{parameter}: {message}", parameter=parameter)


class NotFound(VisualiserError):
    title = "Not found"


class LimitExceeded(VisualiserError):
    """The request would make more work than this document warrants (too many chunks,
    an overlap that re-reads most of the text); the message names the limit."""

    title = "Over a limit"

    def __init__(self, parameter: str, message: str, limit: int | float) -> None:
        super().__init__(f"{parameter}: {message}", parameter=parameter, limit=limit)


class OutOfTime(VisualiserError):
    """The computation ran past its time budget and was stopped."""

    title = "Took too long"


class ClientGone(OutOfTime):
    """The client disconnected: nobody will read the answer, so the work stops."""

    title = "Client gone"


class Forbidden(VisualiserError):
    title = "Forbidden"


class HostNotAllowed(VisualiserError):
    """A request whose Host header names none of the server's names (DNS rebinding)."""

    title = "Host not allowed"


class Conflict(VisualiserError):
    """The request is fine but the resource is not in a state to answer it yet."""

    title = "Conflict"


class DuplicateName(Conflict):
    """A knowledgebase name already taken: the request is fine, the name is not free."""


class BadImport(VisualiserError):
    """A chunks file from another pipeline that cannot be understood."""

    title = "Unusable chunks file"


class ImportTooLarge(VisualiserError):
    title = "File too large"


class TokenizerUnavailable(VisualiserError):
    """The BPE file for an encoding cannot be provided without the network: the
    installation lacks it, the request is not at fault."""

    title = "Tokenizer unavailable"


class LayoutModelUnavailable(VisualiserError):
    """The ML layout engine's model is not installed or does not load here."""

    title = "Layout model unavailable"


class SideError(VisualiserError):
    """A problem with one side of a comparison. The message starts with the side, and
    a parameter is named as the URL writes it (`left.chunk_token_size`); `cause` is
    the side's own error, whose kind (and so status) this one keeps."""

    def __init__(self, side: str, error: VisualiserError) -> None:
        details = dict(error.details)
        parameter = details.pop("parameter", None)
        super().__init__(f"{side} side: {error.message}", side=side, **details)
        if parameter:
            self.details["parameter"] = f"{side}.{parameter}"
        self.cause = error
        self.title = error.title
