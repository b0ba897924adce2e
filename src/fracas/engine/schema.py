"""The JSON Schema of the encounter format (``fracas schema``), for editors that complete and check files.

It is the encounter model's own schema (``fracas.engine.encounter.EncounterSpec``) with one more kind of
combatant entry: ``{from: FILE, ...}``, a character file read by ``fracas.importers`` (docs/import.md).
What depends on the ruleset (template names, stat keys, tactics, options) is checked by ``fracas
validate``, not by the schema.
"""

from __future__ import annotations

import copy
import json
from typing import Any

SCHEMA_ID = "https://fracas.invalid/schema/encounter-v1.json"


def encounter_schema() -> dict[str, Any]:
    from fracas.engine.encounter import EncounterSpec

    schema = EncounterSpec.model_json_schema(mode="validation")
    defs = schema.setdefault("$defs", {})
    entry = defs["CombatantSpec"]
    # `at` is one hex [q, r] or a list of them (the model normalises the first to the second before
    # validating, so its own schema knows only the list)
    hex_ = {"type": "array", "prefixItems": [{"type": "integer"}, {"type": "integer"}], "minItems": 2,
            "maxItems": 2}  # fmt: skip
    entry["properties"]["at"] = {
        "anyOf": [hex_, {"type": "array", "items": hex_, "minItems": 1}, {"type": "null"}],
        "default": None,
        "title": "At",
        "description": "A starting hex [q, r], or one per copy [[q, r], ...].",
    }
    from_entry = copy.deepcopy(entry)
    from_entry["title"] = "CombatantFromFile"
    from_entry["description"] = (
        "A combatant read from a character file (GURPS Character Sheet .gcs, Earthdawn Character Editor "
        ".xml, Foundry ed4e actor .json), the path relative to the encounter file; stats: and equipment: "
        "override the imported values, the other fields replace them."
    )
    from_entry["properties"] = {
        "from": {"type": "string", "minLength": 1, "description": "The character file."},
        **{k: v for k, v in entry["properties"].items() if k != "template"},
    }
    from_entry["required"] = ["from"]
    defs["CombatantFromFile"] = from_entry
    side = defs["SideSpec"]
    side["properties"]["combatants"]["items"] = {
        "anyOf": [{"$ref": "#/$defs/CombatantFromFile"}, {"$ref": "#/$defs/CombatantSpec"}]
    }
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": SCHEMA_ID,
        "title": "fracas encounter file (format version 1)",
        "description": "docs/encounter-format.md",
        **{k: v for k, v in schema.items() if k not in ("title", "description")},
    }


def schema_text() -> str:
    return json.dumps(encounter_schema(), indent=2, sort_keys=False) + "\n"
