"""One lock for PyMuPDF in this process.

PyMuPDF is not thread-safe, and the web server has threads: page images are rendered
while a layout is being read and an upload is being checked. Every in-process call
sequence into PyMuPDF holds `LOCK`, briefly: layout reading takes it page by page, so
a page image never waits for a whole document. Layouts read by worker processes run
in their own interpreter and need no lock.
"""

from __future__ import annotations

import threading

LOCK = threading.RLock()
