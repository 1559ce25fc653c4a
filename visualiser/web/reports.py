"""A chunk report as an HTTP response: gzip when the client takes it (a 3.3 MB report
is 0.6 MB on the wire, and the packed JSON is compressed once per report, not per
response), plain JSON otherwise, with an ETag so that a client asking again for what
it has gets a 304 and no body."""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from typing import Any

from flask import Response, request

from visualiser import packed as packed_json
from visualiser.library import Report


def etag(report: Report, extra: Mapping[str, Any] | None) -> str:
    """The packed JSON's CRC-32 and length, and a digest of the fields added to it."""
    packed = report.packed()
    added = hashlib.sha256(packed_json.tail(extra)).hexdigest()[:12]
    return f"r{packed.crc:08x}{packed.length:x}-{added}"


def report_response(report: Report, extra: Mapping[str, Any] | None = None) -> Response:
    tag = etag(report, extra)
    if request.if_none_match.contains(tag):
        response = Response(status=304)
    elif request.accept_encodings["gzip"]:
        response = Response(report.gzip_bytes(extra), mimetype="application/json")
        response.content_encoding = "gzip"
    else:
        response = Response(report.json_bytes(extra), mimetype="application/json")
    response.set_etag(tag)
    response.vary.add("Accept-Encoding")
    # Kept by the browser, and asked again each time (a 304 when unchanged): a stored
    # document's state, and so its report, can change.
    response.cache_control.no_cache = True
    return response
