"""How ``type [id] [text]`` resolves a select's option (shared by the text and browser drivers)."""

from __future__ import annotations

from lxml import html

from embodiedweb.web.messages import plan_type


def _select(*labels: str):
    return html.fromstring("<select>" + "".join(f"<option>{x}</option>" for x in labels) + "</select>")


def test_an_option_is_named_by_its_label_without_the_price_note():
    el = _select("8 inch", "10 inch (+$6.00)", "12 inch (+$12.00)")
    plan, err = plan_type(el, 7, "10 inch", None)
    assert err == "" and plan.kind == "select" and plan.value == "10 inch (+$6.00)"
    plan, err = plan_type(el, 7, "10 inch (+$6.00)", None)
    assert err == "" and plan.value == "10 inch (+$6.00)"


def test_an_ambiguous_or_unknown_option_is_an_error_listing_the_options():
    el = _select("Red (matte)", "Red (gloss)", "Blue")
    plan, err = plan_type(el, 7, "Red", None)
    assert plan is None and err == "No option 'Red' in select [7]; options are: 'Red (matte)', 'Red (gloss)', 'Blue'."
    plan, err = plan_type(el, 7, "Green", None)
    assert plan is None and "options are" in err
