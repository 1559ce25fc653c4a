"""Throwaway PostgreSQL and Redis servers for the tests: each on a free port, in a
temporary folder, stopped and removed after. PostgreSQL refuses to run as root, so as
root it runs as the `postgres` user (the Debian package creates it)."""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def postgres_bin(name: str) -> str | None:
    """A PostgreSQL server program: on PATH, or where Debian keeps it (not on PATH)."""
    found = shutil.which(name)
    if found:
        return found
    versions = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"),
                      key=lambda p: int(Path(p).parts[-3]) if Path(p).parts[-3].isdigit() else 0)
    return versions[-1] if versions else None


def _as_server_user() -> tuple[list[str], int | None]:
    """The command prefix that runs PostgreSQL's programs as a user it accepts."""
    if os.geteuid() != 0:
        return [], None
    try:
        uid = pwd.getpwnam("postgres").pw_uid
    except KeyError:
        raise RuntimeError("running as root and there is no `postgres` user to run "
                           "PostgreSQL as (install the postgresql package)") from None
    return ["runuser", "-u", "postgres", "--"], uid


def postgres_missing() -> str | None:
    """Why PostgreSQL cannot be started here, or None."""
    for name in ("initdb", "pg_ctl"):
        if postgres_bin(name) is None:
            return f"PostgreSQL's {name} is not installed (apt-get install postgresql)"
    try:
        import psycopg  # noqa: F401
    except ImportError:
        return "psycopg is not installed (pip install -e '.[team]')"
    return None


def redis_missing() -> str | None:
    if shutil.which("redis-server") is None:
        return "redis-server is not installed (apt-get install redis-server)"
    try:
        import redis  # noqa: F401
        import rq  # noqa: F401
    except ImportError:
        return "redis/rq are not installed (pip install -e '.[team]')"
    return None


@contextmanager
def postgres_server() -> Iterator[str]:
    """A fresh PostgreSQL cluster; yields the URL of its `postgres` database."""
    prefix, uid = _as_server_user()
    folder = Path(tempfile.mkdtemp(prefix="visualiser-pg-"))
    if uid is not None:
        os.chown(folder, uid, -1)
    data, port = folder / "data", free_port()
    initdb, pg_ctl = postgres_bin("initdb"), postgres_bin("pg_ctl")
    subprocess.run([*prefix, initdb, "-D", str(data), "-A", "trust", "-U", "postgres",
                    "-E", "UTF8", "--locale=C", "--no-sync"],
                   check=True, capture_output=True)
    options = (f"-p {port} -k {folder} -c listen_addresses=127.0.0.1 -c fsync=off "
               "-c synchronous_commit=off -c full_page_writes=off -c max_connections=300")
    subprocess.run([*prefix, pg_ctl, "-D", str(data), "-o", options, "-l",
                    str(folder / "log"), "-w", "-t", "30", "start"],
                   check=True, capture_output=True)
    try:
        yield f"postgresql://postgres@127.0.0.1:{port}/postgres"
    finally:
        subprocess.run([*prefix, pg_ctl, "-D", str(data), "-m", "immediate", "-w", "stop"],
                       capture_output=True)
        shutil.rmtree(folder, ignore_errors=True)


def new_schema(server_url: str) -> str:
    """A URL whose tables live in a new, empty schema: a fresh database per test, at
    the cost of one CREATE SCHEMA."""
    import psycopg

    name = f"t_{uuid.uuid4().hex[:16]}"
    with psycopg.connect(server_url, autocommit=True) as conn:
        conn.execute(f"CREATE SCHEMA {name}")
    return f"{server_url}?options=-csearch_path%3D{name}"


@contextmanager
def redis_server() -> Iterator[str]:
    """A fresh Redis without persistence; yields its URL."""
    folder = Path(tempfile.mkdtemp(prefix="visualiser-redis-"))
    port = free_port()
    process = subprocess.Popen(
        ["redis-server", "--port", str(port), "--bind", "127.0.0.1", "--save", "",
         "--appendonly", "no", "--dir", str(folder)],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"redis://127.0.0.1:{port}/0"
    try:
        import redis

        deadline = time.monotonic() + 20
        while True:
            try:
                redis.Redis.from_url(url).ping()
                break
            except redis.ConnectionError:
                if time.monotonic() > deadline or process.poll() is not None:
                    raise
                time.sleep(0.05)
        yield url
    finally:
        process.terminate()
        process.wait(10)
        shutil.rmtree(folder, ignore_errors=True)


# -- processes of the product itself (web servers, workers), for end-to-end tests --------

def _die_with_parent() -> None:
    """In the child before exec: the kernel SIGKILLs it when the test process dies, even
    by SIGKILL, so no server outlives an interrupted run (Linux; a no-op elsewhere)."""
    try:
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(1, 9)  # PR_SET_PDEATHSIG, SIGKILL
    except (OSError, AttributeError):
        pass


def spawn(command: list[str], log: Path, env: dict[str, str] | None = None,
          cwd: Path | None = None) -> subprocess.Popen[bytes]:
    """Start `command` in a process group of its own (so `stop` ends its children too,
    gunicorn's workers say), its output appended to `log`."""
    with log.open("ab") as out:
        return subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT,
                                env={**os.environ, **(env or {})}, cwd=cwd,
                                start_new_session=True, preexec_fn=_die_with_parent)


def stop(process: subprocess.Popen[bytes], signal_number: int = 15,
         timeout: float = 15) -> None:
    """End the process and everything in its group: `signal_number` first (SIGTERM),
    SIGKILL if the group is not gone within `timeout` seconds."""
    import signal

    try:
        os.killpg(process.pid, signal_number)
    except ProcessLookupError:
        pass
    try:
        process.wait(timeout)
    except subprocess.TimeoutExpired:
        pass
    try:
        os.killpg(process.pid, signal.SIGKILL)  # children that outlived their leader
    except ProcessLookupError:
        pass
    process.wait(timeout)


def wait_until_answering(url: str, process: subprocess.Popen[bytes], log: Path,
                         timeout: float = 60) -> None:
    """Wait until GET `url` answers 200, or fail with the process's log."""
    import urllib.error
    import urllib.request

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            break
        try:
            with urllib.request.urlopen(url, timeout=5) as response:
                if response.status == 200:
                    return
        except (OSError, urllib.error.URLError):
            time.sleep(0.1)
    raise RuntimeError(f"{url} did not answer (exit {process.poll()}):\n"
                       f"{log.read_text(errors='replace')[-4000:]}")
