"""How people ask for mesh commands, as grammar rules (see :mod:`napari_talk.core.rules.rule`).

Every rule names the thing it works on (a primitive, a segment or part, a concept or option,
the model), so none takes a viewer phrasing: "select Labels" stays a layer selection and
"isolate nuclei" a solo. Material descriptions must name something the material library knows,
otherwise the line is left to the LLM road.
"""

from __future__ import annotations

from typing import Any

from ...core.grammar.questions import asked_about
from ...core.rules.rule import Rule
from ...core.rules.tokens import NoMatch
from . import commands as cmd
from .commands import ALL, SELECTED
from .formats import MODEL_SUFFIXES

PRIMITIVE_WORDS = {
    **dict.fromkeys(("sphere", "ball", "orb", "globe", "uv sphere", "icosphere"), "Sphere"),
    "cube": "Cube",
    "cone": "Cone",
    **dict.fromkeys(("cylinder", "tube", "pillar"), "Cylinder"),
    **dict.fromkeys(("disk", "disc", "flat disk", "flat disc"), "Disk"),
    **dict.fromkeys(("torus", "donut", "doughnut"), "Torus"),
    **dict.fromkeys(("head", "human head"), "Head"),
    **dict.fromkeys(
        (
            "body", "human body", "human", "humanoid", "person", "human figure", "mannequin", "full body",
            "figurine",
        ),
        "Body",
    ),
}  # fmt: skip
BARE_PRIMITIVES = {w: w.capitalize() for w in ("sphere", "cube", "cone", "cylinder", "torus", "disk")}

SPAWN = (
    r"(?:spawn|create|make|add|build|generate|model|sculpt|give me|start with|begin with|put|place|insert|"
    r"i (?:want|need|would like|'d like)|show me|new|load|draw|bring up)"
)
ARTICLE = r"(?: (?:a|an|the|one|some|another|me a|me an|us a))?(?: new| simple| basic| default| plain| 3d)?"
SHAPE_WORD = r"(?: (?:primitive|mesh|shape|object|model|please))?"

THE_MODEL = (
    r"(?:it|this|that|the (?:model|mesh|object|shape|thing|body|head|figure|character|creation)|my model)"
)
THE_SUBJECT = rf"(?:{THE_MODEL}|(?:the|this|my) [a-z]+)"
"""The one model said by what it shows ("the rover", "the kidney"), where only the model fits."""
PART = r"(?:segment|part|piece|region|section|component)"
NUMBER = r"(?:number |no\.? |#)?"

TARGETS = {
    **dict.fromkeys(
        (
            "it", "this", "that", "the selection", "the selected segment", "the selected part",
            "this segment", "this part", "the current segment", "the current part", "the segment",
            "the part", "the selected one", "selected segment", "selected part", "current segment",
            "current part",
        ),
        SELECTED,
    ),
    **dict.fromkeys(
        (
            "everything", "the model", "the mesh", "the whole model", "the entire model", "the whole thing",
            "the whole mesh", "the entire mesh", "all segments", "all parts", "all of it", "all the segments",
            "all the parts", "every segment", "every part", "the object", "the whole object", "all of them",
            "the whole body", "the whole figure", "the body", "the figure", "my model", "the entire thing",
        ),
        ALL,
    ),
}  # fmt: skip
ORDINALS = {
    **dict.fromkeys(("first", "1st", "left", "leftmost"), 1),
    **dict.fromkeys(("second", "2nd", "middle"), 2),
    **dict.fromkeys(("third", "3rd", "last", "right", "rightmost"), 3),
}
MATERIAL_WORD = r"(?: (?:material|texture|finish|look|shader|surface|skin))?"
"""Words after a description that only say "material" ("paint" is kept: "car paint" is one)."""
GIVE = r"(?:apply|use|put|add|assign|give|set|place|slap)"
MAKE = r"(?:make|turn|paint|colou?r|render|dress|coat|cover|texture|skin|change|finish|retexture)"
AS = r"(?: (?:in|into|with|out of|like|look like|as|to be|to|look|be made of|made of|made from|from))*"
A = r"(?: (?:a|an|the|some))?"


SPLIT_WORDS = (
    "segment",
    "split",
    "divide",
    "break",
    "cut",
    "separate",
    "partition",
    "decompose",
    "carve",
    "chop",
    "pieces",
    "parts",
)
APPLY_WORDS = (
    "apply", "use", "put", "add", "assign", "give", "set", "place", "slap", "make", "turn", "paint", "colo",
    "render", "dress", "coat", "cover", "textur", "skin", "change", "finish", "material", "segment", "part",
    "piece", "region", "section", "component",
)  # fmt: skip
CHOICE_WORDS = (
    "option", "concept", "design", "choice", "number", "idea", "variant", "variation", "image", "picture",
    "first", "second", "third", "1st", "2nd", "3rd", "left", "middle", "last", "right",
)  # fmt: skip
"""Words one of which a line must hold for the rule to be tried at all (a cheap first test)."""


def _describes_a_material(values: dict[str, Any]) -> dict[str, Any]:
    """Only descriptions the library understands; anything else goes to the LLM road."""
    from .materials import match

    description = str(values.get("material_description", "")).strip()
    if match(description) is None:
        raise NoMatch(description)
    if values.get("segment_id") == SELECTED:
        values = {k: v for k, v in values.items() if k != "segment_id"}  # the default: leave it unsaid
    return values


def _mesh_file(values: dict[str, Any]) -> dict[str, Any]:
    path = str(values.get("path", "")).strip().strip("'\"")
    if not path.lower().endswith(MODEL_SUFFIXES):
        raise NoMatch(path)
    return {**values, "path": path}


RULES: tuple[Rule, ...] = (
    Rule(
        cmd.SpawnPrimitive,
        rf"{SPAWN}{ARTICLE} {{primitive_type:shapes}}{SHAPE_WORD}(?: (?:for me|to start|to begin))?",
        rf"(?:a|an|one)(?: new)? {{primitive_type:shapes}}{SHAPE_WORD}",
        r"{primitive_type:bare}",
        r"(?:let'?s |we'?ll )?(?:start|begin) (?:with|from) (?:a |an )?{primitive_type:shapes}",
        r"(?:replace|swap) (?:it|the model|this) (?:with|for) (?:a |an )?{primitive_type:shapes}",
        shapes=PRIMITIVE_WORDS,
        bare=BARE_PRIMITIVES,
        priority=25,
        requires=tuple(PRIMITIVE_WORDS),
    ),
    Rule(
        cmd.RequestSegmentation,
        rf"segment(?: {THE_SUBJECT})?(?: (?:into|in) (?:its )?(?:parts|segments|pieces|regions))?",
        r"(?:split|divide|break|cut|chop|slice|separate|partition|decompose|carve)(?: up)?"
        rf"(?: {THE_SUBJECT})?(?: up)? (?:into|in|to) (?:its |their |some |a few )?"
        r"(?:parts|segments|pieces|regions|components|bits)",
        rf"(?:split|partition|decompose) {THE_SUBJECT}(?: up)?",
        rf"(?:run|do|start|request|perform|compute|apply)(?: a| the)?(?: mesh)? segmentation"
        rf"(?: (?:on|of) {THE_SUBJECT})?",
        rf"(?:find|show|identify|detect|get|compute)(?: me)? (?:the |its )?(?:parts|segments)"
        rf"(?: of {THE_MODEL})?",
        r"(?:mesh )?segmentation(?: please)?|segment the mesh into parts",
        priority=25,
        requires=SPLIT_WORDS,
    ),
    Rule(
        cmd.SelectSegment,
        rf"(?:select|choose|pick|highlight|click|take|grab)(?: on)?(?: the)? {PART} "
        rf"{NUMBER}{{segment_id:int}}",
        rf"(?:go to|switch to|jump to) (?:the )?{PART} {NUMBER}{{segment_id:int}}",
        priority=25,
        requires=("segment", "part", "piece", "region", "section", "component"),
    ),
    Rule(
        cmd.IsolateSegment,
        rf"isolate(?: the)?(?: (?:selected|current|chosen|active))? (?:{PART}|selection|one)",
        r"isolate (?:it|this|that|this (?:segment|part)|the selection)",
        rf"isolate(?: the)? {PART} {NUMBER}{{segment_id:int}}",
        rf"(?:focus on|work on|refine|zoom (?:in )?(?:on|to)|single out|pull out)(?: the)? {PART} {NUMBER}"
        r"{segment_id:int}",
        rf"(?:focus on|work on|refine|single out)(?: the)? (?:selected|current|chosen) {PART}",
        priority=25,
        requires=("isolate", "focus", "work on", "refine", "zoom", "single out", "pull out"),
    ),
    Rule(
        cmd.ShowWholeModel,
        r"(?:show|bring back|restore|un-?hide|see|view)(?: me)?(?: the)? (?:whole|entire|full|complete) "
        r"(?:model|mesh|thing|object|body|figure)(?: again)?",
        r"un-?isolate(?: (?:it|the (?:segment|part|model)))?|(?:end|stop|exit|leave|cancel|undo) "
        r"(?:the )?isolation(?: mode)?|stop isolating(?: (?:it|the segment|the part))?",
        r"show (?:all|every|all the) (?:segments|parts)(?: again)?|back to the (?:whole|full) model",
        priority=25,
        requires=("whole", "entire", "full", "complete", "isolat", "segments", "parts"),
    ),
    Rule(
        cmd.ApplyMaterial,
        rf"{GIVE}{A} {{material_description:text}}{MATERIAL_WORD} (?:to|on|onto|for) {{segment_id:targets}}",
        rf"{GIVE}{A} {{material_description:text}}{MATERIAL_WORD} (?:to|on|onto|for)(?: the)? {PART} {NUMBER}"
        r"{segment_id:int}",
        rf"{MAKE}(?: the)? {PART} {NUMBER}{{segment_id:int}}{AS}{A} "
        rf"{{material_description:text}}{MATERIAL_WORD}",
        rf"{MAKE} {{segment_id:targets}}{AS}{A} {{material_description:text}}{MATERIAL_WORD}",
        rf"(?:give|assign)(?: the)? {PART} {NUMBER}{{segment_id:int}}{A} {{material_description:text}}"
        rf"{MATERIAL_WORD}",
        rf"(?:give|assign) {{segment_id:targets}}{A} {{material_description:text}}{MATERIAL_WORD}",
        rf"(?:the )?{PART} {NUMBER}{{segment_id:int}} (?:should be|is|in|as|=|:|->)"
        r"(?: made)?(?: of| from| in)?"
        rf"{A} {{material_description:text}}",
        rf"(?:{GIVE}(?! (?:me|us)\b)|change (?:the )?material to|set (?:the )?material to)"
        rf"(?!.* (?:to|on|onto|for) ){A} "
        rf"{{material_description:text}}{MATERIAL_WORD}",
        r"(?:material|texture)(?: is|:| =)? {material_description:text}",
        requires=APPLY_WORDS,
        targets=TARGETS,
        post=_describes_a_material,
        priority=22,
    ),
    Rule(
        cmd.ApplyMaterial,
        rf"{MAKE} {{segment_id:segments}}{AS}{A} {{material_description:text}}{MATERIAL_WORD}",
        rf"{GIVE}{A} {{material_description:text}}{MATERIAL_WORD} (?:to|on|onto|for) {{segment_id:segments}}",
        rf"(?:give|assign) {{segment_id:segments}}{A} {{material_description:text}}{MATERIAL_WORD}",
        requires=APPLY_WORDS,
        post=_describes_a_material,
        priority=22,
        when=("segments",),
    ),
    Rule(
        cmd.IsolateSegment,
        r"(?:isolate|focus on|work on|refine|single out|pull out|zoom (?:in )?(?:on|to)"
        r"|(?:show|keep|leave) (?:only|just)|(?:only|just) (?:show|keep)) {segment_id:segments}",
        r"(?:show|keep) {segment_id:segments} (?:only|alone|on its own)",
        priority=25,
        requires=(
            "isolate",
            "focus",
            "work on",
            "refine",
            "zoom",
            "single out",
            "pull out",
            "only",
            "just",
            "alone",
            "own",
        ),
        when=("segments",),
    ),
    Rule(
        cmd.SelectSegment,
        r"(?:select|choose|pick|highlight|click(?: on)?|take|grab|go to|switch to|jump to)"
        r" {segment_id:segments}",
        priority=25,
        requires=("select", "choose", "pick", "highlight", "click", "take", "grab", "go", "switch", "jump"),
        when=("segments",),
    ),
    Rule(
        cmd.GenerateConcepts,
        r"(?:generate|create|make|produce|draw|render|show|give|get|come up with|sketch|paint|imagine"
        r"|dream up)"
        r"(?: me| us)?(?: (?:some|a few|three|3|new|more|the|fresh|a set of|different))*"
        r" (?:concepts?|concept art|concept images?|concept sketches|design ideas|ideas|design concepts"
        r"|variations"
        rf"|sketches)(?: (?:for|of) {THE_SUBJECT})?",
        r"concepts?(?: please)?|(?:ideate|brainstorm)(?: (?:some )?(?:designs|concepts))?",
        rf"(?:send|pass) {THE_MODEL} to comfy ?ui|run comfy ?ui"
        r"|(?:ask|use) comfy ?ui(?: for (?:some )?concepts)?",
        priority=25,
        requires=("concept", "idea", "design", "variation", "sketch", "brainstorm", "ideate", "comfy"),
    ),
    Rule(
        cmd.SelectConcept,
        r"(?:(?:select|choose|pick|take|use|want|like|prefer|go with|go for|keep|build|make|turn)"
        r"|i(?:'ll| will|'d)? (?:take|choose|pick|like|want|prefer|go with|go for))(?: the)?"
        r" (?:option|concept|design|choice|number|idea|variant|variation|image|picture) #?{option_id:int}",
        r"(?:option|concept|design|choice|variant) #?{option_id:int}"
        r"(?: please| it is| looks (?:good|great|best|nicest|right|perfect))?",
        r"(?:(?:select|choose|pick|take|use|want|like|prefer|go with|go for|keep)"
        r"|i(?:'ll| will|'d)? (?:take|choose|pick|like|want|prefer|go with|go for))(?: the)?"
        r" {option_id:ordinal}(?: (?:one|option|concept|design|choice|image|picture))?",
        r"(?:the )?{option_id:ordinal} (?:one|option|concept|design)"
        r"(?: (?:please|it is|looks (?:good|great|best|nicest|right|perfect)))?",
        r"number {option_id:int}(?: please)?",
        ordinal=ORDINALS,
        priority=24,
        requires=CHOICE_WORDS,
    ),
    Rule(
        cmd.CancelGeneration,
        r"(?:cancel|stop|abort|kill|interrupt)(?: the)? (?:generation|generating|comfy ?ui(?: job| request)?"
        r"|concepts?(?: generation)?|mesh generation|model generation|job)",
        priority=25,
        requires=("cancel", "stop", "abort", "kill", "interrupt"),
    ),
    Rule(
        cmd.ImportModel,
        r"(?:import|load|open|bring in|read in)(?: the)?(?: (?:model|mesh|file|glb|gltf|obj|stl|ply|off))?"
        r"(?: (?:from|file))? {path:path}",
        r"(?:import|load|use) {path:path} as (?:the |a )?(?:model|mesh)",
        post=_mesh_file,
        priority=25,
        requires=MODEL_SUFFIXES,
    ),
    Rule(
        cmd.ExportFinalModel,
        rf"export(?: {THE_MODEL}| the (?:final|finished|result|whole) (?:model|mesh|result|thing|creation)"
        r"| everything| the result| my creation| final model)?(?: (?:as|to|in|into)(?: a| an)?"
        r" (?:glb|gltf|gl?tf binary|\.glb|glb file|gltf file|3d file|file))?",
        rf"(?:save|write|output) {THE_MODEL} (?:as|to|in)(?: a| an)? (?:glb|gltf|\.glb)(?: file)?",
        rf"(?:save|export|get|ready|prepare) {THE_MODEL} (?:for|to (?:use|open) in|to) "
        r"(?:blender|unity|unreal|godot|three\.?js|a game|printing|3d printing|the web)",
        r"(?:save|write|output|finish|finalize|finalise) (?:the )?(?:final|finished) (?:model|mesh|result)",
        r"(?:make|create|give me) (?:a |the )?glb(?: file)?|export final model|export_final_model",
        priority=25,
        requires=(
            "export",
            "glb",
            "gltf",
            "final",
            "finished",
            "blender",
            "unity",
            "unreal",
            "godot",
            "printing",
        ),
    ),
    Rule(
        cmd.DescribeModel,
        rf"(?:describe|summari[sz]e|inspect) {THE_MODEL}",
        rf"(?:list|show|name|count)(?: me)?(?: all)?(?: the| its)? (?:segments|parts)(?: of {THE_MODEL})?",
        r"how many (?:triangles|faces|polygons|polys|vertices|verts)(?: (?:are there|does it have"
        rf"|(?:does|has) {THE_MODEL}(?: got| have)?|(?:are|is) (?:there )?in {THE_MODEL}))?",
        r"(?:what|which) (?:parts|segments) (?:are there|does it have|(?:has|does) it(?: got| have)?)",
        r"(?:what are|name) (?:the|its) (?:parts|segments)|what(?:'s| is) the (?:triangle|face) count",
        r"how many (?:segments|parts|pieces)(?: (?:are there|does it have|did you find|has it got"
        rf"|(?:does|did) {THE_MODEL} have|(?:has|have) {THE_MODEL}(?: got)"
        rf"?|(?:are|is) (?:there )?in {THE_MODEL}))?",
        r"(?:what(?:'s| is)|which) (?:segment|part) is selected|what(?:'s| is) selected|model (?:info|status)"
        r"|mesh (?:info|status)|what(?:'s| is) the model"
        r"|what materials?(?: are| is)?(?: applied| used| on it)?",
        priority=25,
        requires=(
            "describe",
            "summari",
            "inspect",
            "segments",
            "parts",
            "selected",
            "model",
            "mesh",
            "material",
            "triangles",
            "faces",
            "polygons",
            "polys",
            "vertices",
            "verts",
            "count",
        ),
    ),
    asked_about(cmd.DescribeModel, "segments", "parts", "pieces", "materials", holder=THE_MODEL),
)
