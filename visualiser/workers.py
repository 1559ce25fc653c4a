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

Documents of `turns.LONG_PAGES` pages or more go to a queue of their own, and every
worker takes small documents first. A worker on a long document reads it in turns
(`visualiser.turns`) and makes room between turns when small documents wait and no
other worker is free for them or already on them (each worker says what it is doing
in Redis, `Presence`): with one worker a small upload waits one turn, not the whole
long document; with several, the long one goes on while the others take the small.

Once a document is processed, its worker queues one job per strategy on a third queue,
taken only when the other two are empty: each computes that strategy's
default-parameter report and keeps it beside the PDF in the shared data folder
(`visualiser.previews`), where every web process reads it.

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
import time
import uuid
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from visualiser import ingest, previews, stored_packed, turns
from visualiser.errors import VisualiserError
from visualiser.store import MAX_ATTEMPTS, Store

log = logging.getLogger(__name__)

SMALL_QUEUE = "visualiser"  # documents under turns.LONG_PAGES pages: taken first
LONG_QUEUE = "visualiser-long"
PREVIEW_QUEUE = "visualiser-previews"  # every strategy's report of a processed document
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


@dataclass(frozen=True, slots=True)
class Queues:
    """The RQ queues on one Redis: small documents, long ones, and previews."""

    small: Any
    long: Any
    previews: Any

    @classmethod
    def on(cls, connection: Any) -> Queues:
        from rq import Queue

        return cls(Queue(SMALL_QUEUE, connection=connection),
                   Queue(LONG_QUEUE, connection=connection),
                   Queue(PREVIEW_QUEUE, connection=connection))

    @property
    def connection(self) -> Any:
        return self.small.connection

    def for_pages(self, page_count: int) -> Any:
        return self.long if page_count >= turns.LONG_PAGES else self.small

    def in_order(self) -> list[Any]:
        """What a worker listens to: RQ takes from the first queue that has a job, so a
        preview waits for every document to process."""
        return [self.small, self.long, self.previews]


class Presence:
    """What each worker is doing ("idle", "small", "long"), in one Redis hash: a field
    per worker holding what it does and until when that holds unless renewed, so a
    killed worker's entry says nothing after `ttl` seconds."""

    KEY = "visualiser:workers"

    def __init__(self, connection: Any, owner: str, ttl: float) -> None:
        self.connection, self.owner, self.ttl = connection, owner, ttl
        self.doing = "idle"
        self._checked = (float("-inf"), False)

    def set(self, doing: str) -> None:
        self.doing = doing
        self.renew()

    def renew(self) -> None:
        self.connection.hset(self.KEY, self.owner, f"{self.doing} {time.time() + self.ttl}")

    def leave(self) -> None:
        self.connection.hdel(self.KEY, self.owner)

    def others(self) -> dict[str, str]:
        """What the other live workers are doing; entries past their time are dropped."""
        now, doing = time.time(), {}
        for field, value in self.connection.hgetall(self.KEY).items():
            owner, (what, _, until) = field.decode(), value.decode().partition(" ")
            if owner == self.owner:
                continue
            if float(until or 0) < now:
                self.connection.hdel(self.KEY, owner)
            else:
                doing[owner] = what
        return doing

    def small_ones_unserved(self, queues: Queues) -> bool:
        """Do small documents wait with no other worker free for them or on them?
        Asked once a second at most (every page of a long document asks)."""
        checked_at, answer = self._checked
        if time.monotonic() - checked_at < 1.0:
            return answer
        answer = queues.small.count > 0 and not any(
            what in ("idle", "small") for what in self.others().values())
        self._checked = (time.monotonic(), answer)
        return answer


def job_id(store: Store, kb_id: int, doc_id: str, attempts: int = 0, turn: int = 0) -> str:
    """The job's key: same knowledgebase, bytes and chunking config, same job. A retry
    after a dead worker is a job of its own (`…-retry1`), so RQ's bookkeeping of the
    dead one cannot touch it; so is a long document's next turn (`…-turn<pages read>`)."""
    config = hashlib.sha256(store.knowledgebase(kb_id).raw_metadata.encode()).hexdigest()
    key = f"process-{kb_id}-{doc_id}-{config[:12]}"
    if attempts:
        key += f"-retry{attempts}"
    return f"{key}-turn{turn}" if turn else key


def enqueue(store: Store, queues: Queues, kb_id: int, doc_id: str, attempts: int = 0, *,
            turn: int = 0, at_front: bool = False) -> bool:
    """Queue the document's processing unless its job is already waiting or running;
    True when a job was queued."""
    from rq.exceptions import NoSuchJobError
    from rq.job import Job, JobStatus

    key = job_id(store, kb_id, doc_id, attempts, turn)
    try:
        status = Job.fetch(key, connection=queues.connection).get_status(refresh=False)
    except NoSuchJobError:
        status = None
    if status in (JobStatus.QUEUED, JobStatus.STARTED, JobStatus.DEFERRED,
                  JobStatus.SCHEDULED):
        return False
    queue = queues.for_pages(int(store.document(kb_id, doc_id)["page_count"]))
    queue.enqueue_call(run_job, args=(kb_id, doc_id), job_id=key, timeout=JOB_TIMEOUT,
                       result_ttl=3600, failure_ttl=24 * 3600, at_front=at_front)
    return True


def preview_job_id(store: Store, kb_id: int, doc_id: str, strategy: str) -> str:
    """Same document, knowledgebase configuration and strategy, same job."""
    config = hashlib.sha256(store.knowledgebase(kb_id).raw_metadata.encode()).hexdigest()
    return f"preview-{kb_id}-{doc_id}-{config[:12]}-{strategy}"


def enqueue_previews(store: Store, queues: Queues, kb_id: int, doc_id: str) -> int:
    """Queue the default reports not kept yet of a ready document (each unless its job
    waits or runs already); how many were queued."""
    from rq.exceptions import NoSuchJobError
    from rq.job import Job, JobStatus

    try:
        doc = store.document(kb_id, doc_id)
        options = store.knowledgebase(kb_id).layout_options
    except VisualiserError:
        return 0
    if doc["state"] != "ready":
        return 0
    queued = 0
    for strategy in previews.missing(store.document_folder(doc_id), doc["name"], options):
        key = preview_job_id(store, kb_id, doc_id, strategy)
        try:
            status = Job.fetch(key, connection=queues.connection).get_status(refresh=False)
        except NoSuchJobError:
            status = None
        if status in (JobStatus.QUEUED, JobStatus.STARTED):
            continue
        queues.previews.enqueue_call(run_preview, args=(kb_id, doc_id, strategy), job_id=key,
                                     timeout=JOB_TIMEOUT, result_ttl=600,
                                     failure_ttl=24 * 3600)
        queued += 1
    return queued


def sweep(store: Store, queues: Queues) -> int:
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
            if enqueue(store, queues, kb_id, doc_id, int(doc["attempts"])):
                queued += 1
                if doc["attempts"]:
                    log.info("%s: its worker died; queued as attempt %d", doc_id,
                             int(doc["attempts"]) + 1)
        except VisualiserError:  # deleted meanwhile
            continue
    return queued + _requeue_lost_turns(store, queues)


def _requeue_lost_turns(store: Store, queues: Queues) -> int:
    """A long document handed back to the queue whose next turn no queue holds (the
    worker that took the job died before claiming it, or Redis restarted) is queued
    again, as the same attempt. Only waiting jobs count: a job a worker has taken but
    not yet claimed is a moment's state, and a second job for the same turn is
    harmless (one claim wins; the other finds the document taken or ready)."""
    held = store.held_by_queue()
    if not held:
        return 0
    known = set(queues.long.get_job_ids()) | set(queues.small.get_job_ids())
    queued = 0
    for kb_id, doc_id, attempts in held:
        prefix = f"process-{kb_id}-{doc_id}-"
        if any(key.startswith(prefix) for key in known):
            continue
        try:
            queued += enqueue(store, queues, kb_id, doc_id, max(0, attempts - 1))
        except VisualiserError:  # deleted meanwhile
            continue
    return queued


# -- the web side ------------------------------------------------------------------------


class QueueProcessor:
    """What a web process uses instead of the in-process worker when a queue is set:
    the same `submit`/`is_running`/`resume`/`wait`/`shutdown`, but nothing runs here."""

    def __init__(self, store: Store, queue_url: str) -> None:
        self.store = store
        self.queues = Queues.on(_redis(queue_url))
        self._submitted: set[tuple[int, str]] = set()

    def submit(self, kb_id: int, doc_id: str) -> None:
        self._submitted.add((kb_id, doc_id))
        enqueue(self.store, self.queues, kb_id, doc_id)

    def is_running(self, kb_id: int, doc_id: str) -> bool:
        return False  # a worker's lease in the store says it (views.processing_phase)

    def resume(self) -> int:
        return sweep(self.store, self.queues)

    def wait(self, timeout: float | None = None) -> bool:
        """Wait until what this process submitted is no longer processing."""
        deadline = None if timeout is None else time.monotonic() + timeout
        while True:
            pending = [key for key in self._submitted if _processing(self.store, *key)]
            if not pending:
                return True
            if deadline is not None and time.monotonic() > deadline:
                return False
            time.sleep(0.05)

    def shutdown(self, timeout: float = 60) -> None:
        self.queues.connection.close()


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
    queues: Queues
    presence: Presence
    on_processed: Any = None  # the shared layout cache, fed with what was read
    images: Any = None  # the shared page-image cache: the first screen is rendered ahead
    library: Any = None  # what computes the previews (holding the layout just read)
    previews: bool = True  # queue every strategy's report of a document once processed


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
        try:
            pages = int(store.document(kb_id, doc_id)["page_count"])
        except VisualiserError:
            pages = 0  # deleted meanwhile: processing finds it gone
        context.presence.set("long" if pages >= turns.LONG_PAGES else "small")
        if not _take_a_turn(context, kb_id, doc_id):
            return "paused: small documents first"
        stored_packed.keep(store, kb_id, doc_id)
        if context.previews:
            enqueue_previews(store, context.queues, kb_id, doc_id)
    finally:
        stop.set()
        heartbeat.join()
        context.presence.set("idle")
    return store.document(kb_id, doc_id)["state"] if not ingest.deleted(store, kb_id, doc_id) \
        else "deleted"


def run_preview(kb_id: int, doc_id: str, strategy: str) -> str:
    """The job: one strategy's default report of a processed document, kept beside its
    PDF. Idempotent; a document deleted or re-processed meanwhile is skipped."""
    context = _context
    if context is None or context.library is None:
        raise RuntimeError("run_preview runs inside `visualiser worker`")
    context.presence.set("preview")
    try:
        return previews.precompute(context.store, context.library, kb_id, doc_id, strategy)
    finally:
        context.presence.set("idle")


def _take_a_turn(context: WorkerContext, kb_id: int, doc_id: str) -> bool:
    """Process the document, a long one a turn at a time: False when this turn made
    room for small documents (the next turn is queued), True when it is processed."""
    store = context.store
    try:
        kb, doc = store.knowledgebase(kb_id), store.document(kb_id, doc_id)
        options = replace(kb.layout_options, workers=max(1, context.layout_workers))
        whole = not turns.takes_turns(options, int(doc["page_count"]))
        if not whole:
            checkpoint = turns.Checkpoint.of(store.document_folder(doc_id), kb_id, options)
            first = checkpoint.pages_saved()
            progress = ingest.throttled(lambda fraction: store.set_state(
                kb_id, doc_id, "processing", progress=fraction))
            read, done = turns.read_turn(store.pdf_path(doc_id).read_bytes(), first, options,
                                         lambda: context.presence.small_ones_unserved(
                                             context.queues), progress)
            if not done:
                checkpoint.save(first, read)
                if store.hand_back(kb_id, doc_id, context.owner, JOB_TIMEOUT):
                    # named after the job that began this attempt (`…-retry<attempt - 1>`)
                    enqueue(store, context.queues, kb_id, doc_id,
                            max(0, int(doc["attempts"]) - 1), turn=first + len(read),
                            at_front=True)
                return False
            saved = checkpoint.load()
            if len(saved) != first:  # a turn's file went missing: start again, whole
                raise VisualiserError(f"{len(saved)} of {first} saved pages are left")
            pages = saved + read
    except Exception:  # whatever failed, processing it whole records why (or finds it gone)
        log.exception("reading %s in turns failed; processing it whole", doc_id)
        whole = True
    ingest.process(store, kb_id, doc_id, on_processed=context.on_processed,
                   workers=context.layout_workers, pages_read=None if whole else pages,
                   images=context.images)
    if not whole:
        checkpoint.remove()
    return True


def run_worker(database: str, queue_url: str, data_dir: Path | None, *,
               lease_seconds: float = LEASE_SECONDS, layout_workers: int = 1,
               burst: bool = False, precompute_previews: bool = True) -> None:
    """`visualiser worker`: take jobs from the queue until stopped (SIGTERM/SIGINT
    finish the running job first; SIGKILL leaves it to the sweep of another worker)."""
    global _context
    from rq import SimpleWorker

    from visualiser.library import Library
    from visualiser.render import PageImageCache
    from visualiser.resources import samples_dir
    from visualiser.store import data_folders

    folders = data_folders(data_dir) if data_dir else None
    store = Store(database, folders["pdfs"] if folders else None)
    library = Library(samples_dir(), documents=1, reports=2,
                      layout_dir=folders["cache"] / "layouts" if folders else None)
    owner = f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:12]}"
    images = PageImageCache(folders["cache"]) if folders else None
    connection = _redis(queue_url)
    queues = Queues.on(connection)
    presence = Presence(connection, owner, lease_seconds)
    presence.set("idle")
    _context = WorkerContext(store, owner, lease_seconds, layout_workers, queues, presence,
                             library.remember, images, library, precompute_previews)
    stop = threading.Event()

    def sweeping() -> None:
        while not stop.wait(lease_seconds / 3):
            try:
                presence.renew()
                _release_dead_here(store, owner)
                sweep(store, queues)
            except Exception:
                log.exception("the sweep for dead workers' documents failed")

    sweep(store, queues)
    sweeper = threading.Thread(target=sweeping, name="sweeper", daemon=True)
    sweeper.start()
    try:
        SimpleWorker(queues.in_order(), connection=connection).work(
            burst=burst, with_scheduler=False, logging_level="WARNING")
    finally:
        stop.set()
        presence.leave()
        store.release(owner)
        store.close()


def _release_dead_here(store: Store, owner: str) -> None:
    """Leases of workers on this machine that no longer run are free at once."""
    from visualiser.web.jobs import _dead_here

    for other in store.lease_owners():
        if other != owner and _dead_here(other):
            store.release(other)
