"""The ``napari-talk`` command line: ``start`` (napari with the dock), ``parse`` (the parser
alone, no Qt), ``run`` (lines in a viewer without a window), ``mcp`` (an MCP server on stdio)
and ``commands`` (the reference)."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence

from .packs.rays.cli import add_rays_command


def _parse_command(args: argparse.Namespace) -> int:
    from .core.grammar.parser import parse

    if args.jsonl:
        for raw in sys.stdin:
            if not raw.strip():
                continue
            try:
                item = json.loads(raw)
                text, context = str(item.get("text", "")), item.get("context") or {}
            except (ValueError, AttributeError):
                text, context = "", {}
            commands = parse(text, context if isinstance(context, dict) else {})
            print(json.dumps({"commands": [c.to_wire() for c in commands]}), flush=False)
        return 0
    context = {"layers": args.layer or [], "panels": args.panel or []}
    commands = parse(" ".join(args.text), context)
    print(json.dumps([c.to_wire() for c in commands], indent=None))
    return 0 if commands else 1


def _run_command(args: argparse.Namespace) -> int:
    from .runner import run_lines

    lines = list(args.lines)
    if args.script:
        with open(args.script, encoding="utf-8") as script:
            lines = [ln.rstrip("\n") for ln in script if ln.strip() and not ln.startswith("#")] + lines
    return run_lines(lines, sample=args.sample, screenshot=args.screenshot)


def _commands_command(args: argparse.Namespace) -> int:
    from .core.help import render_markdown
    from .core.registry import default_registry

    registry = default_registry()
    if args.markdown:
        print(render_markdown(registry), end="")
    else:
        print(registry.help_text())
    return 0


def _mcp_command(args: argparse.Namespace) -> int:
    from ._qt.mcp_stdio import run

    return run(args.sample or None, show=not args.hidden)


def _start_command(args: argparse.Namespace) -> int:
    import napari

    viewer = napari.Viewer(title="napari-talk")
    if args.sample:
        viewer.open_sample("napari-talk", args.sample)
    viewer.window.add_plugin_dock_widget("napari-talk", "Chat")
    napari.run()
    return 0


def build_parser() -> argparse.ArgumentParser:
    cli = argparse.ArgumentParser(prog="napari-talk", description=__doc__)
    sub = cli.add_subparsers(dest="command", required=True)

    s = sub.add_parser("start", help="open napari with the chat dock (and a sample)")
    s.add_argument("--sample", default="cells", help="sample to open first ('' for none)")
    s.set_defaults(func=_start_command)

    m = sub.add_parser("mcp", help="serve the commands to an MCP client over stdio (opens napari)")
    m.add_argument("--sample", default="cells", help="sample to open first ('' for none)")
    m.add_argument("--hidden", action="store_true", help="do not show the napari window")
    m.set_defaults(func=_mcp_command)

    c = sub.add_parser("commands", help="list the commands and how to type them")
    c.add_argument("--markdown", action="store_true", help="the reference as Markdown")
    c.set_defaults(func=_commands_command)

    p = sub.add_parser("parse", help="print the commands a line means, as JSON (no viewer)")
    p.add_argument("text", nargs="*", help="the typed line")
    p.add_argument("--jsonl", action="store_true", help="read {text, context} lines on stdin")
    p.add_argument("--layer", action="append", help="a layer name the session knows (repeat)")
    p.add_argument("--panel", action="append", help="a panel name the session knows (repeat)")
    p.set_defaults(func=_parse_command)

    r = sub.add_parser("run", help="run lines in a viewer without a window and print the replies")
    r.add_argument("lines", nargs="*", help="lines to run, in order")
    r.add_argument("--sample", help="open a sample first (cells, ...)")
    r.add_argument("--script", help="a file of lines to run first (# starts a comment)")
    r.add_argument("--screenshot", help="save a PNG of the canvas at the end")
    r.set_defaults(func=_run_command)

    add_rays_command(sub)
    return cli


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    return args.func(args)


if __name__ == "__main__":
    sys.exit(main())
