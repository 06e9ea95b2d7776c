"""How people ask for help and for undo/redo."""

from __future__ import annotations

from ...core.rules.rule import Rule
from . import commands as cmd

_THAT = (
    r"(?: (?:(?:(?:that|this|the|my|your) )?(?:(?:very )?(?:last|previous|latest|most recent) )?"
    r"(?:undone )?(?:action|command|change|step|one|thing|edit|operation|move)"
    r"|that|it|this|last|what (?:you|i) (?:just )?did))?"
)
"""What an undo or redo is about: "that", "the change", "that last thing", "my previous edit"."""

RULES: tuple[Rule, ...] = (
    Rule(
        cmd.Help,
        r"help(?: me| please)?|\?|h|usage|commands|man",
        r"(?:show|list|give)(?: me)? (?:the )?(?:help|commands|examples|usage)",
        r"what (?:can|do|should) (?:i|you) (?:say|type|do|ask|understand)(?: here)?"
        r"|what are (?:the|my) options|what commands (?:are there|do you (?:know|understand|have))",
        r"how (?:does|do) (?:this|you|it) work|i(?:'m| am) (?:lost|stuck|confused)",
        priority=30,
    ),
    Rule(
        cmd.Help,
        r"help(?: me)? (?:with|on|about|for) {topic:text}",
        r"help ?[:-]? {topic:text}",
        r"how (?:do|can) i (?:use )?{topic:text}",
        r"what (?:can|do|should) (?:i|you) (?:say|type|do|ask) (?:about|with|for|in|regarding) {topic:text}",
        priority=29,
    ),
    Rule(
        cmd.UndoLastAction,
        rf"undo{_THAT}|ctrl[- +]?z|revert{_THAT}|go back one step|take (?:that|it) back",
        priority=30,
    ),
    Rule(
        cmd.RedoLastAction,
        rf"redo{_THAT}|ctrl[- +]?(?:y|shift[- +]?z)|undo (?:the|my|that) undo",
        r"redo (?:the )?(?:last )?(?:thing|change|action|step) (?:you|i) (?:just )?undid",
        r"(?:put|bring) back what (?:you|i) (?:just )?undid|(?:do|apply) (?:it|that) again",
        priority=30,
    ),
    Rule(
        cmd.SaveRecipe,
        r"(?:save|record|keep|store) (?:what (?:i|we|you) (?:just )?did|(?:all )?(?:this|that|these steps"
        r"|the steps|my steps|the session|this session)) as (?:a |the )?recipe(?: called| named)?"
        r" {name:text}",
        r"(?:save|record) (?:a |the )?recipe(?: called| named)? {name:text}",
        priority=30,
        requires=("recipe",),
    ),
    Rule(
        cmd.RunRecipe,
        r"(?:run|replay|apply) (?:the )?recipe {name:text} (?:on|to|over) (?:every|each|all(?: the)?)"
        r" (?:files?|images?|inputs?) (?:in|of|from) {inputs:path}",
        r"(?:run|replay|apply) (?:the )?recipe {name:text} (?:on|to|over) {inputs:path}",
        priority=30,
        requires=("recipe",),
    ),
    Rule(
        cmd.RunSweep,
        r"for {name:word} from {start:number} to {stop:number}(?:,? (?:step|by|in steps of) {step:number})?"
        r" ?: ?{lines:text}",
        priority=30,
        requires=("for",),
    ),
)
