"""Shared fixtures: the bundled sample PDFs, processed once per test session."""

from __future__ import annotations

from pathlib import Path

import pytest

from visualiser.pipeline import ProcessedDocument, process_pdf
from visualiser.resources import samples_dir

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
