"""How people ask for the atlas pack's commands, as grammar rules (see :mod:`napari_talk.core.rules.rule`).

Every template names what it is about: similarity ("similar to", "like"), an image to analyze,
a description, an sref code, the catalogue or atlas, an entity. "search 'castle'" stays the
files pack's; "describe the edges of Prism" stays the rays pack's (their rules come first);
"show nuclei" stays the viewer's. Entity names are the ``entities`` the session knows.
"""

from __future__ import annotations

import re
from typing import Any

from ...core.grammar.questions import asked_about
from ...core.rules.rule import Rule
from . import commands as cmd

PRIORITY = 14
"""Above the viewer's generic "<verb> <layer>" rules, below the rays pack and help/undo."""

CATALOGUE = r"(?:the |my |our )?(?:catalogue|catalog|atlas)"
THINGS = (
    r"(?:entities|entity|things|ones|items|beings|characters|creatures|images|pictures|photos|pics|matches"
    r"|results|something|anything|stuff)"
)
SIMILAR = r"(?:similar|closest|nearest|related|close|most similar|semantically similar)"
TO = r"(?:to|with)"
FIND = r"(?:find|show|list|get|give|search|look up|fetch|retrieve|search for|look for)(?: me)?"
HOW_MANY = r"(?:(?:the )?(?:top |best )?{limit:int} )?"
LIMIT_AFTER = r"(?:,? (?:\(?(?:limit|top|max|at most):? {limit:int}\)?|{limit:int} results))?"
IMAGE_WORD = r"(?:image|picture|photo|photograph|url|file|layer|channel)"
PICTURE = r"(?:image|picture|photo|photograph)"
ANALYZE = r"(?:analy[sz]e|inspect|examine|measure|study|run image analysis on|run analysis on)"
DESCRIPTION = r"(?:description|blurb|caption|write-?up|entry)"
WRITE = r"(?:generate|write|create|compose|draft|make|produce|give me|suggest)(?: me)?"
SREF = r"(?:--? ?sref|sref|style ref(?:erence)?|style reference code)(?: codes?)?:?"
EMBEDDERS = {
    **dict.fromkeys(("offline", "built-in", "builtin", "hashed", "hash", "default"), "offline"),
    **dict.fromkeys(("minilm", "local", "all-minilm-l6-v2", "sentence-transformers"), "minilm"),
}
OPEN = r"(?:open|show|load|display|view|bring up)(?: me)?"
IN_DOMAIN = r"(?: (?:in|from|under) {domain:text})?"
LIKE = r"(?:like|resembling|that (?:look|looks|feel|feels) like|that resembles?|looking like)"
ORDINALS = {
    **dict.fromkeys(("first", "1st", "top"), 1),
    **dict.fromkeys(("second", "2nd"), 2),
    **dict.fromkeys(("third", "3rd"), 3),
    **dict.fromkeys(("fourth", "4th"), 4),
    **dict.fromkeys(("fifth", "5th"), 5),
    **dict.fromkeys(("sixth", "6th"), 6),
    **dict.fromkeys(("seventh", "7th"), 7),
    **dict.fromkeys(("eighth", "8th"), 8),
    **dict.fromkeys(("ninth", "9th"), 9),
    **dict.fromkeys(("tenth", "10th"), 10),
}
RESULT = r"(?:one|result|hit|match|entity|entry|picture|image)"
OF_RESULTS = r"(?: (?:of|in|from|among) (?:the|those|these) (?:results|hits|matches|ones))?"
THAT_ONE = r"(?:it|that|this|that one|this one|(?:that|this) (?:entity|picture|image|result))"
RESULTS = "atlas_results"
"""The names' kind the last search's results are live under (see :mod:`.handlers.context`)."""
HITS = r"(?:hits|matches|results|entities|entries|things|ones)"
THINGS_OR_ENTRIES = r"(?:entries|entities|items|things|ones)"


def _url_or_file(values: dict[str, Any]) -> dict[str, Any]:
    """An http(s) URL or something with a file extension: "a.png", "pictures/moth.jpg"."""
    target = values["image_url"].rstrip(".,;")
    if not (re.match(r"https?://", target, re.IGNORECASE) or re.search(r"\.[A-Za-z0-9]{2,5}$", target)):
        raise ValueError("not a URL or a file")
    values["image_url"] = target
    return values


def _plain_query(values: dict[str, Any]) -> dict[str, Any]:
    """Words to look for in the catalogue: not quoted text, a path or a folder, which are the
    files pack's ("search for 'laser power' in notes")."""
    query = values["query"]
    if re.search(r"['\"/\\]|\.\w{1,5}\b|\b(?:in|under|inside|within|for)\b", query):
        raise ValueError("a search of files")
    return values


def _jsonl(values: dict[str, Any]) -> dict[str, Any]:
    path = values["path"].rstrip(".,;")
    if not re.search(r"\.(?:jsonl|ndjson|json)$", path, re.IGNORECASE):
        raise ValueError("not a JSON Lines file")
    values["path"] = path
    return values


def _folder_slash(values: dict[str, Any]) -> dict[str, Any]:
    """A bare path is a folder to import only when it says so, ending in ``/``."""
    path = values["path"].rstrip(".,;")
    if not path.endswith("/") or not path.strip("/"):
        raise ValueError("not a folder")
    values["path"] = path.rstrip("/")
    return values


def _jsonl_or_folder(values: dict[str, Any]) -> dict[str, Any]:
    """A JSON Lines file, or a folder of them (a path ending in ``/``, or one without a suffix)."""
    path = values["path"].rstrip(".,;")
    last = path.rstrip("/").rsplit("/", 1)[-1]
    if path.endswith("/") or (last and "." not in last):
        values["path"] = path.rstrip("/") or path
        return values
    return _jsonl(values)


def _sref(values: dict[str, Any]) -> dict[str, Any]:
    code = values["sref_code"].strip()
    if not re.search(r"[0-9]", code) and not re.match(r"https?://|random\b", code, re.IGNORECASE):
        raise ValueError("an sref code has digits (or is a URL)")
    return values


ANALYZE_WORDS = (
    "analy",
    "inspect",
    "examin",
    "measure",
    "study",
    "look like",
    "describe the",
    "colour",
    "color",
)
"""Words one of which every analyze_image phrasing holds."""

RULES: tuple[Rule, ...] = (
    Rule(
        cmd.FindSimilar,
        rf"(?:{FIND} )?{HOW_MANY}(?:{THINGS} )?(?:that are |which are )?{SIMILAR} {TO} {{query:text}}"
        + LIMIT_AFTER,
        rf"(?:{FIND} )?{HOW_MANY}{THINGS} {LIKE} {{query:text}}{LIMIT_AFTER}",
        rf"(?:what|which|who)(?:'s| is| are)? (?:{THINGS} )?(?:{SIMILAR} {TO}|like) {{query:text}}"
        + LIMIT_AFTER,
        rf"(?:search|query|look through) {CATALOGUE} for {{query:text}}{LIMIT_AFTER}",
        rf"(?:more|anything) like {{query:text}}{LIMIT_AFTER}",
        rf"(?:{FIND} )?(?:{THINGS} )?(?:in {CATALOGUE} )?{SIMILAR} {TO} {{query:text}} in {CATALOGUE}",
        rf"(?:{FIND} )?(?:the )?(?:top|best|first|closest|nearest)(?: {{limit:int}})? {HITS}"
        rf"(?: in {CATALOGUE})? (?:for|like|to|matching|resembling) {{query:text}}",
        rf"(?:is there )?anything(?: else)? in {CATALOGUE} (?:{LIKE}|{SIMILAR} {TO}) {{query:text}}",
        rf"(?:which|what)(?: of)? {CATALOGUE}? ?{THINGS_OR_ENTRIES}(?: in {CATALOGUE})?"
        rf" (?:feel|look|seem|sound|are|read)(?: like| similar to) {{query:text}}",
        priority=PRIORITY,
        requires=(
            "similar",
            "like",
            "resembl",
            "closest",
            "nearest",
            "related",
            "close",
            "catalog",
            "atlas",
            "hits",
            "matches",
            "results",
        ),
    ),
    Rule(
        cmd.FindSimilar,
        r"(?:search|look(?! up\b)|hunt)(?: (?:for|through))? (?!['\"]){query:text}",
        when=("entities",),
        post=_plain_query,
        priority=PRIORITY,
        requires=("search", "look", "hunt"),
    ),
    Rule(
        cmd.AnalyzeImage,
        rf"{ANALYZE}(?: the)?(?: {IMAGE_WORD})?(?: at| from| in)? {{image_url:path}}",
        rf"what does(?: the)?(?: {IMAGE_WORD})? {{image_url:path}} look like",
        rf"describe the {IMAGE_WORD} (?:at|from|in) {{image_url:path}}",
        r"what colou?rs are in {image_url:path}",
        post=_url_or_file,
        priority=PRIORITY + 1,
        requires=ANALYZE_WORDS,
    ),
    Rule(
        cmd.AnalyzeImage,
        rf"{ANALYZE} {{image_url:layers}}",
        r"what colou?rs are in {image_url:layers}",
        priority=PRIORITY,
        requires=ANALYZE_WORDS,
    ),
    Rule(
        cmd.AnalyzeImage,
        rf"{ANALYZE} (?:this|the|the current|the selected|the active|my|current|selected|active)"
        r" (?:image|layer|picture)",
        priority=PRIORITY,
        requires=ANALYZE_WORDS,
        image_url="this image",
    ),
    Rule(
        cmd.GenerateDescription,
        rf"{WRITE} (?:a |an |the )?(?:new |short |fresh )?{DESCRIPTION} (?:for|of|about) {{name:text}}"
        r"(?:, (?:a|an|the) {class_name:text})?(?: (?:in|from) {domain:text})?",
        r"describe {name:text},? (?:a|an|the) {class_name:text} (?:in|from|of) {domain:text}",
        r"describe {name:entities} (?:in|from) {domain:text}",
        r"describe {name:entities}",
        priority=PRIORITY - 10,
        requires=("descri", "blurb", "caption", "write", "entry"),
    ),
    Rule(
        cmd.FindBySref,
        rf"(?:{FIND} (?:the )?)?{SREF} {{sref_code:text}}",
        rf"(?:{FIND} |which |who |what )?(?:{THINGS} )?(?:share|shares|sharing|use|uses|using|with|have|has"
        rf"|having|by|for|in|of) (?:the )?(?:same )?{SREF} {{sref_code:text}}",
        rf"(?:{FIND} )?(?:the )?(?:visual )?family of {SREF} {{sref_code:text}}",
        post=_sref,
        priority=PRIORITY,
        requires=("sref", "style ref"),
    ),
    Rule(
        cmd.AddToCatalogue,
        rf"(?:add|save|put|store|file|record|catalog(?:ue)?)(?: the| this| my)?"
        rf"(?: (?:current|selected|active))?(?: {IMAGE_WORD})? (?:to|in|into) {CATALOGUE} as {{name:text}}"
        + IN_DOMAIN,
        rf"(?:add|save|put|store) {{layer:layers}} (?:to|in|into) {CATALOGUE} as {{name:text}}{IN_DOMAIN}",
        r"catalog(?:ue)? {layer:layers} as {name:text}" + IN_DOMAIN,
        priority=PRIORITY,
        requires=("catalog", "atlas"),
    ),
    Rule(
        cmd.OpenEntityImage,
        rf"{OPEN} (?:the )?{PICTURE} (?:of|for) {{name:entities}}",
        rf"{OPEN} {{name:entities}}'s? {PICTURE}",
        r"open (?:the )?entity {name:entities}",
        priority=PRIORITY,
        requires=("image", "picture", "photo", "entity"),
    ),
    Rule(
        cmd.OpenResult,
        rf"{OPEN} (?:the )?{{rank:ordinal}}(?: {RESULT})?{OF_RESULTS}",
        rf"{OPEN} (?:result|hit|match|number) (?:#|no\.? )?{{rank:int}}",
        ordinal=ORDINALS,
        priority=PRIORITY + 1,
        requires=(*ORDINALS, "result", "hit", "match", "number"),
    ),
    Rule(
        cmd.OpenResult,
        rf"{OPEN} {THAT_ONE}",
        r"(?:that|this) one(?: please)?",
        priority=PRIORITY + 1,
        when=(RESULTS,),
        requires=("it", "that", "this"),
        rank=1,
    ),
    Rule(  # above the mesh pack's choice of a concept ("the first one"), while results are live
        cmd.OpenResult,
        rf"(?:the )?{{rank:ordinal}}(?: {RESULT})?(?: please)?",
        ordinal=ORDINALS,
        priority=PRIORITY + 11,
        when=(RESULTS,),
        requires=tuple(ORDINALS),
    ),
    Rule(
        cmd.ImportCatalogue,
        rf"(?:import|load|read)(?: the)? (?:entities|records|catalogue|catalog|atlas)(?: entries)?"
        rf" from {{path:path}}(?: (?:in)?to {CATALOGUE})?",
        rf"import {{path:path}}(?: (?:in)?to {CATALOGUE})?",
        post=_jsonl,
        priority=PRIORITY,
        requires=("import", "load", "read"),
    ),
    Rule(  # a folder of .jsonl files: named as such, or by a path ending in "/"
        cmd.ImportCatalogue,
        rf"(?:import|load|read)(?: the)? (?:entities|records|catalogue|catalog|atlas)(?: entries)?"
        rf" from (?:the )?(?:folder |directory )?{{path:path}}(?: (?:in)?to {CATALOGUE})?",
        rf"import (?:every|each|all(?: the)?) (?:jsonl |\.jsonl )?files? (?:in|from|of) (?:the )?(?:folder )?"
        rf"{{path:path}}(?: (?:in)?to {CATALOGUE})?",
        rf"import (?:the )?(?:folder|directory) {{path:path}}(?: (?:in)?to {CATALOGUE})?",
        post=_jsonl_or_folder,
        priority=PRIORITY - 1,
        requires=("import", "load", "read"),
    ),
    Rule(
        cmd.ImportCatalogue,
        rf"import {{path:path}}(?: (?:in)?to {CATALOGUE})?",
        post=_folder_slash,
        priority=PRIORITY - 1,
        requires=("import",),
    ),
    Rule(
        cmd.ExportCatalogue,
        rf"(?:export|save|write|dump|back up) (?:{CATALOGUE}|(?:all )?(?:the )?entities)"
        r" (?:to|as|into|in) {path:path}",
        post=_jsonl,
        priority=PRIORITY,
        requires=("catalog", "atlas", "entities"),
    ),
    Rule(
        cmd.SetEmbeddingModel,
        r"(?:use|switch to|select|choose)(?: the)? {model:embedders} (?:embedder|embeddings?|embedding model)"
        r"(?: model)?",
        r"(?:use|set|switch|change|select|choose)(?: the)? (?:embedding model|embeddings?|embedder)"
        r"(?: model)? (?:to )?{model:word}(?: (?:at|on|from) {base_url:path})?",
        r"embed (?:with|using) {model:word}(?: (?:at|on|from) {base_url:path})?",
        embedders=EMBEDDERS,
        priority=PRIORITY,
        requires=("embed",),
    ),
    Rule(
        cmd.ListEntities,
        rf"(?:list|show|display|get)(?: me)?(?: all)?(?: the)? (?:entities|entries)(?: in {CATALOGUE})?"
        r"(?: (?:in|of|from) (?:the domain )?{domain:text})?",
        rf"(?:list|show|display|browse|open)(?: me)? {CATALOGUE}",
        rf"what(?:'s| is) in {CATALOGUE}",
        rf"how many entities(?: are there| do (?:i|we) have)?(?: in {CATALOGUE})?",
        rf"how many (?:{THINGS}|entries)(?: are there| are| do (?:i|we) have)? in {CATALOGUE}",
        rf"(?:count|number of)(?: the| all)? (?:{THINGS}|entries) in {CATALOGUE}",
        rf"how (?:big|large) is {CATALOGUE}",
        rf"(?:which|what) entities (?:are there|do (?:i|we) have)(?: in {CATALOGUE})?",
        priority=PRIORITY + 1,
        requires=("entit", "entries", "catalog", "atlas"),
    ),
    asked_about(
        cmd.ListEntities,
        "entities",
        "entries",
        holder=CATALOGUE,
        of="(?:the domain )?{domain:text}",
        priority=PRIORITY,
    ),
    Rule(
        cmd.LoadSampleCatalogue,
        r"(?:load|open|use|add|get)(?: the| a)? (?:sample|demo|example) (?:catalogue|catalog|atlas|entities)",
        r"(?:load|open)(?: the)? (?:atlas|catalogue|catalog) (?:sample|demo|example)",
        priority=PRIORITY + 2,
        requires=("sample", "demo", "example"),
    ),
    Rule(
        cmd.RemoveFromCatalogue,
        rf"(?:remove|delete|drop|take) {{name:entities}} (?:out of|from) {CATALOGUE}",
        r"(?:remove|delete|drop) (?:the )?entity {name:entities}",
        priority=PRIORITY + 1,
        requires=("catalog", "atlas", "entity"),
    ),
)
