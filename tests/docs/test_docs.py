"""Docs that are generated from the models stay in step with them."""

from __future__ import annotations

from pathlib import Path

from napari_talk.core.contract.registry import default_registry
from napari_talk.core.help.topics import render_markdown

ROOT = Path(__file__).parents[2]


def test_the_command_reference_is_current():
    written = (ROOT / "docs" / "commands.md").read_text()
    assert written == render_markdown(default_registry()), (
        "docs/commands.md is stale: run `napari-talk commands --markdown > docs/commands.md`"
    )


def test_every_example_in_the_models_parses_to_its_own_command():
    """The examples the help shows must work as typed (with the README's sample layers)."""
    from napari_talk.core.grammar.parser import parse

    context = {"layers": ["nuclei", "cell boundaries", "actin", "GFP", "Labels", "spots"]}
    for action, cls in default_registry().commands.items():
        for example in cls.examples:
            got = parse(example, context)
            assert [c.action for c in got] == [action], (example, got)


def test_the_readme_gives_the_command_lines_exit_statuses():
    from napari_talk import cli

    readme = " ".join((ROOT / "README.md").read_text().split())
    for status, meaning in (
        (cli.EXIT_OK, "done"),
        (cli.EXIT_FAILED, "a line not understood or failed"),
        (cli.EXIT_USAGE, "wrong arguments or an unreadable file"),
        (cli.EXIT_UNAVAILABLE, "something missing here"),
        (cli.EXIT_ERROR, "an error inside napari-talk"),
        (cli.EXIT_NOT_APPROVED, "a command that needed your approval did not get it"),
    ):
        assert f"{status} {meaning}" in readme, (status, meaning)
        assert f"  {status}  " in cli.EXIT_CODES
