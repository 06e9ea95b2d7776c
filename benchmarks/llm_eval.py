"""The LLM road on lines the parser does not understand, and on chat, per mode, against a real model server.

    xvfb-run -a python benchmarks/llm_eval.py                       # offline: the semantic router alone
    xvfb-run -a python benchmarks/llm_eval.py --url http://127.0.0.1:8080/v1 --modes steps,schema
    xvfb-run -a python benchmarks/llm_eval.py --set benchmarks/data/llm_eval.jsonl --url ... -v

The set (default ``benchmarks/data/understanding_eval.jsonl`` when present, else ``llm_eval.jsonl``)
holds ``{"text", "expect": [wire, ...], "context"?: {"layers": [...], ...}}``; ``expect`` empty is
chat that must give no command (``help`` aside), and a wire may list ``or`` alternatives. Only
lines the parser does not understand are sent (the road never gets the others; ``--every-line``
sends them all, to measure the router on more lines); chat lines are all sent.

Per mode: right (the expected commands in order, counting the read-only commands the road ran
during the turn), wrong (a command that is not the expected one), no command, chat lines that
gave no command, the median seconds a line, and the median prompt tokens a line sent (o200k,
counted on every request of the line). Targets on a 1.5B local model: >= 90 % right on clear
lines, >= 97 % of chat gives no command, <= 2 % wrong, median <= 4 s.

Modes: ``tools``, ``json``, ``schema``, ``schema+examples`` (three worked examples), ``steps``
(which command, then its parameters), ``steps+router`` (the semantic router answers the first
step when it is sure), and ``router`` (no model: the command the router alone would pick).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

DATA = Path(__file__).resolve().parent / "data"
DEFAULT_SETS = (DATA / "understanding_eval.jsonl", DATA / "llm_eval.jsonl")


def load(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def matches(expected: dict[str, Any], wire: dict[str, Any]) -> bool:
    if expected["action"] != wire.get("action"):
        return any(matches(alternative, wire) for alternative in expected.get("or", []))
    for key, value in expected.items():
        if key in ("action", "or"):
            continue
        got = wire.get(key)
        if isinstance(value, str):
            if not isinstance(got, str) or got.casefold().rstrip("/") != value.casefold().rstrip("/"):
                return False
        elif isinstance(value, int | float) and not isinstance(value, bool):
            if not isinstance(got, int | float) or abs(got - value) > 0.1 * abs(value) + 1e-9:
                return False
        elif isinstance(value, list) and isinstance(got, list | tuple):
            if len(value) != len(got) or any(
                not (isinstance(g, int | float) and abs(g - v) <= 0.1 * abs(v) + 1e-9) and g != v
                for v, g in zip(value, got, strict=True)
            ):
                return False
        elif got != value:
            return False
    return True


def right(expect: list[dict[str, Any]], wires: list[dict[str, Any]]) -> bool:
    return len(wires) == len(expect) and all(matches(e, w) for e, w in zip(expect, wires, strict=True))


class Scenes:
    """A session per context (the layers a line's scene has, as image layers of those names), so
    that the facts the model is given and the names it may use are the line's own."""

    def __init__(self, workspace: Path) -> None:
        self.workspace = workspace
        self.sessions: dict[str, Any] = {}

    def session(self, context: dict[str, list[str]] | None):
        key = json.dumps(context or {}, sort_keys=True)
        if key not in self.sessions:
            self.sessions[key] = self._make(context)
        return self.sessions[key]

    def _make(self, context: dict[str, list[str]] | None):
        import napari
        import numpy as np

        from napari_talk.core.running.session import Session
        from napari_talk.samples import cells

        viewer = napari.Viewer(show=False)
        folder = self.workspace / f"scene{len(self.sessions)}"
        (folder / "notes").mkdir(parents=True)
        (folder / "notes" / "a.md").write_text("# a\nremember the calibration slide\n")
        if context and context.get("layers"):
            rng = np.random.default_rng(0)
            for name in context["layers"]:
                viewer.add_image(rng.random((64, 64)), name=name)
        else:
            for data, kwargs, kind in cells():
                getattr(viewer, f"add_{kind}")(data, **kwargs)
        session = Session(viewer, workspace=folder)
        session.run("load the prism demo")
        return session

    def close(self) -> None:
        for session in self.sessions.values():
            session.viewer.close()


def names_of(session, context: dict[str, list[str]] | None) -> dict[str, list[str]]:
    """The session's live names with the line's context added, as the parser benchmark reads it:
    a kind the context gives stands in for the kinds it stands for ("glasses" are scene objects)."""
    names = session.known_names()
    stand_ins = session.registry.context_stand_ins
    for kind, found in (context or {}).items():
        if kind == "layers":
            continue
        for into in [kind, *(k for k, given in stand_ins.items() if given == kind)]:
            names[into] = list(dict.fromkeys([*names.get(into, []), *found]))
    return names


def counter():
    """o200k tokens of a request as sent (messages, tools, reply format)."""
    import bpe_openai

    encoding = bpe_openai.get_encoding("o200k_base")
    return lambda text: len(encoding.encode(text))


class Spy:
    """Counts the tokens of every request the road's client sends during a line."""

    def __init__(self, client, count) -> None:
        self.tokens = 0
        original = client.complete

        def complete(messages, tools=None, reply_format=None, **kw):
            sent = json.dumps(messages) + json.dumps(tools or []) + json.dumps(reply_format or {})
            self.tokens += count(sent)
            return original(messages, tools, reply_format, **kw)

        client.complete = complete


def road_for(session, url: str, model: str, mode: str, form: str, timeout: float):
    from napari_talk.core.chat.settings import LLMSettings
    from napari_talk.core.llm.road import LLMRoad

    base, _, extra = mode.partition("+")
    settings = LLMSettings(
        model=model,
        base_url=url,
        mode=base,
        schema_form=form,
        timeout=timeout,
        max_retries=0,
        examples=3 if extra == "examples" else 0,
    )
    road = LLMRoad(session.registry, settings)
    road.routes = extra == "router"
    return road


def evaluate(scenes: Scenes, cases, mode: str, args, count) -> dict[str, Any]:
    tally = {"right": 0, "wrong": 0, "none": 0, "lines": 0, "chat": 0, "chat_quiet": 0}
    times: list[float] = []
    asked: list[float] = []
    tokens: list[int] = []
    primed: list[float] = []
    roads: dict[int, Any] = {}

    def road_of(session):
        road = roads.get(id(session))
        if road is None:
            road = roads[id(session)] = road_for(session, args.url, args.model, mode, args.form, args.timeout)
            road.spy = Spy(road.client(), count)
        return road

    # a person types several lines in one scene: a local server keeps the scene's prompt evaluated
    for case in sorted(cases, key=lambda c: json.dumps(c.get("context") or {}, sort_keys=True)):
        session = scenes.session(case.get("context"))
        names = names_of(session, case.get("context"))
        packs = session.packs_in_play(case["text"])
        scene = session.packs_in_play("")
        if mode != "router" and not args.cold:
            road = road_of(session)
            began = time.perf_counter()
            if road.prime(session.context_lines(scene), scene):  # as the dock does while one types
                primed.append(time.perf_counter() - began)
        start = time.perf_counter()
        if mode == "router":
            from napari_talk.core.chat.settings import LLMSettings
            from napari_talk.core.llm.road import LLMRoad

            road = roads.setdefault(0, LLMRoad(session.registry, LLMSettings()))
            pool = [c.action_name() for p in session.registry.packs if p.name in packs for c in p.commands]
            route = road.route(case["text"], names, pool)
            wires = [{"action": route.action}] if road.routable(case["text"], route) else []
            fair = [
                {"action": e["action"], "or": [{"action": o["action"]} for o in e.get("or", [])]}
                for e in case["expect"][:1]
            ]
            expect = fair
        else:
            road = road_of(session)
            road.spy.tokens = 0
            session.llm = road
            outcome = road.interpret(
                case["text"],
                session.context_lines(scene),
                lambda c, _t, s=session: s.execute(c, origin="model"),
                packs=packs,
                scene=scene,
                names=names,
            )
            wires = [c.to_wire() for c, _ in outcome.read] + [c.to_wire() for c in outcome.commands]
            if road.spy.tokens:
                tokens.append(road.spy.tokens)
            expect = case["expect"]
        times.append(time.perf_counter() - start)
        if mode != "router" and road.spy.tokens:
            asked.append(times[-1])
        wires = [w for w in wires if w.get("action") != "help"] if not case["expect"] else wires
        if not case["expect"]:
            tally["chat"] += 1
            tally["chat_quiet"] += not wires
            verdict = "✓" if not wires else "✗"
        else:
            tally["lines"] += 1
            if not wires:
                tally["none"] += 1
                verdict = "·"
            elif right(expect, wires):
                tally["right"] += 1
                verdict = "✓"
            else:
                tally["wrong"] += 1
                verdict = "✗"
        if args.verbose:
            said = wires if mode == "router" else (outcome.error or wires or repr(outcome.spoken))
            print(f"  {verdict} {case['text']!r} → {str(said)[:160]}", flush=True)
    for road in roads.values():
        road.close()
    tally["median_s"] = statistics.median(times) if times else 0.0
    tally["asked"] = len(asked)
    tally["asked_median_s"] = statistics.median(asked) if asked else 0.0
    tally["asked_max_s"] = max(asked, default=0.0)
    tally["tokens"] = statistics.median(tokens) if tokens else 0
    tally["primed"] = len(primed)
    tally["primed_median_s"] = statistics.median(primed) if primed else 0.0
    return tally


def report(mode: str, t: dict[str, Any]) -> str:
    lines, chat = max(t["lines"], 1), max(t["chat"], 1)
    return (
        f"{mode:<16} right {t['right']}/{t['lines']} ({t['right'] / lines:.0%}), wrong {t['wrong']} "
        f"({t['wrong'] / lines:.0%}), no command {t['none']}; "
        f"chat gave no command {t['chat_quiet']}/{t['chat']} "
        f"({t['chat_quiet'] / chat:.0%}); median {t['median_s']:.2f} s/line "
        f"({t['asked']} lines reached the model: median {t['asked_median_s']:.2f} s, "
        f"slowest {t['asked_max_s']:.2f} s); "
        f"prompt tokens a line that reached the model sent, median {t['tokens']:,.0f}"
        + (
            f"; the scene's prompt read ahead {t['primed']} times, median {t['primed_median_s']:.2f} s"
            if t.get("primed")
            else ""
        )
    )


def remarks(cases: list[dict[str, Any]]) -> str:
    """The remark gate alone, on every line of the set: a remark is answered without a model, a
    request it took for one would never reach the model."""
    from napari_talk.core.llm.words import is_remark

    chat = [c for c in cases if not c["expect"]]
    asks = [c for c in cases if c["expect"]]
    caught = sum(is_remark(c["text"]) for c in chat)
    blocked = [c["text"] for c in asks if is_remark(c["text"])]
    shown = f" ({'; '.join(blocked[:3])})" if blocked else ""
    return (
        f"remark gate: chat answered without a model {caught}/{len(chat)}; "
        f"requests taken for remarks {len(blocked)}/{len(asks)}{shown}"
    )


def whole(parsed: dict[str, int], road: dict[str, Any]) -> str:
    """The line a person sees: the parser first, the road on what it misses, over the whole set."""
    lines = max(parsed["lines"], 1)
    right_ = parsed["right"] + road["right"]
    wrong = parsed["wrong"] + road["wrong"]
    chat = max(road["chat"], 1)
    return (
        f"{'  whole set':<16} right {right_}/{parsed['lines']} ({right_ / lines:.1%}), wrong {wrong} "
        f"({wrong / lines:.1%}); chat gave no command {road['chat_quiet']}/{road['chat']} "
        f"({road['chat_quiet'] / chat:.0%})"
    )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--set", type=Path, default=next((p for p in DEFAULT_SETS if p.exists()), None))
    parser.add_argument("--url", help="an OpenAI-compatible server's /v1 URL (without it: the router alone)")
    parser.add_argument("--model", default="local")
    parser.add_argument("--modes", default="router,steps,steps+router,schema,schema+examples,tools,json")
    parser.add_argument("--form", default="json_schema", help="the schema form to start from")
    parser.add_argument("--timeout", type=float, default=60)
    parser.add_argument("--limit", type=int, default=0, help="at most this many lines of each kind")
    parser.add_argument(
        "--every-line", action="store_true", help="send every line, not only those the parser misses"
    )
    parser.add_argument(
        "--cold",
        action="store_true",
        help="no read-ahead: each line waits for the server to read the scene's prompt (the dock "
        "has a local model read it while one types)",
    )
    parser.add_argument("-v", "--verbose", action="store_true")
    args = parser.parse_args()
    count = counter()
    with tempfile.TemporaryDirectory() as folder:
        scenes = Scenes(Path(folder))
        every = load(args.set)
        missed = []
        parsed = {"right": 0, "wrong": 0, "lines": 0}
        for case in every:
            session = scenes.session(case.get("context"))
            understood = session.parse(case["text"], names_of(session, case.get("context")))
            if case["expect"]:
                parsed["lines"] += 1
                if understood:
                    wires = [c.to_wire() for c in understood]
                    parsed["right" if right(case["expect"], wires) else "wrong"] += 1
            if args.every_line or not case["expect"] or not understood:
                missed.append(case)
        print(remarks(every), flush=True)
        chat = [c for c in missed if not c["expect"]]
        lines = [c for c in missed if c["expect"]]
        if args.limit:
            chat, lines = chat[: args.limit], lines[: args.limit]
        print(
            f"{args.set.name}: {len(every)} lines; command lines sent "
            f"({'every one' if args.every_line else 'those the parser misses'}): "
            f"{len(lines)}; chat lines: {len(chat)}",
            flush=True,
        )
        for mode in args.modes.split(","):
            if mode != "router" and not args.url:
                continue
            tally = evaluate(scenes, lines + chat, mode, args, count)
            print(report(mode, tally), flush=True)
            if not args.every_line:
                print(whole(parsed, tally), flush=True)
        scenes.close()


if __name__ == "__main__":
    sys.exit(main())
