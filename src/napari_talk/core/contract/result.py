"""The name packs and scripts import ``Result``, what a command gives back by. It lives in
:mod:`napari_talk.core.basics.result`, on a floor of the core below every folder that uses it."""

from ..basics.result import *  # noqa: F403
