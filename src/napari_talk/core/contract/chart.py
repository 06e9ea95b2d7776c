"""The name packs and scripts import a chart carried by a ``Result`` by. It lives in
:mod:`napari_talk.core.basics.chart`, on a floor of the core below every folder that uses it."""

from ..basics.chart import *  # noqa: F403
