"""The name packs and scripts import ``Command``, the base of every command by. It lives in
:mod:`napari_talk.core.basics.commands`, on a floor of the core below every folder that uses it."""

from ..basics.commands import *  # noqa: F403
