"""Worker processes that end with the process that started them.

A process pool's workers outlive a parent killed with SIGKILL: nothing tells them, and
they keep reading pages nobody will collect. `exit_with_parent` (a pool initializer)
starts a thread in the worker that watches its parent's pid and ends the worker once
the parent is gone (the worker is then re-parented, so `getppid` changes).
"""

from __future__ import annotations

import os
import threading
import time

POLL_SECONDS = 0.5


def exit_with_parent(parent_pid: int) -> None:
    def watch() -> None:
        while os.getppid() == parent_pid:
            time.sleep(POLL_SECONDS)
        os._exit(1)  # no clean-up to do: the results have no reader any more

    threading.Thread(target=watch, name="exit-with-parent", daemon=True).start()
