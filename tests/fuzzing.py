"""A seeded mutation fuzzer for PDFs, shared by the reliability tests (a short slice)
and `bench/fuzz_pdfs.py` (the long run).

Each mutation damages a real sample PDF the way files get damaged or forged: flipped
bytes, cut or duplicated ranges, a truncated tail, numbers in the object syntax
changed (page counts, lengths, xref offsets), a page-tree reference pointed at its
parent, keywords garbled. The CLI must then answer every file either with exit 0 and
valid JSON on stdout, or exit 2 and a message on stderr — never a traceback, never a
hang.
"""

from __future__ import annotations

import json
import random
import re
import resource
import subprocess
import sys
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
SAMPLES = sorted((REPO / "sample_pdfs").glob("*.pdf"))
TIMEOUT = 60.0
_NUMBER = re.compile(rb"\d+")
_KEYWORDS = (b"obj", b"endobj", b"stream", b"endstream", b"xref", b"trailer", b"startxref",
             b"/Kids", b"/Count", b"/Pages", b"/Page", b"/Length", b"/Root", b"/Parent",
             b"/MediaBox", b"/Contents", b"/Filter", b"R")


def _flip(data: bytearray, rng: random.Random) -> None:
    for _ in range(rng.randint(1, 40)):
        data[rng.randrange(len(data))] = rng.randrange(256)


def _cut(data: bytearray, rng: random.Random) -> None:
    start = rng.randrange(len(data))
    del data[start:start + rng.randint(1, max(1, len(data) // 8))]


def _truncate(data: bytearray, rng: random.Random) -> None:
    del data[rng.randint(16, max(17, len(data) - 1)):]


def _duplicate(data: bytearray, rng: random.Random) -> None:
    start = rng.randrange(len(data))
    piece = data[start:start + rng.randint(1, 4096)]
    at = rng.randrange(len(data))
    data[at:at] = piece


def _number(data: bytearray, rng: random.Random) -> None:
    matches = list(_NUMBER.finditer(data))
    for match in rng.sample(matches, min(len(matches), rng.randint(1, 8))):
        value = rng.choice([b"0", b"-1", b"1", b"999999999", b"4294967296",
                            b"18446744073709551617", str(rng.randrange(10**6)).encode()])
        data[match.start():match.end()] = value.ljust(match.end() - match.start())[:max(
            len(value), match.end() - match.start())]


def _keyword(data: bytearray, rng: random.Random) -> None:
    word = rng.choice(_KEYWORDS)
    spots = [m.start() for m in re.finditer(re.escape(word), data)]
    if spots:
        at = rng.choice(spots)
        data[at:at + len(word)] = rng.choice(_KEYWORDS)


def _self_reference(data: bytearray, rng: random.Random) -> None:
    """Point a /Kids or /Parent reference at another object (cycles, wrong types)."""
    refs = list(re.finditer(rb"(/Kids\s*\[\s*|/Parent\s+)(\d+)", data))
    objs = [m.group(1) for m in re.finditer(rb"(\d+) 0 obj", data)]
    if refs and objs:
        ref = rng.choice(refs)
        data[ref.start(2):ref.end(2)] = rng.choice(objs)


MUTATIONS = (_flip, _cut, _truncate, _duplicate, _number, _keyword, _self_reference)


def mutate(data: bytes, rng: random.Random) -> bytes:
    out = bytearray(data)
    for mutation in rng.choices(MUTATIONS, k=rng.randint(1, 3)):
        if len(out) < 32:
            break
        mutation(out, rng)
    return bytes(out)


@dataclass(frozen=True, slots=True)
class Outcome:
    kind: str  # "json", "refused", or a failure: "invalid_json", "traceback", "hang", …
    seconds: float
    detail: str = ""

    @property
    def ok(self) -> bool:
        return self.kind in ("json", "refused")


def run_cli(pdf: Path, timeout: float = TIMEOUT) -> Outcome:
    """`visualiser chunk PDF` in a fresh interpreter, judged by its exit code and output."""
    command = [sys.executable, "-m", "visualiser.cli", "chunk", str(pdf), "--format", "json"]
    started = time.monotonic()
    try:
        done = subprocess.run(command, capture_output=True, timeout=timeout, cwd=REPO)
    except subprocess.TimeoutExpired:
        return Outcome("hang", time.monotonic() - started)
    seconds = time.monotonic() - started
    err = done.stderr.decode(errors="replace")
    if "Traceback (most recent call last)" in err:
        return Outcome("traceback", seconds, err[-2000:])
    if done.returncode == 0:
        try:
            json.loads(done.stdout)
        except ValueError as error:
            return Outcome("invalid_json", seconds, f"{error}: {done.stdout[:300]!r}")
        return Outcome("json", seconds)
    if done.returncode == 2 and err.startswith("error: ") and len(err.strip()) > 7:
        return Outcome("refused", seconds)
    return Outcome(f"exit_{done.returncode}", seconds, err[-2000:])


def fuzz(count: int, seed: int, folder: Path, timeout: float = TIMEOUT,
         samples: list[Path] | None = None, with_times: bool = False) -> tuple[Any, ...]:
    """Run `count` seeded mutations: the outcome counts and the failures (their files
    are kept), and with `with_times` each run's seconds."""
    rng = random.Random(seed)
    samples = samples or SAMPLES
    originals = {path: path.read_bytes() for path in samples}
    counts: Counter[str] = Counter()
    failures = []
    times = []
    for number in range(count):
        source = rng.choice(samples)
        target = folder / f"mutant-{seed}-{number:04d}-{source.stem[:20]}.pdf"
        target.write_bytes(mutate(originals[source], rng))
        outcome = run_cli(target, timeout)
        counts[outcome.kind] += 1
        times.append(outcome.seconds)
        if outcome.ok:
            target.unlink()
        else:
            failures.append((target, outcome))
    return (counts, failures, times) if with_times else (counts, failures)


def children_max_rss_mb() -> float:
    """The largest resident set of any child process waited for so far (Linux: KiB)."""
    return resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
