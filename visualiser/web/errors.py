"""One error handler for the whole app, answering JSON or HTML as the client wants,
and the one place where the project's errors get their HTTP status."""

from __future__ import annotations

from typing import Any

from flask import Flask, Response, current_app, jsonify, render_template, request
from werkzeug.exceptions import HTTPException, RequestEntityTooLarge

from visualiser.errors import (
    BadImport,
    BadParameter,
    BadPdf,
    Conflict,
    Forbidden,
    HostNotAllowed,
    ImportTooLarge,
    LayoutModelUnavailable,
    LimitExceeded,
    NotFound,
    OutOfTime,
    SideError,
    TokenizerUnavailable,
    UnknownStrategy,
    VisualiserError,
)
from visualiser.web.units import human_size

# Each error's status; a subclass not listed takes its nearest listed base's
# (DuplicateName is a Conflict: 409). 503 where this installation, not the request,
# is at fault and another server (or later) may do better.
HTTP_STATUS: dict[type[VisualiserError], int] = {
    VisualiserError: 400,
    BadParameter: 400,
    UnknownStrategy: 400,
    BadImport: 400,
    HostNotAllowed: 400,
    Forbidden: 403,
    NotFound: 404,
    Conflict: 409,
    ImportTooLarge: 413,
    BadPdf: 422,
    LimitExceeded: 422,
    OutOfTime: 503,
    TokenizerUnavailable: 503,
    LayoutModelUnavailable: 503,
}


def http_status(error: VisualiserError) -> int:
    """The HTTP status for `error`: a comparison side's error keeps its cause's."""
    if isinstance(error, SideError):
        return http_status(error.cause)
    return next(HTTP_STATUS[cls] for cls in type(error).__mro__ if cls in HTTP_STATUS)


def too_large_message() -> str:
    # Werkzeug's own text ("The data value transmitted exceeds the capacity limit.")
    # does not tell the user what the limit is.
    limit = current_app.config.get("MAX_CONTENT_LENGTH")
    if not limit:
        return "The upload is too large for this server."
    return f"The upload is larger than this server accepts: at most {human_size(limit)} per file."


def wants_json() -> bool:
    if request.path.startswith("/api/"):
        return True
    best = request.accept_mimetypes.best_match(["text/html", "application/json"])
    return best == "application/json"


def describe(error: Exception) -> tuple[int, dict[str, Any]]:
    if isinstance(error, VisualiserError):
        return http_status(error), error.to_dict()
    if isinstance(error, RequestEntityTooLarge):
        return 413, {"error": "File too large", "message": too_large_message()}
    if isinstance(error, HTTPException):
        status = error.code or 500
        return status, {"error": error.name, "message": error.description or error.name}
    # Anything else is our bug: log it with its traceback, keep serving, and say so.
    current_app.logger.exception("unexpected error on %s %s", request.method, request.path)
    return 500, {
        "error": "Internal server error",
        "message": f"The server hit an unexpected {type(error).__name__}; it has been logged.",
    }


def handle_error(error: Exception) -> tuple[Response | str, int]:
    status, body = describe(error)
    if wants_json():
        return jsonify(body), status
    return render_template("error.html", status=status, body=body, back=back_link()), status


def back_link() -> str | None:
    """Where the user came from, when that is a page of ours (e.g. the knowledgebase
    whose upload form was refused), for the error page's "back" link."""
    referrer = request.referrer
    if referrer and referrer.startswith(request.host_url) and referrer != request.url:
        return referrer
    return None


def register_error_handler(app: Flask) -> None:
    app.register_error_handler(Exception, handle_error)
