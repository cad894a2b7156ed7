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
    ("press [Control+a]", "press", {"key_comb": "Control+a"}),
    ("scroll [Down]", "scroll", {"direction": "down"}),
    ("tab_focus [2]", "tab_focus", {"index": 2}),
    ("goto [http://ewa.local/recipes/]", "goto", {"url": "http://ewa.local/recipes/"}),
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
    ("click [a b]", "not an element id"),
    ("tab_focus [one]", "not a whole number"),
    ("scroll [left]", "not one of up, down"),
    ("type [3] [x] [2]", "0 or 1"),
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
        with pytest.raises(ActionError, match="must be a string"):
            REGISTRY.parse(bad)


def test_round_trip_rendering():
    for s in ("click [12]", "type [7] [hello] [1]", "stop [yes]", "PickupObject [Apple]", "scroll [down]"):
        assert str(REGISTRY.parse(s)) == s
