"""Stop 34's judge-level measurement (findings T1-T3 of the review, and hedges): every traveling task (standard,
hard) and every shopping errand with a question, judged by ``traveling.judge_answer`` in the genuine forms each
rule admits and in hedge forms modelled on the review's "Tried, found nothing" list (number, time, choice and name
hedges, both orders). Prints the passes per form and tier and writes every verdict to a JSON file, so a run on the
judge before a change and one after can be compared answer by answer. Stop 35 added the name forms of the stop 34
review's open items N1-N3 (:func:`name_forms`: one name of two candidates' words, names in context and surname first
without a comma, denials of another candidate and the hedges beside them), counted on lines of their own::

    PYTHONPATH=. python tests/domains/outdoor/measure_answer_forms.py verdicts.json
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from typing import Any

from embodiedweb.domains.outdoor.answers import parse_names, parse_time
from embodiedweb.domains.outdoor.traveling import fact_of, judge_answer
from embodiedweb.paths import data_dir

SEPARATORS = {"&": " & ", "comma": ", ", "semicolon": "; ", "slash": " / ", "newline": "\n", "comma-nospace": ","}
HYPHENS = {"space": " ", "en-dash": "\u2013", "nb-hyphen": "\u2011", "minus": "\u2212", "hyphen-U2010": "\u2010"}
NUMBER_HEDGES = {"paren-not": "{a} (not {b})", "formerly": "{a}, formerly {b}", "if-not": "{a}, if not {b}",
                 "or-maybe": "{a} or maybe {b}", "either": "either {a} or {b}", "or-not": "{a} or not {b}",
                 "not-sure": "{a}, not sure, maybe {b}", "dots": "{a}... {b}", "bracket": "{a} [{b}]",
                 "article-sign": "{a} (the article says), {b} (the sign says)", "slash": "{a}/{b}", "amp": "{a} & {b}",
                 "semicolon": "{a}; {b}", "newline": "{a}\n{b}"}
NAME_HEDGES = {"or": "{a} or {b}", "amp": "{a} & {b}", "comma": "{a}, {b}", "semicolon": "{a}; {b}",
               "slash": "{a} / {b}", "newline": "{a}\n{b}", "if-not": "{a}, if not {b}"}


#: stop 35's name forms (N1-N3 of the stop 34 review's open items): the right person(s) V and another candidate W of
#: the same question (the first person of another place's answer whose surname and first name are not V's); W's
#: surname is S, its first given name G; V's own surname-first form without a comma is "Szabó Tariq"
NAME_MERGES = {"append-surname": "{v} {s}", "given-before": "{g} {v}", "both-around": "{g} {v} {s}",
               "surname-first-append": "{vrev} {s}", "every-surname": "{v} {every}"}
NAME_GENUINE = {"title-role": "Dr. {v} led it", "sentence": "The plaque honours {v} alone.",
                "surname-first-nocomma": "{vrev}"}
NAME_DENIALS = {"paren-not": "{v} (not {w})", "comma-not": "{v}, not {w}", "not-but": "not {w} but {v}",
                "rather-than": "{v} rather than {w}", "isnt": "It isn't {w}; it is {v}.",
                "instead-of": "{v} instead of {w}"}
NAME_DENIAL_HEDGES = {"or": "{v} or {w}", "maybe": "{v}, maybe {w}", "if-not": "{v}, if not {w}",
                      "if-not-swapped": "{w}, if not {v}", "or-not": "{v} or not {w}", "either": "either {v} or {w}",
                      "not-right": "not {v}", "not-other": "not {w}", "not-other-or-right": "not {w} or {v}",
                      "not-then-or": "{v}, not {w}, or {w}", "wrong-not-right": "{w} (not {v})",
                      "not-sure": "{v}, not sure, maybe {w}", "think-not": "{v}, I think not {w}"}


STOP_35 = ("N1", "N1N2", "N3", "hedge-name-deny")


def name_parts(label: str) -> tuple[list[str], str]:
    """(given names, surname with its particles) of a written name ("Yusuf F. Boateng": ["Yusuf", "F."],
    "Boateng"; "Adaeze W. de la Vega": ["Adaeze", "W."], "de la Vega")."""
    words = label.split()
    i = len(words) - 1
    while i > 1 and words[i - 1].lower() in ("de", "la", "van", "der", "di", "del", "le", "da", "von", "du"):
        i -= 1
    return words[:i], " ".join(words[i:])


def candidates(g: dict[str, Any]) -> list[str]:
    """The first person of each other place's answer to the same name question whose surname and first name are
    none of the right people's, in slug order."""
    from web_sites.wiki import catalog

    gold = parse_names(str(fact_of(g)["value"]))
    out = []
    for a in catalog.articles():
        f = (a.get("world_facts") or {}).get(g["fact"])
        if a["slug"] == g["slug"] or not f or f.get("kind") != "name":
            continue
        p = parse_names(str(f["value"]))[0]
        if all(p.surname != q.surname and p.given[:1] != q.given[:1] for q in gold) and p.label not in out:
            out.append(p.label)
    return out


def surnames_after(v: str, others: list[str]) -> str:
    """Every candidate's surname, in turn, to append to ``v`` as far as the answer length limit allows (40 words,
    300 characters), leaving out a surname whose bearer has a given name with the first letter of the word before it
    (so that no two words of the run read as another person: "Halvorsen Gutiérrez" would be Amara H. Gutiérrez)."""
    from embodiedweb.domains.outdoor.answers import fold
    from embodiedweb.domains.outdoor.traveling import known_people

    initials: dict[str, set[str]] = {}
    for value in known_people():
        for p in parse_names(value):
            initials.setdefault(p.surname, set()).update(g[0] for g in p.given)
    words = v.split()
    out: list[str] = []
    for o in others:
        s = name_parts(o)[1]
        key = "".join(c for c in fold(s.split()[-1]) if c.isalnum())
        if fold(words[-1])[:1] in initials.get(key, set()) or s in out:
            continue
        if len(words) + len(s.split()) > 40 or len(" ".join([*words, s])) > 300:
            break
        words += s.split()
        out.append(s)
    return " ".join(out)


def name_forms(g: dict[str, Any], v: str) -> list[tuple[str, str, str, bool]]:
    """Stop 35's name forms (:data:`NAME_MERGES`, :data:`NAME_GENUINE`, :data:`NAME_DENIALS`,
    :data:`NAME_DENIAL_HEDGES`) for the goal ``g`` whose answer is ``v``."""
    others = candidates(g)
    w = others[0]
    given, surname = name_parts(w)
    people = [name_parts(p.label) for p in parse_names(v)]
    vrev = " and ".join(f"{s} {' '.join(gs)}" for gs, s in people)
    every = surnames_after(v, others)
    fill = {"v": v, "w": w, "g": given[0], "s": surname, "vrev": vrev, "every": every}
    return ([("N1", k, t.format(**fill), False) for k, t in NAME_MERGES.items()]
            + [("N1N2", k, t.format(**fill), True) for k, t in NAME_GENUINE.items()
               if k != "surname-first-nocomma" or " and " not in v]
            + [("N3", k, t.format(**fill), True) for k, t in NAME_DENIALS.items()]
            + [("hedge-name-deny", k, t.format(**fill), False) for k, t in NAME_DENIAL_HEDGES.items()])


def goals() -> list[tuple[str, str, dict[str, Any]]]:
    """(tier, task id, goal) of every traveling task and every shopping errand with a question."""
    out = []
    for path, tier in [("traveling/tasks.jsonl", "trav-std"), ("traveling/hard.jsonl", "trav-hard"),
                       ("shopping/tasks.jsonl", "shop-std"), ("shopping/hard.jsonl", "shop-hard")]:
        for line in (data_dir() / path).read_text(encoding="utf-8").splitlines():
            t = json.loads(line)
            out += [(tier, t["task_id"], g) for g in t["goal"].get("errands") or [t["goal"]] if "fact" in g]
    return out


def _an(word: str) -> str:
    return ("an " if word[0].lower() in "aeiou" else "a ") + word


def forms(f: dict[str, Any], g: dict[str, Any] | None = None) -> list[tuple[str, str, str, bool]]:
    """(category, form, answer, genuine) for the fact ``f`` (of the goal ``g``: stop 35's name forms need it)."""
    v, out = str(f["value"]), []
    if f["kind"] == "name":
        if " and " in v:
            a, b = v.split(" and ")
            for k, s in SEPARATORS.items():
                out += [("T1", k, f"{a}{s}{b}", True), ("T1", k + "-rev", f"{b}{s}{a}", True)]
        if "-" in v:
            out += [("T2", k, v.replace("-", s), True) for k, s in HYPHENS.items()]
        other = "Yusuf Szabó" if "Szabó" not in v else "Mei Medeiros"
        out += [("hedge-name", k, t.format(a=v, b=other), False) for k, t in NAME_HEDGES.items()]
        if g is not None:
            out += name_forms(g, v)
    elif f["kind"] == "choice":
        o = next(c for c in f["choices"] if c != v)
        out += [("T3", "deny-after", f"{_an(v)}, not {_an(o)}", True),
                ("T3", "deny-paren", f"It shows {_an(v)} (not {_an(o)})", True),
                ("T3", "deny-before", f"not {_an(o)} but {_an(v)}", True),
                ("T3", "isnt", f"It isn't {_an(o)}; it is {_an(v)}.", True),
                ("T3", "rather-than", f"{_an(v)} rather than {_an(o)}", True)]
        hedges = {"if-not": "{a}, if not {b}", "or-maybe": "{a} or maybe {b}", "or-not": "{a} or not {b}",
                  "a-not-b-paren": "{a} (not {b})", "wrong-not-right": "{an_a}, not {an_b}",
                  "not-sure": "{a}, not sure, maybe {b}", "either": "either {a} or {b}", "slash": "{a}/{b}",
                  "formerly": "{a}, formerly {b}", "think-not": "{a}, I think not {b}"}
        for k, t in hedges.items():
            out.append(("hedge", k, t.format(a=v, b=o, an_a=_an(v), an_b=_an(o)), False))
            out.append(("hedge", k + "-rev", t.format(a=o, b=v, an_a=_an(o), an_b=_an(v)), False))
        out += [("hedge", "not-other-alone", f"not {o}", False), ("hedge", "not-right", f"not {_an(v)}", False),
                ("hedge", "not-other-or", f"{v}, not {o}, or {o}", False)]
    else:
        if f["kind"] == "number":
            w = f"{float(v) + float(f.get('tol') or 0) + (0.1 if '.' in v else 1.0):g}"
        else:
            m = (parse_time(v) + 5) % 1440
            w = f"{(m // 60 - 1) % 12 + 1}:{m % 60:02d} {'am' if m < 720 else 'pm'}"
        for k, t in NUMBER_HEDGES.items():
            out += [("hedge", k, t.format(a=v, b=w), False), ("hedge", k + "-rev", t.format(a=w, b=v), False)]
    return out


def main(path: str) -> None:
    rows = []
    for tier, tid, g in goals():
        for cat, form, answer, genuine in forms(fact_of(g), g):
            verdict = judge_answer(answer, g)
            rows.append({"tier": tier, "task": tid, "cat": cat, "form": form, "answer": answer, "ok": verdict.ok,
                         "reason": verdict.reason, "genuine": genuine})
    with open(path, "w", encoding="utf-8") as fh:
        json.dump(rows, fh, ensure_ascii=False, indent=0)
    tot, ok = Counter(), Counter()
    for r in rows:
        tot[r["cat"], r["form"], r["tier"]] += 1
        ok[r["cat"], r["form"], r["tier"]] += r["ok"]
    for k in sorted(tot):
        if k[0] in ("T1", "T2", "T3", *STOP_35):
            print(*k, f"{ok[k]}/{tot[k]}")
    # a hedge template written in both orders is a hedge only if it passes in both ("V (not W)" denies W: a
    # genuine answer in one order, since traveling checker version 8 for numbers and version 9 for choices)
    by = {(r["tier"], r["task"], r["cat"], r["form"]): r["ok"] for r in rows
          if not r["genuine"] and r["cat"] not in STOP_35}
    pairs = [k for k in by if (*k[:3], k[3] + "-rev") in by]
    both = sum(by[k] and by[(*k[:3], k[3] + "-rev")] for k in pairs)
    single = [k for k in by if not k[3].endswith("-rev") and k not in pairs]
    print(f"hedge templates in both orders: {both} of {len(pairs)} pass in both; one-order hedges: "
          f"{sum(by[k] for k in single)} of {len(single)} pass")
    new = [r for r in rows if r["cat"] in STOP_35]
    for genuine in (True, False):
        part = [r for r in new if r["genuine"] == genuine]
        print(f"stop 35 name forms, {'genuine' if genuine else 'hedges'}: {sum(r['ok'] for r in part)} of "
              f"{len(part)} pass")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "verdicts.json")
