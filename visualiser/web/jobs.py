"""Processing uploaded documents in the background.

An upload is validated and stored while the client waits (`ingest.admit`, fast); the
slow part — layout extraction and chunking — runs on one worker thread, so a request
never waits for it and two big uploads do not fight over the machine's two cores.
Progress and failures are recorded on the document by `ingest.process`, which never
raises, and the viewer's layout cache is fed with the result.

The worker is a daemon thread, not a ThreadPoolExecutor: an executor makes the
interpreter wait at exit until its whole queue is processed, so stopping the server
would hang behind a queue of big PDFs. A document interrupted that way is still
"processing" in the database and is queued again when the app starts (`resume`).
"""

from __future__ import annotations

import logging
import queue
import threading
from concurrent.futures import Future

from visualiser import ingest
from visualiser.library import Library
from visualiser.store import Store

log = logging.getLogger(__name__)

_STOP = None  # what a worker finds in the queue when it should end


class Processor:
    def __init__(self, store: Store, library: Library, workers: int = 1) -> None:
        self.store = store
        self.library = library
        self._workers = max(1, workers)
        self._queue: queue.Queue[tuple[int, str, Future[None]] | None] = queue.Queue()
        self._threads: list[threading.Thread] = []
        self._lock = threading.Lock()
        self._pending: set[Future[None]] = set()
        self._running: set[tuple[int, str]] = set()  # (kb, doc) a worker is on now

    def _start(self) -> None:
        # Started on first use: an app that never processes anything has no thread.
        with self._lock:
            if self._threads:
                return
            for number in range(self._workers):
                thread = threading.Thread(
                    target=self._work, name=f"kb-processing-{number}", daemon=True
                )
                thread.start()
                self._threads.append(thread)

    def _work(self) -> None:
        while (job := self._queue.get()) is not _STOP:
            kb_id, doc_id, future = job
            if future.set_running_or_notify_cancel():
                with self._lock:
                    self._running.add((kb_id, doc_id))
                try:
                    ingest.process(self.store, kb_id, doc_id, on_processed=self.library.remember)
                    future.set_result(None)
                except BaseException as error:  # process() never raises; be sure anyway
                    log.exception("processing %s in knowledgebase %s failed", doc_id, kb_id)
                    future.set_exception(error)
            with self._lock:
                self._pending.discard(future)
                self._running.discard((kb_id, doc_id))

    def submit(self, kb_id: int, doc_id: str) -> Future[None]:
        self._start()
        future: Future[None] = Future()
        with self._lock:
            self._pending.add(future)
        self._queue.put((kb_id, doc_id, future))
        return future

    def is_running(self, kb_id: int, doc_id: str) -> bool:
        """Is a worker on this document now? A "processing" document that is not is
        still waiting in the queue behind others."""
        with self._lock:
            return (kb_id, doc_id) in self._running

    def resume(self) -> int:
        """Queue the documents a previous run left half-processed (the server stopped
        while they were in the queue); otherwise they would say "processing" forever."""
        count = 0
        for kb in self.store.knowledgebases():
            for doc in self.store.documents(kb.id):
                if doc["state"] == "processing":
                    self.submit(kb.id, doc["id"])
                    count += 1
        if count:
            log.info("resumed processing of %d document(s)", count)
        return count

    def wait(self, timeout: float | None = None) -> bool:
        """Wait for everything queued so far; True when all of it finished."""
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

    def shutdown(self, timeout: float = 60) -> None:
        """Drop what is queued (it stays "processing" and is resumed next start), let
        the running job finish, and end the workers."""
        while True:
            try:
                job = self._queue.get_nowait()
            except queue.Empty:
                break
            if job is not _STOP:
                job[2].cancel()
                with self._lock:
                    self._pending.discard(job[2])
        with self._lock:
            threads, self._threads = self._threads, []
        for _ in threads:
            self._queue.put(_STOP)
        for thread in threads:
            thread.join(timeout)
