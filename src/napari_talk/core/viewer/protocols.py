"""The name packs and scripts import the viewer's protocols by. It lives in
:mod:`napari_talk.core.basics.viewer_protocols`, on a floor of the core below every folder that uses it."""

from ..basics.viewer_protocols import *  # noqa: F403
