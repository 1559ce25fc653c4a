"""Fingerprints of the pipeline's output on the corpus, to show a performance change
altered nothing. A script, not a test:

    VISUALISER_CORPUS=/work/shared/corpus python bench/identical_output.py OUT.json
    ... change the code ...
    python bench/identical_output.py NEW.json --against OUT.json

For every corpus PDF (OCR off: scans are the OCR tests' business) it hashes the saved
layout JSON and the chunk report of every strategy; `--against` lists what differs.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from visualiser.layout import LayoutOptions, saved  # noqa: E402
from visualiser.pipeline import chunk_report, process_pdf  # noqa: E402
from visualiser.strategies import STRATEGIES  # noqa: E402


def digest(value: object) -> str:
    data = value if isinstance(value, bytes) else json.dumps(value, sort_keys=True).encode()
    return hashlib.sha256(data).hexdigest()[:16]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("out", type=Path)
    parser.add_argument("--against", type=Path)
    args = parser.parse_args()
    corpus = Path(os.environ.get("VISUALISER_CORPUS") or ROOT.parent / "shared" / "corpus")
    prints: dict[str, str] = {}
    for path in sorted(corpus.glob("*.pdf")):
        doc = process_pdf(path.read_bytes(), path.name, options=LayoutOptions(ocr=False))
        prints[f"{path.name} layout"] = digest(saved.dumps(doc.layout))
        for name in STRATEGIES:
            prints[f"{path.name} {name}"] = digest(chunk_report(doc, name))
        print(path.name, prints[f"{path.name} layout"], flush=True)
    args.out.write_text(json.dumps(prints, indent=1))
    if args.against:
        before = json.loads(args.against.read_text())
        changed = [k for k in before if before[k] != prints.get(k)]
        print(f"{len(changed)} of {len(before)} outputs differ" + "".join(
            f"\n  {k}" for k in changed))
        raise SystemExit(1 if changed else 0)


if __name__ == "__main__":
    main()
