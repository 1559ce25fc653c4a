"""Bounded work per request: limits that follow from the document, an overlap of at
most half the size, containment in near-linear time (the same pairs as the quadratic
search it replaced), and a time budget that stops a computation with a 503."""

from __future__ import annotations

import random
import subprocess
import sys

import pytest

from tests.conftest import APEX, RATES, make_app
from tests.fuzzing import REPO
from visualiser import analysis, budget, pipeline
from visualiser.errors import LimitExceeded, OutOfTime
from visualiser.markdown import Traced
from visualiser.strategies import STRATEGIES, Chunk
from visualiser.web.errors import http_status


def quadratic_containment(chunks: list[analysis.Placed]) -> list[analysis.Containment]:
    """The search as it was before it was made near-linear: every pair by substring."""
    by_length = sorted(chunks, key=lambda c: len(c.norm))
    found = []
    for n, small in enumerate(by_length):
        if not small.norm:
            continue
        for big in by_length[n + 1:]:
            if len(big.norm) == len(small.norm) and big.index > small.index:
                continue
            if small.norm in big.norm:
                found.append(analysis.Containment(big.index, small.index,
                                                  analysis._reason(big, small)))
    return sorted(found, key=lambda c: (c.container, c.contained))


def _placed(texts: list[str], order: list[int] | None = None) -> list[analysis.Placed]:
    indices = order or list(range(len(texts)))
    return [analysis.Placed(i, Chunk(Traced(text, [-1] * len(text))), 1, set(), [])
            for i, text in zip(indices, texts, strict=True)]


def _random_chunks(rng: random.Random) -> list[str]:
    """Windows over a random text, plus copies, joins, fragments and blanks: the shapes
    that make containment (overlap windows, context chunks, tails, repeated rows)."""
    vocabulary = [rng.choice(["a", "ab", "abc", "b", "ba", "|", "x", "yz", "a.", "--"])
                  for _ in range(6)] + ["the", "rate", "table"]
    words = [rng.choice(vocabulary) for _ in range(rng.randint(5, 120))]
    text = " ".join(words)
    chunks = []
    for _ in range(rng.randint(1, 40 if rng.random() < 0.7 else 160)):
        kind = rng.random()
        if kind < 0.5:
            start = rng.randrange(len(text))
            chunks.append(text[start:start + rng.randint(0, 60)])
        elif kind < 0.65 and chunks:
            chunks.append(rng.choice(chunks))
        elif kind < 0.8 and len(chunks) > 1:
            chunks.append("\n\n".join(rng.sample(chunks, 2)))
        elif kind < 0.9:
            chunks.append("  \n ")
        else:
            chunks.append(" ".join(rng.choice(vocabulary) for _ in range(rng.randint(1, 4))))
    return chunks


@pytest.mark.parametrize("seed", range(300))
def test_containment_finds_exactly_the_pairs_of_the_quadratic_search(seed, monkeypatch):
    if seed % 2:  # the candidate index even for a few chunks; else as it runs
        monkeypatch.setattr(analysis, "_worth_indexing", lambda words: True)
    rng = random.Random(seed)
    texts = _random_chunks(rng)
    order = list(range(len(texts)))
    if seed % 3 == 0:  # chunks not in index order: identical texts then pair up
        rng.shuffle(order)
    placed = _placed(texts, order)
    assert analysis.find_containment(placed) == quadratic_containment(placed)


def test_containment_on_real_reports_matches_the_quadratic_search(processed):
    for name, params in (("token_based", {}), ("fixed_chars", {"chunk_size": 120,
                                                               "chunk_overlap": 60}),
                         ("llamaindex_sentence", {"chunk_size": 64, "chunk_overlap": 16})):
        doc = processed(RATES)
        cls = STRATEGIES[name]
        chunks = cls().chunk(doc.source, cls.settings(params))
        placed = [analysis.Placed(i, c, 1, doc.source.words_of(c.text), [])
                  for i, c in enumerate(chunks)]
        assert analysis.find_containment(placed) == quadratic_containment(placed)


@pytest.mark.parametrize("name", [n for n, cls in STRATEGIES.items() if cls.sizing])
def test_an_overlap_over_half_the_size_is_refused_naming_the_limit(name):
    size_name, overlap_name, _ = STRATEGIES[name].sizing
    with pytest.raises(LimitExceeded, match=rf"{overlap_name}: at most half") as caught:
        STRATEGIES[name].settings({size_name: 100, overlap_name: 51})
    assert http_status(caught.value) == 422 and caught.value.details["limit"] == 50
    STRATEGIES[name].settings({size_name: 100, overlap_name: 50})  # half is allowed


def test_structure_aware_overlap_is_bounded_too():
    with pytest.raises(LimitExceeded, match="overlap_token_size: at most half"):
        STRATEGIES["structure_aware"].settings({"max_token_size": 100,
                                                "overlap_token_size": 60})


def test_windows_that_would_make_too_many_chunks_are_refused_before_chunking(
        processed, monkeypatch):
    doc = processed(APEX)
    limit = pipeline.chunk_limit(len(doc.layout.pages))
    with pytest.raises(LimitExceeded, match=rf"chunk_size: .*the limit is {limit:,}") as caught:
        pipeline.chunk_report(doc, "fixed_chars", {"chunk_size": 10, "chunk_overlap": 5})
    assert "use a chunk_size of at least" in caught.value.message
    monkeypatch.setattr(pipeline, "MIN_CHUNK_LIMIT", 10)
    monkeypatch.setattr(pipeline, "CHUNKS_PER_PAGE", 10)
    monkeypatch.setattr(STRATEGIES["token_based"], "chunk", None)  # refused before it
    with pytest.raises(LimitExceeded, match="chunk_token_size: .*the limit is 40 "):
        pipeline.chunk_report(doc, "token_based", {"chunk_token_size": 16,
                                                   "chunk_overlap_token_size": 8})


def test_the_chunk_limit_follows_the_document():
    assert pipeline.chunk_limit(1) == pipeline.MIN_CHUNK_LIMIT
    assert pipeline.chunk_limit(40) == 40 * pipeline.CHUNKS_PER_PAGE


def test_a_strategy_without_sizing_is_held_to_the_chunk_count(processed, monkeypatch):
    monkeypatch.setattr(pipeline, "MIN_CHUNK_LIMIT", 3)
    monkeypatch.setattr(pipeline, "CHUNKS_PER_PAGE", 1)
    with pytest.raises(LimitExceeded, match="chunks: .* into 17 chunks; the limit is 4"):
        pipeline.chunk_report(processed(APEX), "structure_aware")


def test_too_many_chunks_on_one_page_are_refused(processed, monkeypatch):
    monkeypatch.setattr(pipeline, "MAX_CHUNKS_ON_A_PAGE", 3)
    with pytest.raises(LimitExceeded,
                       match=r"chunks: \d+ chunks touch page \d+; at most 3 may touch one"):
        pipeline.chunk_report(processed(APEX), "structure_aware")


def test_the_api_answers_a_limit_with_422_naming_it(tmp_path):
    app = make_app(tmp_path)
    try:
        client = app.test_client()
        doc = client.get("/api/documents").get_json()["documents"][0]["id"]
        response = client.get(f"/api/documents/{doc}/chunks?strategy=fixed_chars"
                              "&chunk_size=10&chunk_overlap=9")
        assert response.status_code == 422
        body = response.get_json()
        assert body["parameter"] == "chunk_overlap" and body["limit"] == 5
        response = client.get(f"/api/documents/{doc}/chunks?strategy=fixed_chars"
                              "&chunk_size=10&chunk_overlap=5")
        assert response.status_code == 422
        assert response.get_json()["parameter"] == "chunk_size"
    finally:
        app.extensions["visualiser"].close()


def test_past_its_time_budget_a_report_stops_with_503(tmp_path, monkeypatch):
    app = make_app(tmp_path, REPORT_TIME_BUDGET=0.05)
    real_check = budget.check

    def slow_check(doing: str) -> None:  # every loop step takes 30 ms
        import time

        time.sleep(0.03)
        real_check(doing)

    monkeypatch.setattr(budget, "check", slow_check)
    try:
        client = app.test_client()
        doc = client.get("/api/documents").get_json()["documents"][0]["id"]
        response = client.get(f"/api/documents/{doc}/chunks?strategy=structure_aware")
        assert response.status_code == 503
        body = response.get_json()
        assert body["error"] == "Took too long" and "stopped after 0.05 s" in body["message"]
        monkeypatch.setattr(budget, "check", real_check)  # nothing half-made was cached
        response = client.get(f"/api/documents/{doc}/chunks?strategy=structure_aware")
        assert response.status_code == 200
    finally:
        app.extensions["visualiser"].close()


def test_the_budget_is_per_block_and_off_by_default():
    budget.check("no budget at all")
    with pytest.raises(OutOfTime), budget.time_budget(1e-9):
        import time

        time.sleep(0.001)
        budget.check("looping")
    budget.check("after the block")


def test_the_cli_refuses_limits_with_exit_2(sample_path):
    done = subprocess.run(
        [sys.executable, "-m", "visualiser.cli", "chunk", str(sample_path(APEX)),
         "--strategy", "fixed_chars", "--param", "chunk_size=10", "--param", "chunk_overlap=9"],
        capture_output=True, timeout=120, cwd=REPO)
    assert done.returncode == 2 and b"chunk_overlap: at most half" in done.stderr
    done = subprocess.run(
        [sys.executable, "-m", "visualiser.cli", "chunk", str(sample_path(APEX)),
         "--strategy", "fixed_chars", "--param", "chunk_size=10", "--param", "chunk_overlap=5"],
        capture_output=True, timeout=120, cwd=REPO)
    assert done.returncode == 2 and b"chunk_size:" in done.stderr and b"limit" in done.stderr


def test_work_stops_when_the_client_has_gone(tmp_path):
    app = make_app(tmp_path)
    try:
        client = app.test_client()
        doc = client.get("/api/documents").get_json()["documents"][0]["id"]
        url = f"/api/documents/{doc}/chunks?strategy=fixed_tokens&chunk_size=64&chunk_overlap=8"
        # What waitress puts in the environ when it reads ahead on the connection.
        response = client.get(url, environ_overrides={
            "waitress.client_disconnected": lambda: True})
        assert response.status_code == 503 and response.get_json()["error"] == "Client gone"
        connected = client.get(url, environ_overrides={
            "waitress.client_disconnected": lambda: False})
        assert connected.status_code == 200  # nothing half-made was kept
        budget.check("after the request")  # the watch ended with its request
    finally:
        app.extensions["visualiser"].close()
