"""The kitchen world: a pure-Python AI2-THOR-like simulator, the project's kitchens, ALFRED replay."""

from .kitchens import list_kitchens, load_kitchen
from .sim import Event, KitchenSim
from .world import KitchenWorld

__all__ = ["Event", "KitchenSim", "KitchenWorld", "list_kitchens", "load_kitchen"]
