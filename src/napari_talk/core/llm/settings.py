"""The name packs and scripts import the LLM's settings by. It lives in
:mod:`napari_talk.core.chat.settings`, on a floor of the core below every folder that uses it."""

from ..chat.settings import *  # noqa: F403
