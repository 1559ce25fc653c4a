"""The command line: `visualiser chunk | lint | diff | strategies | layouts | render | kb
| serve | worker`.

A thin shell over the pipeline. Every VisualiserError (bad PDF, unknown strategy, bad
parameter) ends the command with exit code 2 and a message that says what is valid.
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import sys
from pathlib import Path
from typing import Any

from visualiser.errors import VisualiserError
from visualiser.strategies import STRATEGIES


def main(argv: list[str] | None = None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    try:
        return int(args.run(args) or 0)
    except VisualiserError as exc:
        print(f"error: {exc.message}", file=sys.stderr)
        return 2
    except OSError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="visualiser", description="See how a PDF is chunked for retrieval.")
    commands = parser.add_subparsers(required=True, metavar="COMMAND")

    chunk = commands.add_parser("chunk", help="chunk a PDF and print the chunks JSON or text")
    chunk.add_argument("pdf", type=Path)
    _strategy_args(chunk)
    chunk.add_argument(
        "--format", choices=("json", "text", "jsonl", "langchain", "llamaindex"), default="json",
        help="json: the chunks JSON; text: a summary; jsonl, langchain, llamaindex: the "
             "chunks with their metadata (pages, boxes, heading path, type) for other tools")
    chunk.set_defaults(run=_chunk)

    lint = commands.add_parser(
        "lint", help="check a PDF's chunking against thresholds (exit 1 past one, 2 on bad "
                     "input): for CI")
    lint.add_argument("pdf", type=Path)
    _strategy_args(lint)
    lint.add_argument("--max-detached", type=int, default=None, metavar="N",
                      help="most chunks allowed to hold table rows without their header row")
    lint.add_argument("--max-inflation", type=float, default=None, metavar="X",
                      help="most stored tokens beyond the document's, as a fraction (0.25)")
    lint.add_argument("--max-tiny", type=int, default=None, metavar="N",
                      help="most tiny chunks allowed")
    lint.add_argument("--fail-on", nargs="+", default=[], metavar="CODE",
                      help="diagnostic or flag codes that fail the check when present "
                           "(e.g. sentence_cut overlap_defect)")
    lint.add_argument("--format", choices=("text", "json"), default="text")
    lint.set_defaults(run=_lint)

    listing = commands.add_parser("strategies", help="list the chunking strategies")
    listing.set_defaults(run=_strategies)

    layouts = commands.add_parser("layouts", help="list the layout engines")
    layouts.set_defaults(run=_layouts)

    render = commands.add_parser(
        "render", help="write a PNG of one page with its chunk boxes (deterministic)")
    render.add_argument("pdf", type=Path)
    _strategy_args(render)
    which = render.add_mutually_exclusive_group()
    which.add_argument("--page", type=int, default=None, help="one page (default 1)")
    which.add_argument("--pages", default=None, metavar="1,3-5", help="pages and ranges")
    which.add_argument("--all-pages", action="store_true", help="every page")
    render.add_argument("--scale", type=float, default=1.5)
    render.add_argument("--format", choices=("png", "svg"), default="png")
    render.add_argument("--legend", action="store_true",
                        help="a strip below each page: its chunks (colour, index, type, "
                             "tokens) and what hatching and tags mean")
    render.add_argument("--manifest", type=Path, default=None, metavar="OUT.json",
                        help="what produced each picture (default: manifest.json in the "
                             "output directory when writing several pictures)")
    render.add_argument("-o", "--output", type=Path, required=True,
                        help="a PNG file for one page of one strategy, else a directory "
                             "(files named <pdf stem>.<strategy>.p<N>.png)")
    render.set_defaults(run=_render)

    diff = commands.add_parser(
        "diff", help="what changed between two chunk reports or two render manifests "
                     "(exit 1 when the chunking differs)")
    diff.add_argument("old", type=Path)
    diff.add_argument("new", type=Path)
    diff.add_argument("--format", choices=("text", "json"), default="text")
    diff.set_defaults(run=_diff)

    kb = commands.add_parser("kb", help="knowledgebases: create, list, add documents")
    _store_args(kb)
    kb_commands = kb.add_subparsers(required=True, metavar="KB_COMMAND")
    create = kb_commands.add_parser("create", help="create a knowledgebase")
    create.add_argument("name")
    create.add_argument("--strategy", default=None, metavar="NAME",
                        help="chunking strategy (default: structure_aware)")
    create.add_argument("--param", action="append", default=[], metavar="KEY=VALUE")
    _layout_args(create, workers=False)
    create.set_defaults(run=_on_store(_kb_create))
    kb_list = kb_commands.add_parser("list", help="list knowledgebases and their documents")
    kb_list.set_defaults(run=_on_store(_kb_list))
    add = kb_commands.add_parser("add", help="add a PDF to a knowledgebase and chunk it")
    add.add_argument("kb_id", type=int)
    add.add_argument("pdf", type=Path)
    _workers_arg(add)
    add.set_defaults(run=_on_store(_kb_add))
    for command in (create, kb_list, add):  # `kb list --database …` as `kb --database … list`
        _store_args(command, after_command=True)

    serve = commands.add_parser("serve", help="start the web visualiser")
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=int, default=5000)
    _team_args(serve)
    serve.add_argument("--allowed-host", action="append", default=[], metavar="NAME",
                       help="a host name this server answers to (repeat for several; '*' "
                            "for any); default: the --host address and localhost names")
    serve.add_argument("--threads", type=int, default=8,
                       help="requests served at once (default 8)")
    serve.add_argument("--debug", action="store_true",
                       help="Flask's development server with the debugger, instead of waitress")
    serve.add_argument("--layout", default=None, metavar="NAME",
                       help="the layout engine the samples' viewer opens with (default: "
                            "builtin); see `visualiser layouts`")
    serve.add_argument("--workers", type=int, default=1, metavar="N",
                       help="web processes (default 1; more than 1 runs gunicorn, each "
                            "process with --threads threads)")
    serve.add_argument("--layout-workers", type=int, default=None, metavar="N",
                       help="processes reading the pages of one document (default: 1, in "
                            "the processing thread)")
    serve.set_defaults(run=_serve)

    worker = commands.add_parser(
        "worker", help="process uploaded documents from a queue (a team server; see README)")
    _team_args(worker)
    worker.add_argument("--layout-workers", type=int, default=None, metavar="N",
                        help="processes reading the pages of one document (default 1)")
    worker.add_argument("--burst", action="store_true",
                        help="stop when the queue is empty (for scripts and tests)")
    worker.set_defaults(run=_worker)
    return parser


def _team_args(parser: argparse.ArgumentParser) -> None:
    """Where the store, the queue and the shared files are: the same for `serve` and
    `worker`, from the flags or the environment."""
    _store_args(parser)
    parser.add_argument("--queue", default=None, metavar="URL",
                        help="redis://… : uploads are processed by `visualiser worker`s "
                             "taking jobs from this queue (default: $VISUALISER_QUEUE, else "
                             "processed inside `serve`)")
    parser.add_argument("--no-previews", dest="previews", action="store_false",
                        help="do not compute every strategy's report of a processed "
                             "document ahead (a strategy switch then computes it, once)")


def _store_args(parser: argparse.ArgumentParser, *, after_command: bool = False) -> None:
    """--database and --data-dir (`serve`, `worker`, `kb`). After a subcommand they
    default to nothing, so they do not undo the same flag given before it."""
    default = argparse.SUPPRESS if after_command else None
    parser.add_argument("--database", default=default, metavar="URL",
                        help="SQLite file (or sqlite:///path) or postgresql://… URL "
                             "(default: $VISUALISER_DATABASE, else a SQLite file in the "
                             "user data dir)")
    parser.add_argument("--data-dir", type=Path, default=default, metavar="DIR",
                        help="the folder of PDFs and caches every process shares (default: "
                             "$VISUALISER_DATA_DIR, else beside the SQLite file; required "
                             "with PostgreSQL)")


def _store_settings(args: argparse.Namespace) -> tuple[str, Path | None]:
    from visualiser.store import default_database

    database = args.database or os.environ.get("VISUALISER_DATABASE") or str(default_database())
    data_dir = args.data_dir or (Path(os.environ["VISUALISER_DATA_DIR"])
                                 if os.environ.get("VISUALISER_DATA_DIR") else None)
    return database, data_dir


def _team_settings(args: argparse.Namespace) -> tuple[str, str | None, Path | None]:
    database, data_dir = _store_settings(args)
    queue = args.queue or os.environ.get("VISUALISER_QUEUE") or None
    return database, queue, data_dir


def _strategy_args(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--strategy", default="token_based", metavar="NAME",
                        help=f"one of: {', '.join(STRATEGIES)}")
    parser.add_argument("--param", action="append", default=[], metavar="KEY=VALUE",
                        help="a strategy parameter; repeat for several")
    parser.add_argument("--import", dest="imported", type=Path, metavar="CHUNKS.json",
                        help="show chunks made elsewhere (JSON/JSONL: strings, LangChain "
                             "documents, LlamaIndex nodes, our export) instead of a strategy")
    _layout_args(parser)


def _layout_args(parser: argparse.ArgumentParser, *, workers: bool = True) -> None:
    parser.add_argument("--layout", default=None, metavar="NAME",
                        help="the layout engine that reads the pages (default: builtin); "
                             "see `visualiser layouts`")
    parser.add_argument("--ocr-lang", default=None, metavar="LANGS",
                        help="Tesseract languages for pages without text, '+'-joined "
                             "(default: eng)")
    if workers:
        _workers_arg(parser)


def _workers_arg(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--workers", type=int, default=None, metavar="N",
                        help="processes reading pages (default: 1, in this process)")


def _params(pairs: list[str]) -> dict[str, str]:
    params = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            raise VisualiserError(f"--param expects KEY=VALUE, got {pair!r}")
        params[key.strip()] = value.strip()
    return params


def _report(args: argparse.Namespace) -> tuple[Any, dict[str, Any]]:
    from visualiser.imported import parse_chunks
    from visualiser.layout import layout_options
    from visualiser.pipeline import chunk_report, imported_report, process_pdf
    from visualiser.strategies import get_strategy

    params = _params(args.param)
    # fail on bad input before the slow part
    options = layout_options(args.layout, args.ocr_lang, args.workers)
    imported = args.imported.read_bytes() if args.imported else None
    if imported is not None:
        parse_chunks(imported)
    else:
        get_strategy(args.strategy).settings(params)
    doc = process_pdf(args.pdf.read_bytes(), args.pdf.name, options=options)
    if imported is not None:
        return doc, imported_report(doc, imported, args.imported.name)
    return doc, chunk_report(doc, args.strategy, params)


def _chunk(args: argparse.Namespace) -> int:
    from visualiser.export import export

    _, report = _report(args)
    if args.format == "json":
        # Text from a damaged PDF may hold lone surrogates; stdout gets valid UTF-8 anyway.
        text = json.dumps(report, indent=2, ensure_ascii=False) + "\n"
        sys.stdout.flush()
        sys.stdout.buffer.write(text.encode("utf-8", "replace"))
        sys.stdout.flush()
        return 0
    if args.format != "text":
        sys.stdout.write(export(report, args.format).decode())
        return 0
    ran = report["strategy"].get("implementation")
    print(f"{report['document']['name']}: {len(report['chunks'])} chunks, "
          f"strategy {report['chunking_strategy']}{f' ({ran})' if ran else ''}, "
          f"layout {report['layout_engine']}")
    for chunk in report["chunks"]:
        pages = ",".join(str(p) for p in chunk["pages"])
        print(f"\n[{chunk['index']}] {chunk['chunk_type']} · {chunk['tokens']} tokens · "
              f"pages {pages}")
        print(f"    why: {chunk['why']}")
        for flag in chunk["flags"]:
            print(f"    flag: {flag['message']}")
        preview = " ".join(chunk["text"].split())
        print(f"    {preview[:160]}{'…' if len(preview) > 160 else ''}")
    if report["containment"]:
        print("\ncontainment:")
        for pair in report["containment"]:
            print(f"  chunk {pair['container']} contains chunk {pair['contained']} "
                  f"({pair['reason']})")
    if report["overlaps"]:
        print(f"\noverlaps ({report['overlap_method']}):")
        for o in report["overlaps"]:
            print(f"  chunks {o['a']} and {o['b']} on page {o['page']} ({o['reason']})")
    return 0


def _lint(args: argparse.Namespace) -> int:
    from visualiser.lint import Thresholds, as_text, lint
    from visualiser.pipeline import source_tokens
    from visualiser.tokenizers import DEFAULT_ENCODING

    doc, report = _report(args)
    encoding = report["parameters"].get("tokenizer", DEFAULT_ENCODING)
    result = lint(report, source_tokens(doc, encoding), Thresholds(
        args.max_detached, args.max_inflation, args.max_tiny, tuple(args.fail_on)))
    if args.format == "json":
        print(json.dumps(result, indent=2, ensure_ascii=False))
    else:
        sys.stdout.write(as_text(result))
    return 0 if result["passed"] else 1


def _strategies(args: argparse.Namespace) -> int:
    for cls in STRATEGIES.values():
        print(f"{cls.name}: {cls.label}")
        for p in cls.params:
            print(f"    {p.name} ({p.kind}, default {p.default}): {p.help}")
    return 0


def _layouts(args: argparse.Namespace) -> int:
    from visualiser.layout import describe_engines

    for engine in describe_engines():
        state = ("available" if engine["available"]
                 else f"unavailable: {engine['unavailable_reason']}")
        print(f"{engine['name']}: {engine['label']} — version {engine['version']}; {state}")
    return 0


def _render(args: argparse.Namespace) -> int:
    from visualiser.pipeline import chunk_report
    from visualiser.regression import manifest
    from visualiser.render import render_overlay_pngs

    strategies = [n.strip() for n in args.strategy.split(",") if n.strip()]
    doc, report = _report(argparse.Namespace(**{**vars(args), "strategy": strategies[0]}))
    reports = [report] + [chunk_report(doc, name, _params(args.param))
                          for name in strategies[1:] if not args.imported]
    count = len(doc.layout.pages)
    pages = (list(range(1, count + 1)) if args.all_pages
             else _page_list(args.pages, count) if args.pages else [args.page or 1])
    for page in pages:
        if not 1 <= page <= count:
            raise VisualiserError(f"page {page} is outside 1–{count}")
    single = (len(pages) == 1 and len(reports) == 1
              and args.output.suffix.lower() == f".{args.format}")
    (args.output.parent if single else args.output).mkdir(parents=True, exist_ok=True)
    pictures = []
    input_sha = manifest.sha256(doc.pdf)
    for one in reports:
        name = one.get("chunking_strategy") or "imported"
        # One layout and one chunking per strategy; every page drawn from it.
        for page, png in render_overlay_pngs(doc, one, pages, args.scale, args.format,
                                                 args.legend).items():
            target = args.output if single else (
                args.output / f"{args.pdf.stem}.{name}.p{page}.{args.format}")
            target.write_bytes(png)
            pictures.append(manifest.picture(one, input_sha, page, png, target.name))
            print(f"wrote {target}")
    where = args.manifest or (None if single else args.output / "manifest.json")
    if where is not None:
        where.write_text(manifest.dumps(pictures), encoding="utf-8")
        print(f"wrote {where}")
    return 0


def _page_list(text: str, count: int) -> list[int]:
    """"1,3-5" -> [1, 3, 4, 5]."""
    pages: list[int] = []
    for part in text.split(","):
        first, _, last = part.strip().partition("-")
        try:
            lo, hi = int(first), int(last or first)
        except ValueError:
            raise VisualiserError(f"--pages expects pages and ranges like 1,3-5, "
                                  f"got {text!r}") from None
        pages.extend(range(lo, hi + 1))
    return sorted(set(pages))


def _diff(args: argparse.Namespace) -> int:
    from visualiser.regression.diff import as_text, diff_any

    try:
        old, new = (json.loads(p.read_text(encoding="utf-8")) for p in (args.old, args.new))
        result = diff_any(old, new)
    except (ValueError, KeyError, TypeError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if args.format == "json":
        print(json.dumps(result, indent=2, sort_keys=True, ensure_ascii=False))
    else:
        sys.stdout.write(as_text(result))
    return 0 if result["same"] else 1


def _on_store(command: Any) -> Any:
    """A `kb` command run on the configured store, closed after (its PostgreSQL
    connections with it)."""

    def run(args: argparse.Namespace) -> int:
        from visualiser.store import Store, data_folders

        database, data_dir = _store_settings(args)
        store = Store(database, data_folders(data_dir)["pdfs"] if data_dir else None)
        try:
            return int(command(args, store) or 0)
        finally:
            store.close()

    return run


def _kb_create(args: argparse.Namespace, store: Any) -> int:
    from visualiser.knowledgebase import new_metadata

    metadata = new_metadata(args.strategy, _params(args.param), layout=args.layout,
                            ocr_lang=args.ocr_lang)
    kb = store.create_knowledgebase(args.name, metadata)
    print(f"created knowledgebase {kb.id} {kb.name!r} (chunking: {kb.chunking_strategy}, "
          f"layout: {kb.layout_options.engine})")
    return 0


def _kb_list(args: argparse.Namespace, store: Any) -> int:
    for kb in store.knowledgebases():
        strategy = kb.chunking_strategy or "unknown (metadata unreadable)"
        print(f"{kb.id}\t{kb.name}\tchunking: {strategy}\tlayout: {kb.layout_options.engine}")
        for doc in store.documents(kb.id):
            print(f"\t{doc['id'][:12]}\t{doc['name']}\t{doc['page_count']} pages\t"
                  f"{doc['state']}{': ' + doc['error'] if doc['error'] else ''}")
    return 0


def _kb_add(args: argparse.Namespace, store: Any) -> int:
    from visualiser.ingest import admit, process

    admitted = admit(store, args.kb_id, args.pdf.read_bytes(), args.pdf.name)
    if not admitted.new:
        print(f"{args.pdf.name} is already in knowledgebase {args.kb_id}; re-chunking it")
        store.set_state(args.kb_id, admitted.doc_id, "processing")
    # The row is leased like a server's worker leases it, so a server on the same
    # database does not process it as well (an hour: this process ends it either way).
    owner = f"{socket.gethostname()}:{os.getpid()}:cli"
    if not store.claim(args.kb_id, admitted.doc_id, owner, 3600):
        raise VisualiserError(f"{args.pdf.name} is being processed by a server right now; "
                              "see `visualiser kb list`")
    process(store, args.kb_id, admitted.doc_id, workers=args.workers or 1)
    doc = store.document(args.kb_id, admitted.doc_id)
    if doc["state"] != "ready":
        raise VisualiserError(f"{args.pdf.name}: {doc['error']}")
    print(f"added {args.pdf.name} ({admitted.page_count} pages) as {admitted.doc_id}")
    return 0


def _serve(args: argparse.Namespace) -> int:
    from visualiser.layout import layout_options
    from visualiser.web import create_app, start_processing
    from visualiser.web.security import default_hosts

    if args.threads < 1:
        raise VisualiserError("--threads must be at least 1")
    if args.workers < 1:
        raise VisualiserError("--workers must be at least 1")
    database, queue, data_dir = _team_settings(args)
    config: dict[str, Any] = {
        "ALLOWED_HOSTS": args.allowed_host or default_hosts(args.host),
        "DATABASE": database, "QUEUE_URL": queue, "DATA_DIR": data_dir,
        "PRECOMPUTE_PREVIEWS": args.previews,
    }
    if args.layout or args.layout_workers:
        options = layout_options(args.layout, workers=args.layout_workers)  # exit 2 if wrong
        config["DEFAULT_LAYOUT"], config["LAYOUT_WORKERS"] = options.engine, options.workers
    if args.workers > 1 and not args.debug:
        from visualiser.serving import gunicorn_available, run_gunicorn

        if gunicorn_available():
            create_app(config).extensions["visualiser"].close()  # fail here, not per process
            print(f"Chunk visualiser on http://{args.host}:{args.port}/ "
                  f"({args.workers} processes)", flush=True)
            run_gunicorn(config, args.host, args.port, args.workers, args.threads)
            return 0
        print("warning: several web processes need gunicorn (Linux, macOS; pip install "
              "'chunk-visualiser[team]'); serving from one process", file=sys.stderr)
    app = create_app(config)
    start_processing(app)
    print(f"Chunk visualiser on http://{args.host}:{args.port}/", flush=True)
    if args.debug:
        app.run(host=args.host, port=args.port, threaded=True, debug=True, use_reloader=False)
        return 0
    import waitress

    # A bounded pool of threads; waitress buffers request bodies on disk past 512 KB,
    # so a slow or big upload holds neither a thread per byte nor its size in memory.
    waitress.serve(app, host=args.host, port=args.port, threads=args.threads,
                   connection_limit=max(100, args.threads * 8),
                   max_request_body_size=int(app.config["MAX_CONTENT_LENGTH"]) + 2**20,
                   channel_timeout=120, ident="chunk-visualiser",
                   # reading ahead lets waitress notice a client that has gone, so a
                   # long chunk report stops (`waitress.client_disconnected`)
                   channel_request_lookahead=4)
    return 0


def _worker(args: argparse.Namespace) -> int:
    from visualiser.layout import layout_options
    from visualiser.workers import run_worker

    database, queue, data_dir = _team_settings(args)
    if not queue:
        raise VisualiserError("a worker takes its jobs from a queue: give --queue redis://… "
                              "(or set VISUALISER_QUEUE), the same as `serve --queue`")
    workers = layout_options(workers=args.layout_workers).workers  # exit 2 when wrong
    print(f"Worker on {queue}, store {_safe_url(database)}", flush=True)
    run_worker(database, queue, data_dir, layout_workers=workers, burst=args.burst,
               precompute_previews=args.previews)
    return 0


def _safe_url(url: str) -> str:
    from visualiser.database import Database

    return Database.describe_url(url)


if __name__ == "__main__":
    sys.exit(main())
