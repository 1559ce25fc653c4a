"""Processing uploaded documents in the background.

An upload is validated and stored while the client waits (`ingest.admit`, fast); the
slow part — layout extraction and chunking — runs on one worker thread, so a request
never waits for it and two big uploads do not fight over the machine's two cores.
Progress and failures are recorded on the document by `ingest.process`, which never
raises, and the viewer's layout cache is fed with the result.

The worker is a daemon thread, not a ThreadPoolExecutor: an executor makes the
interpreter wait at exit until its whole queue is processed, so stopping the server
would hang behind a queue of big PDFs. A document interrupted that way is still
"processing" in the database and is queued again when the server starts (`start`).

Once a document is processed, the worker computes in the background every strategy's
default-parameter report of it (`visualiser.previews`), one job per strategy, so that a
switch of strategy in the viewer reads a file. Those jobs wait behind every document
to process: the queue takes processing first, in the order submitted, then previews.

Several servers may share one database. A worker takes a lease on a row before it
processes it (atomically, `Store.claim`), and a heartbeat renews the leases this
server holds; another server skips a leased row, and its own heartbeat picks the row
up only once the lease has expired — the server holding it has died.
"""

from __future__ import annotations

import itertools
import logging
import os
import queue
import socket
import threading
import time
import uuid
from concurrent.futures import Future
from dataclasses import dataclass, field

from visualiser import ingest, previews, stored_packed
from visualiser.library import Library
from visualiser.render import PageImageCache
from visualiser.store import Store

log = logging.getLogger(__name__)

LEASE_SECONDS = 30.0
# The queue's order: stopping, then processing documents, then computing previews.
STOP, PROCESS, PREVIEW = -1, 0, 1


@dataclass(order=True, frozen=True, slots=True)
class Job:
    priority: int
    sequence: int  # first submitted, first taken, within a priority
    kb_id: int = field(compare=False, default=0)
    doc_id: str = field(compare=False, default="")
    strategy: str | None = field(compare=False, default=None)  # a preview's
    future: Future[None] = field(compare=False, default_factory=Future)


def _dead_here(owner: str) -> bool:
    """Is `owner` a server process on this machine that no longer runs? (A server killed
    with SIGKILL and restarted need not wait for its old lease to expire.)"""
    host, _, rest = owner.partition(":")
    pid = rest.partition(":")[0]
    if host != socket.gethostname() or not pid.isdigit():
        return False
    try:
        os.kill(int(pid), 0)
    except ProcessLookupError:
        return True
    except OSError:  # it exists, owned by someone else
        return False
    return False


class Processor:
    def __init__(self, store: Store, library: Library, workers: int = 1,
                 lease_seconds: float = LEASE_SECONDS, sweep: bool = True,
                 layout_workers: int = 1, images: PageImageCache | None = None,
                 previews: bool = True) -> None:
        self.store = store
        self.previews = previews  # compute every strategy's report once processed
        self.library = library
        self.images = images  # where the first screen's page images are rendered ahead
        self.owner = f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:12]}"
        self.lease_seconds = lease_seconds
        self._sweep = sweep  # also take over rows whose lease has expired
        self.layout_workers = layout_workers
        self._workers = max(1, workers)
        self._queue: queue.PriorityQueue[Job] = queue.PriorityQueue()
        self._sequence = itertools.count()
        self._threads: list[threading.Thread] = []
        self._lock = threading.Lock()
        self._pending: set[Future[None]] = set()
        self._running: set[tuple[int, str]] = set()  # (kb, doc) a worker is on now
        self._queued: set[tuple[int, str]] = set()
        self._previews_queued: set[tuple[int, str, str]] = set()
        self._stopping = threading.Event()
        self._heartbeat: threading.Thread | None = None

    def _start(self) -> None:
        # Started on first use: an app that never processes anything has no thread.
        with self._lock:
            if self._threads:
                return
            self._stopping.clear()
            for number in range(self._workers):
                thread = threading.Thread(
                    target=self._work, name=f"kb-processing-{number}", daemon=True
                )
                thread.start()
                self._threads.append(thread)
            self._heartbeat = threading.Thread(
                target=self._beat, name="kb-processing-heartbeat", daemon=True)
            self._heartbeat.start()

    def _work(self) -> None:
        while (job := self._queue.get()).priority != STOP:
            if job.priority == PREVIEW:
                self._preview(job)
                continue
            kb_id, doc_id, future = job.kb_id, job.doc_id, job.future
            if future.set_running_or_notify_cancel():
                with self._lock:
                    self._running.add((kb_id, doc_id))
                try:
                    if self.store.claim(kb_id, doc_id, self.owner, self.lease_seconds):
                        ingest.process(self.store, kb_id, doc_id,
                                       on_processed=self.library.remember,
                                       workers=self.layout_workers, images=self.images)
                        stored_packed.keep(self.store, kb_id, doc_id)
                        self.submit_previews(kb_id, doc_id)
                    else:  # another server holds it (or it is no longer processing)
                        log.info("%s is leased by another server; skipped", doc_id)
                    future.set_result(None)
                except BaseException as error:  # process() never raises; be sure anyway
                    log.exception("processing %s in knowledgebase %s failed", doc_id, kb_id)
                    future.set_exception(error)
            with self._lock:
                self._pending.discard(future)
                self._running.discard((kb_id, doc_id))
                self._queued.discard((kb_id, doc_id))

    def _preview(self, job: Job) -> None:
        assert job.strategy is not None
        try:
            if job.future.set_running_or_notify_cancel():
                said = previews.precompute(self.store, self.library, job.kb_id, job.doc_id,
                                           job.strategy)
                log.debug("preview %s of %s: %s", job.strategy, job.doc_id, said)
                job.future.set_result(None)
        finally:
            with self._lock:
                self._previews_queued.discard((job.kb_id, job.doc_id, job.strategy))

    def submit_previews(self, kb_id: int, doc_id: str) -> int:
        """Queue the default reports not kept yet of a document that is ready, behind
        everything to process; how many were queued."""
        if not self.previews:
            return 0
        try:
            doc = self.store.document(kb_id, doc_id)
            options = self.store.knowledgebase(kb_id).layout_options
        except Exception:  # deleted meanwhile, or the database failed: on demand then
            return 0
        if doc["state"] != "ready":
            return 0
        wanted = previews.missing(self.store.document_folder(doc_id), doc["name"], options)
        count = 0
        for strategy in wanted:
            with self._lock:
                if (kb_id, doc_id, strategy) in self._previews_queued:
                    continue
                self._previews_queued.add((kb_id, doc_id, strategy))
            self._queue.put(Job(PREVIEW, next(self._sequence), kb_id, doc_id, strategy))
            count += 1
        return count

    def _beat(self) -> None:
        """Renew this server's leases; take over rows whose lease has expired."""
        while not self._stopping.wait(self.lease_seconds / 3):
            try:
                self.store.renew(self.owner, self.lease_seconds)
                if self._sweep:
                    self.resume()
            except Exception:  # a locked or vanished database: try again next beat
                log.exception("processing heartbeat failed")

    def start(self) -> int:
        """Begin processing here: the workers and the heartbeat, and the documents left
        unprocessed (`resume`). Only `visualiser serve` calls it — an app made by
        `create_app` processes nothing until asked, so several web processes, or a
        web process beside queue workers, never all take up the same queue."""
        self._start()
        resumed = self.resume()
        self.resume_previews()
        return resumed

    def resume_previews(self) -> int:
        """Queue the previews a stopped server left unmade, for every ready document."""
        count = 0
        for kb in self.store.knowledgebases():
            for doc in self.store.documents(kb.id):
                if doc["state"] == "ready":
                    count += self.submit_previews(kb.id, doc["id"])
        return count

    def submit(self, kb_id: int, doc_id: str) -> Future[None]:
        self._start()
        job = Job(PROCESS, next(self._sequence), kb_id, doc_id)
        with self._lock:
            self._pending.add(job.future)
            self._queued.add((kb_id, doc_id))
        self._queue.put(job)
        return job.future

    def is_running(self, kb_id: int, doc_id: str) -> bool:
        """Is a worker on this document now? A "processing" document that is not is
        still waiting in the queue behind others."""
        with self._lock:
            return (kb_id, doc_id) in self._running

    def resume(self) -> int:
        """Queue the processing rows no server holds — left by a stopped server, or by
        one whose lease has expired; otherwise they would say "processing" forever."""
        self.store.fail_exhausted()  # killed its server again and again: not retried
        for owner in self.store.lease_owners():
            if owner != self.owner and _dead_here(owner):
                log.info("the server %s is gone; its leases are free", owner)
                self.store.release(owner)
        count = 0
        for kb_id, doc_id in self.store.unleased():
            with self._lock:
                if (kb_id, doc_id) in self._queued:
                    continue
            self.submit(kb_id, doc_id)
            count += 1
        if count:
            log.info("resumed processing of %d document(s)", count)
        return count

    def wait(self, timeout: float | None = None) -> bool:
        """Wait for every document queued so far to be processed (not for its previews,
        `wait_previews`); True when all of it finished."""
        with self._lock:
            pending = list(self._pending)
        for future in pending:
            try:
                future.result(timeout)
            except TimeoutError:
                return False
            except Exception:  # logged by the worker; waiting is all this does
                pass
        return True

    def wait_previews(self, timeout: float | None = None) -> bool:
        """Wait until no preview is queued or being computed; True when none is."""
        deadline = None if timeout is None else time.monotonic() + timeout
        while True:
            with self._lock:
                if not self._previews_queued:
                    return True
            if deadline is not None and time.monotonic() > deadline:
                return False
            time.sleep(0.02)

    def shutdown(self, timeout: float = 60) -> None:
        """Drop what is queued (it stays "processing" and is resumed next start), let
        the running job finish, and end the workers."""
        while True:
            try:
                job = self._queue.get_nowait()
            except queue.Empty:
                break
            job.future.cancel()
            with self._lock:
                self._pending.discard(job.future)
                self._previews_queued.discard((job.kb_id, job.doc_id, job.strategy or ""))
        self._stopping.set()
        with self._lock:
            threads, self._threads = self._threads, []
            heartbeat, self._heartbeat = self._heartbeat, None
        for _ in threads:
            self._queue.put(Job(STOP, next(self._sequence)))
        for thread in threads:
            thread.join(timeout)
        if heartbeat is not None:
            heartbeat.join(timeout)
        try:
            self.store.release(self.owner)  # what is unfinished is free for others now
        except Exception:
            log.exception("releasing the processing leases failed")
