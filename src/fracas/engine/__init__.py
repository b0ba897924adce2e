"""The ruleset-agnostic encounter machinery: state, commands, events, the round loop, tactics."""
