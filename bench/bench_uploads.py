"""Memory of a server receiving big uploads at once: N clients each upload a different
~60 MB PDF to `visualiser serve`; prints the server's resident set before, its peak
(VmHWM) once every upload has been answered, and the answers.

    .venv/bin/python bench/bench_uploads.py [--clients 10] [--mb 60] [--source DIR]

`--source DIR` runs the server from another checkout (e.g. `git archive main | tar -x
-C DIR`), to compare with a baseline in the same run.
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from collections import Counter
from pathlib import Path

import pymupdf


def big_pdf(megabytes: int, salt: int) -> bytes:
    """One page of text plus an embedded file of incompressible bytes."""
    with pymupdf.open() as document:
        document.new_page().insert_text((72, 72), f"Upload {salt}")
        document.embfile_add("payload.bin", os.urandom(megabytes * 2**20))
        return document.tobytes(garbage=0, deflate=False)


def vm(pid: int, field: str) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1]) / 1024
    return 0.0


def post(url: str, body: bytes, content_type: str) -> int:
    request = urllib.request.Request(url, data=body, headers={"Content-Type": content_type})
    try:
        with urllib.request.urlopen(request, timeout=600) as response:
            return response.status
    except urllib.error.HTTPError as error:
        return error.code


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--clients", type=int, default=10)
    parser.add_argument("--mb", type=int, default=60)
    parser.add_argument("--source", type=Path, help="run the server from this checkout")
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="uploads-"))
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    env = {**os.environ, "XDG_CACHE_HOME": str(folder / "cache")}
    if args.source:
        env["PYTHONPATH"] = str(args.source)
    with (folder / "server.log").open("wb") as log:
        server = subprocess.Popen([sys.executable, "-m", "visualiser.cli", "serve", "--port",
                                   str(port), "--database", str(folder / "kb.sqlite")],
                                  env=env, stdout=log, stderr=subprocess.STDOUT,
                                  cwd=args.source or Path(__file__).resolve().parents[1])
    base = f"http://127.0.0.1:{port}/api/knowledgebases"
    try:
        for _ in range(600):
            try:
                urllib.request.urlopen(base, timeout=5).read()
                break
            except OSError:
                time.sleep(0.1)
        kb = json.loads(urllib.request.urlopen(urllib.request.Request(
            base, data=json.dumps({"name": "Uploads"}).encode(),
            headers={"Content-Type": "application/json"})).read())
        bodies = []
        for n in range(args.clients):
            boundary = f"----bench{n}"
            data = big_pdf(args.mb, n)
            body = (f"--{boundary}\r\nContent-Disposition: form-data; name=\"file\"; "
                    f"filename=\"big{n}.pdf\"\r\nContent-Type: application/pdf\r\n\r\n"
                    ).encode() + data + f"\r\n--{boundary}--\r\n".encode()
            bodies.append((body, f"multipart/form-data; boundary={boundary}"))
        before = vm(server.pid, "VmRSS")
        threads_before = len(os.listdir(f"/proc/{server.pid}/task"))
        answers: Counter[int] = Counter()
        most_threads = [threads_before]

        def upload(body: bytes, content_type: str) -> None:
            answers[post(f"{base}/{kb['id']}/documents", body, content_type)] += 1

        started = time.monotonic()
        clients = [threading.Thread(target=upload, args=b) for b in bodies]
        for c in clients:
            c.start()
        while any(c.is_alive() for c in clients):
            most_threads.append(len(os.listdir(f"/proc/{server.pid}/task")))
            time.sleep(0.05)
        elapsed = time.monotonic() - started
        peak = vm(server.pid, "VmHWM")
        print(f"{args.clients} uploads of {len(bodies[0][0]) / 2**20:.0f} MB at once in "
              f"{elapsed:.1f} s: answers {dict(answers)}")
        print(f"server RSS before {before:.0f} MB, peak {peak:.0f} MB "
              f"(+{peak - before:.0f} MB); threads {threads_before} → at most "
              f"{max(most_threads)}")
    finally:
        server.terminate()
        server.wait(30)
    return 0


if __name__ == "__main__":
    sys.exit(main())
