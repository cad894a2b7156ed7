"""The action grammar: one registry that parses and describes every action string."""

from embodiedweb.actions.registry import REGISTRY, ActionError, ActionRegistry, ActionSpec, Arg, ParsedAction

__all__ = ["REGISTRY", "ActionError", "ActionRegistry", "ActionSpec", "Arg", "ParsedAction"]
