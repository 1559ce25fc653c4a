"""Refuse writes from other sites and requests addressed to other hosts.

Cross-site request forgery: a page elsewhere can make the browser POST a form or a
`no-cors` fetch to this server, and the server cannot see who wrote the page — but
the browser says where the request comes from: `Sec-Fetch-Site` (every current
browser) and `Origin` (on every cross-origin POST). A state-changing request whose
headers name another site is refused with 403. Clients that send neither (curl, the
CLI, scripts) are not browsers a page could drive, and pass.

DNS rebinding: a hostile name can be made to resolve to 127.0.0.1, and then its pages
are "same-origin" with this server. The `Host` header still carries that name, so
only the names in ALLOWED_HOSTS (`serve --allowed-host`; by default the bound address
and the localhost names) are answered.
"""

from __future__ import annotations

import socket
from collections.abc import Iterable

from flask import Flask, current_app, request

from visualiser.errors import Forbidden, HostNotAllowed

SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
LOCAL_NAMES = ("localhost", "127.0.0.1", "::1")
ANY_HOST = "*"


def default_hosts(bound: str) -> list[str]:
    """The bound address and the localhost names; for a wildcard bind also this
    machine's own names (it is then meant to be reached from elsewhere)."""
    hosts = [bound, *LOCAL_NAMES]
    if bound in ("0.0.0.0", "::", ""):
        hosts += [socket.gethostname(), socket.getfqdn()]
    return hosts


def host_name(host: str) -> str:
    """`Host` without its port: "example.org:5000" → "example.org", "[::1]:80" → "::1"."""
    host = host.strip().lower()
    if host.startswith("["):
        return host[1:].split("]", 1)[0]
    return host.rsplit(":", 1)[0] if host.count(":") == 1 else host


def check_host(allowed: Iterable[str] | None) -> None:
    if allowed is None:
        return
    names = {name.strip().lower().strip("[]") for name in allowed}
    if ANY_HOST in names:
        return
    name = host_name(request.host)
    if name not in names:
        raise HostNotAllowed(
            f"this server does not answer to the host name {name!r}; start it with "
            f"--allowed-host {name} if that is its name", host=name)


def check_same_origin() -> None:
    if request.method in SAFE_METHODS:
        return
    site = request.headers.get("Sec-Fetch-Site")
    if site is not None and site.lower() not in ("same-origin", "none"):
        raise Forbidden(f"a {site} request may not change anything here: writes are "
                        "accepted only from this server's own pages", sec_fetch_site=site)
    origin = request.headers.get("Origin")
    if origin is not None and origin.rstrip("/").lower() != request.host_url.rstrip("/").lower():
        raise Forbidden(f"a request from {origin} may not change anything here: writes are "
                        "accepted only from this server's own pages", origin=origin)


def protect(app: Flask) -> None:
    @app.before_request
    def _guard() -> None:
        check_host(current_app.config.get("ALLOWED_HOSTS"))
        check_same_origin()
