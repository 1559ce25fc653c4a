"""Errors that name the bad value and the fix. The web layer maps `status` to HTTP;
the CLI maps every one of them to exit code 2."""

from __future__ import annotations


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


class UnknownStrategy(VisualiserError):
    title = "Unknown chunking strategy"


class BadParameter(VisualiserError):
    title = "Bad parameter"

    def __init__(self, parameter: str, message: str) -> None:
        super().__init__(f"{parameter}: {message}", parameter=parameter)


class NotFound(VisualiserError):
    status = 404
    title = "Not found"
