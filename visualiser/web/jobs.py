"""Processing uploaded documents in the background.

An upload is validated and stored while the client waits (`ingest.admit`, fast); the
slow part — layout extraction and chunking — runs on one worker thread, so a request
never waits for it and two big uploads do not fight over the machine's two cores.
Progress and failures are recorded on the document by `ingest.process`, which never
raises, and the viewer's layout cache is fed with the result.
"""

from __future__ import annotations

import logging
import threading
from concurrent.futures import Future, ThreadPoolExecutor

from visualiser import ingest
from visualiser.library import Library
from visualiser.store import Store

log = logging.getLogger(__name__)


class Processor:
    def __init__(self, store: Store, library: Library, workers: int = 1) -> None:
        self.store = store
        self.library = library
        self._workers = workers
        self._executor: ThreadPoolExecutor | None = None
        self._lock = threading.Lock()
        self._pending: set[Future[None]] = set()

    def _pool(self) -> ThreadPoolExecutor:
        # Created on first use: an app that never processes anything starts no thread.
        with self._lock:
            if self._executor is None:
                self._executor = ThreadPoolExecutor(
                    max_workers=self._workers, thread_name_prefix="kb-processing"
                )
            return self._executor

    def submit(self, kb_id: int, doc_id: str) -> Future[None]:
        future = self._pool().submit(
            ingest.process, self.store, kb_id, doc_id, on_processed=self.library.remember
        )
        with self._lock:
            self._pending.add(future)
        future.add_done_callback(self._done)
        return future

    def _done(self, future: Future[None]) -> None:
        with self._lock:
            self._pending.discard(future)

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
        return True

    def shutdown(self) -> None:
        with self._lock:
            executor, self._executor = self._executor, None
        if executor is not None:
            executor.shutdown(wait=True, cancel_futures=True)
