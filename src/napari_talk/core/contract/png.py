"""The name packs and scripts import PNG encoding by. It lives in
:mod:`napari_talk.core.basics.png`, on a floor of the core below every folder that uses it."""

from ..basics.png import *  # noqa: F403
