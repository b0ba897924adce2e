"""Rulesets: one package per ruleset, each implementing :class:`fracas.rules.base.Ruleset`."""
