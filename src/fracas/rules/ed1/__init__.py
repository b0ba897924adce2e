"""Earthdawn 1st Edition ruleset (``ed1``)."""
