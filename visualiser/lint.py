"""`visualiser lint`: chunking checked against thresholds, for a team's CI.

The report's diagnostics and per-table figures, summed up into a few numbers a build
can fail on. No I/O here: the CLI reads the PDF and prints what `lint` returns.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True, slots=True)
class Thresholds:
    """What a build tolerates; None: not checked."""

    max_detached: int | None = None  # chunks holding table rows without their header row
    max_inflation: float | None = None  # stored tokens / document tokens − 1, e.g. 0.25
    max_tiny: int | None = None  # tiny chunks
    fail_on: Sequence[str] = field(default_factory=tuple)  # diagnostic or flag codes


def lint(report: dict[str, Any], document_tokens: int, limits: Thresholds) -> dict[str, Any]:
    """The figures of `report`, and each threshold it passes (`failures`, empty: clean)."""
    codes = Counter(d["code"] for d in report["diagnostics"])
    flag_codes = Counter(f["code"] for c in report["chunks"] for f in c["flags"])
    stored = sum(c["tokens"] for c in report["chunks"])
    inflation = stored / document_tokens - 1 if document_tokens else 0.0
    figures = {"chunks": len(report["chunks"]), "detached": codes["table_without_header"],
               "tiny": codes["tiny_chunk"], "stored_tokens": stored,
               "document_tokens": document_tokens, "inflation": round(inflation, 4),
               "tables_split": sum(1 for t in report["tables"] if t["split"])}
    failures = []
    for name, value, limit in (("detached", figures["detached"], limits.max_detached),
                               ("tiny", figures["tiny"], limits.max_tiny),
                               ("inflation", figures["inflation"], limits.max_inflation)):
        if limit is not None and value > limit:
            failures.append(f"{name} is {value}, over --max-{name} {limit}")
    for code in limits.fail_on:
        found = codes[code] + flag_codes[code]
        if found:
            failures.append(f"{code} found {found} time{'s' if found > 1 else ''} (--fail-on)")
    return {"document": report["document"]["name"], "strategy": report["chunking_strategy"],
            "parameters": report["parameters"], "figures": figures,
            "diagnostics": report["diagnostics"], "tables": report["tables"],
            "failures": failures, "passed": not failures}


def as_text(result: dict[str, Any]) -> str:
    f = result["figures"]
    lines = [f"{result['document']}: strategy {result['strategy']}, {f['chunks']} chunks, "
             f"{f['stored_tokens']:,} tokens stored for {f['document_tokens']:,} "
             f"({f['inflation']:+.1%})"]
    for d in result["diagnostics"]:
        where = f" [chunk {d['chunk']}]" if d["chunk"] is not None else ""
        lines.append(f"  {d['code']}{where}: {d['message']}")
    for t in result["tables"]:
        predicted = ("kept whole by the strategy" if t["predicted_split"] is None
                     else f"predicted split {t['predicted_split']:.1%}")
        lines.append(f"  table {t['table']}: {t['tokens']} tokens, {t['rows']} rows, "
                     f"{predicted}, {'split' if t['split'] else 'whole in one chunk'} "
                     f"(chunks {', '.join(map(str, t['chunks'])) or 'none'})")
    lines += [f"FAIL {failure}" for failure in result["failures"]]
    lines.append("passed" if result["passed"] else "failed")
    return "\n".join(lines) + "\n"
