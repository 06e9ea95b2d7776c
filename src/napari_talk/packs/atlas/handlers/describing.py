"""Descriptions of entities: by a language model, or composed from their fields."""

from __future__ import annotations

import contextlib
import time

from ....core.basics.jobs import Job
from ....core.basics.result import CommandError, Result
from ....core.chat.client import LLMError
from ....core.contract.pack import Context
from .. import analysis, describe, fetch
from .. import commands as cmd
from ..store import Atlas
from .common import (
    HANDLERS,
    atlas_of,
    catalogue_of,
    job,
    reason,
)

# -- generate_description ------------------------------------------------------------------------


def _subject(command: cmd.GenerateDescription, ctx: Context[Atlas]) -> describe.Subject:
    known = catalogue_of(ctx).get(command.name) if atlas_of(ctx).exists() else None
    notes = command.visual_notes
    thumbnail = catalogue_of(ctx).thumbnail(known.key) if known is not None else None
    # the picture as it was shown when added (colormap and all)
    if notes is None and thumbnail and known is not None:
        with contextlib.suppress(fetch.ImageError, ValueError):
            notes = analysis.analyze(fetch.decode(thumbnail, known.name))["visual_notes"]
    return describe.Subject(
        name=known.name if known else command.name,
        domain=command.domain or (known.domain if known else ""),
        class_name=command.class_name or (known.class_name if known else ""),
        type=known.type if known else "",
        visual_notes=notes or "",
        description=known.description if known else "",
    )


@HANDLERS.on(cmd.GenerateDescription)
def generate_description(command: cmd.GenerateDescription, ctx: Context[Atlas]) -> Job:
    return job(f"describing {command.name}", lambda _: _description(command, ctx))


def _description(command: cmd.GenerateDescription, ctx: Context[Atlas]) -> Result:
    subject = _subject(command, ctx)
    failed = None
    if ctx.llm is not None:
        try:
            text = _model_description(ctx, subject)
            data = {"success": True, "description": text, "source": "llm"}
            return Result.success(text, data, model=ctx.llm.settings.model)
        except (LLMError, ValueError) as exc:  # an empty reply too: compose instead
            failed = reason(exc)
    text = describe.compose(subject)
    why = f"the model failed: {failed}" if failed else "no language model is configured"
    data = {"success": True, "description": text, "source": "composed"}
    return Result.success(f"{text}\n(composed from the entity's fields; {why})", data)


def _model_description(ctx: Context[Atlas], subject: describe.Subject) -> str:
    if ctx.llm is None:
        raise CommandError("no language model is set up")
    client = ctx.llm.client()
    messages = describe.messages(subject)
    started = time.monotonic()
    text = describe.tidy(client.complete(messages).content or "")
    avoided = describe.avoided_phrases(text)
    if avoided and time.monotonic() - started < 10:  # one more try while well inside 30 s
        messages += [
            {"role": "assistant", "content": text},
            {"role": "user", "content": f"Rewrite it without: {', '.join(avoided)}."},
        ]
        text = describe.tidy(client.complete(messages).content or "") or text
    if not text:
        raise ValueError("the model replied with no text")
    return text
