"""What a grammar rule is: the :class:`~.rule.Rule` a pack writes, the value kinds its slots read
(:mod:`.tokens`), the live names it matches (:mod:`.lookup`, :mod:`.names`), its patterns factored
(:mod:`.factor`), and the plain text it reads (:mod:`.text`). The contract names rules and the
grammar reads lines with them: both stand on this floor."""
