"""The name packs and scripts import ``Job``, ``Progress`` and ``Jobs``, for slow work by. It lives in
:mod:`napari_talk.core.basics.jobs`, on a floor of the core below every folder that uses it."""

from ..basics.jobs import *  # noqa: F403
