"""Per-turn checkers of EWA-Assistant-v0: each reads the semantic states at the turn's start (``before``)
and at ``done`` (``after``): the world, the sites' per-session state and the browser's tabs, never pages.

Answers are strict: the right name must be in the answer and no other candidate's, where the candidates are
every name of the kind asked for, not only the ones in play: every recipe of the site, every product of the
shop, every place of the city, every architect on the wiki (naming both recipes, every product ordered, every
museum of the city or every architect on the wiki is a hedge and fails). A name counts as given with its words in
the singular or the plural ("Russet Potatoes" names Russet Potato) and a person's as first and last name without
the middle names ("Herbert Krapp" names Herbert J. Krapp), when that form is no other candidate's
(:class:`Candidates`). Actions are strict too: the orders placed during the turn must be exactly the one asked
for (an extra order, a second product or another store fails; one cancelled during the turn is no order, and
cancelling an earlier turn's order, or taking out the food an earlier turn put away, fails any turn:
:func:`earlier_work_kept`), the recipe tabs opened must be exactly the ones
asked for, nothing but the food asked for may be put into the place it is asked into, and "go back to the tab"
means that tab.
"""

from __future__ import annotations

import itertools
import re
from collections import Counter
from collections.abc import Callable, Iterable
from functools import lru_cache
from typing import Any
from urllib.parse import urlsplit

from embodiedweb.text import NAME_ABBREVIATIONS, fold

#: the path of a recipe's page: its overview or one of its steps
_RECIPE = re.compile(r"/recipes/recipe/(r\d+)(?:/step/(\d+))?/?")


def norm(text: str | None) -> str:
    """A name as it is matched (:func:`embodiedweb.text.fold`: casefolded, accents stripped, punctuation to
    spaces), with ``&`` and ``+`` read as "and" and ``St.``, ``Mt.`` ... spelled out: ``Carrere & Hastings`` names
    Carrère and Hastings, ``St. Thomas Church`` Saint Thomas Church."""
    words = fold((text or "").replace("&", " and ").replace("+", " and ")).split()
    return " ".join(SPELLINGS.get(w, NAME_ABBREVIATIONS.get(w, w)) for w in words)


#: British spellings read as the American ones (stop 38: the wiki's infobox writes "Ed Sullivan Theatre", the city
#: "Ed Sullivan Theater"; one word spelt two ways is one name)
SPELLINGS = {"theatre": "theater", "theatres": "theaters", "centre": "center", "centres": "centers", "metre": "meter",
             "metres": "meters", "litre": "liter", "fibre": "fiber", "harbour": "harbor", "harbours": "harbors",
             "colour": "color", "colours": "colors", "neighbour": "neighbor", "neighbourhood": "neighborhood",
             "labour": "labor", "honour": "honor", "parlour": "parlor", "jewellery": "jewelry", "grey": "gray",
             "storey": "story", "programme": "program", "catalogue": "catalog", "plough": "plow"}


def names(answer: str, name: str) -> bool:
    """Whether ``answer`` names ``name`` (as whole words)."""
    a, n = f" {norm(answer)} ", f" {norm(name)} "
    return n.strip() != "" and n in a


def number_free(word: str) -> str:
    """A word with its simple plural ending taken off (``potatoes`` -> ``potato``, ``berries`` -> ``berry``,
    ``apples`` -> ``apple``; ``glass``, ``hummus``, ``bus`` stay): a word and its plural give the same."""
    if len(word) <= 3 or word.endswith(("ss", "us", "is")) or not word.endswith("s"):
        return word
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    if word.endswith("es") and word[:-2].endswith(("o", "ch", "sh", "x", "ss", "z")):
        return word[:-2]
    return word[:-1]


#: words after a person's last name (kept: "James Renwick Jr." is not "James Jr.")
_SUFFIXES = frozenset({"jr", "sr", "ii", "iii", "iv"})
#: name particles ("Ludwig Mies van der Rohe": the last word alone is not the surname)
_PARTICLES = frozenset({"van", "von", "der", "den", "de", "du", "da", "di", "del", "la", "le"})
#: words that mark a firm's name, not a person's ("Gordon Gill Architecture")
_FIRM_WORDS = frozenset({"architects", "architecture", "associates", "partners", "operations", "studio", "group",
                         "company", "co", "sons", "inc", "llc", "office", "firm"})
#: where a name of several people or firms splits into them ("Reed and Stem; Warren and Wetmore")
_JOIN = re.compile(r"(\s*(?:;|,|&|\+|\band\b)\s*)")


def _initials(person: str) -> str | None:
    """A person's name with every given name as its initial, in order, and the last name ("H. J. Krapp" for Herbert J.
    Krapp, :func:`norm`-ed: "h j krapp"), or None when :func:`_short` reads it as no person's (stop 38)."""
    core = person.split()
    tail = [core.pop()] if core and norm(core[-1]) in _SUFFIXES else []
    if len(core) < 2 or {norm(w) for w in core} & (_PARTICLES | _FIRM_WORDS):
        return None
    given = [norm(w)[:1] for w in core[:-1]]
    return norm(" ".join([*given, core[-1], *tail])) if all(given) else None


def _short(person: str) -> str | None:
    """A person's name without its middle names or initials (first and last word, and a suffix such as Jr.;
    words as written, so "Joseph-François" is one), or None when it has none or is not read as a person's (a
    particle, a firm's word)."""
    core = person.split()
    tail = [core.pop()] if core and norm(core[-1]) in _SUFFIXES else []
    if len(core) < 3 or {norm(w) for w in core} & (_PARTICLES | _FIRM_WORDS):
        return None
    return norm(" ".join([core[0], core[-1], *tail]))


class Candidates:
    """The names an answer is judged against, and how each counts as given (as whole words, see :func:`norm`):

    * as written;
    * with its words in the singular or the plural (:func:`number_free`), unless another candidate then reads the
      same ("Eggs" does not name Egg when the shop sells both);
    * for ``people`` (not in ``firms``): each person in it ("Raymond Hood and John Mead Howells" is two) by first
      and last name, the middle names or initials dropped ("Herbert Krapp", "Henry Hardenbergh"), unless another
      person among the candidates has that short form too or is called so.
    """

    def __init__(self, names: Iterable[str], people: bool = False, firms: Iterable[str] = ()) -> None:
        self.names = list(dict.fromkeys(n for n in names if norm(n)))
        self.known = frozenset(self.names)
        self.people, self.firms = people, tuple(firms)
        firm = {norm(f) for f in self.firms}
        parts = {n: _JOIN.split(n) for n in self.names}
        persons = {norm(p): p for n in self.names for p in parts[n][::2] if people and len(norm(p).split()) >= 2}
        short: dict[str, set[str]] = {}
        initials: dict[str, set[str]] = {}
        for key, p in persons.items():
            if (s := _short(p)) is not None:
                short.setdefault(s, set()).add(key)
            if (i := _initials(p)) is not None:
                initials.setdefault(i, set()).add(key)
        unique = {next(iter(ks)): s for s, ks in short.items() if len(ks) == 1 and s not in persons}
        # a person by the initials of all the given names, unless another person has those initials too (stop 38)
        by_initials = {next(iter(ks)): i for i, ks in initials.items() if len(ks) == 1 and i not in persons
                       and i not in short}
        self.forms: dict[str, set[str]] = {}
        for n in self.names:
            shorten = people and norm(n) not in firm and not _FIRM_WORDS & set(norm(n).split())
            choices = []
            for i, p in enumerate(parts[n]):  # parts at even places, what joins them between
                s = unique.get(norm(p)) if shorten and i % 2 == 0 else None
                ini = by_initials.get(norm(p)) if shorten and i % 2 == 0 else None
                choices.append([p, *(x for x in (s, ini) if x)])
            self.forms[n] = {norm("".join(c)) for c in itertools.product(*choices)}
        keys: dict[str, set[str]] = {}
        for n, fs in self.forms.items():
            for f in fs:
                keys.setdefault(self._free(f), set()).add(n)
        #: names whose singular/plural-free form is another candidate's too: these count only as written
        self.exact_only = {n for ns in keys.values() if len(ns) > 1 for n in ns}

    @staticmethod
    def _free(text: str) -> str:
        return " ".join(number_free(w) for w in text.split())

    def named(self, answer: str, name: str) -> bool:
        """Whether ``answer`` names ``name`` (a candidate, or any name: then as written and in the other number)."""
        forms = self.forms.get(name) or {norm(name)}
        a = f" {norm(answer)} "
        if any(f" {f} " in a for f in forms if f):
            return True
        if name in self.exact_only:
            return False
        a = f" {self._free(a)} "
        return any(f" {self._free(f)} " in a for f in forms if f)

    def mentions(self, text: str, name: str) -> list[tuple[int, int]]:
        """The (start, end) of each place where ``text``, an answer already :func:`norm`-ed, names ``name`` (as
        :meth:`named` reads it: a form of it word by word, in the other number unless it counts only as written)."""
        words = [(m.group(), m.start(), m.end()) for m in re.finditer(r"\S+", text)]
        free = [number_free(w) for w, _s, _e in words]
        loose = name not in self.exact_only
        out: set[tuple[int, int]] = set()
        for f in self.forms.get(name) or {norm(name)}:
            fw = f.split()
            n, ffw = len(fw), [number_free(w) for w in fw]
            for i in range(len(words) - n + 1):
                if [w for w, _s, _e in words[i:i + n]] == fw or loose and free[i:i + n] == ffw:
                    out.add((words[i][1], words[i + n - 1][2]))
        return sorted(out)

    def others_named(self, answer: str, name: str) -> list[str]:
        """The candidates besides ``name`` that ``answer`` names, but those that naming ``name`` names too
        ("Raymond Hood" in "Raymond Hood and André Fouilhoux")."""
        return [n for n in self.names if n != name and self.named(answer, n) and not self.named(name, n)]


@lru_cache(maxsize=1)
def recipe_names() -> tuple[str, ...]:
    """Every recipe's name on the recipe site."""
    from web_sites.recipes import catalog

    return tuple(sorted({r["name"] for r in catalog.recipes()}))


@lru_cache(maxsize=1)
def product_names() -> tuple[str, ...]:
    """Every product's name in the shop."""
    from web_sites.shop import catalog

    return tuple(sorted({p["name"] for p in catalog.products()}))


@lru_cache(maxsize=1)
def place_names() -> tuple[str, ...]:
    """Every place of the city (each has its wiki article)."""
    from web_sites.wiki import catalog

    return tuple(sorted({a["title"] for a in catalog.articles() if a.get("kind") == "place"}))


@lru_cache(maxsize=1)
def architect_names() -> tuple[tuple[str, ...], tuple[str, ...]]:
    """Every architect on the wiki (an article's architect, an architect's article), and which are firms (an
    architect's article that says so)."""
    from web_sites.wiki import catalog

    arts = catalog.articles()
    facts = {str(a["facts"]["architect"]) for a in arts if (a.get("facts") or {}).get("architect")}
    titled = [a for a in arts if a.get("kind") == "architect"]
    firms = {a["title"] for a in titled if re.search(r"\bfirm\b", a.get("lead") or "")}
    return tuple(sorted(facts | {a["title"] for a in titled})), tuple(sorted(firms))


def recipe_of(url: str) -> str | None:
    """The recipe id a tab at ``url`` shows: its path is the recipe's overview or one of its steps, and the site
    has that recipe and step (a red-team review opened ``/wiki/search?q=/recipes/recipe/r012`` and
    ``/recipes/recipe/r012/step/999``, a search page and a "step not found" page, and both counted); else None."""
    from web_sites.recipes import catalog

    m = _RECIPE.fullmatch(urlsplit(url or "").path)
    if not m:
        return None
    recipe = catalog.shown(m.group(1))
    if recipe is None or m.group(2) is not None and not 1 <= int(m.group(2)) <= len(recipe["steps"]):
        return None
    return m.group(1)


def _tab_recipes(snap: dict[str, Any]) -> Counter:
    return Counter(r for r in (recipe_of(u) for u in snap["browser"]["tabs"]) if r)


def _active_recipe(snap: dict[str, Any]) -> str | None:
    b = snap["browser"]
    return recipe_of(b["tabs"][b["active"]]) if 0 <= b["active"] < len(b["tabs"]) else None


def _new_orders(before: dict[str, Any], after: dict[str, Any]) -> list[dict[str, Any]]:
    """The orders placed during the turn that stand at its end (one placed and cancelled is no order)."""
    from web_sites.shop.catalog import live_orders

    seen = {o["order_id"] for o in before["web"].get("shop", {}).get("orders", [])}
    return [o for o in live_orders(after["web"].get("shop", {}).get("orders", [])) if o["order_id"] not in seen]


def _cancelled_orders(before: dict[str, Any], after: dict[str, Any]) -> list[str]:
    """The orders that stood at the turn's start and were cancelled during it (sorted ids)."""
    from web_sites.shop.catalog import live_orders

    stood = {o["order_id"] for o in live_orders(before.get("web", {}).get("shop", {}).get("orders", []))}
    return sorted(o["order_id"] for o in after.get("web", {}).get("shop", {}).get("orders", [])
                  if o["order_id"] in stood and o.get("status") == "cancelled")


def _result(ok: bool, why: str = "") -> dict[str, Any]:
    return {"ok": ok, "why": "" if ok else why}


def open_two(e: dict[str, Any], before: dict[str, Any], after: dict[str, Any], answer: str) -> dict[str, Any]:
    """The recipe tabs gained during the turn show exactly the two recipes, each in its own new tab (the
    instruction asks for two new tabs: one result loaded in the tab that was there does not count; closing the
    tab the turn started on afterwards is fine). A new tab is one whose serial number (``browser.ids``) was not
    there when the turn started."""
    gained = _tab_recipes(after) - _tab_recipes(before)
    want = set(e["recipes"])
    if set(gained) != want:
        return _result(False, f"recipe tabs opened {sorted(gained)}, asked {sorted(want)}")
    b, a = before["browser"], after["browser"]
    if len(a.get("ids", ())) != len(a["tabs"]) or len(b.get("ids", ())) != len(b["tabs"]):  # no serials: count
        new_tabs = len(a["tabs"]) - len(b["tabs"])
        return _result(new_tabs >= 2, f"{new_tabs} new tab(s) opened, asked two")
    new = {recipe_of(u) for i, u in zip(a["ids"], a["tabs"], strict=True) if i not in set(b["ids"])}
    missing = sorted(want - new)
    return _result(not missing, f"{', '.join(missing)} not in a tab opened during the turn")


def focus(e: dict[str, Any], before: dict[str, Any], after: dict[str, Any], answer: str) -> dict[str, Any]:
    """The active tab shows the recipe referred to, and is the tab (by its serial number, ``browser.ids``) that
    showed it when the turn started: "go back to the tab of the first one" is not done by loading the first one in
    another tab. (When no tab showed it at the start, or the browser gives no serials, the recipe shown is
    enough: there was no tab to go back to.)"""
    got = _active_recipe(after)
    if got != e["recipe"]:
        return _result(False, f"active tab shows {got}, asked {e['recipe']}")
    b, a = before["browser"], after["browser"]
    if len(a.get("ids", ())) != len(a["tabs"]) or len(b.get("ids", ())) != len(b["tabs"]):
        return _result(True)
    tabs = {i for i, u in zip(b["ids"], b["tabs"], strict=True) if recipe_of(u) == e["recipe"]}
    return _result(not tabs or a["ids"][a["active"]] in tabs,
                   f"the active tab is not the one that showed {e['recipe']} (it was loaded in another tab)")


def answer_name(e: dict[str, Any], before: dict[str, Any], after: dict[str, Any], answer: str,
                among: Iterable[str] = (), people: bool = False, firms: Iterable[str] = (),
                comparison: bool = False) -> dict[str, Any]:
    """The answer names the right one and none of the other candidates: the turn's ``others`` and ``among``
    (every name of the kind asked for; ``people``, ``firms``: see :class:`Candidates`); on a ``comparison`` turn a
    name the answer compares the right one against is not offered (:func:`_read`)."""
    among, firms = tuple(among), tuple(firms)
    turn = [e["name"], *e.get("others", [])]
    catalog = _catalog(among, people, firms) if among else None
    # the turn's names are the catalog's own (a recipe, a product, a place): its candidates, built once
    c = catalog if catalog is not None and catalog.known.issuperset(turn) else Candidates([*turn, *among], people, firms)
    if not c.named(answer, e["name"]):
        return _result(False, f"answer does not name {e['name']!r}")
    hedged = c.others_named(answer, e["name"])
    # the candidates the right name's own words name ("Central Park" in "Central Park Tower"), said besides it
    inside = [n for n in c.names if n != e["name"] and c.named(e["name"], n) and c.named(answer, n)]
    read = _read(c, answer, e["name"], hedged, inside, comparison)
    if read is not None:  # judged by what the answer names on its own and does not deny
        hedged, right_said, right_denied = read
        if right_denied == "compared":
            return _result(False, f"answer gives another over {e['name']!r} (it says {e['name']!r} after "
                                  f"'than', 'over', 'beats', 'since' ...: the name said first is the one given)")
        if right_denied:
            return _result(False, f"answer denies {e['name']!r}")
        if not right_said:
            return _result(False, f"answer does not name {e['name']!r} (only denies names)")
    if hedged and c is catalog:  # listed as they would be with the turn's own names first
        first = dict.fromkeys([*turn, *among])
        hedged = sorted(hedged, key=list(first).index)
    if hedged:
        return _result(False, f"answer also names {hedged[:5]}{' ...' if len(hedged) > 5 else ''}")
    item = unread_name(c, answer)
    if item is not None:
        return _result(False, f"answer offers {item!r} as an alternative, which names none of the candidates: a hedge")
    item = unread_listed(c, answer, e["name"])
    return _result(item is None, f"answer lists {item!r} beside the name, which names none of the candidates: "
                                 f"another name the judge cannot check (a hedge)")


def unread_name(c: Candidates, answer: str) -> str | None:
    """The first alternative the answer offers (:func:`~embodiedweb.domains.outdoor.answers.alternatives`, the
    traveling judge's rule: "X or Y", "X / Y", "X, or possibly Y") that names none of the candidates ``c``, or None:
    such an alternative is another name the judge cannot read, so the answer is a hedge ("Ed Sullivan Theater or the
    Apollo Theater", "Herbert J. Krapp / Thomas W. Lamb", a name unknown to this world; stop 38: they passed until
    assistant checker version 10)."""
    from embodiedweb.domains.outdoor.answers import alternatives, fold

    text = fold(answer or "")
    # a candidate's own name written whole is one name, whatever it holds ("Fifth Avenue/53rd Street station",
    # "Cola, 2 liter"): it is read before the answer is cut
    for n in sorted(c.names, key=len, reverse=True):
        if (f := fold(n)) in text:
            text = text.replace(f, f" {_WHOLE} ")
    for a, b in alternatives(text, _NAME_FILLER):
        if _WHOLE not in text[a:b] and not any(c.named(text[a:b], n) for n in c.names):
            return " ".join(text[a:b].split())
    return None


def unread_listed(c: Candidates, answer: str, name: str) -> str | None:
    """The first item of the answer's list (:func:`~embodiedweb.domains.outdoor.answers.list_items`: commas, "and",
    "&", ";", brackets, a line break, a new sentence) that names none of the candidates ``c``, holds a word that is not
    a word of the right ``name`` and is a name of its own by the traveling judge's rule
    (:func:`~embodiedweb.domains.outdoor.answers.offers_value`: no context word such as "the", "on", "where"), or
    None. "Ed Sullivan Theater, Apolo Theatre", "Herbert J. Krapp, Tomas Lamb" are hedges (stop 39: they passed
    until assistant checker version 11); "Ed Sullivan Theater, on Broadway", "Herbert J. Krapp, the architect",
    "McKim, Mead and White" (the right name's own words) are not."""
    from embodiedweb.domains.outdoor.answers import fold, value_items

    text = fold(answer or "")
    for n in sorted(c.names, key=len, reverse=True):
        if (f := fold(n)) in text:
            text = text.replace(f, f" {_WHOLE} ")
    own = {_stem(w) for w in norm(name).split()}
    for a, b in value_items(text, "name", _NAME_FILLER):
        item = text[a:b]
        if _WHOLE not in item and not {_stem(w) for w in norm(item).split()} <= own and \
                not any(c.named(item, n) for n in c.names):
            return " ".join(item.split())
    return None


def _stem(word: str) -> str:
    """A word without its plural ending ("blueberries" -> "blueberry", "tomatoes" -> "tomato"), for
    :func:`unread_listed`'s words of the right name."""
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    if word.endswith("oes") or word.endswith(("ches", "shes", "xes")):
        return word[:-2]
    return word[:-1] if word.endswith("s") and not word.endswith("ss") and len(word) > 3 else word


#: what stands for a candidate's name written whole while an answer is cut into alternatives (:func:`unread_name`)
_WHOLE = "xcandidatex"


#: words an alternative of a name answer may hold beside a name or alone (titles, "the one", "option")
_NAME_FILLER = frozenset({"mr", "mrs", "ms", "dr", "prof", "sir", "option", "choice", "done", "first", "second",
                          "recipe", "product", "place", "architect"})


def _read(c: Candidates, answer: str, name: str, others: list[str], inside: list[str], comparison: bool = False
          ) -> tuple[list[str], bool, str] | None:
    """How the answer names ``name`` and the other candidates it names: ``others`` (besides it) and ``inside`` (the
    candidates that ``name``'s own words name, "Central Park" in "Central Park Tower"). ``None`` when it denies none
    of them and names none of ``inside`` (the answer is judged as before); else (those of ``others`` and ``inside``
    it names on their own, not denied; whether it names ``name`` so; whether it denies ``name`` anywhere: then it
    fails, as "Y, not X" does). A mention inside a longer one is the longer one's ("Central Park" in "Central Park
    Tower" is the tower), so "Central Park Tower or Central Park" names both (until assistant checker version 8 a
    candidate inside the right name counted for nothing wherever it was said: 15 of 112 place turns and 9 of 35
    architect turns could be hedged so). A denial is the traveling judge's rule for a choice
    (:func:`~embodiedweb.domains.outdoor.answers.denied`, one function): "X, not Y", "not Y but X", "X rather
    than Y" name X only; a hedge word before the "not" makes it no denial ("Y, if not X" names both); a denial
    reaches the names joined to it by "or"/"nor" ("not Y or X" names neither), but not after a comma ("X, not Y,
    or Y" names Y). Until assistant checker version 8 a denied name counted as named, so a careful answer to
    "which of those two ...?" that ruled the other out failed (59 of 60 episodes).

    On a ``comparison`` turn a name set against the one given is ruled out too
    (:func:`~embodiedweb.domains.outdoor.answers.compared_against`, by the same rule as a denial): "X beats Y", "X is
    quicker than Y", "X over Y", "X, since Y takes longer" give X; "Y is slower than X" gives Y and fails when X is
    right (the name said first is the one given), and a hedge stays a hedge ("X or Y", "X if it is quicker than Y",
    "X beats Y, or Y beats X"). Until assistant checker version 9 every such answer failed (0 of 452 comparison
    turns). The third item is "" when ``name`` is not ruled out, else "denied" or "compared"."""
    from embodiedweb.domains.outdoor.answers import OR_NEXT, compared_against, denied

    # after a comma, "or" offers another: the comma is kept as a word, since :func:`norm` drops punctuation
    # and "isn't" is "is not" (:func:`norm` would make it "isn t")
    text = re.sub(r"(?<=\w)n['’]t\b", " not", answer or "", flags=re.IGNORECASE)
    text = norm(re.sub(r",\s*(?=(?:or|nor)\b)", " xcommax ", text, flags=re.IGNORECASE))
    cues = r"not|rather than|instead of" + (r"|than|over|beats?|beating|ahead of|compared (?:to|with)|since|because"
                                            r"|whereas|while" if comparison else "")
    denies = re.search(rf"\b(?:{cues})\b", text) is not None
    if not denies and not inside:
        return None
    spans = [(s, t, n) for n in dict.fromkeys([name, *others, *inside]) for s, t in c.mentions(text, n)]
    hits: list[tuple[int, int, str]] = []
    for s, t, n in sorted(spans, key=lambda x: (x[0] - x[1], x[0])):  # the longest first: one inside it is it
        if not any(s < b and a < t for a, b, _n in hits):
            hits.append((s, t, n))
    said: set[str] = set()
    ruled_out: dict[str, str] = {}
    before: tuple[int, str] | None = None
    for s, t, n in sorted(hits):
        carried = before is not None and before[1] and OR_NEXT.fullmatch(text, before[0], s) is not None
        how = "" if not denies else before[1] if carried and before is not None else "denied" if denied(text, s) \
            else "compared" if comparison and compared_against(text, s) else ""
        if how:
            ruled_out.setdefault(n, how)
        else:
            said.add(n)
        before = (t, how)
    return [n for n in dict.fromkeys([*others, *inside]) if n in said], name in said, ruled_out.get(name, "")


@lru_cache(maxsize=16)
def _catalog(among: tuple[str, ...], people: bool, firms: tuple[str, ...]) -> Candidates:
    """The :class:`Candidates` of a whole catalog (every recipe, product, place or architect), built once: a
    turn whose names are all in it is judged by it as by the candidates of its names and the catalog's."""
    return Candidates(among, people, firms)


def answer_recipe(e: dict[str, Any], before: dict[str, Any], after: dict[str, Any], answer: str) -> dict[str, Any]:
    """The answer names the right recipe and no other recipe of the site; the other of the two may be named as the
    one it is compared against ("X is quicker than Y", :func:`_read`)."""
    return answer_name(e, before, after, answer, recipe_names(), comparison=True)


def answer_product(e: dict[str, Any], before: dict[str, Any], after: dict[str, Any], answer: str) -> dict[str, Any]:
    """The answer names the right product and no other product of the shop."""
    return answer_name(e, before, after, answer, product_names())


def answer_place(e: dict[str, Any], before: dict[str, Any], after: dict[str, Any], answer: str) -> dict[str, Any]:
    """The answer names the right place and no other place of the city (not only those in sight: a list of every
    museum of the city names the one in sight too)."""
    return answer_name(e, before, after, answer, place_names())


def order(e: dict[str, Any], before: dict[str, Any], after: dict[str, Any], answer: str) -> dict[str, Any]:
    """Exactly one order placed during the turn and standing at its end: at the store, for the delivery asked,
    holding one unit of the product and nothing else; an order placed by mistake and cancelled during the turn
    does not count (cancelling an order of an earlier turn, which was not asked, fails this turn as it fails every
    turn: :func:`earlier_work_kept`)."""
    new = _new_orders(before, after)
    if len(new) != 1:
        return _result(False, f"{len(new)} orders placed, asked 1")
    o = new[0]
    items = [(i["product_id"], i["qty"]) for i in o["items"]]
    if o["store_id"] != e["store"]:
        return _result(False, f"ordered at {o['store_id']}, asked {e['store']}")
    if o["delivery"] != e["delivery"]:
        return _result(False, f"delivery {o['delivery']}, asked {e['delivery']}")
    return _result(items == [(e["product"], 1)], f"ordered {items}, asked [({e['product']!r}, 1)]")


def active_recipe(e: dict[str, Any], before: dict[str, Any], after: dict[str, Any], answer: str) -> dict[str, Any]:
    """The active tab shows the recipe asked for, or one of them (``recipes``: the quickest when several tie)."""
    got = _active_recipe(after)
    asked = e.get("recipes") or [e["recipe"]]
    return _result(got in asked, f"active tab shows {got}, asked {' or '.join(asked)}")


def food_seen(e: dict[str, Any], before: dict[str, Any], after: dict[str, Any]) -> dict[str, Any] | None:
    """A grounded turn's food was seen at its place: a piece of it that lay there at the turn's start is among
    what the kitchen records as seen this episode (in view, or in a receptacle the agent opened) by ``done``.
    The turn is about "the food in the fridge": only looking there tells which food it is, and a food worked
    out without looking (from the foods seen elsewhere, or which spots of a kitchen hold the same food) is a
    guess. None (no objection) when the place holds no such food or the kitchen keeps no record (``teleport``
    not ``seen``)."""
    seen = after["world"].get("seen")
    if seen is None or not e.get("place") or not e.get("food"):
        return None
    there = [o["objectId"] for o in before["world"]["objects"]
             if o["objectType"] == e["food"] and e["place"] in (o.get("parentReceptacles") or [])]
    if not there or set(there) & set(seen):
        return None
    return _result(False, f"the food at {e['place']} was never seen (look at it there)")


def _seeing(check: Callable[..., dict[str, Any]]) -> Callable[..., dict[str, Any]]:
    """``check``, after :func:`food_seen`."""

    def grounded(e: dict[str, Any], before: dict[str, Any], after: dict[str, Any], answer: str) -> dict[str, Any]:
        return food_seen(e, before, after) or check(e, before, after, answer)

    grounded.__doc__ = f"{(check.__doc__ or '').strip()} The food at the place was seen (:func:`food_seen`)."
    return grounded


def moved(e: dict[str, Any], before: dict[str, Any], after: dict[str, Any], answer: str) -> dict[str, Any]:
    """The object the instruction points at now rests in the destination (directly), and nothing else was put
    into it during the turn (no object that was not in it at the turn's start is in it now, at any depth; what
    is inside the object moved goes along). The destination is the place the user names: "the sink" is the
    sink basin or the sink (:func:`~embodiedweb.domains.assistant.grounding.place_ids`)."""
    from embodiedweb.domains.assistant.grounding import place_ids

    objs = {o["objectId"]: o for o in after["world"]["objects"]}
    o = objs.get(e["object"])
    if o is None:
        return _result(False, f"{e['object']} is gone (sliced or thrown away)")
    dest = place_ids(after["world"], e["dest"])
    parents = o.get("parentReceptacles") or []
    if not parents or parents[0] not in dest:
        return _result(False, f"{e['object']} is in {parents[:1] or 'nothing'}, asked {e['dest']}")

    def inside(ob: dict[str, Any]) -> bool:
        return bool(dest & set(ob.get("parentReceptacles") or []))

    was = {ob["objectId"] for ob in before["world"]["objects"] if inside(ob)}
    extra = sorted(x for x, ob in objs.items() if x != e["object"] and inside(ob) and x not in was
                   and e["object"] not in (ob.get("parentReceptacles") or [])
                   and not x.startswith(tuple(f"{w}|" for w in was)))  # a slice of what was there
    return _result(not extra, f"also put {extra[:5]} there")


def _looked_up(e: dict[str, Any], after: dict[str, Any]) -> bool:
    """The place's wiki article was opened this episode (by the turn's ``done``): the turn says to check the
    wiki, and a fact known beforehand is not a fact looked up (geolocation's rule for research)."""
    return e["place"] in after["web"].get("wiki", {}).get("views", [])


def answer_year(e: dict[str, Any], before: dict[str, Any], after: dict[str, Any], answer: str) -> dict[str, Any]:
    """The place's article was read this episode, and the answer gives exactly one year, the right one: years
    written in words or Roman numerals count (:func:`year_text`), and a year firmly denied is no year given ("1904,
    not 1905"; the traveling judge's :func:`~embodiedweb.domains.outdoor.answers.denied`), unless it is the right
    one ("not 1904" fails)."""
    from embodiedweb.domains.outdoor.answers import denied

    if not _looked_up(e, after):
        return _result(False, f"the wiki article of {e['place']} was not opened")
    text = _without_the_opening(year_text(answer), e)
    found = _years_at(text)
    if any(y == str(e["year"]) and denied(text, at) for y, at in found):
        return _result(False, f"answer denies {e['year']}")
    years = sorted({y for y, at in found if not denied(text, at)})
    if years != [str(e["year"])]:
        return _result(False, f"answer gives the years {years}, asked {e['year']}")
    return _unread_year(text)


#: words of a year answer that stand beside a year ("built in", "the year", "AD")
_YEAR_FILLER = frozenset({"year", "built", "completed", "opened", "in", "ad", "ce", "around", "about"})


def _unread_year(text: str) -> dict[str, Any]:
    """The turn's verdict on the alternatives of a year answer whose one year is right: each alternative it offers
    (:func:`~embodiedweb.domains.outdoor.answers.alternatives`) must hold a year (:data:`_YEAR`), or it offers a year
    the judge cannot read: "1904 or later", "1904 (possibly a decade earlier)" are hedges (stop 38, the traveling
    judge's rule)."""
    from embodiedweb.domains.outdoor.answers import alternatives, value_items

    for a, b in alternatives(text, _YEAR_FILLER):
        if not _YEAR.search(text[a:b]):
            return _result(False, f"answer offers {' '.join(text[a:b].split())!r} as an alternative, which is no "
                                  f"year: a hedge")
    for a, b in value_items(text, "number"):  # stop 39: "1904, the year after" (the list rule; a year's item is one
        # with a word that points to another value, whatever words stand beside it)
        if not _YEAR.search(text[a:b]):
            return _result(False, f"answer lists {' '.join(text[a:b].split())!r} beside the year, which is no year: "
                                  f"another value the judge cannot check (a hedge)")
    return _result(True)


def year_text(answer: str | None) -> str:
    """``answer`` folded, with years written in Roman numerals or in words as digits ("MCMIV", "nineteen oh four":
    1904), by the traveling judge's readers (:func:`~embodiedweb.domains.outdoor.answers.roman_years`,
    :func:`~embodiedweb.domains.outdoor.answers.spelled_numbers`, a number word beside a hedge word counting too).
    Until assistant checker version 9 only digits counted: a year in words or Roman numerals gave no year (0 of 77
    year turns passed), and "1904, or maybe MCMV" or "1904 or nineteen oh five" gave one (77 of 77 passed)."""
    from embodiedweb.domains.outdoor.answers import fold, roman_years, spelled_numbers

    return spelled_numbers(fold(roman_years(answer or "")), hedged=True)


#: the place's opening year stated as such ("it opened in 1924", "opening: 1924"), and hedge words before it
_OPENED = re.compile(r"\b(?:opened|opening|inaugurated|dedicated)(?:\s+to\s+the\s+public)?(?:\s+(?:in|on|year|date))?\s*:?\s*(\d{4})(?![\d'’s])"
                     r"(?!\s*(?:[-‐‑‒–—/]|to\b))", re.IGNORECASE)
_HEDGE_WORD = re.compile(r"\b(?:or|maybe|perhaps|possibly|probably|either|if|unless)\b", re.IGNORECASE)


def _without_the_opening(answer: str | None, e: dict[str, Any]) -> str:
    """``answer`` without the place's opening year where it is stated as the opening ("built in 1906; it opened in
    1924"), when the turn asks the year it was built and the wiki gives another year for its opening: a true fact
    said beside the answer (the traveling judge's rule for a landmark's other years), not a second answer. Said
    after a hedge word ("1906, or opened in 1924"), or any other year after "opened", it still counts. Until
    assistant checker version 8 it counted, and such a careful answer failed on the 3 year turns (of 77) whose
    place opened in another year than it was built."""
    from embodiedweb.worlds.street.city import load_city

    place = load_city().places.get(e.get("place", ""))
    d = place.data if place is not None else {}
    opened = str(d.get("opened") or "")
    if not d.get("year_built") or not opened.isdigit() or opened == str(e["year"]):
        return answer or ""
    text = answer or ""
    for m in reversed(list(_OPENED.finditer(text))):
        if m.group(1) == opened and not _HEDGE_WORD.search(text, max(0, m.start() - 25), m.start()):
            text = text[:m.start(1)] + text[m.end(1):]
    return text


#: a year, with what may follow it: an "s" (a decade: "the 1890s", "1890's") or a second year shortened after a dash,
#: a slash or "to" ("1893-94", "1893–94", "1893/94")
_YEAR = re.compile(r"(?<!\d)(1[5-9]\d\d|20\d\d)(?!\d)(?:(['’]?s\b)|\s*(?:[-‐‑‒–—/]|to\b)\s*(\d\d)(?!\d))?")


def years_in(answer: str | None) -> list[str]:
    """The years an answer gives, in its order: each year written out, a second year written short after a dash or
    a slash ("1893-94" gives 1893 and 1894), and a decade ("the 1890s") as ten years. Until assistant checker
    version 8 only years written out counted, so "1893-94" gave one year and passed for 1893 (a hedge of two years:
    60 of 60 episodes), and "the 1890s" passed for 1890 (7 of 60)."""
    return [y for y, _at in _years_at(answer)]


def _years_at(answer: str | None) -> list[tuple[str, int]]:
    """The years of :func:`years_in`, each with where the year written out that gives it starts."""
    out: list[tuple[str, int]] = []
    for m in _YEAR.finditer(answer or ""):
        year = int(m.group(1))
        if m.group(2):
            out += [(str(year - year % 10 + k), m.start()) for k in range(10)]
            continue
        out.append((str(year), m.start()))
        if m.group(3):
            second = year - year % 100 + int(m.group(3))
            out.append((str(second if second > year else second + 100), m.start()))
    return out


def answer_fact_name(e: dict[str, Any], before: dict[str, Any], after: dict[str, Any], answer: str) -> dict[str, Any]:
    """The place's article was read this episode, and the answer names the right architect and no other
    architect on the wiki (people also by first and last name, see :class:`Candidates`)."""
    if not _looked_up(e, after):
        return _result(False, f"the wiki article of {e['place']} was not opened")
    everyone, firms = architect_names()
    return answer_name(e, before, after, answer, everyone, people=True, firms=firms)


def at_node(e: dict[str, Any], before: dict[str, Any], after: dict[str, Any], answer: str) -> dict[str, Any]:
    """The walker stands at the node or within the goal radius of it (the outdoor envs' rule)."""
    from embodiedweb.domains.outdoor.common import near

    node = after["world"].get("node")
    return _result(near(node, e["node"]), f"at {node}, asked {e['node']}")


def earlier_work_kept(earlier: Iterable[dict[str, Any]], before: dict[str, Any], after: dict[str, Any]
                      ) -> dict[str, Any] | None:
    """The rule every turn keeps besides its own check (no turn asks to undo another's work): no order that stood at
    the turn's start was cancelled during it, and the food an ``earlier`` move turn (``kind`` ``move_grounded``, its
    ``expect``) put where it was asked, and that still rested there at the turn's start, rests there at its end. None
    (no objection), else the failed result. Until assistant checker version 10 only an order turn checked the orders
    and no turn the food: an order cancelled, or the food taken back out, while answering a later question ("what was
    the first thing I asked you to order?") passed 60 of 60 episodes each (stop 38)."""
    from embodiedweb.domains.assistant.grounding import place_ids

    gone = _cancelled_orders(before, after)
    if gone:
        return _result(False, f"cancelled {', '.join(gone)}, an earlier order")
    for t in earlier:
        if t.get("kind") != "move_grounded" or "objects" not in before.get("world", {}):
            continue
        e = t["expect"]
        dest = place_ids(before["world"], e["dest"])
        was = {o["objectId"]: o for o in before["world"]["objects"]}.get(e["object"])
        if was is None or (was.get("parentReceptacles") or [None])[0] not in dest:
            continue
        now = {o["objectId"]: o for o in after["world"].get("objects", [])}.get(e["object"])
        if now is None or (now.get("parentReceptacles") or [None])[0] not in dest:
            return _result(False, f"took {e['object']} out of {e['dest']}, where an earlier turn put it")
    return None


CHECKS: dict[str, Callable[..., dict[str, Any]]] = {
    "open_two": open_two, "focus": focus, "compare": answer_recipe, "order_grounded": _seeing(order),
    "same_store": order, "recall": answer_product, "recipe_grounded": _seeing(active_recipe), "move_grounded": moved,
    "name_seen": answer_place, "fact_year": answer_year, "fact_architect": answer_fact_name, "walk_there": at_node,
    "go_back": at_node, "order_seen": order,
}
