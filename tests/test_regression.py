"""Visual-regression tools: batch renders with manifests, and `visualiser diff`."""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from pathlib import Path

import pymupdf
import pytest

from visualiser.cli import main
from visualiser.pipeline import chunk_report, process_pdf
from visualiser.regression.diff import diff_manifests, diff_reports

SAMPLES = Path(__file__).resolve().parents[1] / "sample_pdfs"
APEX = SAMPLES / "05_Apex_Logistics_Services_Agreement_2025.pdf"


def make_sections_pdf(path: Path) -> None:
    """Three headed sections of several lines each: chunk boundaries between lines."""
    with pymupdf.open() as document:
        page = document.new_page(width=612, height=792)
        y = 72
        for n in range(1, 4):
            page.insert_text((72, y), f"{n}. Section {n}", fontsize=14, fontname="hebo")
            y += 24
            for line in range(5):
                page.insert_text((72, y), f"Line {line + 1} of section {n} says what was "
                                 "agreed about deliveries and charges.", fontsize=10)
                y += 14
            y += 16
        document.save(path)


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    pdf = tmp_path_factory.mktemp("pdf") / "sections.pdf"
    make_sections_pdf(pdf)
    doc = process_pdf(pdf.read_bytes(), pdf.name)
    out = chunk_report(doc, "structure_aware", {})
    assert len(out["chunks"]) >= 3, "each section should be its own chunk"
    return out


def move_last_line(report: dict, index: int) -> dict:
    """A copy where chunk `index`'s last line (and its last words) belongs to the next."""
    moved = copy.deepcopy(report)
    a, b = moved["chunks"][index], moved["chunks"][index + 1]
    rect = a["regions"][-1]["rects"].pop()
    b["regions"][0]["rects"].insert(0, rect)
    words = a["text"].split()
    a["text"], b["text"] = " ".join(words[:-9]), " ".join(words[-9:]) + " " + b["text"]
    return moved


def test_one_moved_boundary_reads_as_exactly_that(report):
    result = diff_reports(report, move_last_line(report, 0))
    kinds = sorted((c["kind"], c.get("new"), c.get("lines")) for c in result["changes"])
    assert kinds == [("end", 0, -1), ("start", 1, -1)], result["changes"]
    messages = [c["message"] for c in result["changes"]]
    assert "chunk 0 now ends 1 line / 9 words earlier (page 1)" in messages
    assert "chunk 1 now starts 1 line / 9 words earlier (page 1)" in messages


def test_removed_chunk_does_not_cascade(report):
    fewer = copy.deepcopy(report)
    del fewer["chunks"][1]
    for n, chunk in enumerate(fewer["chunks"]):
        chunk["index"] = n
    result = diff_reports(report, fewer)
    assert [(c["kind"], c.get("old")) for c in result["changes"]] == [("removed", 1)]


def test_type_change_and_new_diagnostic(report):
    changed = copy.deepcopy(report)
    changed["chunks"][2]["chunk_type"] = "table"
    changed["diagnostics"] = [*changed["diagnostics"], {"message": "a new warning"}]
    kinds = [c["kind"] for c in diff_reports(report, changed)["changes"]]
    assert kinds == ["type", "diagnostic"]


def test_cli_exit_codes(report, tmp_path, capsys):
    same, moved, bad = tmp_path / "a.json", tmp_path / "b.json", tmp_path / "bad.json"
    same.write_text(json.dumps(report))
    moved.write_text(json.dumps(move_last_line(report, 1)))
    bad.write_text('{"no": "chunks"}')
    assert main(["diff", str(same), str(same)]) == 0
    assert "no change" in capsys.readouterr().out
    assert main(["diff", str(same), str(moved), "--format", "json"]) == 1
    out = json.loads(capsys.readouterr().out)
    assert [c["kind"] for c in out["changes"]] == ["end", "start"]
    assert main(["diff", str(same), str(bad)]) == 2
    assert main(["diff", str(same), str(tmp_path / "missing.json")]) == 2


def render_all(out: Path) -> dict[str, bytes]:
    """Every sample page under both main strategies, in a fresh process."""
    for pdf in sorted(SAMPLES.glob("*.pdf")):
        subprocess.run(
            [sys.executable, "-m", "visualiser.cli", "render", str(pdf), "--strategy",
             "token_based,structure_aware", "--all-pages", "--scale", "0.5",
             "-o", str(out / pdf.stem)], check=True, capture_output=True)
    return {str(p.relative_to(out)): p.read_bytes() for p in sorted(out.rglob("*")) if p.is_file()}


def test_all_sample_pages_render_identically_twice(tmp_path):
    first, second = render_all(tmp_path / "one"), render_all(tmp_path / "two")
    assert first.keys() == second.keys()
    pngs = [k for k in first if k.endswith(".png")]
    assert len(pngs) >= 2 * len(list(SAMPLES.glob("*.pdf")))
    assert {k: v for k, v in first.items() if first[k] != second[k]} == {}
    manifest = json.loads(first[f"{APEX.stem}/manifest.json"])
    pictures = manifest["pictures"]
    assert {p["strategy"] for p in pictures} == {"token_based", "structure_aware"}
    assert {p["page"] for p in pictures} == {1, 2, 3, 4}
    apex_png = first[f"{APEX.stem}/{pictures[0]['file']}"]
    import hashlib
    assert hashlib.sha256(apex_png).hexdigest() == pictures[0]["output_sha256"]
    assert diff_manifests(manifest, manifest) == {"same": True, "changes": []}


def test_manifest_tells_drawing_from_chunking():
    old = {"pictures": [{"strategy": "s", "page": 1, "chunking_sha256": "a",
                         "output_sha256": "x"},
                        {"strategy": "s", "page": 2, "chunking_sha256": "b",
                         "output_sha256": "y"}]}
    new = copy.deepcopy(old)
    new["pictures"][0]["output_sha256"] = "x2"
    result = diff_manifests(old, new)
    assert result["same"] and [c["kind"] for c in result["changes"]] == ["drawing"]
    new["pictures"][1]["chunking_sha256"] = "b2"
    assert not diff_manifests(old, new)["same"]


def test_pages_option(tmp_path):
    assert main(["render", str(APEX), "--pages", "1,3-4", "--scale", "0.5",
                 "-o", str(tmp_path)]) == 0
    names = sorted(p.name for p in tmp_path.glob("*.png"))
    assert names == [f"{APEX.stem}.token_based.p{n}.png" for n in (1, 3, 4)]
    assert main(["render", str(APEX), "--pages", "9", "-o", str(tmp_path)]) == 2


def test_diff_endpoint(client, report):
    same = client.post("/api/diff", json={"old": report, "new": report})
    assert same.status_code == 200 and same.get_json()["same"] is True
    moved = client.post("/api/diff", json={"old": report, "new": move_last_line(report, 0)})
    assert [c["kind"] for c in moved.get_json()["changes"]] == ["end", "start"]
    bad = client.post("/api/diff", json={"old": report})
    assert bad.status_code == 400


def test_svg_is_deterministic_and_needs_no_font(tmp_path):
    outputs = []
    for n in range(2):
        target = tmp_path / f"p3-{n}.svg"
        assert main(["render", str(APEX), "--page", "3", "--scale", "1", "--format", "svg",
                     "-o", str(target)]) == 0
        outputs.append(target.read_bytes())
    assert outputs[0] == outputs[1]
    svg = outputs[0].decode()
    assert svg.startswith("<svg") or svg.startswith("<?xml")
    # The page picture embedded, the labels as glyph outlines: no <text>, no font lookup.
    assert "data:image/png;base64" in svg and "<text" not in svg and "<path" in svg


def test_one_picture_into_a_folder_that_does_not_exist_yet(tmp_path):
    target = tmp_path / "new" / "p1.png"
    assert main(["render", str(APEX), "--page", "1", "--scale", "0.5", "-o", str(target)]) == 0
    assert target.read_bytes().startswith(b"\x89PNG")
