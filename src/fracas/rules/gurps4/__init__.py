"""GURPS 4th Edition (``gurps4``): the combat core and the mounted and aerial rules of rules text 002.

Pure rules: :mod:`.core`, :mod:`.mounted`, :mod:`.aerial`; tables in ``data/*.toml`` (:mod:`.data`);
the engine-facing ruleset in :mod:`.ruleset`.
"""
