"""``fracas fight --resume ID``: go on with a saved fight in the terminal, saving each action as it goes."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from rich.console import Console

from fracas.engine import events as ev


def resume_fight(
    fight_id: str,
    db: Path | None,
    console: Console,
    as_json: bool = False,
    step: bool = False,
) -> None:
    """Play a saved fight on to its end with every combatant under its tactic (server dice).

    Each action is one saved batch, exactly as if the game master had pressed "tactic plays this turn" (or
    rolled an automatic step on the server) in the browser, so the browser view shows the same fight.
    """
    from fracas.store import FightService, Store

    service = FightService(Store(db))
    book = service.book(fight_id)
    console.print(f"Resuming {book.record.name} ({fight_id}): {book.status_text()}", markup=False)
    shown = len(book.lines)
    for line in book.lines[-12:]:
        console.print(line.text, markup=False)
    interactive = step and sys.stdin.isatty()
    while not book.state.ended:
        if book.decision() is not None:
            book, plan = service.act(fight_id, lambda b: b.plan_tactic(None))
        elif book.waiting_for_dice() is not None:
            book, plan = service.act(fight_id, lambda b: b.plan_advance(None))
        else:
            break
        if as_json:
            for e in plan.events:
                sys.stdout.write(json.dumps(ev.to_json(e), separators=(",", ":")) + "\n")
        else:
            for line in book.lines[shown:]:
                console.print(line.text, markup=False)
        shown = len(book.lines)
        if step:
            from fracas.store.overrule import overrule_saved_at_prompt

            prompt = "[dim](Enter: next action, gm ...: overrule, q: stop)[/] "
            answer, book, shown = overrule_saved_at_prompt(
                console, prompt, interactive, service, fight_id, shown
            )
            if answer.strip().lower() == "q":
                console.print(f"Stopped; saved. Resume with: fracas fight --resume {fight_id}")
                return
    console.print(f"Saved as {fight_id} in {service.store.path}.", markup=False)
