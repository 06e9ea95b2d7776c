"""A session: typed lines in, commands run against live objects, replies out.

    Session(viewer).run("hide nuclei and zoom to 2")

Text goes to the deterministic parser; every command, whichever road it came by, is validated
by the registry's adapter, dispatched to its pack, and answered with a :class:`Result`. Changes
that can be undone go into the one shared :class:`History`.

A session is built in layers, each a module with one job: the packs' states and contexts
(:mod:`.session_packs`) < consent (:mod:`.session_consent`) < running one command
(:mod:`.session_dispatch`) < a typed line's turn (:mod:`.turns`) < this, the blocking driver of
a turn for scripts and tests. Doors that must not block (the dock) drive :meth:`Session.turn`.
"""

from __future__ import annotations

from .turns import Ask, Done, Pending, Road, SessionTurns, Turn, TurnMachine, Within

__all__ = ["Ask", "Done", "Pending", "Road", "Session", "Turn", "TurnMachine", "Within"]


class Session(SessionTurns):
    layer_watch: object | None = None
    """What tells the packs of the viewer's layers, when the session was opened with one
    (:func:`.opening.open_session`)."""

    def run(self, text: str, *, ask: Ask | None = None) -> Turn:
        """Run a line by the parser road, else (blocking) the LLM road; stop at the first error.

        ``ask`` is put what the person must agree to (a model's command replacing their file, an
        undo removing a layer they painted on); without it such commands do not run.
        """
        machine = TurnMachine(self, text, ready_rephrasing=True)
        step = machine.step()
        while isinstance(step, Pending):
            if step.question is not None:
                step = machine.step(self.ask_llm(step.question))
            else:
                assert step.approval is not None
                step = machine.step(ask is not None and ask(step.approval))
        assert isinstance(step, Done)
        return step.turn
