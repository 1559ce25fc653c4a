"""Faults and load with real processes: a server killed with SIGKILL mid-processing
resumes with nothing lost, layout worker processes die with their parent, and a real
WSGI server (waitress, as `visualiser serve` runs it) answers concurrent clients with
no errors."""

from __future__ import annotations

import hashlib
import io
import json
import os
import signal
import socket
import sqlite3
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections import Counter
from pathlib import Path

import pytest
from werkzeug.datastructures import FileStorage
from werkzeug.test import encode_multipart

from tests.conftest_web import make_long_pdf
from tests.fuzzing import REPO
from tests.test_kb_api import APEX_ID, one_page_pdf

if sys.platform != "linux":
    pytest.skip("these tests read /proc to find processes", allow_module_level=True)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def request(url: str, data: bytes | None = None, content_type: str | None = None,
            method: str | None = None) -> tuple[int, bytes]:
    headers = {"Content-Type": content_type} if content_type else {}
    req = urllib.request.Request(url, data=data, headers=headers, method=method)
    try:
        with urllib.request.urlopen(req, timeout=60) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.read()


def post_json(url: str, body: dict) -> tuple[int, dict]:
    status, data = request(url, json.dumps(body).encode(), "application/json")
    return status, json.loads(data)


def post_file(url: str, data: bytes, name: str) -> tuple[int, bytes]:
    boundary, body = encode_multipart({"file": FileStorage(io.BytesIO(data), name)})
    return request(url, body, f"multipart/form-data; boundary={boundary}")


def start_server(database: Path, port: int, cache: Path) -> subprocess.Popen[bytes]:
    env = {**os.environ, "XDG_CACHE_HOME": str(cache)}
    log = cache.parent / "server.log"
    with log.open("ab") as out:
        server = subprocess.Popen(
            [sys.executable, "-m", "visualiser.cli", "serve", "--port", str(port),
             "--database", str(database)], cwd=REPO, env=env, stdout=out,
            stderr=subprocess.STDOUT)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            if request(f"http://127.0.0.1:{port}/api/knowledgebases")[0] == 200:
                return server
        except OSError:
            time.sleep(0.1)
    server.kill()
    server.wait()
    raise AssertionError(f"the server did not start: {log.read_text()}")


def row(database: Path) -> tuple:
    with sqlite3.connect(database) as conn:
        return conn.execute("SELECT state, progress, lease_owner FROM kb_documents").fetchone()


def test_a_server_killed_mid_processing_resumes_with_nothing_lost(tmp_path):
    database, port = tmp_path / "kb.sqlite", free_port()
    pdf = tmp_path / "long.pdf"
    make_long_pdf(pdf, 80)
    data = pdf.read_bytes()
    base = f"http://127.0.0.1:{port}/api/knowledgebases"
    server = start_server(database, port, tmp_path / "cache")
    try:
        status, kb = post_json(base, {"name": "Contracts"})
        assert status == 201
        status, _ = post_file(f"{base}/{kb['id']}/documents", data, "long.pdf")
        assert status == 202
        deadline = time.monotonic() + 60
        while not (row(database)[1] > 0 and row(database)[2]):  # leased and under way
            assert time.monotonic() < deadline, row(database)
            time.sleep(0.05)
    finally:
        server.send_signal(signal.SIGKILL)
        server.wait()
    state, progress, owner = row(database)
    assert state == "processing" and 0 < progress < 1 and owner
    server = start_server(database, port, tmp_path / "cache")
    try:
        deadline = time.monotonic() + 120
        while row(database)[0] == "processing":
            assert time.monotonic() < deadline, "not resumed"
            time.sleep(0.1)
        status, body = request(f"{base}/{kb['id']}/documents")
        (doc,) = json.loads(body)["documents"]
        assert doc["state"] == "ready", doc
        status, body = request(f"{base}/{kb['id']}/documents/{doc['id']}/chunks")
        report = json.loads(body)
        assert status == 200 and len(report["chunks"]) > 10
        assert {p for c in report["chunks"] for p in c["pages"]} == set(range(1, 81))
    finally:
        server.terminate()
        server.wait(30)
    with sqlite3.connect(database) as conn:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        assert conn.execute("SELECT COUNT(*) FROM chunk_sets").fetchone()[0] == 1
        assert conn.execute("SELECT lease_owner FROM kb_documents").fetchone()[0] is None
    stored = Path(f"{database}.pdfs") / f"{hashlib.sha256(data).hexdigest()}.pdf"
    assert stored.read_bytes() == data
    assert list(stored.parent.glob("*.upload")) == []


def _children(pid: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid:
                found.append(int(entry.name))
    return found


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"  # a zombie has exited; only its parent's bookkeeping is left


def test_layout_worker_processes_exit_when_their_parent_is_killed(tmp_path):
    pdf = tmp_path / "long.pdf"
    make_long_pdf(pdf, 400)
    parent = subprocess.Popen(
        [sys.executable, "-c",
         "import sys\n"
         "from visualiser.layout import LayoutOptions\n"
         "from visualiser.layout.pages import read_pages\n"
         "if __name__ == '__main__':\n"
         "    read_pages(open(sys.argv[1], 'rb').read(), LayoutOptions(workers=2))\n",
         str(pdf)], cwd=REPO)
    try:
        deadline = time.monotonic() + 60
        workers: list[int] = []
        while len(workers) < 2:
            assert time.monotonic() < deadline and parent.poll() is None, "no workers"
            workers = [p for p in _children(parent.pid)
                       if b"spawn_main" in Path(f"/proc/{p}/cmdline").read_bytes()]
            time.sleep(0.05)
        time.sleep(0.5)  # let them start reading
    finally:
        parent.send_signal(signal.SIGKILL)
        parent.wait()
    deadline = time.monotonic() + 15
    while any(_alive(p) for p in workers):
        assert time.monotonic() < deadline, "layout workers outlived their parent"
        time.sleep(0.1)


def test_a_waitress_server_answers_concurrent_clients_without_errors(tmp_path):
    # `visualiser serve` in its own process, as users run it: a waitress server in a
    # thread of the test process shared its file descriptors with every other test
    # there, and its teardown failed now and then (EBADF on its trigger pipe).
    database, port = tmp_path / "kb.sqlite", free_port()
    server = start_server(database, port, tmp_path / "cache")
    url = f"http://127.0.0.1:{port}"
    statuses: Counter[int] = Counter()
    problems: list[str] = []
    lock = threading.Lock()
    try:
        status, kb = post_json(f"{url}/api/knowledgebases", {"name": "Load"})
        assert status == 201

        def client(number: int) -> None:
            for step in range(6):
                calls = [  # called at once, in this iteration (hence the default arguments)
                    lambda: request(f"{url}/api/documents"),
                    lambda: request(f"{url}/api/documents/{APEX_ID}/chunks?strategy=token_based"),
                    lambda s=step: request(f"{url}/api/documents/{APEX_ID}/chunks?strategy="
                                           f"fixed_chars&chunk_size={400 + number * 10 + s}"
                                           "&chunk_overlap=50"),
                    lambda s=step: request(f"{url}/api/documents/{APEX_ID}/pages/{1 + s % 4}.png"
                                           f"?scale={0.5 + number * 0.1:.1f}"),
                    lambda s=step: post_file(f"{url}/api/knowledgebases/{kb['id']}/documents",
                                             one_page_pdf(f"client {number} step {s}"), "p.pdf"),
                    lambda: request(f"{url}/api/knowledgebases/{kb['id']}/documents"),
                ]
                status, body = calls[(number + step) % len(calls)]()
                with lock:
                    statuses[status] += 1
                    if status >= 400:
                        problems.append(f"{status}: {body[:200]!r}")

        clients = [threading.Thread(target=client, args=(n,)) for n in range(8)]
        for c in clients:
            c.start()
        for c in clients:
            c.join(120)
        assert not problems, problems
        assert sum(statuses.values()) == 48
        deadline = time.monotonic() + 120
        while True:  # the uploads are processed in the server's background
            status, body = request(f"{url}/api/knowledgebases/{kb['id']}/documents")
            documents = json.loads(body)["documents"]
            if all(d["state"] != "processing" for d in documents):
                break
            assert time.monotonic() < deadline, documents
            time.sleep(0.2)
        assert documents and all(d["state"] == "ready" for d in documents), documents
    finally:
        server.terminate()
        server.wait(30)
