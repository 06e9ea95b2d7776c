"""A newcomer's line judged by what its commands do, not by how they spell it.

A label holds what a command does, spelled once: a file as its path from the workspace root
(``sample/chapters/ch01.md``), a layer, glass or scene object by its real name, an edge by its
short label, a body part by its segment number, and only the fields the line fixes. A command
holds names as the person said them ("chapter 1", "gfp", "the north edge", "head"). Comparing the
two as strings calls a right action wrong, so each command is first put in the form its label
has, by the owning pack's own resolvers, on the session the line ran in:

- the command is validated by the registry (numbers and types as the handler gets them), and
  the label's fields are validated together with it, so ``4`` and ``"4"``, ``1`` and ``1.0``
  agree;
- names are resolved as the handler resolves them: layers by ``find_layer``, files by the files
  pack's ``find``/``target``, glasses and scene objects by the rays pack's own lookups, edges by
  ``resolve_edge``, body parts by the mesh pack's ``resolve``, an image to analyse by the atlas
  pack's ``picture_source``; a name that does not resolve stays as said (and then only an
  identical label matches it);
- where two values do the same, they are compared by what they do: a zoom box's corners in any
  order, a material description by the material the mesh pack picks for it, a similarity query
  by its words without a leading article, else by the entities the atlas search returns for it
  (the same ones, in the same order).

Everything else is compared as ``understanding.py`` compares it (strings without case and
surrounding space, numbers within 1e-6, a field the label leaves out is not compared).
"""

from __future__ import annotations

import posixpath
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from support.corpus import same  # tests/support/corpus.py: the loose equality every understanding set uses
from understanding import _default  # a field a command leaves unsaid is its default

Wire = dict[str, Any]
Resolver = Callable[[Any, Any, Wire], Any]
"""(session, the value as the command holds it, the whole command) → the value as a label holds it."""

LAYER_NAMED = frozenset(
    {
        "layer_visibility",
        "fit_to_layer",
        "layer_opacity",
        "layer_colormap",
        "layer_contrast",
        "auto_contrast",
        "solo_layer",
        "select_layer",
        "remove_layer",
        "rename_layer",
        "layer_gamma",
        "adjust_brightness",
        "adjust_contrast",
        "move_layer",
    }
)
GLASS_NAMED = frozenset(
    {
        "find_rays_inside_glass",
        "find_rays_crossing_edge",
        "find_rays_by_angle_to_edge",
        "describe_glass_edges",
    }
)
OBJECT_NAMED = frozenset(
    {"move_scene_object", "rotate_scene_object", "set_refractive_index", "remove_scene_object"}
)


def _context(session: Any, pack: str) -> Any:
    return session.context(session.registry.pack(pack))


def _layer(session: Any, name: Any, _: Wire) -> Any:
    from napari_talk.core.viewer.access import find_layer

    return find_layer(session.viewer, str(name)).name


def _found_file(want: str) -> Resolver:
    def resolve(session: Any, said: Any, _: Wire) -> Any:
        from napari_talk.packs.files.naming import find

        return find(_context(session, "files"), str(said), want)  # type: ignore[arg-type]

    return resolve


def _written_file(session: Any, said: Any, _: Wire) -> Any:
    from napari_talk.packs.files.naming import target

    return target(_context(session, "files"), str(said))


def _task_file(session: Any, said: Any, _: Wire) -> Any:
    from napari_talk.core.safety.workspace import relative_to_root

    workspace = _context(session, "files").workspace
    return relative_to_root(workspace.root, workspace.resolve(str(said)))


def _role(session: Any, said: Any, _: Wire) -> Any:
    from napari_talk.packs.files.roles import role_name

    return role_name(str(said))


def _rays_state(session: Any) -> Any:
    """The scene as the rays pack's handlers see it now (the sample's layers until a command takes
    them up), in the shape the pack's lookups read (``.scene``)."""
    from types import SimpleNamespace

    from napari_talk.packs.rays.handlers.current import scene_now

    return SimpleNamespace(scene=scene_now(_context(session, "rays"))[0])


def _glass(session: Any, name: Any, _: Wire) -> Any:
    from napari_talk.packs.rays.handlers.queries import glass_named

    return glass_named(_rays_state(session), str(name)).name


def _edge(session: Any, label: Any, command: Wire) -> Any:
    from napari_talk.packs.rays.edges import resolve_edge
    from napari_talk.packs.rays.handlers.queries import glass_named

    glass = glass_named(_rays_state(session), str(command.get("glass_name", "")))
    return resolve_edge(glass, str(label)).short_label


def _scene_object(session: Any, name: Any, _: Wire) -> Any:
    from napari_talk.packs.rays.editing import find

    return find(_rays_state(session).scene, str(name)).name


def _segments(whole_if_none: bool) -> Resolver:
    def resolve(session: Any, ref: Any, _: Wire) -> Any:
        from napari_talk.packs.mesh.handlers.common import model_of, resolve

        ctx = _context(session, "mesh")
        _, state, _ = model_of(ctx)
        return ",".join(str(i) for i in resolve(ctx, state, str(ref), whole_if_none=whole_if_none))

    return resolve


def _picture(session: Any, target: Any, _: Wire) -> Any:
    from napari_talk.packs.atlas.sources import picture_source

    _, label = picture_source(_context(session, "atlas"), str(target))
    return label.removeprefix("layer ")


def _material(session: Any, description: Any, _: Wire) -> Any:
    from napari_talk.packs.mesh import materials

    found = materials.match(str(description))
    return str(description) if found is None else found.material


def _query_words(session: Any, query: Any, _: Wire) -> Any:
    """A similarity query's words without a leading article: "a fire queen" is how "fire queen" is
    said, whatever the embedding makes of the extra word."""
    words = str(query).split()
    return " ".join(words[1:] if len(words) > 1 and words[0].casefold() in ("a", "an", "the") else words)


def _corners(session: Any, box: Any, _: Wire) -> Any:
    x1, y1, x2, y2 = (float(v) for v in box)
    return [min(x1, x2), min(y1, y2), max(x1, x2), max(y1, y2)]


def _root_path(session: Any, path: Any, _: Wire) -> Any:
    """A label's path: from the workspace root already; only spelled tidily."""
    return posixpath.normpath(str(path).strip().rstrip("/")) or "."


RESOLVERS: dict[tuple[str, str], Resolver] = {
    **{(action, "name"): _layer for action in LAYER_NAMED},
    ("read_file", "path"): _found_file("file"),
    ("edit_file", "path"): _found_file("file"),
    ("write_file", "path"): _written_file,
    ("list_files", "directory"): _found_file("folder"),
    ("search_code", "directory"): _found_file("any"),
    ("assign_task", "target_file"): _task_file,
    ("assign_task", "target_agent"): _role,
    **{(action, "glass_name"): _glass for action in GLASS_NAMED},
    ("find_rays_crossing_edge", "edge_label"): _edge,
    ("find_rays_by_angle_to_edge", "edge_label"): _edge,
    **{(action, "name"): _scene_object for action in OBJECT_NAMED},
    ("isolate_segment", "segment_id"): _segments(whole_if_none=False),
    ("apply_material", "segment_id"): _segments(whole_if_none=True),
    ("apply_material", "material_description"): _material,
    ("analyze_image", "image_url"): _picture,
    ("zoom_box", "box"): _corners,
    ("find_similar", "query"): _query_words,
}
"""How a command's field is put in the form a label holds it: the pack's own resolver."""

LABEL_RESOLVERS: dict[tuple[str, str], Resolver] = {
    ("read_file", "path"): _root_path,
    ("edit_file", "path"): _root_path,
    ("write_file", "path"): _root_path,
    ("list_files", "directory"): _root_path,
    ("search_code", "directory"): _root_path,
    ("assign_task", "target_file"): _root_path,
}
"""A label's own fields that are resolved already: only tidied. Every other field of a label goes
through :data:`RESOLVERS` like the command's (resolving a real name gives it back)."""


class Effects:
    """What commands do, in the session their line ran in."""

    def __init__(self, session: Any) -> None:
        self.session = session

    def validated(self, command: Wire) -> Wire:
        """The command as its handler gets it: validated, every field (defaults too) filled."""
        try:
            model = self.session.registry.validate(dict(command))
        except Exception:  # not a valid command: compared as it was shown
            return dict(command)
        return {"action": model.action, **model.model_dump(mode="json", exclude={"action"})}

    def field(self, command: Wire, key: str, *, label: bool = False) -> Any:
        """The value of ``command[key]`` as a label holds it."""
        value = command.get(key)
        resolver = (LABEL_RESOLVERS if label else {}).get((command["action"], key)) or RESOLVERS.get(
            (command["action"], key)
        )
        if resolver is None or value is None:
            return value
        try:
            return resolver(self.session, value, command)
        except Exception:  # a name nothing resolves stays as said
            return value

    def matches(self, expected: Wire, actual: Wire) -> bool:
        """Whether a command does what its label says, field by field the label names."""
        action = str(actual.get("action", "")).removesuffix("_xml")
        if str(expected.get("action", "")).removesuffix("_xml") != action:
            return False
        done = self.validated({**actual, "action": action})
        meant = self.validated({**done, **expected, "action": action})
        for key in expected:
            if key == "action":
                continue
            if key not in done:
                done[key] = _default(action, key)
            if not self.same_effect(action, key, meant, done):
                return False
        return True

    def same_effect(self, action: str, key: str, meant: Wire, done: Wire) -> bool:
        wanted, got = self.field(meant, key, label=True), self.field(done, key)
        if _equal(wanted, got):
            return True
        if (action, key) == ("find_similar", "query"):
            return self._same_entities(meant, done)
        return False

    def _same_entities(self, meant: Wire, done: Wire) -> bool:
        """Two similarity queries that return the same entities, in the same order, ask the same."""
        found = [self._similar(meant, done.get("limit")), self._similar(done, done.get("limit"))]
        return found[0] is not None and found[0] == found[1]

    def _similar(self, command: Wire, limit: Any) -> list[str] | None:
        from napari_talk.packs.atlas.commands import FindSimilar
        from napari_talk.packs.atlas.handlers.common import catalogue_of, embedder_of
        from napari_talk.packs.atlas.handlers.search import _similar

        ctx = _context(self.session, "atlas")
        catalogue = catalogue_of(ctx)
        if catalogue.empty():
            return None
        query = FindSimilar(query=str(command["query"]), limit=int(limit or 5))
        result = _similar(query, ctx, catalogue, embedder_of(ctx), None)
        return [e["name"] for e in (result.data or {}).get("entities", [])]

    def judge(self, expect: list[Wire], commands: list[Wire]) -> str:
        """``covered`` (the commands do what the labels say, in order), ``unknown`` (nothing ran
        where something was asked) or ``wrong``; on a line that asks for nothing, only ``help``
        (or nothing) is right, as ``understanding.judge`` has it."""
        if not expect:
            return "covered" if all(c.get("action") == "help" for c in commands) else "wrong"
        if not commands:
            return "unknown"
        if len(commands) == len(expect) and all(
            self.matches(e, a) for e, a in zip(expect, commands, strict=True)
        ):
            return "covered"
        return "wrong"


def _equal(wanted: Any, got: Any) -> bool:
    if isinstance(wanted, Path) or isinstance(got, Path):
        wanted, got = str(wanted), str(got)
    if type(wanted).__module__ != "builtins" or type(got).__module__ != "builtins":
        return bool(wanted == got)  # a library object (a material): equal when it is the same
    return same(wanted, got)
