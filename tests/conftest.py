"""Shared fixtures: the bundled sample PDFs, processed once per test session."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
import servers

from visualiser.database import is_postgres_url
from visualiser.pipeline import ProcessedDocument, process_pdf
from visualiser.resources import samples_dir
from visualiser.web import create_app

APEX = "05_Apex_Logistics_Services_Agreement_2025.pdf"
POLICY = "sleepover_allowance_policy.pdf"
RATES = "rate_schedule_2025.pdf"
REPORT = "quarterly_operations_report.pdf"
MEMO = "scanned_memo.pdf"
SAMPLES = (APEX, POLICY, RATES, REPORT, MEMO)


@pytest.fixture(scope="session")
def sample_path():
    def path(name: str) -> Path:
        return samples_dir() / name

    return path


@pytest.fixture(scope="session")
def processed():
    cache: dict[str, ProcessedDocument] = {}

    def get(name: str) -> ProcessedDocument:
        if name not in cache:
            cache[name] = process_pdf((samples_dir() / name).read_bytes(), name)
        return cache[name]

    return get


@pytest.fixture(scope="session")
def chromium():
    """One Debian chromium for every browser test module (each makes its own tabs)."""
    from conftest_web import launch_chromium

    yield from launch_chromium()


def make_app(tmp_path: Path, database: Path | str | None = None, **config):
    """The web app on a fresh SQLite file (or the `database` given: a file, or a
    PostgreSQL URL, then with its files under `tmp_path/data`) and cache under `tmp_path`."""
    if is_postgres_url(database or ""):
        config.setdefault("DATA_DIR", tmp_path / "data")
    return create_app({
        "TESTING": True,
        "CACHE_DIR": tmp_path / "cache",
        "DATABASE": database or tmp_path / "kb.sqlite",
        # No background previews unless a test asks (tests/test_previews.py): they
        # would take the CPU from the test that follows, and serve what it computes.
        "PRECOMPUTE_PREVIEWS": False,
        **config,
    })


# -- the team server's engines: throwaway PostgreSQL and Redis (tests/servers.py) -------

# CI installs the servers and sets this, so there a missing one fails instead of skipping.
REQUIRE_SERVERS = os.environ.get("VISUALISER_REQUIRE_SERVERS") == "1"


def _unavailable(reason: str | None, what: str) -> None:
    if reason is None:
        return
    if REQUIRE_SERVERS:
        pytest.fail(f"{what} is required here (VISUALISER_REQUIRE_SERVERS=1): {reason}")
    pytest.skip(f"the {what} tests need it: {reason}")


@pytest.fixture(scope="session")
def postgres_url():
    """A throwaway PostgreSQL cluster for the session; the URL of its database."""
    _unavailable(servers.postgres_missing(), "PostgreSQL")
    with servers.postgres_server() as url:
        yield url


@pytest.fixture(scope="session")
def redis_url():
    """A throwaway Redis for the session; its URL."""
    _unavailable(servers.redis_missing(), "Redis")
    with servers.redis_server() as url:
        yield url


@pytest.fixture(params=["sqlite", "postgresql"])
def database(request, tmp_path) -> str:
    """A fresh, empty database on each backend: a SQLite file, or a PostgreSQL schema
    of its own (the store and API tests run on both)."""
    if request.param == "sqlite":
        return str(tmp_path / "kb.sqlite")
    return servers.new_schema(request.getfixturevalue("postgres_url"))


def store_files(database: str, tmp_path: Path) -> Path | None:
    """The PDFs' folder a store on `database` needs (PostgreSQL has no file beside)."""
    return tmp_path / "data" / "pdfs" if is_postgres_url(database) else None


@pytest.fixture
def app(tmp_path):
    """A fresh app per test (modules that share one app define their own)."""
    app = make_app(tmp_path)
    yield app
    app.extensions["visualiser"].close()


@pytest.fixture
def client(app):
    return app.test_client()
