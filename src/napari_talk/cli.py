"""The ``napari-talk`` command line: ``start`` (napari with the dock), ``parse`` (the parser
alone, no Qt), ``run`` (lines in a viewer without a window), ``mcp`` (an MCP server on stdio or
HTTP), ``commands`` (the reference), and what each pack adds (``Pack(..., cli="module:function")``:
``rays``, ``atlas download-model``)."""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import sys
from collections.abc import Iterator, Sequence

from .exit_codes import (
    EXIT_CODES,
    EXIT_ERROR,
    EXIT_FAILED,
    EXIT_INTERRUPTED,
    EXIT_NOT_APPROVED,
    EXIT_OK,
    EXIT_UNAVAILABLE,
    EXIT_USAGE,
)
from .terminal_text import printable_output

TOKEN_ENV = "NAPARI_TALK_MCP_TOKEN"


class UsageError(Exception):
    """Wrong arguments or an unreadable file: exit status 2."""


def fail(message: str) -> None:
    print(f"napari-talk: {message}", file=sys.stderr, flush=True)


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
            except RecursionError:  # this line only: the ones after it are still parsed
                print(json.dumps({"commands": [], "error": "the line nests too deep to read"}))
                continue
            commands = parse(text, context if isinstance(context, dict) else {})
            print(json.dumps({"commands": [c.to_wire() for c in commands]}), flush=False)
        return EXIT_OK
    text = " ".join(args.text).strip()
    if not text:
        raise UsageError('give a line to parse, e.g. napari-talk parse "hide nuclei"')
    context = {"layers": args.layer or [], "panels": args.panel or []}
    commands = parse(text, context)
    print(json.dumps([c.to_wire() for c in commands], indent=None))
    if not commands:
        fail(
            f"not understood: {_quoted(text)} matches no command the parser knows; "
            "`napari-talk commands` lists what can be typed (layer names need --layer)"
        )
        return EXIT_FAILED
    return EXIT_OK


def _quoted(text: str, limit: int = 80) -> str:
    return repr(text if len(text) <= limit else text[:limit] + "…")


def _approver(yes: bool):
    """How ``run`` asks the person: ``--yes`` agrees to everything, a terminal is asked y/N, and
    without either (a pipe, a script) nothing needing approval runs."""
    if yes:

        def agreed(approval) -> bool:
            print(f"approved (--yes): {approval.question}", file=sys.stderr, flush=True)
            return True

        return agreed
    if not sys.stdin.isatty():
        return None

    def prompt(approval) -> bool:
        print(f"{approval.question}\nRun it? [y/N] ", end="", file=sys.stderr, flush=True)
        answer = sys.stdin.readline()
        return answer.strip().casefold() in ("y", "yes")

    return prompt


def _run_command(args: argparse.Namespace) -> int:
    from .runner import run_lines

    if args.recipe:
        return _recipe_command(args)
    if args.each or args.sweep:
        raise UsageError("--each and --sweep replay a recipe: give it with --recipe NAME")
    if len(args.lines) == 1 and args.lines[0].lstrip().lower().startswith("for ") and not args.script:
        from .batch_runner import RecipeUsageError, run_for_line

        try:
            swept = run_for_line(args, args.lines[0])
        except RecipeUsageError as exc:
            raise UsageError(str(exc)) from exc
        if swept is not None:
            return swept
    lines = list(args.lines)
    if args.script:
        try:
            with open(args.script, encoding="utf-8") as script:
                lines = [ln.rstrip("\n") for ln in script if ln.strip() and not ln.startswith("#")] + lines
        except (OSError, UnicodeDecodeError) as exc:
            raise UsageError(
                f"cannot read the script {args.script}: {getattr(exc, 'strerror', None) or exc}"
            ) from exc
    if not lines and not args.screenshot:
        raise UsageError("give lines to run, or --script FILE")
    with _cluster_of(args):
        status = run_lines(lines, sample=args.sample, screenshot=args.screenshot, ask=_approver(args.yes))
    if status == EXIT_NOT_APPROVED:
        how = "you said no" if sys.stdin.isatty() and not args.yes else "nobody could be asked"
        fail(
            f"a command needed your approval and did not get it ({how}), so nothing of it ran; "
            "run again with --yes to approve such commands, or at a terminal to be asked for each"
        )
    elif status != EXIT_OK:
        fail("a line was not understood or did not run (marked ✗ above)")
    return status


@contextlib.contextmanager
def _cluster_of(args: argparse.Namespace) -> Iterator[None]:
    """``--scheduler`` and ``--workers`` for the lines run: where a large import embeds."""
    from .core.recipes.cluster import SCHEDULER_ENV, WORKERS_ENV

    given = {SCHEDULER_ENV: args.scheduler, WORKERS_ENV: str(args.workers) if args.workers else None}
    before = {name: os.environ.get(name) for name in given}
    os.environ.update({name: value for name, value in given.items() if value})
    try:
        yield
    finally:
        for name, value in before.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


def _recipe_command(args: argparse.Namespace) -> int:
    from .batch_runner import RecipeUsageError, run_recipe_command

    try:
        return run_recipe_command(args, _approver(args.yes))
    except RecipeUsageError as exc:
        raise UsageError(str(exc)) from exc


def _commands_command(args: argparse.Namespace) -> int:
    from .core.contract.registry import default_registry
    from .core.help.topics import render_help, render_markdown

    registry = default_registry()
    if args.markdown:
        print(render_markdown(registry), end="")
    else:
        print(render_help(registry))
    return EXIT_OK


def _mcp_command(args: argparse.Namespace) -> int:
    from .headless import has_display

    token = _mcp_token(args) if args.http else None
    if not args.http and (args.port or args.token_env != TOKEN_ENV):
        raise UsageError("--port and --token-env go with --http")
    say = _note
    if not has_display():
        return _mcp_headless(args, token, say)
    from ._qt.mcp_stdio import run

    return run(
        args.sample or None, show=not args.hidden, http=args.http, port=args.port, token=token, say=say,
        call_seconds=max(0.1, args.call_seconds),
    )  # fmt: skip


def _mcp_headless(args: argparse.Namespace, token: str | None, say) -> int:
    from .agents.mcp_headless import headless_bridge
    from .agents.mcp_server import HttpService, serve_stdio

    bridge = headless_bridge(args.sample or None)
    bridge.work_seconds = max(0.1, args.call_seconds)
    if not args.http:
        serve_stdio(bridge)
        return EXIT_OK
    service = _start_http(HttpService, bridge, args.port, token)
    say("no display: serving napari's viewer model without a window (no screenshots, no panels)")
    say(f"MCP over HTTP at {service.url}; send the header Authorization: Bearer {service.token}")
    try:
        service.wait()
    finally:
        service.stop()
    return EXIT_OK


def _start_http(service_class, bridge, port: int, token: str | None):
    from .headless import Unavailable

    try:
        return service_class(bridge, port=port, token=token).start()
    except (OSError, RuntimeError, SystemExit) as exc:
        raise Unavailable(
            f"the MCP server could not listen on 127.0.0.1:{port} (is the port in use?)"
        ) from exc


def _mcp_token(args: argparse.Namespace) -> str | None:
    """The bearer token from the environment variable named, or None (a fresh one is made)."""
    token = os.environ.get(args.token_env, "")
    if not token:
        return None
    if len(token) < 16:
        raise UsageError(f"the token in ${args.token_env} is {len(token)} characters; use at least 16")
    return token


def _note(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def _start_command(args: argparse.Namespace) -> int:
    from .headless import Unavailable, has_display

    if not has_display():
        raise Unavailable(
            "napari's window needs a display, and there is none here; "
            "`napari-talk run` and `napari-talk mcp` work without one"
        )
    import napari

    from ._qt.start import open_window

    open_window("napari-talk", args.sample or None)
    napari.run()
    return EXIT_OK


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    from .__about__ import __version__

    def of(name: str) -> str:
        try:
            return version(name)
        except PackageNotFoundError:
            return "not installed"

    return (
        f"napari-talk {__version__} (napari {of('napari')}, mcp {of('mcp')}, Python {sys.version.split()[0]})"
    )


def build_parser() -> argparse.ArgumentParser:
    cli = argparse.ArgumentParser(
        prog="napari-talk",
        description=__doc__,
        epilog=EXIT_CODES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    cli.add_argument("--version", action="version", version=_version())
    sub = cli.add_subparsers(dest="command", required=True)

    s = sub.add_parser("start", help="open napari with the chat dock (and a sample)", epilog=EXIT_CODES,
                       formatter_class=argparse.RawDescriptionHelpFormatter)  # fmt: skip
    s.add_argument("--sample", default="cells", help="sample to open first ('' for none)")
    s.set_defaults(func=_start_command)

    m = sub.add_parser(
        "mcp",
        help="serve the commands to MCP clients over stdio, or HTTP with --http",
        description=(
            "Serve every command as an MCP tool. With a display, a napari window with the dock opens "
            "(calls that need the person wait for Run in the dock); without one (or with --hidden) "
            "calls that need the person are refused. Without a display the viewer is napari's "
            "viewer model: no window, no screenshots, no panels."
        ),
        epilog=EXIT_CODES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    m.add_argument("--sample", default="cells", help="sample to open first ('' for none)")
    m.add_argument("--hidden", action="store_true", help="do not show the napari window")
    m.add_argument("--http", action="store_true", help="streamable HTTP on 127.0.0.1 with a bearer token")
    m.add_argument("--port", type=int, default=0, help="the HTTP port (default: a free one, printed)")
    m.add_argument(
        "--token-env",
        default=TOKEN_ENV,
        help=f"variable holding the bearer token (default {TOKEN_ENV}; unset: a fresh one, printed)",
    )
    m.add_argument(
        "--call-seconds",
        type=float,
        default=25.0,
        help="the longest a call's slow work (a trace) may run before it is stopped, "
        "so that the calls after it get their turn (default 25)",
    )
    m.set_defaults(func=_mcp_command)

    c = sub.add_parser("commands", help="list the commands and how to type them")
    c.add_argument("--markdown", action="store_true", help="the reference as Markdown")
    c.set_defaults(func=_commands_command)

    p = sub.add_parser(
        "parse",
        help="print the commands a line means, as JSON (no viewer)",
        epilog=EXIT_CODES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("text", nargs="*", help="the typed line")
    p.add_argument("--jsonl", action="store_true", help="read {text, context} lines on stdin")
    p.add_argument("--layer", action="append", help="a layer name the session knows (repeat)")
    p.add_argument("--panel", action="append", help="a panel name the session knows (repeat)")
    p.set_defaults(func=_parse_command)

    r = sub.add_parser(
        "run",
        help="run lines in a viewer without a window and print the replies",
        description=(
            "Run lines as if typed into the dock and print each reply. Without a display the viewer "
            "is napari's viewer model (every command but screenshots and panels)."
        ),
        epilog=EXIT_CODES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    r.add_argument("lines", nargs="*", help="lines to run, in order")
    r.add_argument("--sample", help="open a sample first (cells, prism_demo, mesh, atlas, files)")
    r.add_argument("--script", help="a file of lines to run first (# starts a comment)")
    r.add_argument("--screenshot", help="save a PNG of the canvas at the end (needs a display)")
    r.add_argument(
        "--yes",
        action="store_true",
        help="approve every command that needs your approval (one that replaces a file or layer of "
        "yours, or sends to a host you did not configure); without it a terminal asks y/N, and "
        f"anything else stops such a command with exit status {EXIT_NOT_APPROVED}",
    )
    _add_recipe_options(r)
    r.set_defaults(func=_run_command)

    _add_pack_commands(sub)
    return cli


def _add_pack_commands(sub: argparse._SubParsersAction) -> None:
    """Each installed pack's own subcommands, added by the function it names (imported now)."""
    from .core.contract.pack import resolve
    from .core.contract.registry import installed_packs

    for pack in installed_packs():
        if pack.cli:
            resolve(pack.cli)(sub)


def _add_recipe_options(r: argparse.ArgumentParser) -> None:
    """``run --recipe``: a recorded recipe, on the viewer or (with --each/--sweep) as a batch."""
    r.add_argument("--recipe", help="a recipe's name in the workspace (recipes/NAME.recipe) or its file")
    r.add_argument("--each", metavar="PATTERN", help="run the recipe on each workspace file matching it, "
                   "e.g. 'data/*.tif'; a results table goes to batches/NAME/results.csv")  # fmt: skip
    r.add_argument("--sweep", action="append", metavar="NAME=START:STOP:STEP",
                   help="run the recipe once per value of {NAME} (or NAME=a,b,c); repeat it")  # fmt: skip
    r.add_argument("--scheduler", help="where a batch, or a large atlas import, runs: 'local' (a Dask "
                   "cluster on this machine's cores, the default), 'in-process', or an existing scheduler's "
                   "tcp://host:8786 (default from $NAPARI_TALK_SCHEDULER)")  # fmt: skip
    r.add_argument("--workers", type=int, help="the local cluster's worker processes (default: "
                   "$NAPARI_TALK_WORKERS, else one per core)")  # fmt: skip


def main(argv: Sequence[str] | None = None) -> int:
    with printable_output():  # argparse's own messages repeat what was typed
        args = build_parser().parse_args(argv)
    if args.command == "mcp":  # stdout carries the protocol's own bytes
        return _ran(args)
    with printable_output():
        return _ran(args)


def _ran(args: argparse.Namespace) -> int:
    """The subcommand's exit status; every failure said in one line."""
    from .headless import Unavailable

    try:
        return args.func(args)
    except UsageError as exc:
        fail(str(exc))
        return EXIT_USAGE
    except Unavailable as exc:
        fail(str(exc))
        return EXIT_UNAVAILABLE
    except KeyboardInterrupt:
        fail("interrupted")
        return EXIT_INTERRUPTED
    except BrokenPipeError:  # the reader went away (``| head``): what it wanted was printed
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_OK
    except Exception as exc:
        if os.environ.get("NAPARI_TALK_DEBUG"):
            raise
        fail(f"{args.command} stopped on an error inside napari-talk: {type(exc).__name__}: {exc}")
        return EXIT_ERROR


if __name__ == "__main__":
    sys.exit(main())
