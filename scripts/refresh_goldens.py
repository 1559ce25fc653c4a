"""Rewrite every golden image on purpose: the browser goldens (made in fixture mode) and
the render goldens (every sample page under token_based and structure_aware).

    .venv/bin/python scripts/refresh_goldens.py        # then review `git diff --stat`

Runs the golden tests with UPDATE_GOLDENS=1 (tests/conftest_web.py writes instead of
comparing). Say in the commit message why the pictures changed.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
GOLDEN_TESTS = ["tests/test_render.py", "tests/test_render_goldens.py",
                "tests/test_web_browser.py", "tests/test_viewer_browser.py",
                "tests/test_compare_browser.py"]


def main() -> int:
    env = {**os.environ, "UPDATE_GOLDENS": "1"}
    return subprocess.call([sys.executable, "-m", "pytest", "-q", "-k", "golden",
                            *GOLDEN_TESTS], cwd=REPO, env=env)


if __name__ == "__main__":
    sys.exit(main())
