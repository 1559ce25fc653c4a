"""Several web processes: `visualiser serve --workers N` on gunicorn (POSIX only).

Each gunicorn worker process builds its own app after the fork (no app is made in the
master and inherited: a forked database connection or MuPDF state would be shared by
accident). Nothing one process needs lives in another: the store is the database, the
files are in the shared folder, page images are cached on disk and their ETag is
computed from their bytes, so any process answers any request alike.
"""

from __future__ import annotations

import importlib.util
import os
from typing import Any


def gunicorn_available() -> bool:
    return os.name == "posix" and importlib.util.find_spec("gunicorn") is not None


def run_gunicorn(config: dict[str, Any], host: str, port: int, workers: int,
                 threads: int) -> None:
    from gunicorn.app.base import BaseApplication

    from visualiser.web import create_app, start_processing

    class Server(BaseApplication):  # type: ignore[misc]
        def load_config(self) -> None:
            settings = {
                "bind": f"{host}:{port}", "workers": workers, "threads": threads,
                "worker_class": "gthread", "timeout": 120, "graceful_timeout": 30,
                "accesslog": None, "errorlog": "-", "loglevel": "warning",
                "proc_name": "chunk-visualiser",
            }
            for key, value in settings.items():
                self.cfg.set(key, value)

        def load(self) -> Any:
            app = create_app(config)
            # Without a queue each process runs an in-process worker; the store's leases
            # give each document to one of them.
            start_processing(app)
            return app

    Server().run()
