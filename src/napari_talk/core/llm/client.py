"""The name packs and scripts import the Chat Completions client by. It lives in
:mod:`napari_talk.core.chat.client`, on a floor of the core below every folder that uses it."""

from ..chat.client import *  # noqa: F403
