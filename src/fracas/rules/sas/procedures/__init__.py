"""Spells & Swords procedures: pure functions of fighters, a situation and a :class:`DiceSource`, one module
per rule area of the combat text (004_0d1ac50b56c23caf.txt).

Each returns a frozen result carrying its die faces, its modifiers (``Modifier(value, why, rule)``, the rule
id naming the section of the text, see :mod:`fracas.rules.sas.rules`) and the
:class:`~fracas.rules.sas.procedures.rolls.Effect` s it causes. Nothing here changes a fighter:
:func:`~fracas.rules.sas.procedures.apply.apply` does that, and the engine's ruleset turns effects into
events.
"""
