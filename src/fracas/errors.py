"""Errors a person can act on. The CLI prints their message on one line and exits with their code."""

from __future__ import annotations


class FracasError(Exception):
    """Base of every error fracas reports to a person instead of a traceback."""

    exit_code = 1


class UsageError(FracasError):
    """Bad input on the command line (notation, options): exit code 2."""

    exit_code = 2


class IllegalCommand(FracasError):
    """A command the rules forbid; the message names the rule that forbids it."""

    exit_code = 2

    def __init__(self, message: str, rule: str = "") -> None:
        super().__init__(f"{message} ({rule})" if rule else message)
        self.rule = rule


class EncounterFileError(FracasError):
    """An encounter file that cannot be loaded: names the file, the field path, what was found and allowed."""

    exit_code = 2


class Interrupted(FracasError):
    """Stopped by the user (Ctrl-C, SIGTERM, SIGHUP) before anything could be reported: exit code 130."""

    exit_code = 130


class RuleNotImplemented(FracasError):
    """A rule of the texts that this version does not implement; the message names it. Exit code 2 (the
    contract has 0, 2, 130 and 1 for a bug): the person can play the fight without that rule."""

    exit_code = 2
