"""The name packs and scripts import the window's protocols by. It lives in
:mod:`napari_talk.core.basics.window`, on a floor of the core below every folder that uses it."""

from ..basics.window import *  # noqa: F403
