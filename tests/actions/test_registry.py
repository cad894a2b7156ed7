"""The action grammar: parsing, validation messages, describe()."""

from __future__ import annotations

import pytest

from embodiedweb.actions import REGISTRY, ActionError


@pytest.mark.parametrize("text,name,args", [
    ("click [12]", "click", {"id": "12"}),
    ("click 12", "click", {"id": "12"}),
    ("  `click [12]`  ", "click", {"id": "12"}),
    ("CLICK [12]", "click", {"id": "12"}),
    ("type [7] [scrambled eggs] [1]", "type", {"id": "7", "text": "scrambled eggs", "enter": True}),
    ("type [7] [a [nested] text]", "type", {"id": "7", "text": "a [nested] text", "enter": False}),
    ("type [7] [ spaced ] [0]", "type", {"id": "7", "text": " spaced ", "enter": False}),
    ("type 7 hello world", "type", {"id": "7", "text": "hello world", "enter": False}),
    ("type [7] [opened in 1976] 1", "type", {"id": "7", "text": "opened in 1976", "enter": True}),
    ("type [7] [a [b] c]  0", "type", {"id": "7", "text": "a [b] c", "enter": False}),
    ("type [7] [eggs] 12", "type", {"id": "7", "text": "[eggs] 12", "enter": False}),
    ("type [7] [Pier 1]", "type", {"id": "7", "text": "Pier 1", "enter": False}),
    ("type [7] 1", "type", {"id": "7", "text": "1", "enter": False}),
    ("press [Control+a]", "press", {"key_comb": "Control+a"}),
    ("scroll [Down]", "scroll", {"direction": "down"}),
    ("tab_focus [2]", "tab_focus", {"index": 2}),
    ("goto [http://ewa.local/recipes/]", "goto", {"url": "http://ewa.local/recipes/"}),
    # a URL with brackets in it is one argument: all between the first '[' and the last ']'
    ("goto [/shop/search?q=[x]]", "goto", {"url": "/shop/search?q=[x]"}),
    ("goto [/shop/search?q=a]b&c[]=1]", "goto", {"url": "/shop/search?q=a]b&c[]=1"}),
    ("goto /shop/search?q=[x]", "goto", {"url": "/shop/search?q=[x]"}),
    ("goto [/wiki/", "goto", {"url": "/wiki/"}),
    ("PickupObject [Apple|+0.50|+0.90|-1.25]", "PickupObject", {"obj": "Apple|+0.50|+0.90|-1.25"}),
    ("pickupobject apple", "PickupObject", {"obj": "apple"}),
    ("PutObject [Pan]", "PutObject", {"obj": "Pan"}),
    ("MoveAhead", "MoveAhead", {}),
    ("move [n42]", "move", {"node_id": "n42"}),
    ("stop", "stop", {"answer": ""}),
    ("stop [40.75, -73.98; North America; United States; New York; 5th Ave]", "stop",
     {"answer": "40.75, -73.98; North America; United States; New York; 5th Ave"}),
    ("switch_environment [next: slice the tomato]", "switch_environment", {"message": "next: slice the tomato"}),
    ("switch_environment", "switch_environment", {"message": ""}),
    ("stop[x", "stop", {"answer": "x"}),
])
def test_parses(text, name, args):
    p = REGISTRY.parse(text)
    assert p.name == name and p.args == args and p.raw == text


@pytest.mark.parametrize("text,fragment", [
    ("", "Empty action"),
    ("clik [3]", "Did you mean 'click'"),
    ("click", "takes 1 argument"),
    ("click [3] [4]", "takes 1 argument"),
    ("goto [http://ewa.local/] [1]", "'goto' takes 1 argument(s), got 2"),
    ("goto [/shop/] please", "'goto' takes 1 argument(s), got 2"),
    ("click [a b]", "not an element id"),
    ("tab_focus [one]", "not a whole number"),
    ("scroll [left]", "not one of up, down"),
    ("type [3] [x] [2]", "0 or 1"),
    # a text without brackets ending in a lone flag: Enter, or part of the text? (stop 39: three players of four)
    ("type [13] Longhe 1", "`type [13] [Longhe] [1]` types 'Longhe' and presses Enter; `type [13] [Longhe 1]`"),
    ("type 13 3rd Ave & E 33rd St 0", "`type [13] [3rd Ave & E 33rd St] [0]` types '3rd Ave & E 33rd St' without"),
    ("type [13] Volkraak [enter]", "`type [13] [Volkraak] [1]` types 'Volkraak' and presses Enter"),
    ("type [13] Midtown East [1]", "`type [13] [Midtown East] [1]` types 'Midtown East' and presses Enter"),
    ("$$$", "Cannot read an action name"),
    ("click[", "not an element id"),
    ("CookObject [Potato]", "food cooks only with heat"),
    ("cookobject Egg", "switch it on"),
])
def test_errors_say_what_is_wrong(text, fragment):
    with pytest.raises(ActionError) as e:
        REGISTRY.parse(text)
    assert fragment in str(e.value), str(e.value)


def test_domain_filtering_and_describe():
    with pytest.raises(ActionError, match="kitchen action, not available"):
        REGISTRY.parse("PickupObject [Apple]", domains=("web", "street", "meta"))
    text = REGISTRY.describe(("web", "kitchen", "meta"))
    assert "click [id]" in text and "PutObject [receptacle]" in text and "switch_environment" in text
    assert "- forward:" not in text
    assert "move [node_id]" not in text
    assert "CookObject" not in text and "Heat cooks food" in text
    street = REGISTRY.describe(("web", "street", "meta"))
    assert "move [node_id]" in street and "PickupObject" not in street


def test_non_string_input():
    for bad in (None, 3, b"click [1]", ["click [1]"]):
        with pytest.raises(ActionError, match=f"must be a string, got {type(bad).__name__}. Valid actions: click"):
            REGISTRY.parse(bad)


def test_round_trip_rendering():
    for s in ("click [12]", "type [7] [hello] [1]", "stop [yes]", "PickupObject [Apple]", "scroll [down]"):
        assert str(REGISTRY.parse(s)) == s


# ------------------------------------------------------------------ grammar rules (mutation guards, issue 24)
def _registry(*specs):
    from embodiedweb.actions.registry import ActionRegistry

    return ActionRegistry(specs)


def _spec(name, *args, example=None):
    from embodiedweb.actions.registry import ActionSpec

    return ActionSpec(name, "web", tuple(args), f"{name} action.", example or name)


def _arg(name, kind, optional=False, **kw):
    from embodiedweb.actions.registry import Arg

    return Arg(name, kind, optional, **kw)


def test_a_fresh_registry_matches_names_without_regard_to_case():
    from embodiedweb.actions.registry import SPECS

    reg = _registry(*SPECS)
    assert reg.parse("pickupobject [Apple]").name == "PickupObject"
    assert reg.get("MOVEAHEAD") is reg.specs["MoveAhead"] and reg.get("nope") is None


def test_object_actions_are_kitchen_actions_taking_one_object():
    from embodiedweb.worlds.kitchen.world import object_action as _obj

    spec = _obj("PickupObject", "Pick up.", "PickupObject [Apple]")
    assert spec.domain == "kitchen" and spec.signature == "PickupObject [obj]"
    assert _obj("PutObject", "Put.", "PutObject [Pan]", "receptacle").signature == "PutObject [receptacle]"
    assert (spec.description, spec.example) == ("Pick up.", "PickupObject [Apple]")
    from embodiedweb.actions.registry import ActionSpec
    from embodiedweb.worlds.spec import bare_action as _bare

    assert _bare("MoveAhead", "kitchen", "Move.") == ActionSpec("MoveAhead", "kitchen", (), "Move.", "MoveAhead")
    reg = _registry(spec)
    assert reg.parse("PickupObject [Apple]", domains=("kitchen",)).domain == "kitchen"
    with pytest.raises(ActionError, match=r"'PickupObject' needs a obj\. Usage: PickupObject \[obj\]"):
        reg.parse("PickupObject [ ]", domains=("kitchen",))


@pytest.mark.parametrize("text,message", [
    ("PickupObject []", "'PickupObject' needs a obj. Usage: PickupObject [obj], e.g. `PickupObject [Apple]`"),
    ("move [ ]", "'move' needs a node_id."),
    ("goto []", "'goto' needs a url."),
    ("press []", "'press' needs a key_comb."),
    ("PickupObject [" + "A" * 2001 + "]", "The obj is too long (2001 characters). Usage: PickupObject [obj]"),
    ("stop [" + "a" * 10001 + "]", "The answer is too long (10001 characters, at most 10000)."),
    ("click [" + "1" * 33 + "]", "is not an element id; ids are the numbers in brackets"),
    ("click [12!]", "'12!' is not an element id"),
    ("tab_focus [1234567]", "'1234567' is not a whole number. Usage: tab_focus [index], e.g. `tab_focus [0]`"),
    ("tab_focus [1.5]", "'1.5' is not a whole number."),
    ("type [3] [x] [yes]", "The last argument of 'type' is 0 or 1, not 'yes'. Usage: type [id] [text] [0|1]?"),
    ("scroll [sideways]", "'sideways' is not one of up, down. Usage: scroll [up|down], e.g. `scroll [down]`"),
    ("click:12", "Cannot read 'click:12': put a space or '[' after 'click'. Usage: click [id]"),
    ("click", "'click' takes 1 argument(s), got 0. Usage: click [id], e.g. `click [12]`"),
    ("type [3]", "'type' takes 2 to 3 argument(s), got 1. Usage: type [id] [text] [0|1]?"),
    ("type", "'type' takes 2 to 3 argument(s), got 0."),
    ("MoveAhead [1]", "'MoveAhead' takes 0 argument(s), got 1."),
    ("clik [3]", "Unknown action 'clik'. Did you mean 'click'? Valid actions: click [id], type [id]"),
    ("frobnicate", "Unknown action 'frobnicate'. Valid actions:"),
    ("?? click", "Cannot read an action name in '?? click'. Valid actions:"),
    ("   ", "Empty action. Valid actions:"),
    ("Xclick [1]", "Unknown action 'Xclick'."),
    # three of four basket players wrote `select`, and difflib offered 'left'
    ("select [64] [Ninth Avenue Market]", "'select' is not an action here: to choose an option of a drop-down, "
                                          "click the option's id"),
    ("fill [7] [eggs]", "'fill' is not an action here: type [id] [text] replaces"),
    ("click [" + "!" * 60 + "]", "'" + "!" * 60 + "' is not an element id"),
    ("click [" + "!" * 61 + "]", "'" + "!" * 57 + "...' is not an element id"),
])
def test_error_messages_name_the_problem(text, message):
    with pytest.raises(ActionError) as e:
        REGISTRY.parse(text)
    assert message in str(e.value), str(e.value)


def test_length_limits_are_inclusive():
    assert REGISTRY.parse("PickupObject [" + "A" * 2000 + "]").args["obj"] == "A" * 2000
    assert REGISTRY.parse("stop [" + "a" * 10000 + "]").args["answer"] == "a" * 10000
    assert REGISTRY.parse("tab_focus [-123456]").args["index"] == -123456
    assert REGISTRY.parse("click [" + "a_-9" * 8 + "]").args["id"] == "a_-9" * 8


def test_error_lists_only_the_allowed_domains():
    with pytest.raises(ActionError) as e:
        REGISTRY.parse("", domains=("street",))
    msg = str(e.value)
    assert "forward, left, right, move [node_id]" in msg and "click" not in msg and "stop" not in msg
    with pytest.raises(ActionError, match="'click' is a web action, not available in this environment"):
        REGISTRY.parse("click [1]", domains=("kitchen", "meta"))


@pytest.mark.parametrize("flag,value", [("1", True), ("true", True), ("True", True), ("0", False),
                                        ("false", False), ("False", False)])
def test_enter_flag_spellings(flag, value):
    assert REGISTRY.parse(f"type [3] [x] [{flag}]").args["enter"] is value


def test_only_the_first_line_is_read():
    p = REGISTRY.parse("click [4]\nThen I will type.")
    assert p.args == {"id": "4"} and p.raw == "click [4]\nThen I will type."


def test_text_keeps_its_spaces_only_for_type():
    assert REGISTRY.parse("type [3] [  two  spaces ]").args["text"] == "  two  spaces "
    assert REGISTRY.parse("stop [  Paris  ]").args["answer"] == "Paris"
    assert REGISTRY.parse("type [3]  [x]   [1]").args == {"id": "3", "text": "x", "enter": True}


def test_free_text_then_more_arguments_splits_on_brackets():
    """A spec whose text is not last (or not alone): leading bracket groups are arguments, the rest is text."""
    reg = _registry(_spec("note", _arg("id", "id"), _arg("text", "text")),
                    _spec("pair", _arg("a", "id"), _arg("b", "id"), _arg("text", "text")),
                    _spec("say", _arg("text", "text"), _arg("loud", "flag", True, default=False)))
    assert reg.parse("note [3] [hello [world]]").args == {"id": "3", "text": "hello [world]"}
    assert reg.parse("note [3]   [x]").args == {"id": "3", "text": "x"}
    assert reg.parse("note [3] [unclosed").args == {"id": "3", "text": "unclosed"}
    assert reg.parse("note [3] bare words").args == {"id": "3", "text": "bare words"}
    assert reg.parse("note 3 hello world").args == {"id": "3", "text": "hello world"}
    assert reg.parse("pair [1] [2] [t]").args == {"a": "1", "b": "2", "text": "t"}
    assert reg.parse("say [a [b] c]").args == {"text": "a [b] c", "loud": False}
    assert reg.parse("say [a] []").args == {"text": "a", "loud": False}  # an empty flag is 0
    assert reg.parse("note [3] [a] [b]").args == {"id": "3", "text": "a] [b"}
    assert reg.describe(("web", "meta")).startswith("## Web actions") and not reg.describe(("meta",))
    assert REGISTRY.parse("stop [a] [b]").args == {"answer": "a] [b"}
    assert REGISTRY.parse("stop Times Square").args == {"answer": "Times Square"}
    assert REGISTRY.parse("type [7] [see [1] and [2]] [1]").args == {"id": "7", "text": "see [1] and [2]",
                                                                      "enter": True}
    assert REGISTRY.parse("click [AbC-9]").args == {"id": "AbC-9"}
    with pytest.raises(ActionError, match="'note' takes 2 argument"):
        reg.parse("note 3")


def test_bracketed_arguments_without_free_text():
    reg = _registry(_spec("pair", _arg("a", "id"), _arg("b", "id")))
    assert reg.parse("pair [1] [2]").args == {"a": "1", "b": "2"}
    assert reg.parse("pair [1] 2").args == {"a": "1", "b": "2"}  # text outside brackets is an argument too
    with pytest.raises(ActionError, match="'x!' is not an element id"):
        reg.parse("pair [1] x!")  # text outside brackets is an argument, reported as wrong
    with pytest.raises(ActionError, match="takes 2 argument"):
        reg.parse("pair [1] [2] [3]")


def test_signature_and_describe():
    assert REGISTRY.get("type").signature == "type [id] [text] [0|1]?"
    assert REGISTRY.get("scroll").signature == "scroll [up|down]"
    assert REGISTRY.get("stop").signature == "stop [answer]?"
    assert REGISTRY.get("PutObject").signature == "PutObject [receptacle]"
    text = REGISTRY.describe(("meta",))
    assert text.splitlines()[0] == "## Actions in both environments"
    assert "- stop [answer]?: End the episode, with an answer if the task asks for one. Example: `stop [Times Square]`" \
        in text
    short = REGISTRY.describe(("kitchen",), with_examples=False)
    assert short.startswith("## Kitchen actions (only while the embodied environment is active)\n[obj] is an objectId "
                            "(always that object; as in AI2-THOR its numbers are where the object started, not "
                            "where it is now: the scene text says where it is) or a type name: the nearest visible "
                            "instance (Teleport: the nearest anywhere, and when a closed receptacle hides it the "
                            "next observation names that receptacle); refused, listing the ids, when the visible "
                            "instances of that type differ in state.\n")
    assert "- MoveAhead: Move 0.25 m forward." in short and "Example:" not in short
    assert REGISTRY.describe(("street",)).startswith("## Street actions")
    assert REGISTRY.describe(("web",)).startswith("## Web actions (only while the web is active)")
    assert REGISTRY.names(("meta",)) == ["switch_environment", "stop"]


def test_rendering_leaves_out_empty_optionals_and_unknown_names():
    from embodiedweb.actions.registry import ParsedAction

    assert str(REGISTRY.parse("stop")) == "stop"
    assert str(REGISTRY.parse("type [3] [x]")) == "type [3] [x] [0]"
    assert str(ParsedAction("Unknown", "web", {"a": 1})) == "Unknown"
    assert REGISTRY.parse("click [1]").to_json() == {"name": "click", "domain": "web", "args": {"id": "1"}}


# ------------------------------------------------------------------ worlds declare their actions (issue 17)
from embodiedweb.actions.registry import ActionRegistry, ActionSpec, Arg, compose  # noqa: E402
from embodiedweb.worlds.base import EmbodiedWorld  # noqa: E402
from embodiedweb.worlds.kitchen.world import KitchenWorld  # noqa: E402
from embodiedweb.worlds.street.world import StreetWorld  # noqa: E402


def test_the_grammar_is_composed_from_the_worlds():
    assert REGISTRY.domains == ("web", "kitchen", "street", "meta", "dialogue")
    assert REGISTRY.names(["kitchen"]) == [s.name for s in KitchenWorld.action_specs]
    assert REGISTRY.names(["street"]) == [s.name for s in StreetWorld.action_specs]
    assert REGISTRY.describe(["kitchen"]).startswith(f"## {KitchenWorld.action_title}\n{KitchenWorld.action_note}")


class _Crane(EmbodiedWorld):
    kind = "crane"
    action_specs = (ActionSpec("Hoist", "crane", (Arg("load", "object"),), "Lift the load.", "Hoist [crate]"),)
    action_title = "Crane actions"


def test_a_new_world_joins_the_grammar_before_the_meta_actions():
    reg = compose([KitchenWorld, StreetWorld, _Crane])
    assert reg.domains == ("web", "kitchen", "street", "crane", "meta", "dialogue")
    assert reg.parse("hoist [crate]", ["crane"]).args == {"load": "crate"}
    assert "## Crane actions\n- Hoist [load]: Lift the load." in reg.describe()
    assert reg.add_world(_Crane) is False  # the same world again: nothing to add
    assert "Hoist" not in REGISTRY.specs  # a composed registry is its own


def test_a_world_that_clashes_is_refused():
    class Thief(EmbodiedWorld):
        kind = "thief"
        action_specs = (ActionSpec("click", "thief", (), "Click.", "click"),)

    class Liar(EmbodiedWorld):
        kind = "street"
        action_specs = (ActionSpec("jump", "street", (), "Jump.", "jump"),)

    class Mixed(EmbodiedWorld):
        kind = "mixed"
        action_specs = (ActionSpec("wave", "other", (), "Wave.", "wave"),)

    class Empty(EmbodiedWorld):
        kind = "empty"

    for bad, msg in ((Thief, "already in the grammar"), (Liar, "other actions"), (Mixed, "must be 'mixed'"),
                     (Empty, "declares no kind or no action_specs")):
        with pytest.raises(ValueError, match=msg):
            compose([KitchenWorld, StreetWorld, bad])
    assert isinstance(compose(), ActionRegistry)
