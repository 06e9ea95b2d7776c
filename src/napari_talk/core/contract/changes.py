"""The name packs and scripts import ``Changes``, the steps that undo a command by. It lives in
:mod:`napari_talk.core.basics.changes`, on a floor of the core below every folder that uses it."""

from ..basics.changes import *  # noqa: F403
