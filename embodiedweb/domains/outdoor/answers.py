"""Judging a free-text answer against one fact, by the fact's type.

A fact is a record ``{"kind", "value", ...}`` (the wiki's ``world_facts`` use this form):

- ``number`` (``unit``: ``m``, ``floor`` or ``year``; ``tol``: absolute tolerance in that unit): every
  quantity in the answer must equal the value within ``tol``. A quantity with a length unit (metres,
  feet, yards, km, cm, inches) is converted to the fact's unit, so "191 metres (about 627 feet)" is one
  consistent answer; a unit of another dimension is wrong (a duration too: "38 hours"); a quantity without a unit is read in the
  fact's unit. Ordinals count ("14th floor", "floor 14"). A hedge fails unless both agree ("180 or 191").
  How a number is read (:func:`read_number`), for digits joined by ``,`` or ``.`` with no space:

  - ``1,200`` / ``12,345,678.5``: a first group of 1-3 digits not starting with 0, then groups of exactly
    three digits after each comma, is English thousands grouping (1200), whatever unit follows;
  - ``18,6`` / ``18,60`` / ``1,5 km`` / ``0,146 km`` / ``1234,5``: any other single comma between digits
    is a decimal comma (18.6; 0.146). The ambiguity: a comma followed by exactly three digits after a
    first group of 1-3 digits ("14,600 m") is read as English thousands (14600 m), never as the decimal
    comma some of Europe would mean (14.6 m): so no correct English answer is ever read otherwise, and
    such a European answer fails (it can be written "14,6 m"). "18,19" is 18.19, not a list; a list
    needs a space after the comma ("18, 19" is two numbers, a hedge);
  - ``14.6``: a decimal point; anything else (``1.200,5``, ``3,5,7``, ``38.0,38.48``, ``1.2.3``: dotted
    thousands, lists without spaces, dates) is no one number and fails the answer;
  - whole digits right before a ":" are a clock time's hour, no quantity ("14:15").

  Compound lengths are one quantity: a whole number with a length unit followed, with only a space, a
  comma or "and" between, by a smaller length unit's quantity below one of the preceding part's unit
  ("14 m 60 cm" = 14.6 m, "1 km 200 m 50 cm", "5 ft 11 in", "5' 11\"", "47 feet and 11 inches"); after
  whole feet, "in" is inches and a bare number below 12 right after is inches too ("5'11", "5 ft 11").
  Anything else is two quantities, each judged ("14 m or 60 cm", "14.5 m 10 cm", "14 m 120 cm"). The
  tolerance applies to the whole. Durations ("1 h 30 min") are not quantities of any fact here: numbers
  are lengths, floors and years.

  Three kinds of number are not a value offered for the fact:

  - a value firmly denied (:func:`_denied`: "not", "isn't", "rather than", "instead of", then "a", "an", "the" or
    nothing, right before it, and no hedge word such as "if", "or", "maybe", "think" earlier in its clause): "not
    43 m but 38 m", "38 m, not 43 m" state 38. A denied value that is the answer fails the answer ("not 38 m"); an
    answer that only denies fails; "38, if not 43", "38 or not 43", "either 43 or 38" and "38, not sure, maybe 43" still judge 43;
  - another true fact of the landmark stated as such (:func:`_another_fact`; ``known``: the article's
    ``year_built``, ``opened``, ``height_m``, ``floors``): a year after "completed in", "built", "opened in",
    "dating from", ...; a length with "tall", "high", "in height" or after "a height of", "rises"; a count of
    floors ("77 floors", "a 77-storey tower"); only when it is that fact's value (a year or a count exactly, a
    height within 1 m or 1 %) and no hedge word stands before its words or "or" after it. "... on the 2nd floor.
    It was completed in 1963." states 2; "1963 or 1964", "built in 1963, or maybe 1964", "it has 3 floors" (when
    it has 77) are judged as values of the asked fact;
  - a number of ``ignore_numbers`` (what the instruction says, restated).

  A year in Roman numerals, in capitals, of three letters or more and 1000 or more (:func:`roman_years`:
  "MCMXXXI", "MMXCVIII") is read as its digits; "I", "MC", "DC" and lower-case words stay words.
- ``time`` (``value`` like ``"2:15 pm"``): every clock time in the answer ("2:15 pm", "14:15",
  "2.15 p.m.", "2 pm" or "2 o'clock" for 2:00, "1415 hrs") must be that minute of the day; a time without
  am/pm is read on a 12-hour clock. A number that is not a clock time is ignored.
- ``name`` (``value``: one or more people or firms joined by "and", "&", ",", ";", "+" or "with";
  optional ``aliases``: whole alternative values): the answer must name every one of them and no other
  person of ``others``. A person is named by the surname (particles such as "van der" optional) with one
  of its given names, in full or as an initial, right before it ("I. M. Pei", "Ieoh Ming Pei", "Henry J.
  Hardenbergh"), or after it the first given name in full or all the given names ("Whitfield, Ana",
  "Pei, I. M."); a whole word stands for an initial unless it is a word that is never a name (:data:`NOT_NAMES`:
  "and" is not "A.", "but" not "B."). A surname said alone names no one (most surnames of the wiki are shared). A name without given names (a firm, "Shreve") is named by itself. Firm words
  ("& Partners", "& Sons", "Architects", ...) need not be repeated; hyphenated names are one word, and a
  hyphenated surname may be written with a space, an en dash, a non-breaking hyphen or a minus sign for its hyphen
  ("Tanaka Reid", "Tanaka–Reid"; :data:`_HYPHENS`). A name's words stay within one item of a list: only spaces and
  initials' dots stand between them (:data:`_IN_NAME`), and one comma after a surname said first
  (:data:`_AFTER_SURNAME`), which does not take given names that begin another person named forwards; so "Tariq
  Szabó & Yusuf F. Boateng" (or with ", ", "; ", " / ", a new line) names those two and no Yusuf Szabó, while
  "Szabó, Tariq" and "Papadakis, Inès V." name Tariq Szabó and Inès V. Papadakis; so do "Szabó Tariq" and "Papadakis
  Inès V." (no name of the wiki is another's reversed). A name written with a word of another person of ``others``
  (a given name in full, a surname or a part of one) inside it or right beside it names neither (:func:`_merged`: the
  wiki gives no middle names): "Omar Reid Tanaka", "Yusuf Tariq Szabó", "Reid Omar Tanaka", "Yusuf Fenwick Boateng"
  fail the answer, while "Dr. Omar Reid led it" names Omar Reid. A person firmly denied is no person named, by the
  number judge's rule (:func:`_denied`), and the denial reaches the people joined to it by "or" or "nor" (and, with
  no comma between, by "and" or "&": a denied team, "A and B, not C and D"): "Omar Reid
  (not Tariq Szabó)", "not Tariq Szabó but Omar Reid" pass; "Omar Reid, if not Tariq Szabó", "Omar Reid or not Tariq
  Szabó" name two; "not Omar Reid" and "not Tariq Szabó or Omar Reid" deny the right one.
- ``choice`` (``choices``: the options): the answer must name exactly one option, the right one
  (plurals, case, hyphens and accents aside); naming two or more options fails. An option firmly denied is
  no option named, by the number judge's rule (:func:`_denied`): "a beaver, not an otter", "It shows a beaver
  (not an otter)" pass; "beaver, if not otter", "beaver or maybe otter" name two; "not a beaver" denies the right
  one and "not an otter" names none: both fail.

Numbers and times written in words count as written in digits where they are quantities or times
(:func:`spelled_numbers`: "forty-one metres", "the fifteenth floor", "nineteen sixty-three", "five o'clock";
:func:`clock_phrases`: "quarter past five", "ten minutes to six in the afternoon"), so
a correct answer in words passes and a second value in words is a hedge.

Alternatives (stop 38; :func:`unread_alternative`): an answer that offers alternatives (a disjunction, "or", "nor",
"either", "/", "versus"; a list of candidates; a word of uncertainty that points to another value, "possibly",
"perhaps", "maybe", "later", "earlier", "thereabouts", "beyond", "onwards", each of the last six an alternative of
its own) names one value only if the judge reads every alternative as a value (the pieces between its disjunctions,
"and" and its list or aside punctuation, articles, hedge words and the kind's own
words such as units aside), and they must all be the same one: "15th floor, or the fifteenth", "2092 (twenty
ninety-two)" pass; "2092 or later", "15th or top floor", "one-nine-one-four or 2092", "Astrid V. Halvorsen or Tomás",
"a beaver or something else" are hedges (an alternative the judge cannot read is another value it cannot check). In a
number answer a number of an address (a street word after it: "15th floor on 1st Ave & E 43rd St", "at 350 5th
Avenue") and, in a floor question, the building's floor count after "of" once a floor was given ("15th floor of 39",
"the 15th of 39 floors"; ``known["floors"]``) are context, no value; an address is no value for an alternative either
("15th floor or 16th St" is a hedge).

List items (stop 39; :func:`unread_item`): an item of the answer's list (:func:`list_items`: ",", ";", "&", brackets,
quotes, a new line, a colon, "and", "or", "if", "unless", a new sentence ...) in which the judge read no value is
another value it cannot check when it is one by the kind (:func:`offers_value`): a name or an option with no context
word ("Astrid V. Halvorsen, Tomas leRoux", "a beaver, a fox"; a name item with a word of another person's name, "the
architect Tomas leRoux"), a number or time item with a word pointing to another value ("2092, the year after", "15th
floor, top floor", "2:15 pm; the next one"). Appositions and context pass ("Astrid V. Halvorsen, the architect",
"1930, the year it opened", "15th floor, 405 Lexington Avenue, New York"), as do a team's names and sentences. The
time judge applies the alternative and list rules too.

Every kind: an empty answer, or one longer than :data:`MAX_WORDS` words or :data:`MAX_CHARS` characters,
fails. Text given in ``ignore`` (the landmark's name, say) is removed first, so "the 30 Rockefeller
Plaza mosaic is 14.6 m long" holds one number. :func:`judge` never raises: a malformed fact or answer
gives a verdict with the reason.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

MAX_WORDS = 40
MAX_CHARS = 300

KINDS = ("number", "time", "name", "choice")


@dataclass(frozen=True)
class Verdict:
    ok: bool
    reason: str = ""

    def __bool__(self) -> bool:
        return self.ok


_LETTERS = str.maketrans({"ø": "o", "Ø": "O", "æ": "ae", "Æ": "AE", "œ": "oe", "Œ": "OE", "ß": "ss", "ł": "l",
                          "Ł": "L", "đ": "d", "Đ": "D", "ð": "d", "þ": "th", "ı": "i", "’": "'", "‘": "'",
                          "′": "'", "″": '"'})


def fold(text: str) -> str:
    """Lower case without accents ("Søren Bergström" = "soren bergstrom"); curly quotes and primes made straight."""
    t = unicodedata.normalize("NFKD", text.translate(_LETTERS))
    return "".join(c for c in t if not unicodedata.combining(c)).lower()


def _strip(text: str, ignore: Iterable[str]) -> str:
    """The folded answer with every ``ignore`` phrase (matched word by word, any punctuation between) removed."""
    out = fold(text)
    for phrase in ignore:
        words = re.findall(r"[a-z0-9]+", fold(phrase))
        if words:
            out = re.sub(r"(?<![a-z0-9])" + r"[^a-z0-9]*".join(map(re.escape, words)) + r"(?![a-z0-9])", " ", out)
    return out


def judge(answer: str | None, fact: dict[str, Any], ignore: Sequence[str] = (),
          others: Sequence[str] = (), ignore_numbers: Sequence[float] = (),
          known: Mapping[str, float] | None = None) -> Verdict:
    """Whether ``answer`` states ``fact`` (see module docstring), with the reason when it does not; a number
    of ``ignore_numbers`` in the answer is not judged (what the instruction itself says, restated), nor one
    stated as another true fact of ``known`` (the landmark's years, height and floors: :data:`OTHER_FACTS`)."""
    if not isinstance(fact, dict) or fact.get("kind") not in KINDS or not str(fact.get("value", "")).strip():
        return Verdict(False, f"unjudgeable fact {fact!r}")
    if answer is None or not str(answer).strip():
        return Verdict(False, "no answer")
    answer = str(answer)
    n_words = len(answer.split())
    if n_words > MAX_WORDS or len(answer) > MAX_CHARS:
        return Verdict(False, f"answer too long ({n_words} words, {len(answer)} characters; at most "
                              f"{MAX_WORDS} words and {MAX_CHARS} characters)")
    text = _strip(roman_years(answer) if fact["kind"] == "number" else answer, ignore)
    try:
        if fact["kind"] == "number":
            return _judge_number(spelled_numbers(text, hedged=True), fact, ignore_numbers, _known_numbers(known))
        if fact["kind"] == "time":
            return _judge_time(spelled_numbers(clock_phrases(text), hedged=True), str(fact["value"]))
        if fact["kind"] == "name":
            return _judge_name(text, fact, others)
        return _judge_choice(text, fact)
    except (KeyError, TypeError, ValueError) as e:
        return Verdict(False, f"unjudgeable fact {fact!r}: {e}")


# ---------------------------------------------------------------------------------------------- numbers
#: unit word -> (dimension, factor to the dimension's base unit)
UNITS: dict[str, tuple[str, float]] = {}
for _words, _dim, _f in [
    (("m", "metre", "metres", "meter", "meters", "mtr", "mtrs"), "length", 1.0),
    (("km", "kilometre", "kilometres", "kilometer", "kilometers"), "length", 1000.0),
    (("cm", "centimetre", "centimetres", "centimeter", "centimeters"), "length", 0.01),
    (("mm", "millimetre", "millimetres", "millimeter", "millimeters"), "length", 0.001),
    (("ft", "foot", "feet", "'"), "length", 0.3048),
    (("yd", "yds", "yard", "yards"), "length", 0.9144),
    (("inch", "inches", '"'), "length", 0.0254),
    (("floor", "floors", "fl", "storey", "storeys", "story", "stories", "level", "levels"), "floor", 1.0),
    (("year", "years", "ad", "ce"), "year", 1.0),
    # stop 36: a duration is no length, floor or year ("38 hours" passed for 38 m, read as a number without a unit)
    (("h", "hr", "hrs", "hour", "hours", "min", "mins", "minute", "minutes", "sec", "secs", "seconds", "day", "days",
      "week", "weeks", "month", "months"), "duration", 1.0),
]:
    for _w in _words:
        UNITS[_w] = (_dim, _f)

#: a number as written (digits with "," or "." between digit groups, read by :func:`read_number`), an
#: ordinal ending, and the word (or ' or ") after it; a number is never cut short at a "," or "." that
#: joins digits, and whole digits right before a ":" are a clock time's hour, not a quantity; a number right
#: after a letter's "," or "." starts a quantity of its own ("38 m,43 m" is two: a hedge)
_QTY = re.compile(r"(?<![\w:])(?<!\d[.,])(\d+(?:[.,]\d+)*)(?!\d|[.,]\d)(st|nd|rd|th)?(?:-(?=[a-z])|\s*)(['\"]|[a-z]+)?")
_BEFORE = re.compile(r"(floor|level|storey|story)\s*(?:no\.?|number)?\s*$")
_THOUSANDS = re.compile(r"[1-9]\d{0,2}(?:,\d{3})+(?:\.\d+)?")
_POINT = re.compile(r"\d+(?:\.\d+)?")
_DECIMAL_COMMA = re.compile(r"\d+,\d+")
#: what may stand between the parts of a compound length ("14 m 60 cm", "14 m, 60 cm", "14 m and 60 cm")
_JOIN = re.compile(r"\s*(?:,\s*)?(?:and\s*)?")
_FOOT = UNITS["ft"][1]


def read_number(written: str) -> float | None:
    """The value of a number written with digits, "," and "." (see the module docstring): ``"1,200"`` is
    1200, ``"18,6"`` 18.6, ``"14,600"`` 14600 (English thousands, never 14.6); None for a form that is no
    one number (``"1.200,5"``, ``"3,5,7"``)."""
    if _POINT.fullmatch(written):
        return float(written)
    if _THOUSANDS.fullmatch(written):
        return float(written.replace(",", ""))
    if _DECIMAL_COMMA.fullmatch(written):
        return float(written.replace(",", "."))
    return None


@dataclass
class _Qty:
    value: float | None  # None: digits that are no one number
    unit: tuple[str, float] | None  # (dimension, factor) when the answer gave one
    end: int  # where its text ends (a compound's: where its last part ends)
    last: tuple[float, bool] | None  # a compound's last part so far: (its unit's factor, its value is whole)
    start: int = 0  # where its text starts
    ordinal: bool = False  # written as an ordinal ("14th", "floor 14")
    digits_end: int = 0  # where its (first) number's digits and ordinal ending end


def quantities(text: str) -> list[tuple[float | None, str | None, float]]:
    """``(value, dimension or None, factor)`` for each quantity in folded ``text``, a compound length being
    one (see module docstring); the value is None for digits that are no one number."""
    return [(q.value, q.unit[0] if q.unit else None, q.unit[1] if q.unit else 1.0) for q in _quantities(text)]


def _quantities(text: str) -> list[_Qty]:
    """The quantities of :func:`quantities` with where each stands in ``text``."""
    found: list[_Qty] = []
    for m in _QTY.finditer(text):
        if m.group(1).isdigit() and text.startswith(":", m.end(1)):
            continue  # "14:15"
        value, word, ordinal = read_number(m.group(1)), m.group(3) or "", m.group(2) is not None
        unit = UNITS.get(word)
        prev = found[-1] if found else None
        gap = text[prev.end:m.start()] if prev else ""
        after_feet = bool(prev and prev.last and prev.last == (_FOOT, True)) and not ordinal
        if unit is None and after_feet and value is not None and value < 12 and (
                word == "in" and _JOIN.fullmatch(gap) or not word and not gap.strip()):
            unit = UNITS["inch"]  # "5 ft 11 in"; "5'11", "5 ft 11"
        if unit is None and _BEFORE.search(text[max(0, m.start() - 20):m.start()]):
            unit, ordinal = UNITS["floor"], True  # "floor 14": a floor, never part of a compound
        if (prev and prev.last and prev.last[1] and prev.value is not None and prev.unit and unit and not ordinal
                and value is not None and unit[0] == prev.unit[0] and unit[1] < prev.last[0]
                and value * unit[1] < prev.last[0] - 1e-9
                and _JOIN.fullmatch(gap)):  # "14 m 60 cm": one quantity, in the first part's unit
            prev.value += value * unit[1] / prev.unit[1]
            prev.end, prev.last = m.end(), (unit[1], value.is_integer())
            continue
        last = (unit[1], value.is_integer()) if unit and value is not None and not ordinal else None
        found.append(_Qty(value, unit, m.end(), last, m.start(), ordinal, m.end(2) if m.group(2) else m.end(1)))
    return found


def _fmt(x: float) -> str:
    return f"{x:.2f}".rstrip("0").rstrip(".")


def numbers_in(text: str) -> list[float]:
    """The values of the numbers written in ``text`` (see :func:`quantities`)."""
    return [v for v, _d, _f in quantities(fold(text)) if v is not None]


#: a firm denial right before a number or an option ("not 43 m but 38 m", "38 m, not 43", "it isn't 43", "rather
#: than 43", "a beaver, not an otter")
_DENIAL = re.compile(r"(?:\bnot|n't|\brather\s+than|\binstead\s+of)\s+(?:(?:the|an?)\s+)?$")
#: words that make a "not" in their clause no denial but a hedge ("38, if not 43", "or not 43", "maybe not 43",
#: "I think it's not 43")
_SOFT_DENIAL = re.compile(r"\b(?:if|or|nor|whether|unless|either|maybe|perhaps|possibly|probably|likely|sure|think"
                          r"|guess|believe|might|may|could)\b[^.;:!?]*$")


#: the other side of a comparison right before a name ("X beats Y", "X is quicker than Y", "X over Y", "X, ahead of
#: Y", "compared with Y, X ...") and the subject of a reason clause ("X, since Y takes longer", "X because Y has more
#: steps"): the one the answer sets its choice against, not one it offers
_COMPARED = re.compile(r"(?:\bthan|\bover|\bbeats?|\bbeating|\bahead\s+of|\bcompared\s+(?:to|with)|\bsince|\bbecause"
                       r"|\bwhereas|\bwhile)\s+(?:(?:the|an?)\s+)?$")


#: words after a denial or comparison that offer its reverse too ("X beats Y, or the other way round", "X, not Y, or
#: vice versa"): what it ruled out stays offered. Stop 38 (traveling checker version 12, assistant 10): "vice-versa"
#: with a hyphen, "or the other way" (about), "or the converse", "or reversed" / "swapped" / "switched" / "flipped",
#: "either way" offer the reverse too (they passed 50 of 60 traveling and 60 of 60 assistant episodes); "not vice
#: versa" ("X beats Y, not vice versa") keeps the choice firm
_REVERSAL = re.compile(r"(?<!\bnot\s)\b(?:vice[\s\-\u2010\u2011\u2013]*versa|conversely|either\s+way|or\s+(?:maybe\s+"
                       r"|perhaps\s+|possibly\s+)?(?:it(?:\s+is|\s*['’]?\s*s|\s+was)\s+)?(?:the\s+)?(?:reverse|opposite|converse"
                       r"|other\s+way(?:\s+(?:round|around|about))?|reversed|swapped|switched|flipped|inverted))\b", re.I)


def _ruled_out(text: str, start: int, cue: re.Pattern[str]) -> bool:
    """Whether ``cue`` (:data:`_DENIAL`, :data:`_COMPARED`) ends right before ``start`` in ``text`` with no hedge word
    (:data:`_SOFT_DENIAL`) in its clause before it and no reversal (:data:`_REVERSAL`) after it: what starts there is
    ruled out, not offered."""
    m = cue.search(text, max(0, start - 30), start)
    if not m or _REVERSAL.search(text, start):
        return False
    clause = re.split(r"[.;:!?]|\bbut\b", text[max(0, m.start() - 60):m.start()])[-1]
    return not _SOFT_DENIAL.search(clause + " ")


def _denied(text: str, start: int) -> bool:
    """Whether what starts at ``start`` in ``text`` (a quantity, a choice's option) is firmly denied: "not" (or
    "isn't", "rather than", "instead of"; "a", "an" or "the" may follow) right before it, and no hedge word in its
    clause before that ("if not 43" offers 43, "beaver, if not otter" offers otter). The number judge and the
    choice judge share this rule."""
    return _ruled_out(text, start, _DENIAL)


def compared_against(text: str, start: int) -> bool:
    """Whether what starts at ``start`` in ``text`` (a name) is the other side of a comparison (:data:`_COMPARED`:
    "than", "over", "beats", "ahead of", "compared with", or the subject of a "since", "because", "whereas" or
    "while" clause) read as :func:`_denied` reads a denial, hedge words and all: "X beats Y", "X is quicker than Y",
    "X, since Y takes longer" offer X alone; "Y is slower than X" offers Y (the name said first is the one given);
    "X if it is quicker than Y" offers both (stop 36; the assistant's comparison turns read it)."""
    return _ruled_out(text, start, _COMPARED)


def denied(text: str, start: int) -> bool:
    """:func:`_denied` under a public name: the assistant's answer judge (``assistant.checks``) reads denials by the
    same rule."""
    return _denied(text, start)


# ------------------------------------------------------------------------------------------ alternatives
#: what makes an answer offer alternatives (stop 38): a disjunction ("or", "nor", "either", "/", "versus") or a word of
#: uncertainty that points to another value ("possibly", "perhaps", "maybe", "or later", "a century earlier", "or so",
#: "thereabouts")
_OFFERS = re.compile(r"\b(?:or|nor|either|versus|vs|possibly|perhaps|maybe|later|earlier|sooner|thereabouts"
                     r"|beyond|onwards?|otherwise|alternatively)\b|/")
#: a word that points to another value than the one beside it ("later", "earlier", "beyond", "onwards")
_VAGUE = re.compile(r"\b(?:later|earlier|sooner|thereabouts|beyond|onwards?)\b")
#: where an answer that offers alternatives is cut into them: a disjunction, "and" ("2092 and later"), or the
#: punctuation of a list or an aside
_ALT_CUT = re.compile(r"\s*(?:[,;()\[\]/|]|\b(?:or|nor|either|neither|versus|vs|and)\b)\s*")
#: words an alternative may hold beside its value or alone (articles, pronouns, verbs of being, hedge and denial
#: words): an alternative of these words only ("either", "or maybe") offers nothing
ALTERNATIVE_FILLER = frozenset("""
    a an the it its it's is was be been i i'd i'm think guess believe say would could might may must should maybe
    perhaps possibly probably likely sure not no yes so just only also rather even that this one which what answer
    in on at of to by from and but than over written spelled said called named known as well too then both same
    """.split())
#: a word of an alternative (letters and digits, apostrophes inside it kept: "it's")
_ALT_WORD = re.compile(r"[a-z0-9]+(?:'[a-z]+)?")


#: approximation idioms that offer no alternative ("more or less", "or so"): "5:50 pm, more or less" is one time,
#: approximately (the judge lets "about 38 m" pass by design, stop 36)
_IDIOMS = re.compile(r"\bmore\s+or\s+less\b")


def _blank_idioms(text: str) -> str:
    """``text`` with :data:`_IDIOMS` blanked out (the same length: positions keep)."""
    return _IDIOMS.sub(lambda m: " " * len(m.group(0)), text)


def alternatives(text: str, filler: Iterable[str] = ()) -> list[tuple[int, int]]:
    """The alternatives an answer offers, as ``(start, end)`` in ``text`` (folded): none unless it offers
    alternatives (:data:`_OFFERS`); then the stretches between its disjunctions and list or aside punctuation
    (:data:`_ALT_CUT`) that hold a word besides :data:`ALTERNATIVE_FILLER` and ``filler`` (the judge's own words
    around a value: units, titles). Each must read as a value the judge reads (:func:`unread_alternative`)."""
    text = _blank_idioms(text)
    if not _OFFERS.search(text):
        return []
    skip = ALTERNATIVE_FILLER | set(filler)
    cuts = [0, *(x for m in _ALT_CUT.finditer(text) for x in (m.start(), m.end())), len(text)]
    out = []
    for a, b in zip(cuts[::2], cuts[1::2], strict=True):
        if any(w.group(0) not in skip for w in _ALT_WORD.finditer(text, a, b)):
            out.append((a, b))
    # a word that points to another value is an alternative of its own, wherever it stands ("2092 onwards")
    return sorted([*out, *((m.start(), m.end()) for m in _VAGUE.finditer(text))])


def unread_alternative(text: str, read: Iterable[tuple[int, int]], filler: Iterable[str] = ()) -> str | None:
    """The first alternative the answer offers (:func:`alternatives`) in which the judge read no value (``read``: the
    ``(start, end)`` of every value it read in ``text``, offered, denied or set aside as another fact), or None. An
    answer names one value only if every alternative reads as a value (and the judge then requires them all to be the
    same one: "15th floor, or the fifteenth", "2092 / twenty ninety-two"); an alternative it cannot read is another
    value it cannot check, so the answer is a hedge ("2092 or later", "15th or top floor", "Astrid V. Halvorsen or
    Tomás", "one-nine-one-four or 2092": stop 38, 1.0 on each before). The traveling, errand and Assistant judges
    share this rule."""
    spans = list(read)
    for a, b in alternatives(text, filler):
        if not any(s < b and a < e for s, e in spans):
            return " ".join(text[a:b].split())
    return None


def hedge_reason(item: str) -> str:
    """The verdict's reason for an alternative the judge cannot read (:func:`unread_alternative`)."""
    return f"the answer offers {item!r} as an alternative, which is no value the judge can read: a hedge"


# ------------------------------------------------------------------------------------------------ list items
#: where an answer is cut into its items (stop 39): list and aside punctuation (",", ";", "&", "+", "/", brackets,
#: quotes, a line break, a dash between spaces or an em dash, an ellipsis, a colon before a space), "and", "or", "nor",
#: the words of a condition ("if", "unless", "else", "otherwise", "alternatively") and a sentence's end (".", "!" or
#: "?" before a space or the end, unless it closes an initial or an abbreviation: :data:`_NOT_A_SENTENCE_END`)
_ITEM_CUT = re.compile(r"\s*(?:[,;&+/|()\[\]{}\"\n\u2014\u2026]|\.{2,}|:(?=\s|$)|\s[-\u2013]+\s"
                       r"|\b(?:and|or|nor|if|unless|else|otherwise|alternatively)\b|[.!?](?=\s|$))\s*")
#: what also cuts a name answer into items: the words that join a team ("with", "alongside", "plus"; a fact's value
#: joins its people by "with" too), so "Astrid V. Halvorsen with Tomas leRoux" lists two
_NAME_ITEM_CUT = re.compile(r"\s*\b(?:with|alongside|plus)\b\s*")
#: the words a "." closes without ending a sentence ("St. Regis", "Dr. Reid", "Mt. Vernon")
_NOT_A_SENTENCE_END = frozenset({"st", "mt", "mr", "mrs", "ms", "dr", "jr", "sr", "no", "ft", "ave", "rd", "vs", "co",
                                 "inc", "ltd", "prof", "approx", "ca", "c", "e", "w", "n", "s"})
#: words that tie a list item to the value beside it, so that the item is context, not another value: articles and
#: determiners, pronouns and relatives, prepositions, verbs ("designed by", "the architect", "1930, the year it
#: opened", "15th floor, of 39", "near the elevators"); "a" and "an" only in a name answer ("a Norwegian architect"),
#: since "a beaver, a fox" lists two animals
CONTEXT_WORDS = frozenset("""
    the this that these those its his her their our my your whose who whom which where when while what
    it he she they we i you there here
    of in on at by for from to with near into onto upon within across along around about via per inside outside
    between among under over above below beside behind through toward towards against during since until throughout
    is was are were be been being has had have having did does do will would can could may might must should
    designed built completed opened founded established located situated called named known made created drawn
    painted carved led run owned managed planned commissioned finished erected constructed dedicated housed shown
    displayed exhibited found seen listed written according including designing building opening compared than
    """.split())
#: words by which an item that reads no number or time still points to one ("15th floor, top floor", "2092, the year
#: after", "2:15 pm, or noon"): the item is another value the judge cannot check, context words or not
_RELATIVE = frozenset("""
    next previous following preceding same last after before prior higher taller shorter more less fewer
    later earlier sooner thereabouts beyond onward onwards another other else some dozen couple few several above below
    half quarter past
    """.split())
#: the words that name a floor without its number ("top floor", "the basement"): values in a floor answer only ("38 m,
#: from the ground to the tip" is context)
_FLOOR_WORDS = frozenset("""
    top ground bottom basement penthouse roof rooftop lobby mezzanine attic cellar upper lower highest lowest uppermost
    """.split())


def list_items(text: str, kind: str = "") -> list[tuple[int, int]]:
    """The items of an answer as ``(start, end)`` in ``text`` (folded), cut at :data:`_ITEM_CUT` (and, for a ``kind``
    ``"name"``, :data:`_NAME_ITEM_CUT`; stop 39): "Astrid V. Halvorsen, Tomas leRoux" has two, "15th floor. The top
    floor is 39." two sentences; an initial's or an abbreviation's dot cuts nothing ("Astrid V. Halvorsen", "St.
    Regis")."""
    text = _blank_idioms(text)
    marks: list[tuple[int, int]] = []
    for m in _ITEM_CUT.finditer(text):
        if text[m.start():m.end()].strip() in ".!?" and text[m.start():m.end()].strip():
            before = re.search(r"([a-z0-9]+)\s*$", text[:m.start()])
            if before is None or len(before.group(1)) == 1 or before.group(1) in _NOT_A_SENTENCE_END:
                continue
        marks.append((m.start(), m.end()))
    if kind == "name":
        marks += [(m.start(), m.end()) for m in _NAME_ITEM_CUT.finditer(text)]
    cuts = [0]
    for a, b in sorted(marks):
        if a >= cuts[-1]:
            cuts += [a, b]
    cuts.append(len(text))
    return [(a, b) for a, b in zip(cuts[::2], cuts[1::2], strict=True) if b > a]


def unread_item(text: str, read: Iterable[tuple[int, int]], kind: str, filler: Iterable[str] = (),
                foreign: Iterable[str] = (), team: bool = False) -> str | None:
    """The first item of the answer's list (:func:`list_items`) that is a value the judge cannot read, or None (stop
    39: "Astrid V. Halvorsen, Tomas leRoux" passed a question of one person, the misspelt second name read as no one).
    An item in which the judge read a value (``read``: ``(start, end)`` in ``text`` of every value, denial and context
    it read) is judged by the judge; an item of filler only (:data:`ALTERNATIVE_FILLER`, ``filler``) or firmly denied
    (:func:`_denied`: "not Tomas leRoux") offers nothing. Another item is a value when, by ``kind``:

    - ``name``: it holds no context word (:data:`CONTEXT_WORDS`, "a" and "an" too: "Tomas leRoux", "T. leRoux"), or a
      word of another person's name (``foreign``: "the architect Tomas leRoux");
    - ``choice``: it holds no context word ("a fox" beside "a beaver");
    - ``number`` (and ``time``): it holds a word that points to another value (:data:`_RELATIVE`: "the year after",
      "the next one", "a little more");
    - ``floor``: the same, or a floor's word (:data:`_FLOOR_WORDS`: "top floor", "the basement").

    So appositions and context pass ("Astrid V. Halvorsen, the architect", "designed by Astrid V. Halvorsen", "1930,
    the year it opened", "15th floor, of 39", "15th floor, 405 Lexington Avenue, New York", "a beaver, the state
    animal"), as do sentences and a team's every name ("A and B"), while a bare second value is a hedge. The
    traveling, errand and Assistant judges share this rule."""
    spans = list(read)
    for a, b in value_items(text, kind, filler, foreign, team):
        if not any(s < b and a < e for s, e in spans):
            return " ".join(text[a:b].split())
    return None


def value_items(text: str, kind: str, filler: Iterable[str] = (), foreign: Iterable[str] = (), team: bool = False
                ) -> list[tuple[int, int]]:
    """The items of the answer's list (:func:`list_items`) that would be a value of their own, were no value read in
    them (:func:`offers_value`). In a name or choice answer an item with a digit is no name (an address, a year, a
    count), and neither is an item after it in the same sentence: the rest of an address ("Ed Sullivan Theater, 1697
    Broadway, New York"). With ``team`` (the traveling judge's name answers) the words that join a team cut it too."""
    out: list[tuple[int, int]] = []
    address, end = False, 0
    for a, b in list_items(text, "name" if team else ""):
        if re.search(r"[.!?\n]", text[end:a]):
            address = False
        end = b
        if kind in ("name", "choice") and (address or re.search(r"\d", text[a:b])):
            address = True
            continue
        if offers_value(text, a, b, kind, filler, foreign):
            out.append((a, b))
    return out


def offers_value(text: str, a: int, b: int, kind: str, filler: Iterable[str] = (), foreign: Iterable[str] = ()
                 ) -> bool:
    """Whether the list item ``text[a:b]``, in which the judge read no value, is a value of its own by ``kind``
    (:func:`unread_item`'s rule; the Assistant's judge asks it of the items that name none of its candidates)."""
    text = _blank_idioms(text)
    words = list(_ALT_WORD.finditer(text, a, b))
    content = [w for w in words if w.group(0) not in ALTERNATIVE_FILLER | set(filler)]
    if not content or _denied(text, content[0].start()):
        return False
    said = {w.group(0) for w in words}
    if kind == "name":
        return not said & (CONTEXT_WORDS | {"a", "an"}) or bool(said & set(foreign))
    if kind == "choice":
        return not said & CONTEXT_WORDS
    return bool(said & (_RELATIVE | _FLOOR_WORDS if kind == "floor" else _RELATIVE))


def item_reason(item: str) -> str:
    """The verdict's reason for a list item the judge cannot read (:func:`unread_item`)."""
    return (f"the answer lists {item!r} beside the value, which is no value the judge can read: another value it "
            f"cannot check (a hedge)")


#: the landmark's other numbers an answer may state beside the asked one, each named by the words beside it
#: (:func:`_another_fact`): its years (``year_built``, ``opened``), its ``height_m`` and its ``floors`` in all
OTHER_FACTS = ("year_built", "opened", "height_m", "floors")
#: words right before a year that make it the landmark's year of building or opening ("completed in 1963",
#: "opened in MCMXXXI", "built 1931", "dating from 1931", "year built: 1931")
_YEAR_CUE = re.compile(r"(?:\b(?:completed|built|finished|constructed|erected|opened|dedicated|inaugurated|founded"
                       r"|established)(?:\s+(?:in|by))?|\bdat(?:es|ed|ing)(?:\s+back)?\s+(?:from|to)|\b(?:year\s+"
                       r"(?:built|completed|opened)|completion|construction|opening)(?:\s+(?:year|date))?\s*(?::|-|was|in)?)"
                       r"\s+(?:the\s+year\s+)?$")
#: words around a length that make it the landmark's height ("319 m tall", "a height of 319 m", "rises 319 m")
_HEIGHT_BEFORE = re.compile(r"\b(?:height(?:\s+(?:is|of|was))?|rises(?:\s+to)?|stands|tall\s+at|high\s+at)\s*:?\s+$")
_HEIGHT_AFTER = re.compile(r"\s*(?:-\s*)?(?:tall|high|in\s+height)\b")
#: a floor count ("77 floors", "a 77-storey tower"): a cardinal with a plural floor word, or a singular one joined
#: by a hyphen
_FLOOR_COUNT = re.compile(r"\d[\d.,]*\s*(?:(?:floors|storeys|stories|levels)\b|-\s*(?:floor|storey|story|level)\b)")


def _another_fact(text: str, q: _Qty, known: dict[str, float]) -> bool:
    """Whether the quantity ``q`` is stated as another true fact of the landmark, not as a value for the asked
    one: named as a year of building or opening, a height or a count of floors by the words beside it, equal to
    that fact of ``known`` (a year exactly; a height within 1 m or 1 %; floors exactly), and offered as no
    alternative (no hedge word such as "or", "maybe" before its words, no "or" after it). "1963 or 1964", "built
    in 1963 or 1964" and "it has 3 floors" (when it has 77) are still judged as values of the asked fact."""
    if q.value is None:
        return False
    before, after = text[max(0, q.start - 50):q.start], q.end if q.unit else q.digits_end
    cue_start = None
    if (q.unit is None or q.unit[0] == "year") and not q.ordinal:
        m = _YEAR_CUE.search(before)
        if m and any(abs(q.value - known[k]) < 1e-9 for k in ("year_built", "opened") if k in known):
            cue_start = q.start - len(before) + m.start()
    if cue_start is None and "height_m" in known and q.unit and q.unit[0] == "length" and not q.ordinal:
        m = _HEIGHT_BEFORE.search(before)
        tall = _HEIGHT_AFTER.match(text, q.end)
        h = known["height_m"]
        if (m or tall) and abs(q.value * q.unit[1] - h) <= max(1.0, 0.01 * h) + 1e-9:
            cue_start = q.start - len(before) + m.start() if m else q.start
            after = tall.end() if tall else after
    if cue_start is None and "floors" in known and not q.ordinal and _FLOOR_COUNT.match(text, q.start) \
            and abs(q.value - known["floors"]) < 1e-9:
        cue_start = q.start
    if cue_start is None:
        return False
    return not (_HEDGE_BEFORE.search(text, max(0, cue_start - 20), cue_start)
                or _HEDGE_BEFORE.search(text, max(0, q.start - 20), q.start) or _HEDGE_AFTER.match(text, after))


def _known_numbers(known: Mapping[str, Any] | None) -> dict[str, float]:
    """The facts of ``known`` that :data:`OTHER_FACTS` names and that are one number ("1931", "319.5")."""
    out = {}
    for k, v in (known or {}).items():
        got = read_number(str(v).strip()) if k in OTHER_FACTS else None
        if got is not None:
            out[k] = got
    return out


#: the words of a number answer that stand beside a value (units, "floor", "ground" not among them: "15th or ground
#: floor" offers a floor the judge does not read)
_NUMBER_FILLER = frozenset({*UNITS, "st", "nd", "rd", "th", "number", "no", "metres", "tall", "high", "height", "year",
                            "built", "completed", "opened", "up", "floor", "floors"})
#: a street word after a number ("1st Ave", "E 43rd St", "350 Fifth Avenue"): the number is part of an address
_STREET_AFTER = re.compile(r"\s*(?:[a-z0-9]+\s+)?(?:st|street|ave|avenue|av|rd|road|blvd|boulevard|pl|place|ln|lane|dr"
                           r"|drive|way|pkwy|parkway|sq|square|ter|terrace|ct|court|hwy|highway|broadway)\b")
#: "of" before a floor count after the floor ("15th floor of 39", "the 15th of 39 floors", "out of 39")
_OF_BEFORE = re.compile(r"\b(?:out\s+)?of\s+(?:the\s+|its\s+)?$")


def _context_number(text: str, earlier: list[_Qty], q: _Qty, dim: str, known: Mapping[str, float] | None) -> bool:
    """Whether the quantity ``q`` is context, not a value offered for the fact (stop 38): a number of an address (a
    street word after it: "15th floor on 1st Ave & E 43rd St") or, in a floor question, the building's floor count
    (``known["floors"]``, as :func:`_another_fact` reads a count) after "of" once a floor was given ("15th floor of
    39", "15th of 39 floors"); a count the building does not have is still judged ("14th floor of the 70-storey
    tower" when it has 39)."""
    if q.unit is None or q.ordinal:
        after = text[q.digits_end:q.digits_end + 30] if q.digits_end else ""
        if after and _STREET_AFTER.match(after):
            return True
    return bool(dim == "floor" and known and q.value == known.get("floors") and not q.ordinal and (q.unit is None or q.unit[0] == "floor") and earlier
                and earlier[-1].ordinal and _OF_BEFORE.search(text, max(0, q.start - 20), q.start))


def _judge_number(text: str, fact: dict[str, Any], ignore_numbers: Sequence[float] = (),
                  known: dict[str, float] | None = None) -> Verdict:
    gold, unit, tol = float(fact["value"]), str(fact.get("unit") or ""), float(fact.get("tol") or 0.0)
    dim, scale = UNITS.get(unit, (unit or "plain", 1.0))
    judged = denied = 0
    found = _quantities(text)
    context = {id(q) for k, q in enumerate(found) if _context_number(text, found[:k], q, dim, known)}
    for q in found:
        if q.value is not None and q.value in ignore_numbers or id(q) in context:
            continue
        if q.value is None:
            return Verdict(False, "a number in the answer is no one number (write 18.6 or 18,6; 1,200 or 1200)")
        value, qdim, factor = q.value, q.unit[0] if q.unit else None, q.unit[1] if q.unit else 1.0
        if known and _another_fact(text, q, known):
            continue  # "... on the 2nd floor. It was completed in 1963.": another true fact, stated as such
        v = value * factor / scale if qdim is not None else value
        if _denied(text, q.start):  # "not 43 m but 38 m": a value ruled out is no candidate, unless it is the answer
            if (qdim is None or qdim == dim) and abs(v - gold) <= tol + 1e-9:
                return Verdict(False, f"the answer denies {_fmt(value)}")
            denied += 1
            continue
        judged += 1
        if qdim is not None and qdim != dim:
            return Verdict(False, f"{_fmt(value)} is a {qdim}, not a {dim}")
        if abs(v - gold) > tol + 1e-9:
            shown = f"{_fmt(value)} ({_fmt(v)} {unit})" if qdim and factor != scale else _fmt(value)
            within = f" (within {_fmt(tol)})" if tol else ""
            return Verdict(False, f"{shown} is not {fact['value']}{' ' + unit if dim == 'length' else ''}{within}")
    if not judged:
        return Verdict(False, "the answer only denies values: give one" if denied else "no number in the answer")
    # (a number's span ends with its unit, or with its digits: the word after a bare number is not read)
    read = [(q.start, q.end if q.unit else q.digits_end or q.end) for q in found if id(q) not in context]
    item = unread_alternative(text, read, _NUMBER_FILLER)
    if item is not None:
        return Verdict(False, hedge_reason(item))
    listed = unread_item(text, [*read, *((q.start, q.end) for q in found if id(q) in context)],
                         "floor" if dim == "floor" else "number", _NUMBER_FILLER)
    return Verdict(False, item_reason(listed)) if listed is not None else Verdict(True)


#: a Roman numeral of a year, in capitals ("MCMXXXI", "MMXCVIII"): 1000 or more and three letters or more, so
#: "I", "MC", "MD" or "DC" stay words
_ROMAN = re.compile(r"(?<![A-Za-z0-9])(?=[MDCLXVI]{3})M{1,3}(?:CM|CD|D?C{0,3})(?:XC|XL|L?X{0,3})(?:IX|IV|V?I{0,3})"
                    r"(?![A-Za-z0-9])")
_ROMAN_VALUES = {"M": 1000, "D": 500, "C": 100, "L": 50, "X": 10, "V": 5, "I": 1}


def roman_years(text: str) -> str:
    """``text`` with every Roman numeral of a year (:data:`_ROMAN`, in capitals, canonical, 1000 or more)
    written in digits: "completed in MCMXXXI" is "completed in 1931"."""
    def value(m: re.Match[str]) -> str:
        ns = [_ROMAN_VALUES[c] for c in m.group(0)]
        return str(sum(-n if i + 1 < len(ns) and n < ns[i + 1] else n for i, n in enumerate(ns)))

    return _ROMAN.sub(value, text)


# -------------------------------------------------------------------------------------- spelled numbers
_ONES = {w: i for i, w in enumerate("zero one two three four five six seven eight nine ten eleven twelve thirteen "
                                    "fourteen fifteen sixteen seventeen eighteen nineteen".split())}
_TENS = {w: 10 * i for i, w in enumerate("twenty thirty forty fifty sixty seventy eighty ninety".split(), 2)}
_ORDINAL_WORDS = {"first": 1, "second": 2, "third": 3, "fifth": 5, "eighth": 8, "ninth": 9, "twelfth": 12,
                  **{w + "th": n for w, n in _ONES.items() if n >= 4 and w + "th" not in ("fiveth", "eightth",
                                                                                      "nineth", "twelveth")},
                  **{w[:-1] + "ieth": n for w, n in _TENS.items()}, "hundredth": 100, "thousandth": 1000}
_SCALES = {"hundred": 100, "thousand": 1000}
_NUM_WORD = "|".join(sorted([*_ONES, *_TENS, *_ORDINAL_WORDS, *_SCALES, "oh"], key=len, reverse=True))
#: a run of number words ("forty-one", "one hundred and twelve", "nineteen sixty-three", "sixteenth")
_SPELLED = re.compile(rf"(?<![a-z0-9'])(?:{_NUM_WORD})(?:(?:[\s-]+(?:and[\s-]+)?)(?:{_NUM_WORD}))*(?![a-z0-9])")
#: what makes a spelled number a quantity or a time: a unit, "o'clock" or am/pm right after it ...
_UNIT_AFTER = re.compile(r"[\s-]*(?:(?:" + "|".join(sorted((re.escape(u) for u in UNITS if u.isalpha() and u not in
                                                             ("in", "ad", "year", "years")), key=len, reverse=True))
                         + r")\b|o\s*'?\s*clock|[ap]\.?\s?m\b)")
#: ... or the end of the clause (a number word in prose, "one of the", "first completed", stays a word)
_CLAUSE_END = re.compile(r"\s*(?:[.,;:!?)]|$)")


def _below_100(words: list[str]) -> int | None:
    """The value of one or two words below 100 ("forty", "forty one", "nineteen"), else None."""
    if len(words) == 1:
        return _ONES.get(words[0], _TENS.get(words[0]))
    if len(words) == 2 and words[0] in _TENS and words[1] in _ONES and 0 < _ONES[words[1]] < 10:
        return _TENS[words[0]] + _ONES[words[1]]
    return None


def _spelled_value(words: list[str]) -> tuple[int, bool, bool] | None:
    """(value, ordinal, a year or hundreds form that is a number wherever it stands) of a run of number words,
    or None when the run is no one number ("two three")."""
    ordinal = words[-1] in _ORDINAL_WORDS
    if ordinal:  # "twenty-first" = twenty one, read as a cardinal, then marked
        last = words[-1]
        n = _ORDINAL_WORDS[last]
        base = {1: "one", 2: "two", 3: "three", 5: "five", 8: "eight", 9: "nine", 12: "twelve"}.get(n)
        words = [*words[:-1], base or next((w for w, v in {**_ONES, **_TENS, **_SCALES}.items() if v == n), last)]
    if "oh" in words or not any(w in _SCALES for w in words):
        for cut in (1, 2):  # a year said in two groups: "nineteen sixty-three", "twenty ninety-eight", "nineteen oh five"
            a, b = _below_100(words[:cut]), words[cut:]
            if a is None or not 10 <= a <= 99 or not b:
                continue
            low = _ONES.get(b[1]) if len(b) == 2 and b[0] == "oh" else _below_100(b)
            if low is not None and (b[0] == "oh" and low < 10 or 10 <= low <= 99) and not (
                    cut == 1 and a % 10 == 0 and a >= 20 and low < 10):
                return a * 100 + low, ordinal, True
        if "oh" in words:
            return None
        value = _below_100(words)
        return (value, ordinal, False) if value is not None else None
    total, part = 0, None
    for w in words:
        if w in _SCALES:
            part = (part if part is not None else 1) * _SCALES[w]
            if _SCALES[w] == 1000:
                total, part = total + part, None
        else:
            n = _ONES.get(w, _TENS.get(w))
            if n is None or part is not None and part % 100 and part % 10 == 0 and n >= 10:
                return None
            part = (part or 0) + n if part is None or part >= 100 or (part % 10 == 0 and n < 10) else None
            if part is None:
                return None
    return total + (part or 0), ordinal, True


#: a clock time said in words: "quarter past five", "half past 3", "ten minutes to six in the afternoon"
_CLOCK_PHRASE = re.compile(rf"(?<![a-z0-9])(quarter|half|(?:{_NUM_WORD}|\d{{1,2}})(?:[\s-]+(?:{_NUM_WORD}))?"
                           r"(?:\s+minutes?)?)"
                           rf"\s+(past|after|to|before)\s+({_NUM_WORD}|\d{{1,2}})(?![a-z0-9])"
                           r"(?:\s+(?:in\s+the\s+(morning|afternoon|evening)|at\s+(night)))?")
#: a clock time said as its digits in words with am/pm or a part of the day: "five-fifty p.m.", "six fifteen in
#: the evening", "nine oh five am"
_SPOKEN_CLOCK = re.compile(rf"(?<![a-z0-9])({_NUM_WORD})[\s-]+((?:oh[\s-]+)?(?:{_NUM_WORD})(?:[\s-]+(?:{_NUM_WORD}))?)"
                           r"\s*(a\.?\s?m\b\.?|p\.?\s?m\b\.?|in\s+the\s+(?:morning|afternoon|evening)|at\s+night)")


def clock_phrases(text: str) -> str:
    """Folded ``text`` with clock times said in words written as ``H:MM`` (with pm for "in the afternoon",
    "in the evening" or "at night", am for "in the morning"): "quarter past five" is "5:15", "ten to six in the
    afternoon" and "ten minutes to six in the afternoon" "5:50 pm", "five-fifty p.m." "5:50 pm". So such a time
    is judged, whether it is the answer or a second time hedged beside it."""
    def sub(m: re.Match[str]) -> str:
        def value(words: str) -> int | None:
            if words.isdigit():
                return int(words)
            got = _spelled_value([w for w in re.split(r"[\s-]+", words) if w])
            return got[0] if got and not got[1] else None

        amount, way, hour_word, part, night = m.groups()
        minutes = {"quarter": 15, "half": 30}.get(amount) or value(re.sub(r"\s*minutes?$", "", amount))
        hour = value(hour_word)
        if minutes is None or hour is None or not 0 < minutes < 60 or not 1 <= hour <= 12:
            return m.group(0)
        if way in ("to", "before"):
            hour, minutes = (hour - 2) % 12 + 1, 60 - minutes
        half = "pm" if part in ("afternoon", "evening") or night else "am" if part == "morning" else ""
        return f"{hour}:{minutes:02d}" + (f" {half}" if half else "")

    def spoken(m: re.Match[str]) -> str:
        hour = _spelled_value([m.group(1)])
        words = [w for w in re.split(r"[\s-]+", m.group(2)) if w]
        low = _ONES.get(words[1]) if len(words) == 2 and words[0] == "oh" else _below_100(words)
        if hour is None or hour[1] or not 1 <= hour[0] <= 12 or low is None or not 0 <= low < 60 or (
                words[0] != "oh" and low < 10):
            return m.group(0)
        part = m.group(3)
        half = "am" if part.startswith("a") and "night" not in part or "morning" in part else "pm"
        return f"{hour[0]}:{low:02d} {half}"

    if "past" in text or "to" in text or "after" in text or "before" in text:
        text = _CLOCK_PHRASE.sub(sub, text)
    return _SPOKEN_CLOCK.sub(spoken, text)


#: words that offer what follows them as an alternative, or a margin ("or maybe 39", "give or take two years")
_HEDGE_BEFORE = re.compile(r"(?:\b(?:or|nor|maybe|perhaps|possibly|probably|either|give\s+or\s+take|plus\s+or\s+minus"
                           r"|else|otherwise|alternatively|if\s+not|rather|even|vs|versus|between|latest|earliest"
                           r"|(?:could|might|may|would)(?:\s+also)?\s+be)"
                           r"|±|\+/-|/)[\s,]*$")
_HEDGE_AFTER = re.compile(r"[\s,]*(?:or|nor)\b")


def _beside_a_hedge(text: str, m: re.Match[str]) -> bool:
    """Whether the words matched by ``m`` are offered as an alternative or margin (see :func:`spelled_numbers`)."""
    return bool(_HEDGE_BEFORE.search(text, max(0, m.start() - 20), m.start()) or _HEDGE_AFTER.match(text, m.end()))


def spelled_numbers(text: str, hedged: bool = False) -> str:
    """Folded ``text`` with numbers written in words as digits where they are quantities or times:
    "forty-one metres" is "41 metres", "the fifteenth floor" "the 15th floor", "in nineteen sixty-three" "in
    1963", "five o'clock" "5 o'clock", "two thousand and five" "2005". A number word counts when a unit,
    "o'clock" or am/pm follows it or it ends the clause, or when it is a year or hundreds form; a lone "one"
    never (it is a pronoun), and "first completed" stays words. With ``hedged`` (a number or time answer) a
    cardinal counts beside a word that offers it as an alternative too: after "or", "maybe", "perhaps", "give or
    take", "plus or minus", or before "or" ("maybe thirty-nine or 38" is two values; "the two architects
    finished it in 1931" is one). So a correct answer in words is judged, and a second value in words is seen as
    the hedge it is."""
    def sub(m: re.Match[str]) -> str:
        words = [w for w in re.split(r"[\s-]+", m.group(0)) if w != "and"]
        got = _spelled_value(words)
        if got is None:
            return m.group(0)
        value, ordinal, always = got
        if not (always or hedged and not ordinal and words != ["one"] and _beside_a_hedge(text, m)
                or _UNIT_AFTER.match(text, m.end())
                or words != ["one"] and _CLAUSE_END.match(text, m.end())):  # a lone "one" needs a unit
            return m.group(0)
        return f"{value}{'th' if ordinal else ''}"

    return _SPELLED.sub(sub, text) if _SPELLED.search(text) else text


# ------------------------------------------------------------------------------------------------ times
#: H:MM or H.MM or HhMM (seconds after it allowed: "13:55:00"), am/pm, and an hour word after it ("13:55h",
#: "13:55 hrs")
_TIME = re.compile(r"(?<![\w.:])(\d{1,2})(?:\s*[:.h]\s*(\d{2})(?::\d{2})?)?\s*(a\.?\s?m\b\.?|p\.?\s?m\b\.?)?"
                   r"(?:(?<=\d)\s*(?:hrs|hours|hr|h)\b)?(?![\w:])")


#: words after which, or before which, a number is not a label's or a unit's: hedges, verbs of being,
#: prepositions of time and small words ("or 6", "if not 6", "could be 6", "6 at the latest", "6 or so")
_FREE_WORDS = frozenset("""
    or nor maybe perhaps possibly probably either else otherwise alternatively not rather even vs versus between
    latest earliest and to than then be is was are were it it's its that this so just only also say like around
    about approximately roughly nearly almost at by until till before after from if unless though although but
    could might may would will should sure guess think believe i'd i'm likely more less ish on in for when
    """.split())
_TOKEN_BEFORE = re.compile(r"(\S+)\s*$")
#: an hour in words, approximately ("sixish", "six-ish")
_WORD_ISH = re.compile(rf"(?<![a-z])({_NUM_WORD})\s*-?\s*ish\b")
#: the whole part of a decimal or a thousands group ("14.7 metres", "1,200")
_IN_A_NUMBER = re.compile(r"[.,]\d")
#: the first of two numbers sharing a unit, before the second ("3 or" of "3 or 4 times")
_PAIR_BEFORE = re.compile(r"(?<![\d:.,])\d+(?:[.,]\d+)?\s*(?:or|to|and|-|–)\s*$")
#: a number sharing the unit of the next ("3 or 4 times a month", "2 to 3 hours")
_SHARED_UNIT = re.compile(r"\s*(?:or|to|and|-|–)\s*\d+(?:[.,]\d+)?\s*(?![ap]\.?m\b)[a-z]{2,}")
_TOKEN_AFTER = re.compile(r"\s*(\S+)")


def _stands_free(text: str, m: re.Match[str]) -> bool:
    """Whether the bare number matched by ``m`` stands free of a label or a unit, so in a time answer it is an
    hour offered beside the time: the word before it, unless a clause ends there, and the word after it are
    small words (:data:`_FREE_WORDS`) or missing. "5:50 pm, or 6", "5:50 pm vs 6", "6 at the latest, 5:50 pm"
    and "5:50 pm, 6-ish" stand free, and so does any number after a hedge ("or 6 minutes later"); "platform 4",
    "gate 6 at 5:50 pm", "6 minutes", "3 or 4 times" and the whole part of "14.7 m" do not. A closed list of
    labels would miss the next one; the small words that can stand beside an hour are few."""
    if _IN_A_NUMBER.match(text, m.end()) or re.search(r"\d[.,]$", text[max(0, m.start() - 2):m.start()]):
        return False
    after = _TOKEN_AFTER.match(text, m.end())
    word_after = re.match(r"[a-z][\w']*", after.group(1)) if after else None
    if word_after and word_after.group(0) not in _FREE_WORDS and _PAIR_BEFORE.search(
            text, max(0, m.start() - 20), m.start()):
        return False  # the second of "3 or 4 times"
    if _HEDGE_BEFORE.search(text, max(0, m.start() - 20), m.start()):
        return True  # "or 6 minutes later", "or 6 or 7 times": still a second time offered
    if _SHARED_UNIT.match(text, m.end()):
        return False
    before = _TOKEN_BEFORE.search(text, max(0, m.start() - 40), m.start())
    if before and not re.search(r"[.,;:!?(/\-]$", before.group(1)):
        word = re.search(r"[\w']+$", before.group(1))
        if word and word.group(0) not in _FREE_WORDS:
            return False
    if after and after.group(1)[0].isalnum():
        word = re.match(r"[\w']+", after.group(1))
        if not word or word.group(0) not in _FREE_WORDS:
            return False
    return True


def clock_times(text: str, bare: bool = False) -> list[tuple[int, int, str | None]]:
    """``(hour, minute, "am"|"pm"|None)`` for each clock time in folded ``text``: ``H:MM``/``H.MM`` with or
    without am/pm, ``H am``/``H pm``, noon and midnight, ``H o'clock`` and ``HHMM hrs``; with ``bare`` a number
    up to 24 that stands free is an hour too (see :func:`_stands_free`: "5:50 pm, or 6", "5:50 pm, if not 6",
    "5:50 pm, 6 at the latest" give two times; "Platform 4, at 2:15 pm" and "2:15 pm, 6 minutes late" one)."""
    out: list[tuple[int, int, str | None]] = []
    for m in _TIME.finditer(text):
        h, mins, ap = int(m.group(1)), m.group(2), m.group(3)
        if mins is None and ap is None and not (bare and h <= 24 and m.group(0)[-1].isdigit() and _stands_free(text, m)):
            continue  # a bare number is not a time, unless offered as one ("5:50 pm, or 6")
        half = ("am" if ap.startswith("a") else "pm") if ap else None
        out.append((h, int(mins) if mins is not None else 0, half))  # impossible times are kept: they match nothing
    if bare:  # "6ish", "6-ish", "sixish": an hour, approximately
        out.extend((int(m.group(1)), 0, None) for m in re.finditer(r"(?<![\w.:])(\d{1,2})\s*-?\s*ish\b", text))
        for m in _WORD_ISH.finditer(text):
            got = _spelled_value([m.group(1)])
            if got and not got[1]:
                out.append((got[0], 0, None))
    for m in re.finditer(r"\b(noon|midday|midnight)\b", text):
        out.append((12, 0, "pm" if m.group(1) != "midnight" else "am"))
    for m in _OCLOCK.finditer(text):  # "4 o'clock", "4 o'clock pm"
        ap = m.group(2)
        out.append((int(m.group(1)), 0, ("am" if ap.startswith("a") else "pm") if ap else None))
    for m in _HOURS.finditer(text):  # "1705 hrs", "0930 hours": the 24-hour clock
        out.append((int(m.group(1)), int(m.group(2)), None))
    return out


#: a time as four (or three) digits, hours then minutes ("1140", "945")
_HHMM = re.compile(r"(?<![\w.:])([01]?\d|2[0-3])([0-5]\d)(?![\w.:])")
#: a clock time glued to the word or label before it ("at1:45 pm", "alt:1:45 pm"): a time all the same (stop 39: a
#: black-box cheater's "11:40 am (alt:1:45 pm)" passed, its second time unread); never inside a time ("11:40:00")
_GLUED_TIME = re.compile(r"(?:(?<=[a-z])|(?<=[a-z]:))(?=\d{1,2}[:.]\d{2}\b)")


#: a window around a time ("give or take 20 minutes", "± 10 min", "plus or minus a quarter of an hour")
_MARGIN = re.compile(r"(?:\b(?:give\s+or\s+take|plus\s+or\s+minus)\b|±|\+/-)\s*(?:an?\s+)?"
                     rf"(?:\d|(?:{_NUM_WORD}|quarter|half|few)\b)")
_OCLOCK = re.compile(r"(?<![\w.:])(\d{1,2})\s*o\s*'?\s*clock\b\s*(a\.?\s?m\b\.?|p\.?\s?m\b\.?)?")
_HOURS = re.compile(r"(?<![\w.:])([01]\d|2[0-3])([0-5]\d)\s*(?:hrs|hours|hr|h)\b")


def parse_time(value: str) -> int:
    """Minutes after midnight of a written time (``"2:15 pm"``, ``"14:15"``); ValueError if none or several."""
    ts = clock_times(fold(value))
    if len(ts) != 1:
        raise ValueError(f"not one clock time: {value!r}")
    h, mi, half = ts[0]
    if half:
        h = h % 12 + (12 if half == "pm" else 0)
    return h * 60 + mi


def _judge_time(text: str, value: str) -> Verdict:
    gold = parse_time(value)
    if _MARGIN.search(text):  # "5:50 pm, give or take 20 minutes": a window of times, not one
        return Verdict(False, "a margin around the time is a hedge: give one time")
    text = _GLUED_TIME.sub(" ", text)
    ts = clock_times(text, bare=True)
    if not ts:
        return Verdict(False, "no clock time in the answer")
    for h, mi, half in ts:
        if half:
            ok = 1 <= h <= 12 and mi < 60 and (h % 12 + (12 if half == "pm" else 0)) * 60 + mi == gold
        elif h > 12:
            ok = mi < 60 and h * 60 + mi == gold
        else:
            ok = mi < 60 and gold in ((h % 12) * 60 + mi, (h % 12 + 12) * 60 + mi)
        if not ok:
            return Verdict(False, f"{h}:{mi:02d}{' ' + half if half else ''} is not {value}")
    # stop 39: the alternatives (:func:`unread_alternative`) and list items (:func:`unread_item`) of a time answer, by
    # the number judge's rules; a stretch with a digit is read (a time, or a platform's number: context), but not
    # digits that write another time without its colon ("11:40 am or 1145", "... or twelve-thirty", spelled "1230"):
    # the judge reads no time there, so that alternative is another value
    read = [(m.start(), m.end()) for m in re.finditer(r"\d+", text)]
    other_times = [(m.start(), m.end()) for m in _HHMM.finditer(text)
                   if gold not in {(int(m.group(1)) % 12 + k) * 60 + int(m.group(2)) for k in (0, 12)}]
    times = [span for span in read if span not in other_times]
    item = unread_alternative(text, times, _TIME_FILLER)
    if item is not None:
        return Verdict(False, hedge_reason(item))
    listed = unread_item(text, read, "number", _TIME_FILLER)
    return Verdict(False, item_reason(listed)) if listed is not None else Verdict(True)


#: the words of a time answer that stand beside a time ("pm", "o'clock", "hrs")
_TIME_FILLER = frozenset({"am", "pm", "a", "p", "m", "o", "clock", "o'clock", "h", "hr", "hrs", "hours", "noon",
                          "midday", "midnight", "sharp", "exactly", "time"})


# ------------------------------------------------------------------------------------------------ names
PARTICLES = {"van", "von", "der", "den", "de", "del", "della", "la", "le", "du", "di", "da", "dos", "das", "ter",
             "ten", "st", "al", "el", "bin", "ibn", "ben", "y"}
SUFFIXES = {"jr", "sr", "ii", "iii", "iv"}
FIRM_WORDS = {"partners", "partner", "sons", "son", "associates", "associate", "company", "co", "architects",
              "architect", "architecture", "group", "studio", "studios", "llp", "inc", "ltd", "office", "firm",
              "the"}
_SEP = re.compile(r"\s*(?:;|,|&|\+|\band\b|\bwith\b|\bet\b)\s*")


#: the dashes that join the parts of a hyphenated name when they stand between two letters, as people and word
#: processors write them: the hyphen (U+2010; the non-breaking hyphen U+2011 is U+2010 after :func:`fold`), the figure
#: dash, the en dash, the minus sign and the soft hyphen ("Tanaka-Reid", "Tanaka–Reid", "Tanaka\u2212Reid"); an em dash
#: or a dash with a space beside it stands between words, never inside one
_HYPHENS = "-\u2010\u2012\u2013\u2212\u00ad"
_NAME_WORD = re.compile(rf"[a-z0-9]+(?:(?<=[a-z])[{_HYPHENS}](?=[a-z])[a-z0-9]+)*")
#: what may stand between two words of one name: spaces and the dots of initials ("I. M. Pei", "I.M.Pei"); any other
#: mark ("&", ";", "/", "+", a comma, a new line, a dash, a bracket) separates the items of a list
_IN_NAME = re.compile(r"[ \t.]*")
#: what may stand between a surname said first and the given names after it: the same, and one comma ("Pei, I. M.")
_AFTER_SURNAME = re.compile(r"[ \t.]*(?:,[ \t.]*)?")


def _name_words(text: str) -> list[tuple[str, tuple[str, ...], str]]:
    """``(word, its parts, the text between it and the word before)`` for each word of a name or an answer, folded:
    a possessive's ending dropped ("Papadakis's" = "papadakis"), other apostrophes dropped ("O'Neill" = "oneill"),
    a hyphenated word one word made of its parts ("Tanaka–Reid" = "tanakareid", parts "tanaka", "reid"), initials
    split ("I.M." = "i", "m")."""
    return [(w, parts, gap) for w, parts, gap, _start, _end in _name_words_at(text)]


def _name_words_at(text: str) -> list[tuple[str, tuple[str, ...], str, int, int]]:
    """As :func:`_name_words`, with where each word starts and ends in ``fold(text)`` (for :func:`_denied`)."""
    folded = fold(text)
    dropped = {i for m in _POSSESSIVE.finditer(folded) for i in range(m.start(), m.end())}
    at = [i for i, c in enumerate(folded) if c != "'" and i not in dropped]
    t = "".join(folded[i] for i in at)
    out, end = [], 0
    for m in _NAME_WORD.finditer(t):
        parts = tuple(re.split(f"[{_HYPHENS}]", m.group(0)))
        out.append(("".join(parts), parts, t[end:m.start()], at[m.start()], at[m.end() - 1] + 1))
        end = m.end()
    return out


def _name_tokens(text: str) -> list[str]:
    """The folded words of a name or an answer (:func:`_name_words`)."""
    return [w for w, _parts, _gap in _name_words(text)]


#: a possessive's ``'s`` at the end of a word (curly quotes are straight after :func:`fold`)
_POSSESSIVE = re.compile(r"(?<=[a-z0-9])'s\b")


@dataclass(frozen=True)
class Person:
    given: tuple[str, ...]
    particles: tuple[str, ...]
    surname: str
    label: str = field(default="", compare=False)
    #: a hyphenated surname's parts ("tanaka", "reid" of "Tanaka-Reid"), which an answer may write with a space
    parts: tuple[str, ...] = field(default=(), compare=False)

    def __str__(self) -> str:
        return self.label or " ".join(self.given + self.particles + (self.surname,))


@lru_cache(maxsize=4096)
def parse_names(value: str) -> tuple[Person, ...]:
    """The people (or firms) in a written list of names; firm words and parentheticals dropped."""
    value = re.sub(r"\([^)]*\)", " ", value)
    people = []
    for part in _SEP.split(value):
        words = [(w, ps) for w, ps, _gap in _name_words(part) if w not in FIRM_WORDS]
        while words and words[-1][0] in SUFFIXES:
            words.pop()
        if not words:
            continue
        toks = [w for w, _ps in words]
        i = len(toks) - 1
        while i > 0 and toks[i - 1] in PARTICLES:
            i -= 1
        parts = words[-1][1] if len(words[-1][1]) > 1 else ()
        people.append(Person(tuple(toks[:i]), tuple(toks[i:-1]), toks[-1], " ".join(part.split()), parts))
    return tuple(people)


def person_keys(value: str) -> set[tuple[str, str]]:
    """(initial of a given name, surname) of every person in ``value``: two people who share one of these
    can be told apart by no form of their names."""
    return {(g[0], p.surname) for p in parse_names(value) for g in p.given}


#: words that are never given names, so never stand for an initial ("and" is not "A.")
NOT_NAMES = {"a", "an", "and", "as", "at", "by", "for", "from", "in", "is", "it", "of", "on", "or", "the", "to",
             "with", "was", "are", "also", "architect", "architects", "honours", "honors", "led", "mr", "mrs", "ms",
             "dr", "sir", "named", "plaque", "answer"}
#: stop 36: the words of the judge's own readers (denials, comparisons, hedges) and other words said before a name
#: that are never given names: "not Ruth Bhatt but Thorne" read "but" as Søren B. Thorne's initial, and "maybe
#: Papadakis", "definitely Mertens" named a person whose initial the word begins with by the surname alone (6 of 90
#: name questions in four such words)
NOT_NAMES |= {"but", "not", "nor", "than", "rather", "instead", "since", "because", "whereas", "while", "over",
              "beats", "maybe", "perhaps", "possibly", "probably", "likely", "surely", "definitely", "certainly",
              "clearly", "obviously", "apparently", "presumably", "just", "only", "so", "then", "yes", "no", "either",
              "neither", "think", "guess", "believe", "sure", "mister", "miss", "madam", "prof", "professor", "doctor",
              "designed", "built", "says", "said", "that", "this", "who", "which", "its", "his", "her", "their", "my",
              "me", "we", "you", "he", "she", "they", "be", "been", "would", "should", "could", "might", "may", "must",
              "did", "does"}


def _same_given(token: str, given: str) -> bool:
    """A given name in the answer stands for the person's given name: the same name, its initial, or (when the
    person's name gives only the initial) a whole name with that initial ("Ieoh" for "I.")."""
    return token == given or (len(token) == 1 and given.startswith(token)) or \
        (len(given) == 1 and token.startswith(given) and token not in NOT_NAMES)


def _surname_at(tokens: list[str], gaps: Sequence[str], j: int, p: Person) -> int:
    """Where ``p``'s surname written at ``tokens[j]`` ends (the index after it), or -1: the surname as one word,
    or a hyphenated surname's parts as words with only spaces between ("Tanaka Reid" for "Tanaka-Reid")."""
    if tokens[j] == p.surname:
        return j + 1
    n = len(p.parts)
    if n > 1 and tuple(tokens[j:j + n]) == p.parts and all(not gaps[k].strip() for k in range(j + 1, j + n)):
        return j + n
    return -1


def _named_forwards(tokens: list[str], gaps: Sequence[str], s: int, p: Person) -> bool:
    """Whether ``tokens`` name ``p`` forwards from ``s``: a given name of ``p`` (its first, in full or as an
    initial), its other given names if any, its particles if any, then its surname, as one name
    (:data:`_IN_NAME` between the words): "Yusuf F. Boateng", "Yusuf Boateng", "Y. Boateng"."""
    if not p.given or not _same_given(tokens[s], p.given[0]):
        return False
    k = s + 1
    while k < len(tokens) and _IN_NAME.fullmatch(gaps[k]) and any(_same_given(tokens[k], g) for g in p.given[1:]):
        k += 1
    for part in p.particles:
        if k < len(tokens) and tokens[k] == part and _IN_NAME.fullmatch(gaps[k]):
            k += 1
    return k < len(tokens) and bool(_IN_NAME.fullmatch(gaps[k])) and _surname_at(tokens, gaps, k, p) > 0


def names_person(tokens: list[str], p: Person, gaps: Sequence[str] | None = None,
                 listed: frozenset[int] = frozenset()) -> bool:
    """Whether the answer's ``tokens`` name ``p`` (:func:`name_spans`)."""
    return bool(name_spans(tokens, p, gaps, listed))


def name_spans(tokens: list[str], p: Person, gaps: Sequence[str] | None = None,
               listed: frozenset[int] = frozenset()) -> list[tuple[int, int]]:
    """Where the answer's ``tokens`` name ``p``, as ``(first token, token after the last)`` of each naming: its
    surname (its own particles optional; a hyphenated one may have a space for the hyphen) with a given name of ``p``
    (in full or as an initial) right before it (and the person's other given names before that, if written), or
    after it its first given name in full ("Whitfield, Ana") or all its two or more given names ("Pei, I. M.").
    ``gaps`` (the text before each token, :func:`_name_words`; none: the words of one run) keep a name within one
    item of a list: only spaces and initials' dots stand between its words (:data:`_IN_NAME`), and one comma after a
    surname said first (:data:`_AFTER_SURNAME`); but a surname said first does not take, across a comma, given
    names that begin another person named forwards (``listed``, the indexes where one begins): "Szabó, Yusuf F.
    Boateng" lists Szabó and Yusuf F. Boateng, "Szabó, Tariq" is Tariq Szabó. A surname said first may be followed by
    the given names without a comma too ("Szabó Tariq"; stop 35: no name of the wiki is another's reversed)."""
    gaps = gaps if gaps is not None else [""] * len(tokens)
    out: list[tuple[int, int]] = []
    for j in range(len(tokens)):
        end = _surname_at(tokens, gaps, j, p)
        if end < 0:
            continue
        i = j
        for part in reversed(p.particles):
            if i > 0 and tokens[i - 1] == part and _IN_NAME.fullmatch(gaps[i]):
                i -= 1
        if not p.given:
            out.append((i, end))
            continue
        if i > 0 and _IN_NAME.fullmatch(gaps[i]) and any(_same_given(tokens[i - 1], g) for g in p.given):
            # the given names written before it, in their order ("Yusuf F. Boateng" from "yusuf")
            m = max(x for x, g in enumerate(p.given) if _same_given(tokens[i - 1], g))
            k = i - 1
            while m > 0 and k > 0 and _IN_NAME.fullmatch(gaps[k]) and _same_given(tokens[k - 1], p.given[m - 1]):
                k, m = k - 1, m - 1
            out.append((k, end))
            continue
        after = tokens[end:end + len(p.given)]
        if not after or not _AFTER_SURNAME.fullmatch(gaps[end]) or "," in gaps[end] and end in listed:
            continue
        if after[0] == p.given[0] and len(after[0]) > 1:  # "Whitfield, Ana" (but not "Ortega, a stonemason")
            k, m = end + 1, 1  # and its other given names, if written ("Papadakis Inès V.")
            while m < len(p.given) and k < len(tokens) and _IN_NAME.fullmatch(gaps[k]) and \
                    _same_given(tokens[k], p.given[m]):
                k, m = k + 1, m + 1
            out.append((i, k))
        elif len(after) == len(p.given) > 1 and all(map(_same_given, after, p.given)) and all(
                _IN_NAME.fullmatch(gaps[k]) for k in range(end + 1, end + len(after))):
            out.append((i, end + len(after)))  # "Pei, I. M."
    return out


def _name_vocabulary(people: Iterable[Person]) -> set[str]:
    """The words of these people's names that only a name has: given names in full, surnames and a hyphenated
    surname's parts (no initials, particles, firm words or :data:`NOT_NAMES`)."""
    words = {w for p in people for w in (*p.given, p.surname, *p.parts)}
    return {w for w in words if len(w) > 1 and w not in PARTICLES | FIRM_WORDS | NOT_NAMES}


def _merged(tokens: list[str], gaps: Sequence[str], span: tuple[int, int], foreign: set[str]) -> str | None:
    """The word of another person's name (``foreign``) written as part of the name at ``span``, if any: inside it
    (standing for an initial: "Yusuf Fenwick Boateng"), right before it or right after it (particles aside) with only
    spaces or dots between ("Omar Reid Tanaka", "Yusuf Tariq Szabó", "Szabó Tariq Boateng"). The wiki gives no
    middle names, so such a run is one name made of two people's words: it names neither (stop 35)."""
    s, e = span
    for k in range(s, e):
        if tokens[k] in foreign:
            return tokens[k]
    if s > 0 and _IN_NAME.fullmatch(gaps[s]) and tokens[s - 1] in foreign:
        return tokens[s - 1]
    k = e
    while k < len(tokens) and tokens[k] in PARTICLES and _IN_NAME.fullmatch(gaps[k]):
        k += 1
    if k < len(tokens) and _IN_NAME.fullmatch(gaps[k]) and tokens[k] in foreign:
        return tokens[k]
    return None


#: what joins a denied person to the next one of the same denied team, with no comma between ("not Ruth Bhatt and
#: Leila Quintero", "not Ruth Bhatt & Leila Quintero"): both denied (stop 38; a name judge's rule only)
_AND_NEXT = re.compile(r"\s*(?:\band\b|&)\s*", re.IGNORECASE)


#: the words of a name answer that stand beside a name (titles, firm words, the judge's own words)
_NAME_FILLER = frozenset(NOT_NAMES | FIRM_WORDS | {"mr", "mrs", "ms", "mx", "dr", "prof", "sir", "dame", "by", "team"})


def _judge_name(text: str, fact: dict[str, Any], others: Sequence[str]) -> Verdict:
    """Every person of the fact (or of one alias) named and no other person of ``others`` (module docstring). A
    naming firmly denied (:func:`_denied`, the number and choice judges' rule: "Omar Reid (not Tariq Szabó)", "not
    Tariq Szabó but Omar Reid") names no one, and a denial reaches the people joined to it by "or" or "nor" ("not
    Tariq Szabó or Omar Reid" names neither) and, with no comma between, by "and" or "&" (a denied team: "Omar Reid and
    Leila Tanaka, not Ruth Bhatt and Leila Quintero" names the first two; stop 38); the right person denied fails ("not Omar Reid"), as a hedge beside a
    denial still names two ("Omar Reid, if not Tariq Szabó"). A name written with a word of another person's name
    (:func:`_merged`: "Omar Reid Tanaka", "Yusuf Tariq Szabó") names neither and fails the answer (stop 35)."""
    words = _name_words_at(text)
    tokens, gaps = [w for w, _ps, _g, _s, _e in words], [g for _w, _ps, g, _s, _e in words]
    folded = fold(text)
    golds = [parse_names(str(fact["value"]))] + [parse_names(str(a)) for a in fact.get("aliases") or ()]
    golds = [g for g in golds if g]
    if not golds:
        raise ValueError("no name in the fact")
    mine = {p for g in golds for p in g}
    people = mine | {p for other in others for p in parse_names(other)}
    listed = frozenset(s for s in range(len(tokens)) for p in people if _named_forwards(tokens, gaps, s, p))
    foreign = _name_vocabulary(people) - _name_vocabulary(mine)
    # every naming of every person (and every surname said alone as a list item), in the answer's order, with
    # whether it is denied: by a denial right before it, or by the denied naming before it joined by "or"/"nor"
    found: list[tuple[int, int, Person, str | None]] = []  # (start, end in ``folded``, person, merged word)
    for p in people:
        for span in name_spans(tokens, p, gaps, listed):
            found.append((words[span[0]][3], words[span[1] - 1][4], p, _merged(tokens, gaps, span, foreign)))
    for start, end, key in _names_alone(text):
        for p in people:
            if (*p.particles, p.surname) == key and p not in mine and not any(p.surname == q.surname for q in mine):
                found.append((start, end, p, None))
    named: list[tuple[Person, str | None]] = []
    denied: set[Person] = set()
    before: tuple[int, bool] | None = None
    for start, end, p, merged in sorted(found, key=lambda f: (f[0], f[1], str(f[2]))):
        carried = before is not None and before[1] and (_OR_NEXT.fullmatch(folded, before[0], start) is not None
                                                        or _AND_NEXT.fullmatch(folded, before[0], start) is not None)
        if carried or _denied(folded, start):
            denied.add(p)
            before = (end, True)
        else:
            named.append((p, merged))
            before = (end, False)
    clean = {p for p, merged in named if merged is None}
    missing: list[Person] = []
    for gold in golds:  # the value, then each alias
        missing = [p for p in gold if p not in clean]
        if not missing:
            break
    for p, merged in named:
        if merged is not None and p in mine:
            return Verdict(False, f"{p} is written with {merged!r}, a word of another person's name: one name of "
                                  f"two people's words names neither")
    if missing:
        if missing[0] in denied:
            return Verdict(False, f"the answer denies {missing[0]}")
        if _surname_alone(tokens, gaps, missing[0]):
            return Verdict(False, f"does not name {missing[0]}: a surname said alone, without a given name or an "
                                  f"initial, names no one (the wiki's people share surnames)")
        return Verdict(False, f"does not name {missing[0]}")
    for p, _merged_word in named:
        if p not in mine and not any(_same_person(p, q) for q in mine):
            return Verdict(False, f"also names {p}")
    # a surname said alone of a person of the wiki is a name the judge reads (another's names that person; the right
    # one's own restates it: "Tariq Szabó, or just Szabó")
    alone = [(s, e) for s, e, key in _names_alone(text) if any((*p.particles, p.surname) == key for p in people)]
    read = [*((s, e) for s, e, _p, _m in found), *alone]
    item = unread_alternative(folded, read, _NAME_FILLER)
    if item is not None:
        return Verdict(False, hedge_reason(item))
    listed = unread_item(folded, read, "name", _NAME_FILLER, foreign, team=True)
    return Verdict(False, item_reason(listed)) if listed is not None else Verdict(True)


def _surname_alone(tokens: list[str], gaps: Sequence[str], p: Person) -> bool:
    """Whether ``p``'s surname (its particles optional) is written with no word that may be a name beside it: none
    before it in the same name (:data:`_IN_NAME`), none after it across one comma (:data:`_AFTER_SURNAME`), or only
    words of :data:`NOT_NAMES` ("not Ruth Bhatt but Thorne", "Tariq & Szabó", "de Silva"); then the answer named
    ``p`` by the surname alone, which names no one (stop 36: a reason of its own)."""
    for j in range(len(tokens)):
        end = _surname_at(tokens, gaps, j, p)
        if end < 0:
            continue
        i = j
        while i > 0 and tokens[i - 1] in p.particles and _IN_NAME.fullmatch(gaps[i]):
            i -= 1
        before = i == 0 or not _IN_NAME.fullmatch(gaps[i]) or tokens[i - 1] in NOT_NAMES
        after = end == len(tokens) or not _AFTER_SURNAME.fullmatch(gaps[end]) or tokens[end] in NOT_NAMES
        if before and after:
            return True
    return False


#: words that may stand beside a name said alone in a list of candidates ("or perhaps Ms. Papadakis")
_HEDGE_FILLER = NOT_NAMES | {"perhaps", "maybe", "possibly", "probably", "likely", "either", "else", "otherwise",
                             "miss", "madam", "mx", "prof", "professor", "not", "sure", "think", "i", "might", "be",
                             "could", "if", "so", "then", "but", "no", "yes"}
_LIST_BREAK = re.compile(r"\s*(?:[;,/()\[\]&+|\n]|\bor\b|\band\b|\bnor\b|\bwith\b)\s*")


def _names_alone(text: str) -> list[tuple[int, int, tuple[str, ...]]]:
    """The stretches of an answer that are a list item of one name said alone, fillers dropped ("Karlsson, or
    perhaps Ms. Papadakis" gives ``("papadakis",)``), with where the name starts and ends in ``fold(text)``: another
    person's surname said so names that person."""
    folded = fold(text)
    out = []
    cuts = [0, *(x for m in _LIST_BREAK.finditer(folded) for x in (m.start(), m.end())), len(folded)]
    for a, b in zip(cuts[::2], cuts[1::2], strict=True):
        kept = [w for w in _name_words_at(folded[a:b]) if w[0] not in _HEDGE_FILLER]
        if kept:
            out.append((a + kept[0][3], a + kept[-1][4], tuple(w[0] for w in kept)))
    return out


def _same_person(a: Person, b: Person) -> bool:
    return a.surname == b.surname and (not a.given or not b.given or _same_given(a.given[0], b.given[0])
                                       or _same_given(b.given[0], a.given[0]))


# ---------------------------------------------------------------------------------------------- choices
def _word_forms(word: str) -> set[str]:
    forms = {word, word + "s", word + "es"}
    if word.endswith("y"):
        forms.add(word[:-1] + "ies")
    if word.endswith("f"):
        forms.add(word[:-1] + "ves")
    return forms


#: a word of an answer to a choice question: letters and digits, apostrophes inside it dropped ("Queen Anne's")
_CHOICE_WORD = re.compile(r"[a-z0-9]+(?:'[a-z0-9]+)*")


#: what joins a denied option to the next one it denies too ("not an otter or a beaver", "not otter, nor beaver");
#: after a comma, "or" offers an alternative ("beaver, not otter, or otter" names otter)
_OR_NEXT = re.compile(r"\s*(?:,\s*nor|nor|or)\s+(?:(?:the|an?)\s+)?", re.IGNORECASE)
#: :data:`_OR_NEXT` under a public name (the assistant's answer judge joins denials by it too)
OR_NEXT = _OR_NEXT


def _judge_choice(text: str, fact: dict[str, Any]) -> Verdict:
    """The answer names exactly one option, the right one; an option firmly denied (:func:`_denied`, the number
    judge's rule: "a beaver, not an otter", "not an otter but a beaver") is no option named, and denying the
    right one fails ("not a beaver"), as does an answer that only denies ("not an otter"); a denial reaches the
    options joined to it by "or" or "nor" ("not an otter or a beaver" names neither)."""
    choices = [str(c) for c in fact["choices"]]
    gold = str(fact["value"])
    if gold not in choices:
        choices.append(gold)
    found = list(_CHOICE_WORD.finditer(text))
    tokens = [m.group(0).replace("'", "") for m in found]
    opts = sorted(((tuple(re.findall(r"[a-z0-9]+", fold(c).replace("'", ""))), c) for c in choices),
                  key=lambda o: -len(o[0]))
    used = [False] * len(tokens)
    hits: list[tuple[int, int, str]] = []  # (start, end, option) of each option named, in the answer's order
    for words, label in opts:
        if not words:
            continue
        n = len(words)
        for i in range(len(tokens) - n + 1):
            if any(used[i:i + n]):
                continue
            if all(tokens[i + k] == words[k] for k in range(n - 1)) and tokens[i + n - 1] in _word_forms(words[-1]):
                used[i:i + n] = [True] * n
                hits.append((found[i].start(), found[i + n - 1].end(), label))
    named: list[str] = []
    denied: list[str] = []
    before: tuple[int, bool] | None = None  # the end of the option named before and whether it was denied
    for start, end, label in sorted(hits):
        # "not an otter or a beaver" denies both (neither), as "not 43 or 38" would
        carried = before is not None and before[1] and _OR_NEXT.fullmatch(text, before[0], start) is not None
        into = denied if carried or _denied(text, start) else named
        if label not in into:
            into.append(label)
        before = (end, into is denied)
    rank = {label: i for i, (_words, label) in enumerate(opts)}
    named.sort(key=rank.__getitem__)  # (the options' order, longest first, in the messages)
    if gold in denied:
        return Verdict(False, f"the answer denies {gold}")
    if not named:
        if denied:
            return Verdict(False, "the answer only denies options: give one")
        return Verdict(False, f"names none of the {len(choices)} options")
    if len(named) > 1:
        return Verdict(False, f"names {len(named)} options ({', '.join(named[:4])}); give one")
    if named[0] != gold:
        return Verdict(False, f"{named[0]} is not {gold}")
    item = unread_alternative(text, [(a, b) for a, b, _label in hits])
    if item is not None:
        return Verdict(False, hedge_reason(item))
    listed = unread_item(text, [(a, b) for a, b, _label in hits], "choice")
    return Verdict(False, item_reason(listed)) if listed is not None else Verdict(True)
