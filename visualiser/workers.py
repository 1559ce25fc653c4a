"""Processing on job workers: RQ on Redis (`--queue redis://…`), for a team server.

The web processes only enqueue (`QueueProcessor.submit`); `visualiser worker`
processes run the jobs (`run_worker`). Redis carries which job to run next; the store
stays the truth about every document, so a lost Redis loses no work:

- A job is keyed by the knowledgebase, the document's SHA-256 and a digest of the
  knowledgebase's chunking configuration (`job_id`): enqueuing what is already queued
  does nothing, and running a job twice stores the same chunk set twice.
- A worker takes the document's lease in the store before it processes it (a
  compare-and-set, `Store.claim`, which counts the attempt) and renews it while it
  works; progress is written to the store, where every web process reads it.
- Every worker also sweeps (`sweep`): a lease that expired belongs to a worker that
  died (SIGKILL, out of memory, a lost host); the document is queued again as its
  next attempt, up to `store.MAX_ATTEMPTS`, then failed with the reason. A document
  still "processing" that no queue holds (Redis restarted) is queued again too.

Workers are RQ's `SimpleWorker`: the job runs in the worker process itself, not in a
forked child, so a killed worker takes its job with it (a forked child would run on
orphaned, holding the lease) and the layout engines' imports are paid once.
"""

from __future__ import annotations

import hashlib
import logging
import os
import socket
import threading
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from visualiser import ingest
from visualiser.errors import VisualiserError
from visualiser.store import MAX_ATTEMPTS, Store

log = logging.getLogger(__name__)

QUEUE_NAME = "visualiser"
LEASE_SECONDS = 30.0
JOB_TIMEOUT = 2 * 3600  # seconds: the longest a document (2000 pages, OCR) may take


def _redis(url: str) -> Any:
    try:
        from redis import Redis
    except ImportError:
        raise VisualiserError("a queue needs the redis and rq packages: "
                              "pip install 'chunk-visualiser[team]'") from None
    if not url.startswith(("redis://", "rediss://", "unix://")):
        raise VisualiserError(f"--queue expects a redis:// URL, got {url!r}")
    return Redis.from_url(url)


def job_id(store: Store, kb_id: int, doc_id: str, attempts: int = 0) -> str:
    """The job's key: same knowledgebase, bytes and chunking config, same job. A retry
    after a dead worker is a job of its own (`…-retry1`), so RQ's bookkeeping of the
    dead one cannot touch it."""
    config = hashlib.sha256(store.knowledgebase(kb_id).raw_metadata.encode()).hexdigest()
    base = f"process-{kb_id}-{doc_id}-{config[:12]}"
    return f"{base}-retry{attempts}" if attempts else base


def enqueue(store: Store, queue: Any, kb_id: int, doc_id: str, attempts: int = 0) -> bool:
    """Queue the document's processing unless its job is already waiting or running;
    True when a job was queued."""
    from rq.exceptions import NoSuchJobError
    from rq.job import Job, JobStatus

    key = job_id(store, kb_id, doc_id, attempts)
    try:
        status = Job.fetch(key, connection=queue.connection).get_status(refresh=False)
    except NoSuchJobError:
        status = None
    if status in (JobStatus.QUEUED, JobStatus.STARTED, JobStatus.DEFERRED,
                  JobStatus.SCHEDULED):
        return False
    queue.enqueue_call(run_job, args=(kb_id, doc_id), job_id=key, timeout=JOB_TIMEOUT,
                       result_ttl=3600, failure_ttl=24 * 3600)
    return True


def sweep(store: Store, queue: Any) -> int:
    """Queue again what a dead worker left, fail what killed its workers too often, and
    queue what no queue holds; how many jobs were queued."""
    for kb_id, doc_id in store.fail_exhausted(MAX_ATTEMPTS):
        log.warning("document %s of knowledgebase %s failed: its workers died %d times",
                    doc_id, kb_id, MAX_ATTEMPTS)
    queued = 0
    for kb_id, doc_id in store.unleased():
        try:
            doc = store.document(kb_id, doc_id)
            if doc["lease_owner"] is not None and not store.release_expired(kb_id, doc_id):
                continue  # another sweeper took it first, or the lease was renewed
            if enqueue(store, queue, kb_id, doc_id, int(doc["attempts"])):
                queued += 1
                if doc["attempts"]:
                    log.info("%s: its worker died; queued as attempt %d", doc_id,
                             int(doc["attempts"]) + 1)
        except VisualiserError:  # deleted meanwhile
            continue
    return queued


# -- the web side ------------------------------------------------------------------------


class QueueProcessor:
    """What a web process uses instead of the in-process worker when a queue is set:
    the same `submit`/`is_running`/`resume`/`wait`/`shutdown`, but nothing runs here."""

    def __init__(self, store: Store, queue_url: str) -> None:
        from rq import Queue

        self.store = store
        self.queue = Queue(QUEUE_NAME, connection=_redis(queue_url))
        self._submitted: set[tuple[int, str]] = set()

    def submit(self, kb_id: int, doc_id: str) -> None:
        self._submitted.add((kb_id, doc_id))
        enqueue(self.store, self.queue, kb_id, doc_id)

    def is_running(self, kb_id: int, doc_id: str) -> bool:
        return False  # a worker's lease in the store says it (views.processing_phase)

    def resume(self) -> int:
        return sweep(self.store, self.queue)

    def wait(self, timeout: float | None = None) -> bool:
        """Wait until what this process submitted is no longer processing."""
        import time

        deadline = None if timeout is None else time.monotonic() + timeout
        while True:
            pending = [key for key in self._submitted if _processing(self.store, *key)]
            if not pending:
                return True
            if deadline is not None and time.monotonic() > deadline:
                return False
            time.sleep(0.05)

    def shutdown(self, timeout: float = 60) -> None:
        self.queue.connection.close()


def _processing(store: Store, kb_id: int, doc_id: str) -> bool:
    try:
        return store.document(kb_id, doc_id)["state"] == "processing"
    except VisualiserError:
        return False


# -- the worker side ---------------------------------------------------------------------


@dataclass(slots=True)
class WorkerContext:
    store: Store
    owner: str
    lease_seconds: float
    layout_workers: int
    on_processed: Any = None  # the shared layout cache, fed with what was read
    images: Any = None  # the shared page-image cache: the first screen is rendered ahead


_context: WorkerContext | None = None


def run_job(kb_id: int, doc_id: str) -> str:
    """The job: process one document if its lease is ours to take. Idempotent."""
    context = _context
    if context is None:
        raise RuntimeError("run_job runs inside `visualiser worker`")
    store = context.store
    if not store.claim(kb_id, doc_id, context.owner, context.lease_seconds):
        return "skipped: ready already, or another worker holds it"
    stop = threading.Event()

    def renew() -> None:
        while not stop.wait(context.lease_seconds / 3):
            try:
                store.renew(context.owner, context.lease_seconds)
            except Exception:  # a database hiccup: try again next beat
                log.exception("renewing the lease failed")

    heartbeat = threading.Thread(target=renew, name="lease-heartbeat", daemon=True)
    heartbeat.start()
    try:
        ingest.process(store, kb_id, doc_id, on_processed=context.on_processed,
                       workers=context.layout_workers, images=context.images)
    finally:
        stop.set()
        heartbeat.join()
    return store.document(kb_id, doc_id)["state"] if not _deleted(store, kb_id, doc_id) \
        else "deleted"


def _deleted(store: Store, kb_id: int, doc_id: str) -> bool:
    try:
        store.document(kb_id, doc_id)
    except VisualiserError:
        return True
    return False


def run_worker(database: str, queue_url: str, data_dir: Path | None, *,
               lease_seconds: float = LEASE_SECONDS, layout_workers: int = 1,
               burst: bool = False) -> None:
    """`visualiser worker`: take jobs from the queue until stopped (SIGTERM/SIGINT
    finish the running job first; SIGKILL leaves it to the sweep of another worker)."""
    global _context
    from rq import Queue, SimpleWorker

    from visualiser.library import Library
    from visualiser.render import PageImageCache
    from visualiser.resources import samples_dir
    from visualiser.store import data_folders

    folders = data_folders(data_dir) if data_dir else None
    store = Store(database, folders["pdfs"] if folders else None)
    library = Library(samples_dir(), documents=1,
                      layout_dir=folders["cache"] / "layouts" if folders else None)
    owner = f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:12]}"
    images = PageImageCache(folders["cache"]) if folders else None
    _context = WorkerContext(store, owner, lease_seconds, layout_workers, library.remember,
                             images)
    connection = _redis(queue_url)
    queue = Queue(QUEUE_NAME, connection=connection)
    stop = threading.Event()

    def sweeping() -> None:
        while not stop.wait(lease_seconds / 3):
            try:
                _release_dead_here(store, owner)
                sweep(store, queue)
            except Exception:
                log.exception("the sweep for dead workers' documents failed")

    sweep(store, queue)
    sweeper = threading.Thread(target=sweeping, name="sweeper", daemon=True)
    sweeper.start()
    try:
        SimpleWorker([queue], connection=connection).work(burst=burst, with_scheduler=False,
                                                           logging_level="WARNING")
    finally:
        stop.set()
        store.release(owner)
        store.close()


def _release_dead_here(store: Store, owner: str) -> None:
    """Leases of workers on this machine that no longer run are free at once."""
    from visualiser.web.jobs import _dead_here

    for other in store.lease_owners():
        if other != owner and _dead_here(other):
            store.release(other)
