"""One error handler for the whole app, answering JSON or HTML as the client wants."""

from __future__ import annotations

from typing import Any

from flask import Flask, Response, current_app, jsonify, render_template, request
from werkzeug.exceptions import HTTPException

from visualiser.errors import VisualiserError


def wants_json() -> bool:
    if request.path.startswith("/api/"):
        return True
    best = request.accept_mimetypes.best_match(["text/html", "application/json"])
    return best == "application/json"


def describe(error: Exception) -> tuple[int, dict[str, Any]]:
    if isinstance(error, VisualiserError):
        return error.status, error.to_dict()
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
    return render_template("error.html", status=status, body=body), status


def register_error_handler(app: Flask) -> None:
    app.register_error_handler(Exception, handle_error)
