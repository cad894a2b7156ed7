"""AI2-THOR object vocabulary: per-type affordances, sizes, receptacle rules and slice counts.

The tables follow AI2-THOR's documented object semantics (which types are pickupable, openable,
toggleable, sliceable, cookable, ...; which object types a receptacle type accepts). Sizes are
approximate half extents in metres, used for reach/visibility tests and for drawing.
"""

from __future__ import annotations

FOOD = frozenset({"Apple", "Bread", "Egg", "Lettuce", "Potato", "Tomato"})
SLICES = frozenset({f"{t}Sliced" for t in ("Apple", "Bread", "Lettuce", "Potato", "Tomato")} | {"EggCracked"})
UTENSILS = frozenset({"Knife", "ButterKnife", "Fork", "Spoon", "Spatula", "Ladle"})
DISHES = frozenset({"Plate", "Bowl", "Mug", "Cup"})
COOKWARE = frozenset({"Pan", "Pot", "Kettle"})
CONDIMENTS = frozenset({"SaltShaker", "PepperShaker"})
BOTTLES = frozenset({"WineBottle", "Glassbottle", "GlassBottle", "SoapBottle", "Bottle"})
SMALL_MISC = frozenset({"DishSponge", "CellPhone", "CreditCard", "KeyChain", "Pen", "Pencil", "Watch",
                        "PaperTowelRoll", "Book", "Statue", "Vase", "Newspaper", "RemoteControl",
                        "SprayBottle", "TissueBox", "Box", "Candle", "Cloth", "HandTowel", "Towel",
                        "ToiletPaper", "Plunger", "Laptop", "Pillow", "AluminumFoil", "Potted"})
KNIVES = frozenset({"Knife", "ButterKnife"})
#: receptacles that hold things inside them (the rest are surfaces: what they hold rests on top)
INSIDE_TYPES = frozenset({"Fridge", "Microwave", "Cabinet", "Drawer", "SinkBasin", "Sink", "Pot", "Pan",
                          "Bowl", "Cup", "Mug", "GarbageCan", "Toaster", "Safe", "Box"})

PICKUPABLE = FOOD | SLICES | UTENSILS | DISHES | COOKWARE | CONDIMENTS | BOTTLES | SMALL_MISC
OPENABLE = frozenset({"Fridge", "Microwave", "Cabinet", "Drawer", "Safe", "Box", "Laptop", "Kettle"})
TOGGLEABLE = frozenset({"Microwave", "StoveBurner", "StoveKnob", "Toaster", "CoffeeMachine", "Faucet",
                        "LightSwitch", "Laptop"})
SLICEABLE = frozenset({"Apple", "Bread", "Lettuce", "Potato", "Tomato", "Egg"})
COOKABLE = frozenset({"Egg", "EggCracked", "Potato", "PotatoSliced", "BreadSliced", "AppleSliced",
                      "TomatoSliced"})
BREAKABLE = frozenset({"Egg", "Plate", "Bowl", "Mug", "Cup", "WineBottle", "Glassbottle", "GlassBottle",
                       "Vase", "Window", "Statue", "CellPhone", "Laptop"})
DIRTYABLE = frozenset({"Plate", "Bowl", "Mug", "Cup", "Pan", "Pot", "Bed", "Cloth", "Mirror"})
FILLABLE = frozenset({"Mug", "Cup", "Bowl", "Pot", "Kettle", "WineBottle", "Glassbottle", "GlassBottle",
                      "Bottle", "HousePlant", "Vase"})

_ANY = PICKUPABLE
RECEPTACLE_ACCEPTS: dict[str, frozenset[str]] = {
    "CounterTop": _ANY,
    "DiningTable": _ANY,
    "SideTable": _ANY,
    "CoffeeTable": _ANY,
    "Shelf": _ANY,
    "Cabinet": _ANY,
    "Safe": _ANY,
    "Sink": FOOD | SLICES | DISHES | COOKWARE | UTENSILS | BOTTLES | CONDIMENTS | {"DishSponge"},
    "SinkBasin": FOOD | SLICES | DISHES | COOKWARE | UTENSILS | BOTTLES | CONDIMENTS | {"DishSponge"},
    "Fridge": FOOD | SLICES | DISHES | COOKWARE | UTENSILS | BOTTLES | CONDIMENTS,
    "Microwave": FOOD | SLICES | DISHES | UTENSILS,
    "Drawer": UTENSILS | CONDIMENTS | SMALL_MISC,
    "GarbageCan": FOOD | SLICES | UTENSILS | BOTTLES | SMALL_MISC | {"Cup", "Mug"},
    "StoveBurner": frozenset({"Pan", "Pot", "Kettle"}),
    "CoffeeMachine": frozenset({"Mug"}),
    "Toaster": frozenset({"BreadSliced"}),
    "Plate": FOOD | SLICES | UTENSILS | CONDIMENTS | {"DishSponge", "Cup", "Mug"},
    "Bowl": FOOD | SLICES | UTENSILS | {"DishSponge"},
    "Pan": FOOD | SLICES | UTENSILS | {"DishSponge"},
    "Pot": FOOD | SLICES | UTENSILS | {"DishSponge"},
    "Cup": frozenset({"Knife", "ButterKnife", "Fork", "Spoon", "Pen", "Pencil"}),
    "Mug": frozenset({"Knife", "ButterKnife", "Fork", "Spoon", "Pen", "Pencil"}),
    "Box": SMALL_MISC | UTENSILS,
}
RECEPTACLES = frozenset(RECEPTACLE_ACCEPTS)

# Capacity in "units" (see UNIT_SIZE); putting an object that would exceed it fails as in AI2-THOR
# ("No valid positions to place object found").
CAPACITY: dict[str, float] = {
    "CounterTop": 60, "DiningTable": 40, "SideTable": 16, "CoffeeTable": 16, "Shelf": 10, "Cabinet": 10,
    "Safe": 6, "Sink": 10, "SinkBasin": 10, "Fridge": 40, "Microwave": 8, "Drawer": 6, "GarbageCan": 8,
    "StoveBurner": 3, "CoffeeMachine": 1, "Toaster": 2, "Plate": 5, "Bowl": 5, "Pan": 5, "Pot": 6,
    "Cup": 1, "Mug": 1, "Box": 4,
}
UNIT_SIZE: dict[str, float] = {"Pan": 3, "Pot": 3, "Kettle": 3, "Bread": 2, "Lettuce": 2, "Plate": 2,
                               "Bowl": 2, "Laptop": 4, "Box": 3, "BreadSliced": 1}
DEFAULT_UNIT = 1.0
SLICE_UNIT = 0.25

# Slices spawned by SliceObject (AI2-THOR 2.1 sliced prefabs); an Egg cracks into one EggCracked.
SLICE_COUNT: dict[str, int] = {"Apple": 3, "Bread": 10, "Lettuce": 8, "Potato": 9, "Tomato": 7, "Egg": 1}

HALF_SIZE: dict[str, tuple[float, float, float]] = {
    "Fridge": (0.40, 0.90, 0.40), "Microwave": (0.30, 0.18, 0.25), "CounterTop": (0.60, 0.05, 0.35),
    "DiningTable": (0.70, 0.40, 0.50), "SideTable": (0.40, 0.35, 0.30), "Cabinet": (0.30, 0.35, 0.30),
    "Drawer": (0.25, 0.08, 0.25), "Shelf": (0.40, 0.02, 0.20), "Sink": (0.40, 0.10, 0.30),
    "SinkBasin": (0.30, 0.10, 0.25), "Faucet": (0.05, 0.15, 0.10), "StoveBurner": (0.13, 0.03, 0.13),
    "StoveKnob": (0.03, 0.03, 0.03), "Toaster": (0.13, 0.10, 0.09), "CoffeeMachine": (0.15, 0.20, 0.15),
    "GarbageCan": (0.18, 0.25, 0.18), "Apple": (0.05, 0.05, 0.05), "Bread": (0.15, 0.07, 0.08),
    "Egg": (0.03, 0.04, 0.03), "Lettuce": (0.10, 0.09, 0.10), "Potato": (0.06, 0.04, 0.05),
    "Tomato": (0.05, 0.04, 0.05), "Knife": (0.15, 0.01, 0.02), "ButterKnife": (0.11, 0.01, 0.02),
    "Fork": (0.09, 0.01, 0.02), "Spoon": (0.09, 0.01, 0.02), "Spatula": (0.16, 0.02, 0.04),
    "Ladle": (0.15, 0.03, 0.04), "Pan": (0.22, 0.04, 0.14), "Pot": (0.14, 0.08, 0.14),
    "Kettle": (0.12, 0.12, 0.10), "Plate": (0.12, 0.01, 0.12), "Bowl": (0.09, 0.04, 0.09),
    "Mug": (0.05, 0.05, 0.05), "Cup": (0.04, 0.05, 0.04), "SaltShaker": (0.02, 0.05, 0.02),
    "PepperShaker": (0.02, 0.05, 0.02), "DishSponge": (0.05, 0.02, 0.03),
    "LightSwitch": (0.05, 0.08, 0.02), "Window": (0.6, 0.5, 0.05),
}
DEFAULT_HALF = (0.06, 0.06, 0.06)
SLICE_HALF = (0.04, 0.02, 0.04)

SHORT_NAMES: dict[str, str] = {"CounterTop": "Counter", "DiningTable": "Table", "StoveBurner": "Burner",
                               "StoveKnob": "Knob", "CoffeeMachine": "Coffee", "SinkBasin": "Basin",
                               "GarbageCan": "Bin", "ButterKnife": "BKnife", "SaltShaker": "Salt",
                               "PepperShaker": "Pepper"}


def base_type(object_type: str) -> str:
    """The unsliced type of a slice type (``AppleSliced`` -> ``Apple``)."""
    if object_type == "EggCracked":
        return "Egg"
    return object_type[:-6] if object_type.endswith("Sliced") else object_type


def half_size(object_type: str) -> tuple[float, float, float]:
    """Approximate half extents of an object type."""
    if object_type in HALF_SIZE:
        return HALF_SIZE[object_type]
    if object_type in SLICES:
        return SLICE_HALF
    return DEFAULT_HALF


def unit_size(object_type: str) -> float:
    """How much of a receptacle's capacity an object of this type uses."""
    if object_type in UNIT_SIZE:
        return UNIT_SIZE[object_type]
    return SLICE_UNIT if object_type in SLICES else DEFAULT_UNIT


def affordances(object_type: str) -> dict[str, bool]:
    """The boolean affordance flags AI2-THOR reports for an object type."""
    return {
        "pickupable": object_type in PICKUPABLE,
        "receptacle": object_type in RECEPTACLES,
        "openable": object_type in OPENABLE,
        "toggleable": object_type in TOGGLEABLE,
        "sliceable": object_type in SLICEABLE,
        "cookable": object_type in COOKABLE,
        "breakable": object_type in BREAKABLE,
        "dirtyable": object_type in DIRTYABLE,
        "canFillWithLiquid": object_type in FILLABLE,
    }


def accepts(receptacle_type: str, object_type: str) -> bool:
    """Whether AI2-THOR lets an object of ``object_type`` be put into ``receptacle_type``."""
    allowed = RECEPTACLE_ACCEPTS.get(receptacle_type)
    return allowed is not None and object_type in allowed
