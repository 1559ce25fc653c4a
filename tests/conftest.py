"""Shared fixtures: the bundled sample PDFs, processed once per test session."""

from __future__ import annotations

from pathlib import Path

import pytest

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


def make_app(tmp_path: Path, database: Path | None = None, **config):
    """The web app on a fresh SQLite file and cache under `tmp_path`."""
    return create_app({
        "TESTING": True,
        "CACHE_DIR": tmp_path / "cache",
        "DATABASE": database or tmp_path / "kb.sqlite",
        **config,
    })


@pytest.fixture
def app(tmp_path):
    """A fresh app per test (modules that share one app define their own)."""
    app = make_app(tmp_path)
    yield app
    app.extensions["visualiser"].close()


@pytest.fixture
def client(app):
    return app.test_client()
