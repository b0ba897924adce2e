"""Dice notation: parse a string into a small tree, print it back, and roll it with a :class:`DiceSource`.

Accepted forms (terms joined by ``+``; a ``-`` may only subtract a number)::

    NdM   dM        N dice with M sides ("3d6", "d20"); "d%" is a d100
    NdM!  dM!       dice that explode on their maximum: roll again and add, without limit
    Nd              GURPS: N six-sided dice ("2d" = 2d6, "2d+3", "3d-1")
    step N   sN     an Earthdawn step ("step 14", "s14"): its dice from the edition's Step table,
                    every die exploding (bonus dice); the total of a step test is at least 1
    k               a constant ("+3", "-2")

Examples: ``parse("2d6+3")``, ``parse("d12!")``, ``parse("step 14", edition="ed1")``,
``parse("step 10+d6")`` (a step with a karma die). A number after a step adds to the result, not to the
step: "step 14+2" is 2d12 (exploding) plus 2.

``str(expr)`` prints a canonical form that parses back to an equal tree. Bad notation raises
:class:`~fracas.errors.UsageError` with one line naming the column and the character and listing the
accepted forms.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from fracas.dice.roll import MAX_EXPLOSIONS, Roll, RolledDie, roll_die
from fracas.dice.source import DiceSource, RandomDice
from fracas.dice.steps import EDITIONS, MAX_STEP, STEP_MINIMUM, step_dice
from fracas.errors import UsageError

MAX_DICE = 1000  # dice per expression, the same cap avrae/d20 uses
MAX_SIDES = 1000
MAX_CONSTANT = 1_000_000

ACCEPTED = 'accepted: NdM, dM, d% (d100), NdM! (explodes on max), Nd (GURPS, d6), +k/-k, "step N" or sN'


@dataclass(frozen=True, slots=True)
class Dice:
    """``count`` dice of ``sides`` sides; ``explode``: roll again on the maximum and add."""

    count: int
    sides: int
    explode: bool = False
    gurps: bool = False  # written "Nd": six-sided, printed back the same way
    percent: bool = False  # written "d%"

    def __str__(self) -> str:
        if self.gurps:
            return f"{self.count}d" + ("!" if self.explode else "")
        n = "" if self.count == 1 else str(self.count)
        return f"{n}d{'%' if self.percent else self.sides}" + ("!" if self.explode else "")


@dataclass(frozen=True, slots=True)
class Step:
    """An Earthdawn step; its dice come from the Step table of the expression's edition."""

    step: int

    def __str__(self) -> str:
        return f"step {self.step}"


@dataclass(frozen=True, slots=True)
class Const:
    """A number added to (or, if negative, subtracted from) the total."""

    value: int

    def __str__(self) -> str:
        return str(self.value)


Term = Dice | Step | Const


@dataclass(frozen=True, slots=True)
class Pool:
    """What an expression rolls, flattened: one ``(sides, explode)`` per die, a modifier and a floor."""

    dice: tuple[tuple[int, bool], ...]
    modifier: int
    floor: int | None

    @property
    def key(self) -> tuple[tuple[tuple[int, bool], ...], int, int | None]:
        """Order-free key: two expressions with the same key have the same distribution."""
        return (tuple(sorted(self.dice, reverse=True)), self.modifier, self.floor)


@dataclass(frozen=True, slots=True)
class Expr:
    """A parsed dice expression: terms added together, and the Earthdawn edition its steps use."""

    terms: tuple[Term, ...]
    edition: str = "ed4"

    def __str__(self) -> str:
        out = ""
        for i, t in enumerate(self.terms):
            s = str(t)
            if i and not (isinstance(t, Const) and t.value < 0):
                out += "+"
            out += s
        return out

    @property
    def has_step(self) -> bool:
        return any(isinstance(t, Step) for t in self.terms)

    @property
    def pool(self) -> Pool:
        return _pool(self)

    def roll(self, source: DiceSource, why: str = "") -> Roll:
        """Roll every die (largest first within each term), recording each face and explosion."""
        pool = _pool(self)
        if type(source) is RandomDice:
            return _roll_fast(pool, source)
        return Roll(
            tuple(roll_die(s, source, e, why) for s, e in pool.dice),
            pool.modifier,
            pool.floor,
        )


@lru_cache(maxsize=4096)
def _pool(expr: Expr) -> Pool:
    dice: list[tuple[int, bool]] = []
    modifier = 0
    for t in expr.terms:
        if isinstance(t, Dice):
            dice += [(t.sides, t.explode)] * t.count
        elif isinstance(t, Step):
            sd = step_dice(t.step, expr.edition)
            dice += [(s, True) for s in sd.dice]
            modifier += sd.modifier
        else:
            modifier += t.value
    return Pool(tuple(dice), modifier, STEP_MINIMUM if expr.has_step else None)


@lru_cache(maxsize=2048)
def _single_faces(sides: int, explode: bool) -> tuple[RolledDie, ...]:
    """Every one-face result of a die, made once: RolledDie is immutable, so rolls can share them."""
    return tuple(RolledDie(sides, (f,), explode) for f in range(sides + 1))


def _roll_fast(pool: Pool, source: RandomDice) -> Roll:
    """The same faces, in the same order, as rolling die by die through ``source.roll``; only quicker."""
    rnd = source._random
    out = []
    for sides, explode in pool.dice:
        face = int(rnd() * sides) + 1
        if explode and face == sides and sides > 1:
            faces = [face]
            while face == sides and len(faces) <= MAX_EXPLOSIONS:
                face = int(rnd() * sides) + 1
                faces.append(face)
            out.append(RolledDie(sides, tuple(faces), True))
        else:
            out.append(_single_faces(sides, explode)[face])
    return Roll(tuple(out), pool.modifier, pool.floor)


class _Parser:
    __slots__ = ("text", "pos", "edition")

    def __init__(self, text: str, edition: str) -> None:
        self.text = text
        self.pos = 0
        self.edition = edition

    def fail(self, what: str, at: int | None = None) -> UsageError:
        at = self.pos if at is None else at
        if at >= len(self.text):
            where = f"at the end (column {len(self.text) + 1})"
        else:
            where = f"at column {at + 1} ({self.text[at]!r})"
        return UsageError(f"bad dice notation {self.text!r} {where}: {what}; {ACCEPTED}")

    def ws(self) -> None:
        while self.pos < len(self.text) and self.text[self.pos] in " \t":
            self.pos += 1

    def peek(self) -> str:
        return self.text[self.pos] if self.pos < len(self.text) else ""

    def integer(self) -> int | None:
        start = self.pos
        while self.pos < len(self.text) and self.text[self.pos] in "0123456789":
            self.pos += 1
        if self.pos == start:
            return None
        if self.pos - start > 7:
            raise self.fail("number too large", start)
        return int(self.text[start : self.pos])

    def parse(self) -> Expr:
        terms: list[Term] = []
        self.ws()
        if not self.text.strip():
            raise self.fail("empty expression")
        sign = 1
        if self.peek() in "+-":
            sign = -1 if self.peek() == "-" else 1
            self.pos += 1
            self.ws()
        while True:
            start = self.pos
            term = self.term()
            if sign < 0:
                if not isinstance(term, Const):
                    raise self.fail("only a number can be subtracted", start)
                term = Const(-term.value)
            terms.append(term)
            self.ws()
            c = self.peek()
            if not c:
                break
            if c not in "+-":
                raise self.fail("expected + or - between terms")
            sign = -1 if c == "-" else 1
            self.pos += 1
            self.ws()
        total = 0
        for t in terms:
            if isinstance(t, Dice):
                total += t.count
            elif isinstance(t, Step):
                total += len(step_dice(t.step, self.edition).dice)
        if total > MAX_DICE:
            raise UsageError(f"bad dice notation {self.text!r}: {total} dice, at most {MAX_DICE} in one roll")
        return Expr(tuple(terms), self.edition)

    def term(self) -> Term:
        start = self.pos
        low = self.text[self.pos : self.pos + 4].lower()
        if low == "step" or (low[:1] == "s" and low[1:2].isdigit()):
            self.pos += 4 if low == "step" else 1
            self.ws()
            at = self.pos
            n = self.integer()
            if n is None:
                raise self.fail("a step needs its number, e.g. 'step 14'")
            if not 1 <= n <= MAX_STEP:
                raise self.fail(f"step {n} is outside the Step table (1 to {MAX_STEP})", at)
            if self.peek() == "!":
                raise self.fail("step dice always explode; leave out the '!'")
            return Step(n)
        count = self.integer()
        if self.peek() in ("d", "D"):
            self.pos += 1
            gurps = percent = False
            if self.peek() == "%":
                self.pos += 1
                sides, percent = 100, True
            else:
                at = self.pos
                s = self.integer()
                if s is None:
                    if count is None:
                        raise self.fail("'d' needs a number of sides (d6) or a count before it (GURPS 2d)")
                    sides, gurps = 6, True
                else:
                    if not 1 <= s <= MAX_SIDES:
                        raise self.fail(f"a die has 1 to {MAX_SIDES} sides, not {s}", at)
                    sides = s
            explode = False
            if self.peek() == "!":
                if sides == 1:
                    raise self.fail("a d1 cannot explode (it would never stop)")
                self.pos += 1
                explode = True
            if count is not None and not 1 <= count <= MAX_DICE:
                raise self.fail(f"1 to {MAX_DICE} dice, not {count}", start)
            return Dice(1 if count is None else count, sides, explode, gurps, percent)
        if count is None:
            raise self.fail("expected a number, dice or a step")
        if count > MAX_CONSTANT:
            raise self.fail(f"a constant is at most {MAX_CONSTANT}", start)
        return Const(count)


@lru_cache(maxsize=1024)
def parse(text: str, edition: str = "ed4") -> Expr:
    """Parse dice notation (see the module docstring). ``edition`` ("ed4" or "ed1") picks the Step table.

    >>> str(parse("2d+3"))
    '2d+3'
    >>> parse("s14").pool.dice
    ((12, True), (12, True))
    """
    if edition not in EDITIONS:
        raise UsageError(f"unknown edition {edition!r}; known: {', '.join(EDITIONS)}")
    if not isinstance(text, str):
        raise UsageError(f"dice notation must be text, not {type(text).__name__}")
    return _Parser(text, edition).parse()


def roll(
    text: str | Expr, source: DiceSource | None = None, edition: str = "ed4", seed: int | None = None
) -> Roll:
    """Parse (cached) and roll once. Without a source, rolls with ``RandomDice(seed)``.

    >>> from fracas.dice.source import ScriptedDice
    >>> roll("step 14", ScriptedDice([12, 3, 5])).total
    20
    """
    if source is None:
        source = RandomDice(seed)
    if type(source) is RandomDice:
        return _roll_fast(_pool(text) if isinstance(text, Expr) else _parsed_pool(text, edition), source)
    expr = text if isinstance(text, Expr) else parse(text, edition)
    return expr.roll(source)


@lru_cache(maxsize=1024)
def _parsed_pool(text: str, edition: str) -> Pool:
    return _pool(parse(text, edition))
