"""The team server end to end, with real processes: two web processes (one of them
`serve --workers 2` on gunicorn, the other `serve` on waitress) on one PostgreSQL store,
one Redis queue and one shared --data-dir, and two `visualiser worker`s. Documents are
uploaded through both web ports; one worker is SIGKILLed in the middle of a long
document; every document must still end `ready`, the killed one on its second attempt,
with the chunks `visualiser chunk FILE --strategy S --format json` gives."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
import servers

from tests.conftest import APEX, MEMO, POLICY, RATES, REPORT
from tests.conftest_web import make_long_pdf
from tests.fuzzing import REPO
from tests.test_reliability_processes import post_file, post_json, request
from visualiser.resources import samples_dir
from visualiser.store import QUEUE_OWNER, Store, data_folders

if sys.platform != "linux":
    pytest.skip("these tests kill process groups and use Linux's parent-death signal",
                allow_module_level=True)

VISUALISER = [sys.executable, "-m", "visualiser.cli"]
LONG_PAGES = 120  # seconds of work under load: long enough to be caught mid-job
STRUCTURE, TOKENS = "structure_aware", "token_based"


class Team:
    """The processes of one team server, all stopped (process groups) when the test ends."""

    def __init__(self, tmp_path: Path, database: str, queue: str) -> None:
        self.tmp_path = tmp_path
        self.data_dir = tmp_path / "data"
        self.urls = ["--database", database, "--queue", queue, "--data-dir",
                     str(self.data_dir)]
        # Nothing may land in the real user's folders.
        self.env = {"XDG_CACHE_HOME": str(tmp_path / "xdg-cache"),
                    "XDG_DATA_HOME": str(tmp_path / "xdg-data")}
        self.processes: list[subprocess.Popen[bytes]] = []

    def start(self, name: str, *args: str) -> subprocess.Popen[bytes]:
        log = self.tmp_path / f"{name}.log"
        process = servers.spawn([*VISUALISER, *args, *self.urls], log, self.env, REPO)
        self.processes.append(process)
        return process

    def web(self, name: str, *args: str) -> str:
        port = servers.free_port()
        process = self.start(name, "serve", "--port", str(port), *args)
        base = f"http://127.0.0.1:{port}"
        servers.wait_until_answering(f"{base}/api/knowledgebases", process,
                                     self.tmp_path / f"{name}.log")
        return base

    def logs(self) -> str:
        return "\n".join(f"--- {log.name}\n{log.read_text(errors='replace')[-3000:]}"
                         for log in sorted(self.tmp_path.glob("*.log")))

    def stop_all(self) -> None:
        for process in self.processes:
            servers.stop(process)


@pytest.fixture
def team(tmp_path, postgres_url, redis_url):
    import redis

    redis.Redis.from_url(redis_url).flushdb()  # the session's Redis: no other test's jobs
    team = Team(tmp_path, servers.new_schema(postgres_url), redis_url)
    yield team
    team.stop_all()


def cli_chunks(pdf: Path, strategy: str) -> list[dict]:
    """What the command line makes of the file: `visualiser chunk … --format json`."""
    done = subprocess.run([*VISUALISER, "chunk", str(pdf), "--strategy", strategy,
                           "--format", "json"], cwd=REPO, capture_output=True, check=True)
    return json.loads(done.stdout)["chunks"]


def essentials(chunks: list[dict]) -> list[tuple]:
    return [(c["index"], c["chunk_type"], c["text"], c["tokens"], c["pages"]) for c in chunks]


def kill_the_worker_on(store: Store, kb_id: int, doc_id: str,
                       workers: dict[int, subprocess.Popen[bytes]],
                       killed: dict[str, object]) -> None:
    """Watch the document's row; as soon as a worker holds it (not the queue, between
    turns) and has read some pages, SIGKILL that worker (its lease owner is
    `host:pid:…`) and note what the row said."""
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        doc = store.document(kb_id, doc_id)
        owner = doc["lease_owner"]
        if owner and owner != QUEUE_OWNER and doc["progress"] > 0:
            pid = int(owner.split(":")[1])
            servers.stop(workers[pid], signal.SIGKILL)
            killed.update(pid=pid, row=store.document(kb_id, doc_id))
            return
        if doc["state"] != "processing":
            killed.update(missed=doc)
            return
        time.sleep(0.02)
    killed.update(missed="no worker took the long document within 90 s")


def test_documents_through_two_web_processes_survive_a_worker_killed_mid_job(team, tmp_path):
    long_pdf = tmp_path / "long-contract.pdf"
    make_long_pdf(long_pdf, LONG_PAGES)
    web_a = team.web("web-a", "--workers", "2")  # gunicorn, two processes
    web_b = team.web("web-b")  # waitress
    workers = {p.pid: p for p in (team.start("worker-1", "worker"),
                                  team.start("worker-2", "worker"))}

    status, kb_structure = post_json(f"{web_a}/api/knowledgebases",
                                     {"name": "Contracts", "chunking_strategy": STRUCTURE})
    assert status == 201, kb_structure
    status, kb_tokens = post_json(f"{web_b}/api/knowledgebases",
                                  {"name": "Windows", "chunking_strategy": TOKENS})
    assert status == 201, kb_tokens
    kbs = {STRUCTURE: kb_structure["id"], TOKENS: kb_tokens["id"]}

    # In upload order, the long one first so that a worker is on it at once. The same
    # bytes in both knowledgebases are two jobs (their configs differ).
    uploads = [(STRUCTURE, long_pdf), (STRUCTURE, samples_dir() / APEX),
               (TOKENS, samples_dir() / APEX), (TOKENS, samples_dir() / POLICY),
               (STRUCTURE, samples_dir() / RATES), (TOKENS, samples_dir() / REPORT),
               (STRUCTURE, samples_dir() / MEMO)]
    store = Store(team.urls[1], data_folders(team.data_dir)["pdfs"])
    killed: dict[str, object] = {}
    watcher: threading.Thread | None = None
    documents: list[tuple[str, Path, str]] = []  # strategy, file, document id
    try:
        for number, (strategy, pdf) in enumerate(uploads):
            web = (web_a, web_b)[number % 2]
            status, body = post_file(f"{web}/api/knowledgebases/{kbs[strategy]}/documents",
                                     pdf.read_bytes(), pdf.name)
            assert status == 202, body
            doc = json.loads(body)
            assert doc["state"] == "processing"
            documents.append((strategy, pdf, doc["id"]))
            if watcher is None:
                watcher = threading.Thread(target=kill_the_worker_on, args=(
                    store, kbs[strategy], doc["id"], workers, killed), daemon=True)
                watcher.start()
        watcher.join(100)
        assert "pid" in killed, f"the kill came too late: {killed.get('missed')}"
        row = killed["row"]
        assert row["state"] == "processing" and 0 < row["progress"] < 1, row
        assert row["attempts"] == 1

        # The survivor (its sweep frees a dead worker's lease on this host at once, or
        # after LEASE_SECONDS on another) queues the document again and finishes all.
        deadline = time.monotonic() + 120
        while True:
            states = [store.document(kbs[s], d)["state"] for s, _, d in documents]
            if all(s != "processing" for s in states):
                break
            assert time.monotonic() < deadline, f"still processing: {states}\n{team.logs()}"
            time.sleep(0.25)
    finally:
        store.close()

    by_id: dict[tuple[int, str], dict] = {}
    for web, kb_id in ((web_a, kbs[STRUCTURE]), (web_b, kbs[TOKENS])):
        status, body = request(f"{web}/api/knowledgebases/{kb_id}/documents")
        assert status == 200
        for doc in json.loads(body)["documents"]:
            by_id[kb_id, doc["id"]] = doc
    assert len(by_id) == len(uploads)
    long_id = documents[0][2]
    for strategy, pdf, doc_id in documents:
        doc = by_id[kbs[strategy], doc_id]
        assert doc["state"] == "ready", (pdf.name, doc, team.logs())
        # The killed one took two workers; every other one, one.
        assert doc["attempts"] == (2 if doc_id == long_id else 1), (pdf.name, doc)
    status, page = request(f"{web_b}/knowledgebases/{kbs[STRUCTURE]}")
    assert status == 200 and b"2 attempts" in page  # the table says it too

    # The chunks, read through either web port, are the command line's.
    with ThreadPoolExecutor(2) as pool:
        expected = list(pool.map(lambda d: cli_chunks(d[1], d[0]), documents))
    for number, ((strategy, pdf, doc_id), cli) in enumerate(zip(documents, expected,
                                                                strict=True)):
        web = (web_b, web_a)[number % 2]  # the other port than the upload's
        status, body = request(f"{web}/api/knowledgebases/{kbs[strategy]}/documents/"
                               f"{doc_id}/chunks")
        assert status == 200
        served = json.loads(body)
        assert served["chunking_strategy"] == strategy
        assert essentials(served["chunks"]) == essentials(cli), pdf.name
    assert {p for c in expected[0] for p in c["pages"]} == set(range(1, LONG_PAGES + 1))

    # The shared folder holds each PDF once, complete, and no half-written file.
    pdfs = data_folders(team.data_dir)["pdfs"]
    assert sorted(p.name for p in pdfs.glob("*.pdf")) == sorted(
        {f"{d}.pdf" for _, _, d in documents})
    assert not [p for p in pdfs.rglob("*") if p.suffix in (".tmp", ".upload")]
