"""The natural readings of a hard description's words (stop 39): what a careful reader may take a word to
mean besides the wiki's classification, so that a description can be held to single out its place under
every one of them (:func:`embodiedweb.data_gen.described_places.unfair_readings`).

Two kinds of word have a wider reading:

- **a name that other names contain** (a neighbourhood, an architectural style, an architect): read also as
  every value of the same infobox field that contains it as whole words. "in Midtown" is also "in the wider
  Midtown" (Midtown, Midtown East, Midtown South); "Georgian" also "Georgian Revival"; "designed by Calvert
  Vaux" also "designed by Frederick Law Olmsted and Calvert Vaux" (a co-credit is a credit);
- **a kind word** (the infobox's Type): read also in its ordinary English sense where that is wider than the
  wiki's Type, per Type in :data:`KIND_READINGS`.

A description that a wider reading would make fit another place (or several) spells the wiki's
classification out (:data:`SPELLED`), so that the reading no longer applies.
"""

from __future__ import annotations

import re

#: the words of a description that have a wider reading: the kind and the infobox fields below
WIDENABLE = ("kind", "neighborhood", "style", "architect")
#: the infobox field each named fact reads
FIELD = {"neighborhood": "Neighborhood", "style": "Architectural style", "architect": "Architect"}
#: every Type (the reading of "landmark")
ALL = "*"
#: the Types of a kind word's ordinary English sense besides the wiki's own Type, and why:
#:
#: ============================ ========================= ===================================================
#: wiki Type                    read also as              because
#: ============================ ========================= ===================================================
#: Landmark                     every Type                 in English a landmark is any well-known building or
#:                                                         site: every place the wiki has an article on (Grand
#:                                                         Central Terminal, the Chrysler Building) is one
#: Skyscraper                   any place with 20+ floors  a skyscraper is any tall tower: the Waldorf Astoria
#:                                                         (Hotel, 47 floors), the Municipal Building (Civic,
#:                                                         40), the UN headquarters (Landmark, 39); the wiki's
#:                                                         lowest skyscraper has 22 (the Flatiron Building)
#: Shop                         Grocery store, Market      a grocery store is a shop; a market (Chelsea Market,
#:                                                         Eataly) is a place of shops and stalls
#: Grocery store                Market                     a food market (Essex Market, Eataly) sells groceries
#: Market                       Grocery store              American "market" is a grocery store ("Ninth Avenue
#:                                                         Market" is the name of one)
#: Public square                Park                       the wiki types squares and plazas as parks
#:                                                         (Stuyvesant Square, Dag Hammarskjöld Plaza)
#: Park                         Public square              squares such as Union Square and Foley Square are
#:                                                         laid out as parks
#: Performance and event venue  Theatre                    a theatre is a performance venue
#: Theatre                      Performance and event      a hall with a stage and seats (The Town Hall,
#:                              venue                      Carnegie Hall) is a theatre in the wider sense
#: Library                      Educational institution    NYU's entry is its Bobst Library
#: Museum                       Memorial                   the 9/11 Memorial & Museum and Federal Hall are run
#:                                                         as museums
#: Memorial                     Landmark                   monuments (the Washington Square Arch, raised in
#:                                                         Washington's memory) are typed Landmark
#: Civic building               Memorial, Museum           Federal Hall and the Alexander Hamilton U.S. Custom
#:                                                         House were built as federal buildings
#: Transit station, Hotel,      (none)                     no place of another Type is one in English
#: House of worship, Bridge,
#: Educational institution
#: ============================ ========================= ===================================================
KIND_READINGS: dict[str, frozenset[str] | str] = {
    "Landmark": ALL,
    "Skyscraper": frozenset(),
    "Shop": frozenset({"Grocery store", "Market"}),
    "Grocery store": frozenset({"Market"}),
    "Market": frozenset({"Grocery store"}),
    "Public square": frozenset({"Park"}),
    "Park": frozenset({"Public square"}),
    "Performance and event venue": frozenset({"Theatre"}),
    "Theatre": frozenset({"Performance and event venue"}),
    "Library": frozenset({"Educational institution"}),
    "Museum": frozenset({"Memorial"}),
    "Memorial": frozenset({"Landmark"}),
    "Civic building": frozenset({"Memorial", "Museum"}),
}
#: a place of any Type with at least this many floors in its infobox is a skyscraper in English
SKYSCRAPER_FLOORS = 20


def kind_covers(kind: str, box: dict[str, str]) -> bool:
    """Whether the kind word of the wiki Type ``kind``, read in its ordinary English sense
    (:data:`KIND_READINGS`), covers the place of infobox ``box``."""
    also = KIND_READINGS.get(kind, frozenset())
    if box["Type"] == kind or also == ALL or box["Type"] in also:
        return True
    return kind == "Skyscraper" and box.get("Floors", "").isdigit() and int(box["Floors"]) >= SKYSCRAPER_FLOORS


def value_covers(value: str, other: str) -> bool:
    """Whether a named fact ``value`` (a neighbourhood, a style, an architect), read widely, covers the
    infobox value ``other``: ``other`` is ``value`` or contains it as whole words ("Midtown" covers
    "Midtown East"; "Warren and Wetmore" covers "Reed and Stem; Warren and Wetmore")."""
    return other == value or re.search(rf"(?<!\w){re.escape(value)}(?!\w)", other) is not None


def wider_values(value: str, values: list[str]) -> list[str]:
    """The other values of ``values`` that ``value`` read widely covers, sorted."""
    return sorted({v for v in values if v != value and value_covers(value, v)})


def spelled_phrases(kind: str, key: str, value: str, others: list[str]) -> str:
    """The wording that spells the wiki's classification out for ``key`` (``kind`` or a named fact), so that
    its wider reading no longer applies (``others``: the values the wider reading would add)."""
    if key == "kind":
        return f"place whose wiki Type is {kind}"
    if key == "neighborhood":
        return f"in the neighbourhood the wiki calls {value} (not {_or(others)})"
    if key == "style":
        return f"{value} (not {_or(others)})"
    return "(no other architect credited)"


def _or(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " or " + items[-1]
