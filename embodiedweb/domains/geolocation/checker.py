"""Answer parsing and scoring for EWA-Geolocation-v0.

Answer grammar (the argument of ``stop``)::

    stop [lat, lng; continent; country; city; street]
    e.g. stop [52.5170, 13.3889; Europe; Germany; Berlin; Friedrichstraße]

Parsing is lenient. The common forms all work:

* the five parts separated by ``;`` (or ``|``); parts may be left empty (``stop [; Europe; Germany;
  Berlin; ]``) or left out (``stop [Europe; Germany; Berlin]``);
* free text separated by commas (or by dashes between spaces: ``Rue de Rivoli - Paris - France``), in
  any order: ``Rue de Rivoli, Paris, France``; each part is recognised by what it is (a continent, a
  country, a city of the wiki's gazetteer, a street by its street word such as Rue, Straße, Calle,
  Street); a part that is none of them is read as the city, then the street; a street part may end with
  its city (``Portage Avenue in Winnipeg``, ``Newbury Street Boston``: see below) or begin with it
  (``Winnipeg's Portage Avenue``), and in a part "place in city" the place is the street (``Zeil in
  Frankfurt``); a leading "near", "on", "at", "along", ... is no word of the street (``Near Calle Córdoba
  in Rosario`` is Calle Córdoba in Rosario); a part naming a city may name its country too (``St.
  Petersburg Russia``: read where no part is a country);
* labelled fields in any order and with any separator: ``city: Paris, country: France``,
  ``lat: 48.86; lng: 2.34``, ``coordinates: 48.86, 2.34``, ``address: Rue de Rivoli, Paris``;
* coordinates first, in decimal degrees, the two numbers separated by ``,``, ``;``, ``/`` or a space,
  with optional ``°`` and ``N/S/E/W`` (``48.86 N, 2.34 E``); degrees-minutes-seconds
  (``48°51′38″N 2°20′15″E``) and decimal commas in separate parts (``48,86; 2,34``) also work. One pair
  with a decimal point is read wherever it stands: after the names, in brackets, last in the five-part form,
  labelled (``Latitude 48.86, Longitude 2.34``, ``Lat/Lng: ...``, ``Coordinates (approx.): ...``), with
  hemispheres before or as words (``N 48.86, E 2.34``, ``48.86 North, 2.34 East``); another decimal number
  elsewhere ("about 0.5 km") does not hide it, but two different pairs, or a third number beside the pair,
  are several places and none is read;
* a label the parser does not know, at the start of a part of a labelled answer, ends the field before it
  (``Street: Zeil, Confidence: high``); its value is free text, or nothing for labels such as "Confidence"
  or "Reasoning"; "Street name:", "City name:" are "Street:", "City:";
* names ignore case, accents, punctuation, ``ß``/``ss`` and ``St.``/``Saint``; cities match by any of
  their names on the wiki: local names, exonyms and older names (Lyons, Peking, Marseilles, Bombay,
  Saigon, ...), their abbreviations (``NYC``, ``SF``, ``NOLA``, ``KL``, ``LA``: all of a city's names come from
  its row of ``data/tables/geo_places.json``, none from this module) and a trailing "City" (``Cebu`` = ``Cebu
  City``); a city's name is read whatever punctuation is inside it (:func:`respell`: ``Jo'burg`` = ``Joburg``,
  ``L'viv`` = ``Lviv``, ``L.A.`` = ``LA``, ``N.Y.C.`` = ``NYC``), while a name written with it stays itself
  (``Xi'an``); an abbreviation that is a word of another place's name ("la" of "La Plata", "Rue de la Paix") is
  the city only written in capitals in an answer not all in capitals, dotted, as a part of its own or after
  "or" ("LA", "L.A.", "; la;", "Paris or la" names two cities), never inside a word ("LAX", "Lagos"); countries
  by their aliases and their
  names in their own languages (``USA``, ``UK``, ``Czechia``, ``Deutschland``, ``España``, ...); streets when
  their significant words match (``Friedrichstrasse``, ``Nevsky`` vs ``Nevsky Prospekt``, ``St`` vs
  ``Street``), or as written on the street's sign.

**A continent by its parts.** "Eastern Europe", "East Asia", "Sub-Saharan Africa", "Scandinavia", "in
Europe", "Europe / Ukraine / Kyiv" name their continent; an answer naming two continents names none. A
continent slot (or field) is a continent, never a country: "Australia" there is Oceania, "America" (the
Americas) two continents and so none, and the country slot after it is read as the country.

**Countries are read where they are countries.** A short alias that is an ordinary word ("us") is the United
States only written so ("US", "U.S.") or as a part of its own, not in prose ("as the wiki told us");
adjectives ("Thai") are no country. Every country of the world counts, not only the task table's: "Ukraine
or Belarus" names two. A place whose name holds a country's is its own country's, or none: "North Korea",
"New Mexico" (the United States), "Northern Ireland" (the United Kingdom), "New South Wales" (Australia),
and "North or South Korea" names two. Brackets separate free-text parts, and a city's name runs across a
comma only where it is written with one ("Washington, D.C."; "Monterrey, Mexico, city centre" is no Mexico
City).

**A contradicted city is another place.** The city named counts only if nothing beside it places it
elsewhere: a region of the region table that does not hold it ("Paris, Texas") or the one country the answer
names, if not the city's ("Durban, France"). Coordinates contradict the names too (stop 38): when they point to
another city of the gazetteer (its nearest, within 25 km), the one city named fails if it lies over 50 km from them
("Graz" with Vienna's coordinates) and the one country named if none of its cities does; a coordinates-only answer
is judged by distance (the city level, 25 km).

**A continent is no country.** A continent's name, or a name such as "Latin America", is never read as
a country, though it ends in a country's alias ("South America" is no "America", the United States):
"Colombia (South America)" names Colombia (and the continent, if it names one alone).

**A city's name is no street word.** A part is a street by a street word outside the names of cities in
it: "St" and "Saint" begin city names ("central St. Petersburg", "St. Petersburg Russia" name the city),
while "St Petersburg Street" is a street.

**A street's significant words** are its distinctive words, its directions and its ordinals; its generic
words (street, road, avenue, lu, jie, st, rd, de, ...) are not. "St"/"Ste" before a name are Saint/Sainte ("Rue
St-Jean"), a first "V." is Via, a compound "-str." is "-straße"/"-straat", "ae"/"oe"/"ue" may stand for an
umlaut or "ø", a house number before or after the name is no part of it (unless only numbers are left: "Calle
60 62" is not Calle 60), and a bilingual sign copied whole ("Aleksanterinkatu / Alexandersgatan") counts when
every side is a name of the street. Directions (east, west, north, south,
central; pinyin dong, xi, bei, nan, zhong and their -lu forms: "Donglu" = East Road; a few other languages'
nord, sur, ost, ...; the letters N, S, E, W first or last in the name apart from its street words) and
ordinals (1st = first = pinyin "Yilu" or "Yi Lu") are each read in one form, in any order. So the true
street's direction and ordinal must be given and no other: "Nanjing Donglu" and "East Nanjing Rd" are
Nanjing Road East, while "Nanjing Road", "Nanjing West Road" and "Nanjing Xilu" are not; "Zhongshan Road"
and "Zhongshan 2nd Road" are not Zhongshan 1st Road; "East St" is East Street.

Bad input never raises. An answer that yields nothing (empty, or no part recognisable) scores 0
everywhere with the reason in ``metrics["answer_error"]``. Coordinates that cannot be read (``48.8x,
2.3``), are out of range, or come as more than one pair are ignored: the name levels are scored alone
and the reason is in ``metrics["answer_error"]``.

**One place per answer.** The city level judges the city part (in free text: every part that names a
city). If it names more than one city of the gazetteer ("Paris / Lyon", "Paris, Lyon, Marseille,
France"), the city level fails and ``metrics["answer_notes"]`` says so: listing candidates is not naming
the place. The country level does the same with countries (and reads the regions of the next paragraph
the same way: "Sydney, New South Wales, Australia" names Australia, not Wales's United Kingdom too).

**A city's own region is not a second city.** An address names the city's first-level region (state,
province, canton, prefecture, ...) beside it, and many regions are named like a city or contain one's name
("Seattle, Washington", "Montreal, Quebec", "Zurich, Canton of Zurich", "Porto Alegre, Rio Grande do Sul",
"Makati, Metro Manila"). So when the city part names several cities, it names city X alone if every other
mention lies in a phrase that names a region holding X (the project's table of regions,
``data/tables/geo_places.json``: a region by any of its names, with or without a word such as "Canton of",
"Province", "State", "Prefecture"); where a phrase could be read either way, the region reading wins, and a
longer name wins over a shorter one ("Quebec City, Quebec" is Quebec City in Quebec). Exactly one city must
be read so; otherwise the answer names several cities as before. So an answer still counts for at most one
city: a region that does not hold the city ("Boston, Washington", "Zurich, Geneva") or of another country
is read as before, and "Washington" or "Quebec" alone is still the city of that name.

**A street part may end with its city.** A free-text part read as a street (by its street word) is often
"street in city" or "street city". It is split where the words before are a street and the words after
are exactly a city's name ("Newbury Street Boston", "Rue de Rivoli Paris") or, after "in" (or "at", "à",
"en", "em"), name a city ("Portage Avenue in Winnipeg", "Main Street in downtown Boston"); the city then
counts as the city part's and is judged with it (so one place per answer holds: "Main Street in Paris,
Lyon", "Main Street Paris Lyon" or "Main Street in Paris or Lyon" names two cities and fails). A city
inside the street's own name is no city of the answer: the street before the split must be more than a
street word ("Via Roma" is a street, not Rome), may not end in a linking word ("Avenue de Paris", "Rue de
Lyon", "Street of X"), and no city's name may run across the split ("Avenue de New Delhi"); a street named
after a city before the city ("Avenue de Paris, Versailles", "Paris Street Toronto") names the city after
it alone. The words after the split may also be the city's name and then a region that holds it
("Portage Avenue Winnipeg Manitoba", as in "a city's own region is not a second city"). A street alone
that holds a city's name ("Avenue de Paris", "Paris Street") names no city, even where no other city is
given: the answer must name the city, not a street that may be named after it.

**A street part may begin with its city.** "Winnipeg's Portage Avenue" or "Winnipeg Portage Avenue" is
split after exactly a city's name (a possessive "'s" aside; no city's name may run across the split)
where the words after are a street of its own: one with a significant word that is not a direction
("Nanjing East Road", "Paris Street" stay streets named after a city, naming none) or with no significant
word, two besides linking words ("Via del Corso"), and naming no city but within its own name: at its start
where that is no city before a street of its own ("Shanghai Nanjing Road East" is Shanghai), or after a
street word or a linking word ("Avenue de Lyon"), never after "and", "or", ... ("Paris or Lyon Rue de
Rivoli" names no city). The city counts like any other: "Winnipeg Portage Avenue, Toronto" or "Paris Rue
de Rivoli, Lyon" names two cities and fails.

**Coordinates for the city.** With the city left blank, coordinates count for the city level when the
city's centre is within 25 km of them and no other city of the gazetteer is nearer (so one point can
never count for two cities).

Metrics: ``continent``, ``country``, ``city``, ``street`` (bools), ``distance_km`` (haversine from the
given coordinates to the true place; ``None`` without coordinates), ``geoguessr_score``
(``round(5000 * exp(-d / 1492.7))``, 0 without coordinates), ``completion`` (fraction of the four
levels correct), and, from the episode (:func:`check_geolocation`):

* ``embodied``: the agent stood at a viewpoint that shows a *distinguishing cue* of this place. The
  generator marks as distinguishing exactly the cues that only the wiki ties to the city (a local
  chain's sign, a transport operator's emblem, a local dish on a menu board:
  :mod:`embodiedweb.data_gen.geo_cues`); none is visible from the start, so the agent must
  walk to see one.
* ``web``: the agent researched a distinguishing cue of this place on the wiki: it opened an article
  that explains one (the chain's, the emblem's or the dish's article) or searched the wiki for one by its name (the brand, the emblem, the dish; a query that also
  names another city's made-up cues does not count: listing many is not looking one up). Articles about
  country-level cues (driving side, plates, scripts) or about countries and cities do not count: they
  cannot tell this place from the rest of its country.
* ``overall`` = **city correct and one distinguishing cue both seen and researched**: the agent stood in its
  view and was shown what it tells, its article read or a results page whose snippet of that article names
  the city (checker version 11: a search whose snippet stops before the fact is no research). The city is the headline level: the country often
  follows from one strong cue and the street mostly measures spelling and luck in where one looked,
  while the city needs the research the task is about and is the level geolocation benchmarks usually
  report (city-level accuracy, 25 km). A correct city must come from that research: no sign names the
  city, so a city named without seeing and looking up a distinguishing cue is a guess (the capital, a
  famous street remembered), and guesses do not count.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import Any

from embodiedweb.paths import data_dir
from embodiedweb.tables import geo_regions
from embodiedweb.text import NAME_ABBREVIATIONS
from embodiedweb.text import fold as norm
from embodiedweb.worlds.street.geo import haversine_km

CITY_RADIUS_KM = 25.0
#: how far coordinates may lie from the place an answer names before they contradict it (stop 38): twice the city
#: level, so rough coordinates from memory (tens of km off) never do
NAMED_SLACK_KM = 2 * CITY_RADIUS_KM
CONTINENT_ALIASES = {
    "africa": "Africa", "asia": "Asia", "europe": "Europe", "north america": "North America",
    "northamerica": "North America", "n america": "North America", "central america": "Central America",
    "south america": "South America", "southamerica": "South America", "s america": "South America",
    "oceania": "Oceania", "australia and oceania": "Oceania", "australasia": "Oceania",
    "australia oceania": "Oceania", "antarctica": "Antarctica", "eurasia": "Eurasia",
}
COUNTRY_ALIASES = {
    "United States": ["USA", "US", "U.S.", "U.S.A.", "United States of America", "America", "the US",
                      "the United States"],
    "United Kingdom": ["UK", "U.K.", "Great Britain", "Britain", "England", "Scotland", "Wales",
                       "United Kingdom of Great Britain and Northern Ireland", "GB"],
    "Czech Republic": ["Czechia", "Czech Rep."], "South Korea": ["Korea", "Republic of Korea", "Korea, South", "ROK"],
    "United Arab Emirates": ["UAE", "U.A.E.", "Emirates"], "Netherlands": ["Holland", "The Netherlands"],
    "Russia": ["Russian Federation"], "Taiwan": ["Republic of China", "ROC"],
    "China": ["People's Republic of China", "PRC", "Mainland China"], "Turkey": ["Türkiye", "Turkiye"],
    "Vietnam": ["Viet Nam"], "Ireland": ["Republic of Ireland", "Eire", "Éire"], "New Zealand": ["Aotearoa", "NZ", "N.Z."],
    "Philippines": ["The Philippines"], "Ivory Coast": ["Côte d'Ivoire"],
}
#: the world's other countries (and a few territories), by continent, with their common other names: named beside
#: the right country they are a second country ("Ukraine or Belarus" names two), and "North Korea" is no "Korea"
OTHER_COUNTRIES: dict[str, tuple[str, tuple[str, ...]]] = {
    **{k: ("Europe", v) for k, v in {
        "Albania": (), "Andorra": (), "Belarus": ("Byelorussia",), "Belgium": ("België", "Belgique"),
        "Bosnia and Herzegovina": ("Bosnia",), "Croatia": ("Hrvatska",), "Cyprus": (), "Estonia": (),
        "Iceland": (), "Kosovo": (), "Latvia": (), "Liechtenstein": (), "Lithuania": (), "Luxembourg": (),
        "Malta": (), "Moldova": (), "Monaco": (), "Montenegro": (), "North Macedonia": (),
        "San Marino": (), "Serbia": ("Srbija",), "Slovakia": ("Slovensko",), "Slovenia": ("Slovenija",),
        "Vatican City": ("Vatican", "Holy See"), "Isle of Man": (), "Jersey": (), "Guernsey": (), "Gibraltar": (),
        "Faroe Islands": ("Faroes",)}.items()},
    **{k: ("Asia", v) for k, v in {
        "Afghanistan": (), "Azerbaijan": (), "Bahrain": (), "Bangladesh": (), "Bhutan": (), "Brunei": (),
        "Cambodia": ("Kampuchea",), "East Timor": ("Timor-Leste",), "Hong Kong": (), "Iran": (), "Iraq": (),
        "Jordan": (), "Kazakhstan": (), "Kuwait": (), "Kyrgyzstan": (), "Laos": (), "Lebanon": (), "Macau": ("Macao",),
        "Maldives": (), "Mongolia": (), "Myanmar": ("Burma",), "Nepal": (),
        "North Korea": ("DPRK", "Democratic People's Republic of Korea", "Korea, North"), "Oman": (),
        "Pakistan": (), "Palestine": (), "Qatar": (), "Saudi Arabia": (), "Sri Lanka": ("Ceylon",), "Syria": (),
        "Tajikistan": (), "Turkmenistan": (), "Uzbekistan": (), "Yemen": ()}.items()},
    **{k: ("Africa", v) for k, v in {
        "Algeria": (), "Angola": (), "Benin": (), "Botswana": (), "Burkina Faso": (), "Burundi": (),
        "Cameroon": (), "Cape Verde": ("Cabo Verde",), "Central African Republic": (), "Chad": (), "Comoros": (),
        "Democratic Republic of the Congo": ("DR Congo", "DRC", "Congo-Kinshasa"),
        "Republic of the Congo": ("Congo", "Congo-Brazzaville"), "Djibouti": (), "Equatorial Guinea": (),
        "Eritrea": (), "Eswatini": ("Swaziland",), "Gabon": (), "Gambia": ("The Gambia",), "Guinea": (),
        "Guinea-Bissau": (), "Lesotho": (), "Liberia": (), "Libya": (), "Madagascar": (), "Malawi": (),
        "Mali": (), "Mauritania": (), "Mauritius": (), "Mozambique": (), "Namibia": (), "Niger": (),
        "Rwanda": (), "Sao Tome and Principe": (), "Seychelles": (), "Sierra Leone": (), "Somalia": (),
        "South Sudan": (), "Sudan": (), "Tanzania": (), "Togo": (), "Uganda": (), "Zambia": (), "Zimbabwe": (),
        "Western Sahara": ()}.items()},
    **{k: ("North America", v) for k, v in {
        "Antigua and Barbuda": (), "Bahamas": ("The Bahamas",), "Barbados": (), "Belize": (), "Cuba": (),
        "Dominica": (), "Dominican Republic": (), "El Salvador": (), "Grenada": (), "Guatemala": (), "Haiti": (),
        "Honduras": (), "Jamaica": (), "Nicaragua": (), "Panama": (), "Puerto Rico": (),
        "Saint Kitts and Nevis": (), "Saint Lucia": (), "Saint Vincent and the Grenadines": (),
        "Trinidad and Tobago": (), "Greenland": (), "Bermuda": ()}.items()},
    **{k: ("South America", v) for k, v in {
        "Bolivia": (), "Ecuador": (), "Guyana": (), "Paraguay": (), "Suriname": (), "Venezuela": (),
        "French Guiana": ()}.items()},
    **{k: ("Oceania", v) for k, v in {
        "Fiji": (), "Kiribati": (), "Marshall Islands": (), "Micronesia": (), "Nauru": (), "Palau": (),
        "Papua New Guinea": (), "Samoa": (), "Solomon Islands": (), "Tonga": (), "Tuvalu": (), "Vanuatu": (),
        "New Caledonia": ()}.items()},
}
#: an abbreviation among a city's names (``data/tables/geo_places.json``: "LA", "SF", "NOLA", "NYC"): written in
#: capitals, of 2-5 letters (see :func:`load_gazetteer`)
_ABBREVIATION_RX = re.compile(r"[A-Z]{2,5}")
#: aliases of the country tables that are no country's name: adjectives ("Thai script", "Thai food")
NOT_COUNTRY_ALIASES = frozenset({"thai"})
#: short aliases that are ordinary words in prose ("as the wiki told us"): a country only written in capitals
#: ("US") or as a whole part or field of their own
PROSE_ALIASES = frozenset({"us"})
#: places whose names hold a country's alias, but are of another country, or of none ("New Mexico" is no Mexico,
#: "Little India" in Singapore no India); the regions of the region table are added to them (:func:`load_gazetteer`)
PLACES_NAMING_COUNTRIES: dict[str, str | None] = {
    "new mexico": "United States", "new england": "United States", "new jersey": "United States", "little india": None, "little italy": None,
}
STREET_GENERIC = {
    "street", "st", "road", "rd", "avenue", "ave", "av", "boulevard", "blvd", "bd", "lane", "way", "quay",
    "calle", "c", "rua", "r", "rue", "via", "viale", "corso", "ulica", "ul", "ulitsa", "vulytsia", "vul",
    "strasse", "str", "gasse", "straat", "gracht", "jalan", "jl", "lebuh", "carrera", "cra", "kr", "cr",
    "jiron", "jr", "avenida", "paseo", "passeig", "carrer", "prospekt", "prospect", "pr", "caddesi", "cad",
    "cd", "sokak", "sk", "bulvari", "katu", "gatan", "gata", "gate", "gade", "utca", "u", "ut", "strada",
    "calea", "bulevardul", "bulevard", "bul", "odos", "leoforos", "dori", "daero", "ro", "gil",
    "lu", "dajie", "jie", "donglu", "thanon", "marg", "pho", "duong", "rechov", "sderot", "shari",
    "the", "de", "del", "la", "las", "los", "di", "dei", "da", "do", "dos", "das", "du", "des", "le", "of",
    "y", "e", "na", "al", "el", "n", "s", "w",
    "poghots", "poghota", "gamziri", "kucha", "menged", "godana", "mall", "vej",
}
#: the directions of street names (a significant part of the name: Nanjing Road East is not Nanjing West
#: Road), in English, pinyin (with the merged -lu forms: "Donglu" = East Road) and a few other languages
STREET_DIRECTIONS = {
    **dict.fromkeys(("east", "dong", "donglu", "est", "este", "ost", "oriente"), "east"),
    **dict.fromkeys(("west", "xi", "xilu", "ouest", "oeste", "poniente"), "west"),
    **dict.fromkeys(("north", "bei", "beilu", "nord", "norte"), "north"),
    **dict.fromkeys(("south", "nan", "nanlu", "sud", "sur"), "south"),
    **dict.fromkeys(("central", "middle", "zhong", "zhonglu"), "central"),
}
#: a direction by its letter: only as the first or last word of the name apart from its street words ("N
#: Michigan Ave", "Nanjing Rd E", "Zhongxiao E Rd"); elsewhere the letter is an initial or a particle
#: (Portuguese "e": "Rua Direita e Nova"), and the name itself where it is the only word ("E Street")
STREET_DIRECTION_LETTERS = {"n": "north", "s": "south", "e": "east", "w": "west"}
#: ordinals of street names as their number: "Fifth Avenue" = "5th Avenue", "Carrera Séptima" = "Carrera 7",
#: "Zhongshan Yilu" (or "Yi Lu") = "Zhongshan 1st Road"
STREET_ORDINALS = {
    **{w: str(k) for k, w in enumerate(("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth",
                                        "ninth", "tenth"), 1)},
    **{w + end: str(k) for k, w in enumerate(("primer", "segund", "tercer", "cuart", "quint", "sext", "septim",
                                              "octav", "noven", "decim"), 1) for end in "ao"},
    **{w + end: str(k) for k, w in enumerate(("primeir", "segund", "terceir", "quart", "quint", "sext", "setim",
                                              "oitav", "non", "decim"), 1) for end in "ao"},
    **{f"{w}lu": str(k) for k, w in enumerate(("yi", "er", "san", "si", "wu", "liu", "qi", "ba", "jiu", "shi"), 1)},
}
_PINYIN_NUMBERS = {k[:-2]: v for k, v in STREET_ORDINALS.items() if k.endswith("lu")}
# words (or word endings) that make a free-text part a street rather than a city
STREET_WORDS = {
    "street", "st", "road", "rd", "avenue", "ave", "av", "boulevard", "blvd", "bd", "lane", "quay", "calle", "rua",
    "rue", "via", "viale", "corso", "ulica", "ul", "ulitsa", "vulytsia", "prospekt", "prospect", "strasse", "str",
    "gasse", "straat", "gracht", "jalan", "jl", "lebuh", "carrera", "jiron", "jr", "avenida", "paseo", "passeig",
    "carrer", "caddesi", "sokak", "bulvari", "katu", "gatan", "gata", "gate", "gade", "vej", "utca", "strada",
    "calea", "bulevardul", "odos", "leoforos", "dori", "daero", "thanon", "marg", "pho", "duong", "rechov",
    "sderot", "shari", "mall", "drive", "terrace", "causeway", "corniche", "promenade", "square", "plaza",
    "platz", "soi", "allee", "alley", "eixo", "namesti", "ulice", "aleje", "lu", "jie", "dajie", "ro", "gil",
    "donglu", "xilu", "nanlu", "beilu", "zhonglu", *(k for k in STREET_ORDINALS if k.endswith("lu")),
}
STREET_SUFFIXES = ("strasse", "straat", "gatan", "gade", "katu", "gasse", "gracht", "platz", "vagen", "veien",
                   "daero", "caddesi", "bulvari", "prospekt", "allee", "dori")
#: the words after which a place's name is part of a street's name ("Avenue de Paris", "Street of Lyon",
#: "Gran Vía de Don Diego López de Haro"): a city there is no city of the answer
STREET_LINKS = {"de", "del", "della", "delle", "dei", "degli", "di", "da", "do", "dos", "das", "du", "des", "d", "of",
                "la", "le", "les", "l", "el", "los", "las", "al", "van", "von", "der", "den", "zu", "y", "e", "and"}
#: the words that put a street in a city ("Portage Avenue in Winnipeg", "Rue de Rivoli à Paris")
STREET_IN = {"in", "at", "a", "en", "em"}
#: the words that may lead a free-text part before its street ("Near Calle Córdoba in Rosario", "On Zeil"): no
#: part of the street's name
STREET_LEADS = {"near", "on", "at", "in", "along", "off", "by", "around"}
#: the names of continents and other parts of the world (as folded text) that are no country, though one may
#: end in a country's alias ("South America" is no "America", the United States)
_CONTINENT_MODIFIERS = ("east", "eastern", "west", "western", "north", "northern", "south", "southern", "central",
                        "southeast", "south east", "southeastern", "south eastern", "northeast", "north east",
                        "northeastern", "northwest", "north west", "northwestern", "southwest", "south west",
                        "southwestern", "sub saharan", "subsaharan", "mainland", "continental")
#: parts of a continent ("Eastern Europe", "East Asia", "Sub-Saharan Africa", "Scandinavia"): they name the
#: continent (a country's name is never one: "South Africa" names a country)
CONTINENT_REGIONS = {
    **{f"{m} {c}": c.title() for m in _CONTINENT_MODIFIERS for c in ("europe", "asia", "africa")
       if f"{m} {c}" not in ("south africa",)},
    "scandinavia": "Europe", "balkans": "Europe", "the balkans": "Europe", "caribbean": "North America",
    "the caribbean": "North America", "indochina": "Asia",
}
#: a continent by any name of :data:`CONTINENT_ALIASES` or :data:`CONTINENT_REGIONS` (folded)
CONTINENT_NAMES = {**CONTINENT_REGIONS, **CONTINENT_ALIASES}
#: what a continent slot (or field) says that names a country elsewhere: "Australia" is Oceania's continent there;
#: "America" (the Americas) is two continents and names none; neither is a country there
SLOT_CONTINENTS: dict[str, str | None] = {"australia": "Oceania", "america": None, "americas": None}
CONTINENT_PHRASES = frozenset({*CONTINENT_NAMES, "latin america", "the americas", "americas"})
_CONTINENT_LONGEST = max(len(k.split()) for k in CONTINENT_PHRASES)
#: what separates free-text parts besides commas: a dash between spaces ("Portage Avenue - Winnipeg")
_DASH_RX = re.compile(r"\s+[-–—]+\s+")
#: words that name a kind of first-level region, before its name ("Canton of Zurich", "Provincia de Buenos
#: Aires", "the State of Washington") or after it ("Kyoto Prefecture", "Washington State"), as folded tokens
REGION_WORDS = tuple(tuple(w.split()) for w in (
    "state", "province", "provincia", "canton", "kanton", "prefecture", "region", "county", "oblast", "krai",
    "republic", "department", "departamento", "governorate", "district", "territory", "emirate", "voivodeship",
    "municipality", "metropolis", "land", "estado", "comunidad", "community", "autonomous community",
    "federal state", "special municipality", "metropolitan city", "special city"))
#: the small words between a region word before the name and the name ("Canton of", "Estado de")
REGION_LINKS = {"of", "de", "do", "da", "del", "di", "du", "des"}
_NUM = r"[-+]?\d{1,3}(?:\.\d+)?"
_JUNK = {"", "unknown", "none", "n a", "na", "not sure", "unsure", "x",
         # words beside coordinates that name no place ("approximately 50.45, 30.52", "50.45, 30.52 (city centre)")
         "approximately", "approx", "about", "around", "roughly", "circa", "ca", "near", "nearby", "somewhere",
         "somewhere around", "close to", "centre", "center", "city centre", "city center", "the city centre",
         "the city center", "downtown", "the centre", "the center", "near the centre", "near the center"}
LABELS = {"latitude": "lat", "lat": "lat", "longitude": "lng", "lng": "lng", "lon": "lng", "long": "lng",
          "coordinates": "coords", "coordinate": "coords", "coords": "coords", "gps": "coords",
          "continent": "continent", "country": "country", "city": "city", "town": "city", "street": "street",
          "road": "street", "address": "free", "location": "free", "place": "free"}
_LABEL_RX = re.compile(r"(?i)(?:^|(?<=[\s;,|(\[{]))(" + "|".join(sorted(LABELS, key=len, reverse=True))
                       + r")(?:\s+name)?\s*[:=]")
#: a label the parser does not know, at the start of a part of a labelled answer ("Confidence: high"): it ends
#: the field before it
_OTHER_LABEL_RX = re.compile(r"(?:^|(?<=[;,|]))\s*([^\W\d_]+(?:[ _-][^\W\d_]+){0,2})\s*:(?![\d/])")
#: the labels whose value says nothing of the place ("Confidence: high", "Reasoning: ...")
NON_PLACE_LABELS = frozenset({"confidence", "certainty", "reasoning", "reason", "notes", "note", "explanation",
                              "evidence", "clues", "clue", "comment", "comments", "why", "method", "source", "sources"})


#: the abbreviations of place names spelled out (``St.`` = ``Saint``); :func:`embodiedweb.text.fold` is ``norm``
_ABBREV = NAME_ABBREVIATIONS


#: a city's administrative suffix in Chinese, Japanese and Korean, as signs and addresses write it (臺南市, 札幌市,
#: Busan's -gwangyeoksi, Seoul's -teukbyeolsi): the name without it is the city's
# (escaped: the observations' character set covers the package's own text, and these are not observed)
_CJK_CITY_SUFFIXES = tuple(norm(x) for x in ("\ud2b9\ubcc4\uc790\uce58\uc2dc", "\uad11\uc5ed\uc2dc", "\ud2b9\ubcc4\uc2dc", "\uc2dc", "市"))


def _city_suffix_off(token: str) -> str:
    if token.isascii():
        return token
    for suffix in _CJK_CITY_SUFFIXES:
        if token.endswith(suffix) and len(token) > len(suffix) and not token[:-len(suffix)].isascii():
            return token[:-len(suffix)]
    return token


def place_norm(s: str) -> str:
    """:func:`norm` for place names: ``St.`` = ``Saint``, a leading "the" dropped, a Chinese, Japanese or Korean
    city's administrative suffix dropped (``札幌市`` = ``札幌``)."""
    toks = [_city_suffix_off(_ABBREV.get(t, t)) for t in norm(s).split()]
    if toks[:1] == ["the"]:
        toks = toks[1:]
    return " ".join(toks)


# --------------------------------------------------------------------------------------------- gazetteer
@dataclass(frozen=True)
class Gazetteer:
    """Names of the places an answer may name (``data/geo/places.json``) and, per city, the names of the
    first-level regions that hold it (``regions`` in ``data/tables/geo_places.json``)."""

    cities: tuple[dict[str, Any], ...]
    city_index: dict[str, tuple[int, ...]]  # place_norm(name) -> city indices
    country_index: dict[str, str]  # norm(name or alias) -> canonical country
    longest: int
    cue_terms: tuple[tuple[str, str, str], ...] = ()  # (term, country code, city) of every city's cues
    regions: tuple[tuple[tuple[str, ...], ...], ...] = ()  # per city: place_norm'd tokens of its regions' names
    continent_of: dict[str, str] = field(default_factory=dict)  # canonical country -> its continent
    #: folded names of places that hold a country's alias but name another country, or none ("New South Wales":
    #: Australia, "New Mexico": United States, "Little India": none)
    country_places: dict[str, str | None] = field(default_factory=dict)
    #: a city's name without spaces or punctuation (``"joburg"``, ``"lviv"``, ``"saintpetersburg"``) -> city indices:
    #: how a word written with punctuation inside ("Jo'burg", "L'viv") is read (:func:`respell`)
    squashed: dict[str, tuple[int, ...]] = field(default_factory=dict)
    #: abbreviations among the cities' names that are words of other places' names ("la" of "La Plata", "Rue de la
    #: Paix") -> the city: read only written so ("LA", "L.A.") or as a part of their own (:func:`respell`)
    word_abbreviations: dict[str, int] = field(default_factory=dict)

    def find_cities(self, text: str) -> list[int]:
        """Indices of the distinct cities named in ``text`` (longest names first, left to right)."""
        return _scan(place_norm(text).split(), self.city_index, self.longest)

    def named_cities(self, text: str) -> list[int]:
        """:meth:`find_cities`, except that where it finds several, ``[x]`` if exactly one of them, ``x``, is
        named with every other mention inside a phrase naming a region that holds ``x`` (the module
        docstring's "a city's own region is not a second city")."""
        hits = self.find_cities(text)
        if len(hits) < 2 or not self.regions:
            return hits
        toks = place_norm(text).split()

        def cities_at(i: int) -> tuple[int, tuple[int, ...]]:
            return _match(toks, i, self.city_index, self.longest)

        alone = [x for x in hits if set(_beside_regions(toks, self.regions[x], cities_at)) <= {x}]
        return alone if len(alone) == 1 else hits

    def named_countries(self, text: str) -> list[str]:
        """:meth:`find_countries` with the same exception for the regions of a country (those holding one of
        its cities): "New South Wales, Australia" names Australia alone, not Wales's United Kingdom too."""
        text = _mask_prose_aliases(text)
        found = self.find_countries(text)
        if len(found) < 2 or not self.regions or self._elided(norm(text).split(), []):
            return found  # a country of an elided name is no region's: "North or South Korea" names two
        toks = place_norm(text).split()

        def countries_at(i: int) -> tuple[int, tuple[str, ...]]:
            return self._country_at(toks, i)

        def regions_of(country: str) -> tuple[tuple[str, ...], ...]:
            return tuple({k for c, r in zip(self.cities, self.regions, strict=False)
                          if self.country_index.get(norm(c.get("country", ""))) == country for k in r})

        alone = [x for x in found if set(_beside_regions(toks, regions_of(x), countries_at)) <= {x}]
        return alone if len(alone) == 1 else found

    def exact_city(self, text: str) -> list[int]:
        """Indices of the cities whose normalised name equals the whole ``text``."""
        return list(self.city_index.get(place_norm(text)) or ())

    def find_countries(self, text: str) -> list[str]:
        """Canonical countries named in ``text``, in order of first mention (longest match first)."""
        toks = norm(_mask_prose_aliases(text)).split()
        found: list[str] = []
        i = 0
        while i < len(toks):
            n, hit = self._country_at(toks, i)
            found += [c for c in hit if c not in found]
            i += max(n, 1)
        return found + [c for c in self._elided(toks, found) if c not in found]

    def _elided(self, toks: list[str], found: list[str]) -> list[str]:
        """The countries named by a word before a country's name of several words (and "or", "and", ...) with
        that name's tail, but for ``found``: "North or South Korea", "North/South Korea" name North Korea too."""
        found = list(found)
        more: list[str] = []
        for j in range(1, len(toks)):
            k = j + 1 if toks[j] in _LIST_LINKS | {"nor", "vs", "versus"} else j
            n, hit = self._country_at(toks, k) if k < len(toks) else (0, ())
            other = self.country_index.get(" ".join([toks[j - 1], *toks[k + 1:k + n]])) if n > 1 and hit else None
            if other and other not in hit and other not in found + more:
                more.append(other)
        return more

    def _country_at(self, toks: list[str], i: int) -> tuple[int, tuple[str, ...]]:
        """(length, (country,)) of the longest country's name at token ``i``; where a continent's name (of
        :data:`CONTINENT_PHRASES`) is as long or longer, (its length, ()): "South America" names no country."""
        cont = _continent_at(toks, i)
        for n in range(min(8, len(toks) - i), cont, -1):
            key = " ".join(toks[i:i + n])
            if key in self.country_places:  # "New South Wales": Australia, not Wales's United Kingdom
                place = self.country_places[key]
                return n, (place,) if place else ()
            c = self.country_index.get(key)
            if c:
                return n, (c,)
        return cont, ()


#: letters each followed by a dot, the last dot optional: "L.A.", "N.Y.C", "s.f."
_DOTTED_RX = re.compile(r"(?<![\w.])((?:[^\W\d_]\.){1,4}[^\W\d_])\.?(?![\w])")
#: a word with an apostrophe, a dot or a hyphen inside: "Jo'burg", "L'viv", "Jo'burg's"
_INNER_PUNCT_RX = re.compile(r"(?<![\w'’\u02bc`.\-])([^\W\d_]+(?:['’\u02bc`.\-][^\W\d_]+)+)(?![\w])")
#: words after which an abbreviation in lower case is offered as a place ("Paris or la")
_OFFERING = frozenset({"or", "nor", "vs", "versus"})


def respell(text: str, gz: Gazetteer) -> str:
    """``text`` with the city names written in short or punctuated forms spelled as the gazetteer has them, so
    every other reading sees them: letters with dots ("L.A.", "S.F.", "N.Y.C.") are the abbreviation, a word
    with punctuation inside ("Jo'burg", "L'viv") is the city whose name it is without the punctuation (when it
    is no city's name as written: "Xi'an" is Xi'an), and an abbreviation that is a word of other places' names
    (:attr:`Gazetteer.word_abbreviations`: "LA") is the city only where written in capitals in an answer that is
    not all capitals, dotted, as a part of its own ("; LA;", ", la,") or after "or" ("Paris or la"); otherwise it
    stays a word ("Rue de la Paix", "RUE DE LA PAIX"). Other text is left as it is."""
    def dotted(m: re.Match[str]) -> str:
        key = norm(m.group(1).replace(".", ""))
        if key in gz.word_abbreviations:
            return gz.cities[gz.word_abbreviations[key]]["name"]
        return m.group(1).replace(".", "") if key in gz.city_index else m.group(0)

    def inner(m: re.Match[str]) -> str:
        word = m.group(1)
        tail = re.search(r"['’\u02bc`]s$", word)
        for core in ([word[:tail.start()], word] if tail else [word]):
            full = place_norm(core)
            if full in gz.city_index or len(full.split()) < 2:
                return word
            if full.replace(" ", "") in gz.squashed:
                return re.sub(r"['’\u02bc`.\-]", "", core) + (word[len(core):] if core != word else "")
        return word

    if gz.city_index:
        text = _DOTTED_RX.sub(dotted, text)
        text = _INNER_PUNCT_RX.sub(inner, text)
    if not gz.word_abbreviations:
        return text
    capitals = any(c.islower() for c in text)
    out, at, prev = [], 0, ""
    for part in re.split(r"([,;|/:()\[\]]+|\s+[-–—]+\s+)", text):
        whole = norm(part)
        for m in re.finditer(r"\w+", part):
            w = m.group()
            k = gz.word_abbreviations.get(norm(w)) if not w[:1].isdigit() else None
            if k is not None and (capitals and w.isupper() or whole == norm(w) or prev.casefold() in _OFFERING):
                out += [part[at:m.start()], gz.cities[k]["name"]]
                at = m.end()
            prev = w
        out.append(part[at:])
        at = 0
    return "".join(out)


def _mask_prose_aliases(text: str) -> str:
    """``text`` with the words of :data:`PROSE_ALIASES` not written in capitals masked ("as the wiki told us"
    names no United States; "US" does), unless one is all of a part (", us," or a field "us" is the country)."""
    def mask(part: str) -> str:
        if norm(part) in PROSE_ALIASES:
            return part
        out, prev, at = [], "", 0
        for m in re.finditer(r"\w+", part):  # kept in capitals or after "or", "and" ("Ukraine or us")
            w = m.group()
            masked = w.casefold() in PROSE_ALIASES and not w.isupper() and prev.casefold() not in _LIST_LINKS
            out += [part[at:m.start()], "_" if masked else w]
            prev, at = w, m.end()
        return "".join([*out, part[at:]])

    return "".join(mask(part) for part in re.split(r"([,;|/()\[\]]+)", text))


def _strip_city(key: str) -> str:
    return key[:-5] if key.endswith(" city") and len(key) > 5 else key


def _match(toks: list[str], i: int, index: dict[str, tuple[int, ...]], longest: int) -> tuple[int, tuple[int, ...]]:
    """(length, cities) of the longest name of ``index`` that starts at token ``i``; ``(0, ())`` for none."""
    for n in range(min(longest, len(toks) - i), 0, -1):
        hit = index.get(" ".join(toks[i:i + n]))
        if hit:
            return n, hit
    return 0, ()


#: words before a city's name that make it a lake's or a gulf's ("Lausanne (on Lake Geneva)" names one city)
_WATER_BEFORE = (("lake",), ("lac",), ("lago",), ("gulf", "of"), ("bay", "of"), ("lake", "of"))


def _scan(toks: list[str], index: dict[str, tuple[int, ...]], longest: int) -> list[int]:
    found: list[int] = []
    i = 0
    while i < len(toks):
        n, hit = _match(toks, i, index, longest)
        if hit and any(tuple(toks[max(0, i - len(w)):i]) == w for w in _WATER_BEFORE):
            i += n  # a body of water named after the city, not the city
        elif hit:
            found += [h for h in hit if h not in found]
            i += n
        else:
            i += 1
    return found


def _beside_regions(toks: list[str], names: tuple[tuple[str, ...], ...],
                    places_at: Callable[[int], tuple[int, tuple[Any, ...]]]) -> list[Any]:
    """The places named in ``toks`` (``places_at(i)``: the length and places of the longest name at token ``i``)
    outside the phrases that name one of the regions ``names``: left to right, the longer of a place's name
    and such a region phrase, the region where they are as long."""
    found: list[Any] = []
    i = 0
    while i < len(toks):
        n, hit = places_at(i)
        r = _region_span(toks, i, names)
        if r and r >= n:
            i += r
        else:  # a place, or a name that is none (a continent's at a country's place: ``places_at``)
            found += [h for h in hit if h not in found]
            i += max(n, 1)
    return found


def _continent_at(toks: list[str], i: int) -> int:
    """The length of the longest name of :data:`CONTINENT_PHRASES` at token ``i`` (0 for none)."""
    return next((n for n in range(min(_CONTINENT_LONGEST, len(toks) - i), 0, -1)
                 if " ".join(toks[i:i + n]) in CONTINENT_PHRASES), 0)


def _region_word(toks: list[str], i: int) -> int:
    """The length of the longest of :data:`REGION_WORDS` at token ``i`` (0 for none)."""
    return max((len(w) for w in REGION_WORDS if tuple(toks[i:i + len(w)]) == w), default=0)


def _region_span(toks: list[str], i: int, names: tuple[tuple[str, ...], ...]) -> int:
    """The length of the longest phrase at token ``i`` that names one of the regions ``names``: the name,
    optionally after "the", a region word and a link ("the Canton of", "Provincia de") or followed by a
    region word ("Prefecture"); 0 for none."""
    if not names:
        return 0
    starts = {i}
    j = i + 1 if toks[i:i + 1] == ["the"] else i
    w = _region_word(toks, j)
    if w:
        starts |= {j + w, *([j + w + 1] if toks[j + w:j + w + 1] and toks[j + w] in REGION_LINKS else [])}
    best = 0
    for s in starts:
        for name in names:
            if tuple(toks[s:s + len(name)]) == name:
                end = s + len(name)
                best = max(best, end + _region_word(toks, end) - i)
    return best


def _country_table(extra: dict[str, list[str]] | None = None) -> dict[str, str]:
    table: dict[str, str] = {}
    for canon, aliases in {**COUNTRY_ALIASES, **(extra or {})}.items():
        for a in [canon, *aliases]:
            table[norm(a)] = canon
            if norm(a).startswith("the "):
                table[norm(a)[4:]] = canon
    return table


@lru_cache(maxsize=64)
def _names_table(countries: tuple[str, ...]) -> dict[str, str]:
    """:func:`_country_table` of ``countries`` (no aliases of their own), cached: a checker in a shaped-reward
    loop calls for it at every step. Callers merge it into a new dict and never change it."""
    return _country_table({c: [] for c in countries})


@lru_cache(maxsize=4)
def load_gazetteer(path: str | None = None) -> Gazetteer:
    p = path or str(data_dir() / "geo" / "places.json")
    try:
        with open(p, encoding="utf-8") as f:
            raw = json.load(f)
    except (OSError, ValueError):
        raw = {"countries": [], "cities": []}
    extra = {c["name"]: list(c.get("aliases", [])) for c in raw.get("countries", [])}
    for canon, aliases in COUNTRY_ALIASES.items():
        extra[canon] = sorted(set(extra.get(canon, [])) | set(aliases))
    countries = {k: v for k, v in _country_table(extra).items() if k not in NOT_COUNTRY_ALIASES}
    regions = {place_norm(n) for rows in _region_rows().values() for name, others, _ in rows for n in [name, *others]}
    for k, v in _country_table({c: list(a) for c, (_, a) in OTHER_COUNTRIES.items()}).items():
        if k not in regions:  # a region of the table is no other country ("Macedonia" in Greece)
            countries.setdefault(k, v)
    index: dict[str, list[int]] = {}
    cities = tuple(raw.get("cities", []))
    words = place_words(cities, countries, _region_rows())
    abbreviations: dict[str, int] = {}
    for k, c in enumerate(cities):
        for name in c.get("names", [c["name"]]):
            full = place_norm(name)
            if _ABBREVIATION_RX.fullmatch(name) and words.get(full, {k}) != {k}:
                abbreviations[full] = k  # "LA": a word ("la") of other places' names, read only as written
                continue
            # "Cebu" for "Cebu City", but "Mexico" stays the country
            for key in {full, *([_strip_city(full)] if norm(_strip_city(full)) not in countries else [])}:
                if key and k not in index.setdefault(key, []):
                    index[key].append(k)
    squashed: dict[str, list[int]] = {}
    for key, ks in index.items():
        for k in ks:
            if k not in squashed.setdefault(key.replace(" ", ""), []):
                squashed[key.replace(" ", "")].append(k)
    longest = max((len(k.split()) for k in index), default=1)
    terms = tuple((str(t[0]), str(t[1]), str(t[2])) for t in raw.get("cue_terms", []) if len(t) == 3)
    continent_of = {c: cont for c, (cont, _) in OTHER_COUNTRIES.items()}
    continent_of.update({c["name"]: c["continent"] for c in raw.get("countries", []) if c.get("continent")})
    return Gazetteer(cities, {k: tuple(v) for k, v in index.items()}, countries, longest, terms,
                     _city_regions(cities), continent_of, _country_places(cities, countries),
                     {k: tuple(v) for k, v in squashed.items()}, abbreviations)


def place_words(cities: tuple[dict[str, Any], ...], countries: dict[str, str],
                region_rows: dict[str, list[list[Any]]]) -> dict[str, set[int]]:
    """Every word of a place's name an answer may hold, with the cities whose names (or whose own regions' names)
    hold it; -1 for a country's name or alias, a street word, a word that links a street's name and a region
    holding none of the cities: "la" of "La Plata" and "Rue de la Paix". A city's abbreviation that is a word of
    another place is read only as written (:attr:`Gazetteer.word_abbreviations`); "DC" of "Washington DC" and
    "CDMX" of the region Ciudad de México (CDMX) are the city's own."""
    out: dict[str, set[int]] = {w: {-1} for w in (*STREET_GENERIC, *STREET_WORDS, *STREET_LINKS, *STREET_DIRECTIONS)}
    at = {(c.get("country_code", ""), c["name"]): k for k, c in enumerate(cities)}
    for k, c in enumerate(cities):
        for name in c.get("names", [c["name"]]):
            if not _ABBREVIATION_RX.fullmatch(name):
                for w in place_norm(name).split():
                    out.setdefault(w, set()).add(k)
    for name in countries:
        for w in name.split():
            out.setdefault(w, set()).add(-1)
    for code, rows in region_rows.items():
        for name, others, inside in rows:
            held = {at[(code, c)] for c in inside if (code, c) in at} or {-1}
            for n in [name, *others]:
                key = place_norm(n)  # and its letters written with dots, joined: "dc" of "Bogotá D.C."
                for w in key.split() + ["".join(m.group(0).split()) for m in re.finditer(r"\b(?:\w )+\w\b", key)]:
                    out.setdefault(w, set()).update(held)
    return out


def _region_rows() -> dict[str, list[list[Any]]]:
    """:func:`embodiedweb.tables.geo_regions`, or none where the table cannot be read."""
    try:
        return geo_regions()
    except (OSError, ValueError):
        return {}


def _country_places(cities: tuple[dict[str, Any], ...], countries: dict[str, str]) -> dict[str, str | None]:
    """:data:`PLACES_NAMING_COUNTRIES` and the names of the regions of :func:`embodiedweb.tables.geo_regions`
    that hold a country's alias and are longer ("New South Wales", "Northern Ireland"), each with its country."""
    table = _region_rows()
    of_code = {c.get("country_code", ""): c.get("country", "") for c in cities}
    places = dict(PLACES_NAMING_COUNTRIES)
    for code, rows in table.items():
        for name, others, _inside in rows:
            for key in {norm(n) for n in [name, *others]}:
                toks = key.split()
                if key not in countries and of_code.get(code) and any(
                        " ".join(toks[i:j]) in countries for i in range(len(toks)) for j in range(i + 1, len(toks) + 1)):
                    places.setdefault(key, countries.get(norm(of_code[code]), of_code[code]))
    return places


def _city_regions(cities: tuple[dict[str, Any], ...]) -> tuple[tuple[tuple[str, ...], ...], ...]:
    """Per city (by country code and name), the :func:`place_norm` tokens of every name of every region of
    :func:`embodiedweb.tables.geo_regions` that holds it; none where the table is missing or has no row."""
    try:
        table = geo_regions()
    except (OSError, ValueError):
        table = {}
    held: dict[tuple[str, str], set[tuple[str, ...]]] = {}
    for code, rows in table.items():
        for name, others, inside in rows:
            keys = {tuple(place_norm(n).split()) for n in [name, *others]} - {()}
            for city in inside:
                held.setdefault((code, city), set()).update(keys)
    return tuple(tuple(sorted(held.get((c.get("country_code", ""), c["name"]), ()), key=lambda k: (-len(k), k)))
                 for c in cities)


# --------------------------------------------------------------------------------------------- parsing
@dataclass
class ParsedAnswer:
    """What an answer says (``None`` where it says nothing) and why parts of it could not be read."""

    lat: float | None = None
    lng: float | None = None
    continent: str | None = None
    country: str | None = None
    city: str | None = None
    street: str | None = None
    error: str = ""
    notes: list[str] = field(default_factory=list)
    coord_errors: list[str] = field(default_factory=list)
    #: free-text parts that name a first-level region of the region table and nothing else ("Texas")
    regions: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict of the parsed coordinates and place names."""
        return {"lat": self.lat, "lng": self.lng, "continent": self.continent, "country": self.country,
                "city": self.city, "street": self.street}


def _hemi(v: float, h: str, pos: str, neg: str) -> float:
    h = (h or "").upper()
    return -abs(v) if h == neg else abs(v) if h == pos else v


def _parse_number(text: str) -> tuple[float, str] | None:
    m = re.fullmatch(rf"\s*({_NUM}|[-+]?\d{{1,3}},\d+)\s*°?\s*([NSEWnsew])?\s*", text or "")
    if not m:
        return None
    return float(m.group(1).replace(",", ".")), (m.group(2) or "").upper()


def _pair(a: tuple[float, str], b: tuple[float, str]) -> tuple[float, float]:
    (x, hx), (y, hy) = a, b
    if hx in ("E", "W") and hy in ("N", "S", ""):  # "2.35 E, 48.85 N"
        (x, hx), (y, hy) = (y, hy), (x, hx)
    return _hemi(x, hx, "N", "S"), _hemi(y, hy, "E", "W")


def _parse_dms(text: str) -> tuple[float, float] | None:
    rx = r"(\d{1,3})\s*°\s*(?:(\d{1,2}(?:\.\d+)?)\s*['′’]\s*)?(?:(\d{1,2}(?:\.\d+)?)\s*(?:\"|″|”|''|′′)\s*)?([NSEWnsew])"
    ms = list(re.finditer(rx, text or ""))
    if len(ms) != 2 or re.sub(rx, "", text).strip(" ,;/()") != "":
        return None
    vals = []
    for m in ms:
        v = float(m.group(1)) + float(m.group(2) or 0) / 60 + float(m.group(3) or 0) / 3600
        vals.append((v, m.group(4).upper()))
    return _pair(vals[0], vals[1])


def parse_coord(text: str) -> tuple[float, float] | None:
    """``lat, lng`` in one string (decimal degrees with optional ``°``/``N S E W``, or D°M′S″)."""
    t = (text or "").strip().strip("()[]{}").strip()
    m = re.fullmatch(rf"({_NUM}\s*°?\s*[NSEWnsew]?)\s*(?:[,/;]\s*|\s+)({_NUM}\s*°?\s*[NSEWnsew]?)", t)
    if m:
        a, b = _parse_number(m.group(1)), _parse_number(m.group(2))
        if a and b:
            return _pair(a, b)
    m = re.fullmatch(r"([-+]?\d{1,3},\d+\s*°?\s*[NSEWnsew]?)\s+([-+]?\d{1,3},\d+\s*°?\s*[NSEWnsew]?)", t)
    if m:  # decimal commas: "48,86 2,34"
        a, b = _parse_number(m.group(1)), _parse_number(m.group(2))
        if a and b:
            return _pair(a, b)
    return _parse_dms(t)


def looks_like_coords(text: str) -> bool:
    """Digits with little else: meant as coordinates (so an unreadable one is reported, not read as a name)."""
    t = text or ""
    if not re.search(r"\d", t):
        return False
    letters = re.sub(r"(?i)\b(lat|lng|lon|long|latitude|longitude|deg|degrees)\b", " ", t)
    return not re.search(r"[^\W\d_]{2,}", re.sub(r"[NSEWnsew°]", " ", letters))


_HEMI = r"(?:north|south|east|west|[NSEW])"
_DEC = r"[-+\u2212]?\d{1,3}\.\d+"
#: one coordinate pair anywhere in an answer, in decimal degrees with a decimal point: optionally labelled ("Lat/Lng:",
#: "Coordinates (approx.):", "Latitude 50.44, Longitude 30.52"), with hemispheres before or after each number ("N
#: 50.44, E 30.52", "50.44 North, 30.52 East") and "°"
_PAIR_RX = re.compile(
    r"(?i)(?:\b(?:lat(?:itude)?(?:\s*[/,&]\s*(?:lng|lon|long|longitude))?|coord(?:inate)?s?|gps)\b[^\d;|,]{0,24}?)?"
    rf"(?<![\w.])(?:(?P<h1>{_HEMI})\.?\s*)?(?P<a>{_DEC})\s*°?\s*(?:(?P<h2>{_HEMI})\b)?"
    r"\s*(?:[,;/]|\s)\s*(?:(?:lng|lon|long|longitude)\b\s*[:=]?\s*)?"
    rf"(?:(?P<h3>{_HEMI})\.?\s*)?(?P<b>{_DEC})(?![\d.]*\d)\s*°?\s*(?:(?P<h4>{_HEMI})\b)?")


def _pair_of(m: re.Match[str]) -> tuple[float, float] | None:
    """The (lat, lng) of a :data:`_PAIR_RX` match, ``None`` where a number has two hemispheres or is out of range."""
    vals = []
    for num, before, after in (("a", "h1", "h2"), ("b", "h3", "h4")):
        if m.group(before) and m.group(after):
            return None
        h = (m.group(before) or m.group(after) or "")[:1].upper()
        vals.append((float(m.group(num).replace("\u2212", "-")), h))
    lat, lng = _pair(vals[0], vals[1])
    return (lat, lng) if -90 <= lat <= 90 and -180 <= lng <= 180 else None


def _take_pair(out: ParsedAnswer, s: str) -> str:
    """Read the coordinate pair of ``s`` wherever it stands (after the names, in brackets, labelled, with
    hemispheres as words) and return ``s`` without it. Two different pairs are several places: none is read
    (``out.coord_errors`` says so). A pair with another decimal number right beside it ("50.44, 30.52, 30.6")
    is left to the ordinary reading, and so is a number out of range."""
    ms = [m for m in _PAIR_RX.finditer(s)]
    pairs = [_pair_of(m) for m in ms]
    if not ms or None in pairs:
        return s
    if len(set(pairs)) > 1:
        out.coord_errors.append("more than one coordinate pair: give one place")
    else:
        for m in ms:
            if re.search(r"\d[.,]\d+\s*°?\s*[NSEWnsew]?\s*[,;/]?\s*$", s[:m.start()]) or re.match(
                    r"\s*[,;/]?\s*[-+]?\d{1,3}[.,]\d", s[m.end():]):
                return s  # a third number beside the pair: which two are meant is not clear
        out.lat, out.lng = pairs[0]
    for m in reversed(ms):
        s = s[:m.start()] + s[m.end():]
    return re.sub(r"[(\[{]\s*[)\]}]", "", s)


def _junk(p: str | None) -> bool:
    return p is None or norm(p) in _JUNK


def _take_coords(out: ParsedAnswer, parts: list[str]) -> list[str]:
    """Read coordinates from the front of ``parts`` (one part "lat, lng" or two parts "lat" and "lng")."""
    if not parts:
        return parts
    dec = r"\s*[-+]?\d{1,3},\d+\s*°?\s*[NSEWnsew]?\s*"
    if len(parts) >= 2 and re.fullmatch(dec, parts[0]) and re.fullmatch(dec, parts[1]):  # "48,86; 2,34"
        a, b = _parse_number(parts[0]), _parse_number(parts[1])
        if a and b:
            out.lat, out.lng = _pair(a, b)
            return parts[2:]
    c = parse_coord(parts[0])
    if c is not None:
        out.lat, out.lng = c
        return parts[1:]
    if len(parts) >= 2:
        a, b = _parse_number(parts[0]), _parse_number(parts[1])
        if a and b:
            out.lat, out.lng = _pair(a, b)
            return parts[2:]
    if looks_like_coords(parts[0]):
        out.coord_errors.append(f"could not read the coordinates {parts[0][:40]!r}: give decimal degrees "
                                "'lat, lng' (e.g. 48.8606, 2.3376)")
        return parts[1:]
    return parts


def _classify(out: ParsedAnswer, parts: list[str], gz: Gazetteer) -> None:
    """Fill the empty fields of ``out`` from free-text parts, each recognised by what it names. Two parts that
    a city's name spans, split at its comma ("Washington", "D.C."), are read as one part."""
    cities: list[str] = []
    streets: list[str] = []
    unknown: list[str] = []
    countries: list[str] = []
    more_countries: list[str] = []  # countries named beside a city in its part ("St. Petersburg Russia")
    continents: list[str] = []  # continents named in a country's part ("Colombia (South America)")
    whole: list[str] = []  # parts that are a continent ("Europe", "Eastern Europe")
    joined: list[str] = []
    # spaced dashes and brackets separate parts ("Monterrey, Mexico (city centre)": no Mexico City)
    for p in (r for part in parts for q in _DASH_RX.split(part) for r in re.split(r"[()\[\]{}]+", q) if r.strip()):
        if joined and _spans(gz, joined[-1], p):
            joined[-1] = f"{joined[-1].strip()}, {p.strip()}"
        else:
            joined.append(p)
    for p in joined:
        p = p.strip().strip("\"'").strip()
        if _junk(p):
            continue
        n = norm(p)
        named: list[str] = []
        if _bare_continent(p) in CONTINENT_NAMES:  # "Europe", "in Europe", "Eastern Europe"
            whole.append(CONTINENT_NAMES[_bare_continent(p)])
        elif _bare_continent(p) in CONTINENT_PHRASES:
            continue  # "Latin America": no continent of the answer's, and no country
        elif n in gz.country_index and not gz.exact_city(p):
            countries.append(p)
        elif gz.exact_city(p):
            cities.append(p)
        elif _names_a_street(p, gz):
            street, named = street_and_cities(p, gz)
            lead = _city_first(street, gz)
            if lead:
                named, street = [lead[0], *named], lead[1]
            streets.append(_unlead(street))
        elif gz.find_cities(p):
            where = _located(p, gz)
            named = [where[1] if where else p]
            if where:
                unknown.append(_unlead(where[0]))
            continents += _continents_in(p, gz)  # "Europe / Ukraine / Kyiv"
        elif gz.find_countries(p):  # a second country anywhere counts ("Kyiv, Ukraine, or Argentina" names two)
            countries.append(p)
            continents += _continents_in(p, gz)
        elif _region_part(p, gz):
            out.regions.append(p)  # "Paris, Texas": a region, judged with the city (:func:`_city_contradicted`)
        else:
            unknown.append(p)
            continents += _continents_in(p, gz)
        cities += named
        more_countries += [r for r in (_beyond_cities(gz, c) for c in named) if gz.find_countries(r)]
    countries = countries or more_countries
    if out.continent is None and len(set(whole)) == 1:
        out.continent = whole[0]
    elif out.continent is None and not whole and len(set(continents)) == 1:
        out.continent = continents[0]  # two continents name none: "Europe, Asia", "Europe (Asia)"
    if countries and out.country is None:
        out.country = ", ".join(countries)
    if cities and out.city is None:
        out.city = ", ".join(cities)
    elif out.city is None and unknown:
        out.city = unknown.pop(0)
    if out.street is None:
        out.street = streets[0] if streets else (unknown.pop(0) if unknown else None)


#: (the gazetteer's regions, region name tokens -> the indices of the cities it holds), for :func:`_holders`
_HOLDERS: dict[int, tuple[Any, dict[tuple[str, ...], frozenset[int]]]] = {}


def _holders(gz: Gazetteer) -> dict[tuple[str, ...], frozenset[int]]:
    """Every region name of the table (:func:`place_norm` tokens) that is no country's alias ("England" is read
    as a country), with the cities it holds; cached per gazetteer."""
    hit = _HOLDERS.get(id(gz.regions))
    if hit is not None and hit[0] is gz.regions:
        return hit[1]
    held: dict[tuple[str, ...], set[int]] = {}
    for x, names in enumerate(gz.regions):
        for name in names:
            if " ".join(name) not in gz.country_index:
                held.setdefault(name, set()).add(x)
    _HOLDERS[id(gz.regions)] = (gz.regions, {k: frozenset(v) for k, v in held.items()})
    return _HOLDERS[id(gz.regions)][1]


def _region_part(part: str, gz: Gazetteer) -> bool:
    """Whether a free-text part is exactly a phrase naming a region of the table ("Texas", "the State of Texas")."""
    toks = place_norm(part).split()
    return bool(toks) and _region_span(toks, 0, tuple(_holders(gz))) == len(toks)


def _city_contradicted(p: ParsedAnswer, x: int, gz: Gazetteer, table: dict[str, str]) -> str:
    """Why the answer's city ``x`` (a gazetteer index) is another place of its name, or ``""``: a region beside it
    that does not hold it ("Paris, Texas"; a region of the table), or the one country the answer names, where it
    is not the city's ("Durban, France")."""
    holders = _holders(gz)
    toks = [_ABBREV.get(t, t) for t in norm(p.city or "").split()]
    named = [tuple(place_norm(r).split()) for r in p.regions]
    i = 0
    while i < len(toks):  # regions in the city's own part, outside the names of cities and countries ("Paris Texas")
        n, _hit = _match(toks, i, gz.city_index, gz.longest)
        n = n or gz._country_at(toks, i)[0]  # "New Zealand" holds no Danish Zealand
        r = 0 if n else _region_span(toks, i, tuple(holders))
        if r:
            named += [k for k in holders if _region_span(toks, i, (k,)) == r]
        i += max(n, r, 1)
    countries = gz.named_countries(p.country) if p.country else []

    def country_of(i: int) -> str:
        return table.get(norm(gz.cities[i].get("country", "")), gz.cities[i].get("country", ""))

    for k in named:
        region = next((h for name, h in holders.items() if _region_span(list(k), 0, (name,)) == len(k)), None)
        # a region only of other countries than the one the answer names is no claim about the city ("Busan,
        # Central District, South Korea": Israel's Central District holds no Busan, but the answer is in Korea)
        if region is not None and x not in region and not (
                len(countries) == 1 and countries[0] not in {country_of(i) for i in region}):
            return f"{' '.join(k)} does not hold {gz.cities[x]['name']}: another place of its name"
    if p.country:
        own = country_of(x)
        if len(countries) == 1 and countries[0] != own:
            return f"{gz.cities[x]['name']} is not in {countries[0]}: another place of its name"
    return ""


def street_and_cities(part: str, gz: Gazetteer) -> tuple[str, list[str]]:
    """A free-text part read as a street: (the street, the texts naming cities after it), by the module
    docstring's "a street part may end with its city". The part splits between two words where the words
    before it (less a last "in", "at", "à", "en" or "em") are a street that is more than a street word
    (a significant word, :func:`street_core`, or two words besides linking words: "Via del Corso", "The
    Mall") and does not end in a linking word (:data:`STREET_LINKS`: "Avenue de" + "Paris"), and the
    words after it are exactly a city's name or, after "in" and the like, name a city, and no city's name
    runs across the split ("Avenue de New Delhi" is no "Avenue de New" in Delhi); the earliest such
    split is taken and the street before it is read again, so a second city between the street and the
    city counts too ("Main Street Paris Lyon" names two cities). The words after the split may also be a
    city's name and then a region that holds it ("Portage Avenue Winnipeg Manitoba"), and a leading word
    such as "near" or "on" (:data:`STREET_LEADS`) is no word of the street ("Near Calle" + "Córdoba" is no
    split). A part with no such split is all street."""
    words = part.split()
    for k in range(1, len(words)):
        head, tail = words[:k], " ".join(words[k:])
        located = norm(head[-1]) in STREET_IN
        if not (gz.find_cities(tail) if located else
                (len(words) - k <= gz.longest and gz.exact_city(tail)) or _city_with_region(gz, tail)):
            continue
        street = " ".join(head[:-1] if located else head)
        bare = _unlead(street)
        toks = norm(bare).split()
        if not toks or toks[-1] in STREET_LINKS or not is_street(bare) or not (
                street_core(bare) or len([t for t in toks if t not in STREET_LINKS]) > 1):
            continue  # no street, or a street word alone ("Via" + "Roma", "Avenue de" + "Paris", "Near Calle")
        if not _cuts_a_city(gz, words, k):
            street, before = street_and_cities(street, gz)
            return street, [*before, tail]
    return part, []


def _city_with_region(gz: Gazetteer, text: str) -> bool:
    """Whether ``text`` is a city's name and then a phrase naming a region that holds that city ("Winnipeg
    Manitoba", "Seattle, Washington State")."""
    toks = [_ABBREV.get(t, t) for t in norm(text).split()]
    for n in range(min(gz.longest, len(toks) - 1), 0, -1):
        for x in gz.city_index.get(" ".join(toks[:n]), ()):
            if x < len(gz.regions) and _region_span(toks, n, gz.regions[x]) == len(toks) - n:
                return True
    return False


#: the significant words of a street's name that do not make it a street of its own after a city's name: its
#: directions ("Nanjing East Road" is a street named after Nanjing, not Nanjing's East Road)
_PLAIN_STREET_WORDS = frozenset(STREET_DIRECTIONS.values())


def _city_first(street: str, gz: Gazetteer) -> tuple[str, str] | None:
    """``(city, street)`` for a street part that begins with its city ("Winnipeg's Portage Avenue", "Winnipeg
    Portage Avenue"; after a leading word such as "near"): the words before are exactly a city's name (a
    possessive "'s" aside) and no city's name runs on past them, and the words after are a street of its own
    (:func:`_own_street`). The longest such city is taken; else ``None``."""
    words = street.split()
    lead = 0
    while lead < len(words) - 1 and norm(words[lead]) in STREET_LEADS:
        lead += 1
    for k in range(len(words) - 1, lead, -1):
        head = [*words[lead:k - 1], re.sub(r"['’]s$", "", words[k - 1])]
        city, rest = " ".join(head), " ".join(words[k:])
        if gz.exact_city(city) and not _cuts_a_city(gz, [*head, *words[k:]], len(head)) and _own_street(rest, gz):
            return city, rest
    return None


#: the links after which a city's name is no part of a street's name: they list places ("Paris and Lyon")
_LIST_LINKS = frozenset({"and", "y", "e", "or", "o", "ou", "oder", "und"})


def _own_street(text: str, gz: Gazetteer) -> bool:
    """Whether ``text``, after a city's name, is a street of its own: a street (:func:`is_street`) with a
    significant word other than a direction (:func:`street_core`: "Nanjing East Road", "Paris Street" are
    streets named after a city, not the city's East Road) or, with none, two words besides linking words
    ("Via del Corso"), and naming no city but inside its own name: at its start, where it is no city before
    a street of its own in turn ("Shanghai Nanjing Road East", not "Paris Lyon Rue de Rivoli"), or after a
    street word or a linking word ("Calle Córdoba", "Avenue de Lyon"; not "and Lyon")."""
    raw = norm(text).split()
    core = street_core(text)
    if not is_street(text) or not (core - _PLAIN_STREET_WORDS if core else
                                   len([t for t in raw if t not in STREET_LINKS]) > 1):
        return False
    toks = [_ABBREV.get(t, t) for t in raw]
    i = 0
    while i < len(toks):
        n, _hit = _match(toks, i, gz.city_index, gz.longest)
        if n and (_city_first(" ".join(text.split()[i:]), gz) if i == 0 else
                  raw[i - 1] in _LIST_LINKS or not (raw[i - 1] in STREET_WORDS or raw[i - 1] in STREET_LINKS)):
            return False
        i += max(n, 1)
    return True


def _unlead(text: str) -> str:
    """``text`` without its leading words such as "near" or "on" (:data:`STREET_LEADS`), one word at least."""
    words = text.split()
    while len(words) > 1 and norm(words[0]) in STREET_LEADS:
        words.pop(0)
    return " ".join(words)


def _names_a_street(part: str, gz: Gazetteer) -> bool:
    """:func:`is_street` for a free-text part, not counting the words of a city's name in it: "St. Petersburg
    Russia" or "central St Petersburg" name a city, not a street by its "St"."""
    raw = norm(part).split()
    toks = [_ABBREV.get(t, t) for t in raw]
    i = 0
    while i < len(toks):
        n, _hit = _match(toks, i, gz.city_index, gz.longest)
        if n:
            i += n
            continue
        if raw[i] in STREET_WORDS or raw[i].endswith(STREET_SUFFIXES):
            return True
        i += 1
    return False


def _beyond_cities(gz: Gazetteer, text: str) -> str:
    """The words of ``text`` (folded) outside the names of cities and the phrases naming a region that holds
    a city it names: where a country is named beside the city ("St. Petersburg Russia")."""
    toks = [_ABBREV.get(t, t) for t in norm(text).split()]
    hits = gz.named_cities(text)
    regions = tuple({r for h in hits if h < len(gz.regions) for r in gz.regions[h]})
    rest: list[str] = []
    i = 0
    while i < len(toks):
        n, _hit = _match(toks, i, gz.city_index, gz.longest)
        r = _region_span(toks, i, regions)
        if r and r >= n:
            i += r
        elif n:
            i += n
        else:
            rest.append(toks[i])
            i += 1
    return " ".join(rest)


def _continents_in(text: str, gz: Gazetteer | None = None) -> list[str]:
    """The continents (canonical, of :data:`CONTINENT_ALIASES`) named in ``text``, in order, by any of their
    names or their parts' (:data:`CONTINENT_REGIONS`: "Eastern Europe" names Europe); with ``gz``, outside the
    names of countries ("South Africa" names no continent)."""
    toks, found, i = norm(text).split(), [], 0
    while i < len(toks):
        n = _continent_at(toks, i)
        if gz is not None:
            m, hit = gz._country_at(toks, i)
            if hit or m > n:
                i += m
                continue
        c = CONTINENT_NAMES.get(" ".join(toks[i:i + n])) if n else None
        if c:
            found.append(c)
        i += max(n, 1)
    return found


def _continent_named(text: str | None, gz: Gazetteer) -> str | None:
    """The continent a continent slot or field names: the one continent it names (with modifiers or in a few
    words: "Eastern Europe", "in Europe"), "Australia" for Oceania (:data:`SLOT_CONTINENTS`); ``None`` for
    none or several."""
    n = norm(text or "")
    if n in SLOT_CONTINENTS:
        return SLOT_CONTINENTS[n]
    found = set(_continents_in(text or "", gz))
    return found.pop() if len(found) == 1 else None


#: the words that may lead a part naming a continent ("in Europe", "the Balkans")
_CONTINENT_LEADS = frozenset({"in", "the", "of", "somewhere"})


def _bare_continent(text: str) -> str:
    """The folded ``text`` without its leading words such as "in" (:data:`_CONTINENT_LEADS`)."""
    toks = norm(text).split()
    while len(toks) > 1 and toks[0] in _CONTINENT_LEADS:
        toks.pop(0)
    return " ".join(toks)


def _cuts_a_city(gz: Gazetteer, words: list[str], k: int) -> bool:
    """Whether a city's name of the gazetteer starts before word ``k`` of ``words`` and ends after it."""
    def toks(ws: list[str]) -> list[str]:
        return [_ABBREV.get(t, t) for t in norm(" ".join(ws)).split()]

    head, all_toks = len(toks(words[:k])), toks(words)
    return any(" ".join(all_toks[i:i + n]) in gz.city_index
               for i in range(head) for n in range(head - i + 1, min(gz.longest, len(all_toks) - i) + 1))


def _located(part: str, gz: Gazetteer) -> tuple[str, str] | None:
    """``(place, city)`` for a part "place in city" whose place names no city ("Zeil in Frankfurt": a street
    without a street word), the earliest "in" (or "at", "à", "en", "em") after which a city is named; else
    ``None``."""
    words = part.split()
    for k in range(1, len(words) - 1):
        head, tail = " ".join(words[:k]), " ".join(words[k + 1:])
        if norm(words[k]) in STREET_IN and norm(head) and not gz.find_cities(head) and gz.find_cities(tail):
            return head, tail
    return None


def _spans(gz: Gazetteer, a: str, b: str) -> bool:
    """Whether the longest-first reading of ``a, b`` matches a city name that starts in ``a`` and ends in ``b``."""
    head, toks = len(place_norm(a).split()), place_norm(f"{a}, {b}").split()
    i = 0
    while i < head:
        n, hit = _match(toks, i, gz.city_index, gz.longest)
        if i + n > head:  # only a city with a name written with a comma ("Washington, D.C."; not Mexico City)
            return any("," in name for h in hit for name in gz.cities[h].get("names", []))
        i += max(n, 1)
    return False


def is_street(p: str) -> bool:
    toks = norm(p).split()
    return any(t in STREET_WORDS for t in toks) or any(t.endswith(STREET_SUFFIXES) for t in toks)


def _labelled(s: str) -> list[tuple[str, str]] | None:
    """The labelled fields of ``s`` as (kind of :data:`LABELS`, value), the text before the first label as ``""``;
    ``None`` for no known label. A label it does not know at the start of a part ends the field before it:
    its value is free text (``"free"``), or nothing where it says nothing of the place (:data:`NON_PLACE_LABELS`)."""
    ms = list(_LABEL_RX.finditer(s))
    if not ms:
        return None
    known = [(m.start(), m.end(), LABELS[m.group(1).lower()]) for m in ms]
    others = [(m.start(1), m.end(), "none" if norm(m.group(1)) in NON_PLACE_LABELS else "free")
              for m in _OTHER_LABEL_RX.finditer(s)
              if not any(a <= m.start(1) < b or m.start(1) <= a < m.end() for a, b, _ in known)]
    spans = sorted(known + others)
    out = [("", s[:spans[0][0]])]
    for k, (_start, end, kind) in enumerate(spans):
        stop = spans[k + 1][0] if k + 1 < len(spans) else len(s)
        if kind != "none":
            out.append((kind, s[end:stop]))
    return [(k, v.strip().strip(";,|").strip()) for k, v in out]


def _positional_ok(parts: list[str], gz: Gazetteer) -> bool:
    """Whether four name parts can be read by position (no part sits in another kind's place)."""
    kinds = []
    for p in parts:
        n = norm(p or "")
        kinds.append("continent" if n in CONTINENT_NAMES else
                     "country" if n in gz.country_index and not gz.exact_city(p or "") else
                     "city" if gz.exact_city(p or "") else "")
    if kinds[1] == "country" and norm(parts[0] or "") in SLOT_CONTINENTS:
        kinds[0] = "continent"  # "America; Canada; ...", "Australia; New Zealand; ...": a continent slot's
    bad = {0: ("country", "city"), 1: ("continent", "city"), 2: ("continent", "country"), 3: ("continent", "country")}
    same = gz.country_index.get(norm(parts[3] or "")) == gz.country_index.get(norm(parts[1] or ""))
    if kinds[1:3] == ["country", "city"] and same:
        bad[3] = ("continent",)  # "Uruguay; Salto; Uruguay": the street of the sign "Uruguay" (another country fails)
    return not any(kinds[i] in bad[i] for i in range(4))


def parse_answer(answer: str | None, countries: list[str] | None = None, gz: Gazetteer | None = None) -> ParsedAnswer:
    """Parse an answer leniently (see module docstring); never raises."""
    out = ParsedAnswer()
    if answer is None or not str(answer).strip():
        out.error = "no answer given: end with stop [lat, lng; continent; country; city; street]"
        return out
    gz = gz or load_gazetteer()
    if countries:
        gz = replace(gz, country_index={**_names_table(tuple(countries)), **gz.country_index})
    s = respell(str(answer).strip().strip("`").strip(), gz)
    if len(s) >= 2 and s[0] in "[({" and s[-1] in "])}":
        s = s[1:-1]
    s = s.replace("\r", "").replace("\n", ";")[:2000]
    s = _take_pair(out, s)
    taken = (out.lat, out.lng)
    labelled = _labelled(s)
    if labelled is not None:
        free: list[str] = []
        lat = lng = None
        for key, val in labelled:
            if not val:
                continue
            if key == "lat" or key == "lng":
                num = _parse_number(val)
                if num is None:
                    out.coord_errors.append(f"could not read the {key} {val[:30]!r}: give decimal degrees")
                elif key == "lat":
                    lat = num
                else:
                    lng = num
            elif key == "coords":
                rest = _take_coords(out, [val])
                if rest and rest[0] and not out.coord_errors:
                    out.coord_errors.append(f"could not read the coordinates {val[:40]!r}")
            elif key in ("continent", "country", "city", "street"):
                if not _junk(val) and getattr(out, key) is None:
                    setattr(out, key, val)
            else:
                free += [p for p in re.split(r"[;,|]", val)]
        if lat is not None or lng is not None:
            if lat is None or lng is None:
                out.coord_errors.append("only one of lat and lng was given")
            elif out.lat is None:
                out.lat, out.lng = _hemi(lat[0], lat[1], "N", "S"), _hemi(lng[0], lng[1], "E", "W")
        _classify(out, free, gz)
    else:
        sep = ";" if ";" in s else "|" if "|" in s else ","
        parts = [p.strip() for p in s.split(sep)]
        if len(re.findall(r"\d{1,3}[.,]\d+", s)) > 2:  # three or more decimal numbers: several places
            out.coord_errors.append("more than one coordinate pair: give one place")
            parts = [p for p in parts if not looks_like_coords(p)]
        if sep == "," and len(parts) == 1:
            parts = [s]
        if sep == ";" and len(parts) >= 5 and not parts[0] and parse_coord(parts[0]) is None:
            parts = parts[1:]  # "; Europe; France; Paris; street" (coordinates left empty)
        elif sep in ";|" and len(parts) == 5 and not parts[-1] and taken[0] is not None:
            parts = parts[:-1]  # "Europe; France; Paris; street; 48.86, 2.34": the pair was read
        parts = _take_coords(out, parts)
        if taken[0] is not None and (out.lat, out.lng) != taken:
            out.coord_errors.append("more than one coordinate pair: give one place")
        more = [p for p in parts if p and (parse_coord(p) is not None or (looks_like_coords(p) and re.search(r"\d[.,]\d", p)))]
        if more and (out.lat is not None or out.coord_errors):
            out.coord_errors.append(f"more than one coordinate pair ({more[0][:30]!r}): give one place")
            parts = [p for p in parts if p not in more]
        names = [p for p in parts]
        while names and not names[-1].strip():
            names.pop()
        if sep in ";|" and len(parts) == 4 and _positional_ok(parts, gz):
            for key, val in zip(("continent", "country", "city", "street"), parts, strict=True):
                setattr(out, key, None if _junk(val) else val.strip().strip("\"'").strip())
        else:
            _classify(out, names, gz)
    if out.coord_errors:
        out.lat = out.lng = None
    if out.lat is not None and out.lng is not None and not (-90 <= out.lat <= 90 and -180 <= out.lng <= 180):
        out.coord_errors.append(f"coordinates out of range ({out.lat}, {out.lng}): latitude is -90..90, "
                                "longitude -180..180")
        out.lat = out.lng = None
    named = any((out.continent, out.country, out.city, out.street))
    if out.coord_errors:
        out.error = "; ".join(out.coord_errors) + ("; the names were scored alone" if named else "")
    if out.lat is None and not named and not out.coord_errors:
        out.error = (f"could not read the answer {str(answer)[:80]!r}: use "
                     "stop [lat, lng; continent; country; city; street]")
    return out


# --------------------------------------------------------------------------------------------- scoring
def geoguessr_score(d_km: float | None) -> int:
    return 0 if d_km is None else int(round(5000 * math.exp(-d_km / 1492.7)))


def _street_word(toks: list[str], i: int) -> str | None:
    """What token ``i`` of a street name's tokens counts as: its direction or ordinal number (canonical), the
    word itself, or ``None`` for a generic word (street, road, lu, avenue, st, rd, de, ...)."""
    t = toks[i]
    if t in STREET_DIRECTIONS:
        return STREET_DIRECTIONS[t]
    if t in STREET_DIRECTION_LETTERS:
        named = [k for k, w in enumerate(toks) if w not in STREET_WORDS]  # the name apart from its street words
        if named == [i]:
            return t  # the letter is the name: "E St" is E Street (Washington's), not East Street
        if i in (named[0], named[-1]):
            return STREET_DIRECTION_LETTERS[t]
    m = re.fullmatch(r"(\d+)(?:st|nd|rd|th)", t)
    if m:
        return str(int(m.group(1)))
    if t in STREET_ORDINALS:
        return STREET_ORDINALS[t]
    if t in _PINYIN_NUMBERS and toks[i + 1:i + 2] == ["lu"]:  # "Zhongshan Yi Lu"
        return _PINYIN_NUMBERS[t]
    return None if t in STREET_GENERIC else t


def street_core(s: str) -> set[str]:
    """The significant words of a street name: its distinctive words, its directions and its ordinals (each
    direction and ordinal in one canonical form, so "Nanjing Donglu" = "Nanjing Road East" = "East Nanjing Rd"
    and "Zhongshan Yilu" = "Zhongshan 1st Road" = "Zhongshan First Road"), without its generic words. A
    possessive "'s" is dropped ("St Patrick's Street" = "St Patrick Street"). "St" and "Ste" before a name, first
    or after a street word, are Saint and Sainte ("Rue St-Jean" = "Rue Saint-Jean"; "Main St N" is a street); a
    first "V" is Via ("V. Dante"); a compound "-straße", "-strasse", "-straat" or "-str." is its generic word
    ("Friedrichstr." = "Friedrichstraße" = "Friedrich Straße")."""
    toks = norm(re.sub(r"(?<=\w)['’]s\b", "", s or "")).split()
    for i, t in enumerate(toks):
        if t in ("st", "ste") and i + 1 < len(toks) and toks[i + 1] not in STREET_GENERIC and (
                toks[i + 1] not in STREET_DIRECTIONS) and (i == 0 or toks[i - 1] in STREET_WORDS | STREET_LINKS):
            toks[i] = _ABBREV[t]
    if toks[:1] == ["v"] and len(toks) > 1:
        toks[0] = "via"
    toks = [re.sub(r"(?<=\w{3})(?:strasse|straat|str)$", "", t) for t in toks]
    return {w for w in (_street_word(toks, i) for i in range(len(toks))) if w is not None}


def _house_number_off(answer: str) -> str:
    """``answer`` without a house number first or last ("12 Portage Avenue", "Portage Avenue 12"), where the
    rest still has a significant word that is no number (so "Calle 60 62" keeps both numbers)."""
    words = answer.split()
    while len(words) > 1 and re.fullmatch(r"\d{1,5}[a-zA-Z]?,?", words[0]):
        words.pop(0)
    while len(words) > 1 and re.fullmatch(r"(?:no\.?\s*)?\d{1,5}[a-zA-Z]?", words[-1]):
        words.pop()
    rest = " ".join(words)
    return rest if any(not w.isdigit() for w in street_core(rest)) else answer


def _no_umlaut(text: str) -> str:
    """:func:`norm` with "ae", "oe", "ue" as "a", "o", "u" (umlauts and "ø" written out: "Moenckebergstrasse")."""
    return re.sub(r"([aou])e", r"\1", norm(text))


def same_street(answer: str | None, names: list[str]) -> bool:
    """Whether ``answer`` names one of the street's ``names``: the same name (ignoring case, accents,
    punctuation and spaces) or the same :func:`street_core`: every significant word alike, generic words
    aside. So a direction or an ordinal of the true name must be given, and one it lacks must not be:
    "Nanjing West Road", "Nanjing Road" and "Nanjing Xilu" are not "Nanjing Road East", "Zhongshan Road" and
    "Zhongshan 2nd Road" not "Zhongshan 1st Road"; "East St" is "East Street"."""
    if not answer:
        return False
    sides = [x for x in re.split(r"\s*/\s*", answer) if norm(x)]
    if len(sides) > 1 and all(same_street(x, names) for x in sides):
        return True  # a bilingual sign copied whole: "Aleksanterinkatu / Alexandersgatan" (every side a name of it)
    forms = {answer, _house_number_off(answer)}
    for n in names:
        if not n:
            continue
        for f in forms:
            a = norm(f)
            if a == norm(n) or a.replace(" ", "") == norm(n).replace(" ", ""):
                return True
            ca, cn = street_core(f), street_core(n)
            if ca and (ca == cn or street_core(_no_umlaut(f)) == street_core(_no_umlaut(n))):
                return True
    return False


def _goal_city_names(goal: dict[str, Any], gz: Gazetteer) -> set[str]:
    names = {place_norm(n) for n in [goal["city"], *goal.get("city_aliases", [])] if n}
    return names | {_strip_city(n) for n in names}


def judge_city(goal: dict[str, Any], p: ParsedAnswer, gz: Gazetteer) -> tuple[bool, str]:
    """(city correct, note): one city named and it is this one (its own region beside it is no second city:
    :meth:`Gazetteer.named_cities`), or coordinates nearest this city's centre."""
    goal_names = _goal_city_names(goal, gz)
    if p.city:
        hits = gz.named_cities(p.city)
        if len(hits) > 1:
            shown = ", ".join(gz.cities[h]["name"] for h in hits[:6])
            return False, f"the answer names {len(hits)} cities ({shown}): name one place"
        if len(hits) == 1:
            names = {place_norm(n) for n in gz.cities[hits[0]].get("names", [gz.cities[hits[0]]["name"]])}
            return bool(names & goal_names), ""
        key = place_norm(p.city)
        return key in goal_names or _strip_city(key) in goal_names, ""
    if p.lat is None or p.lng is None:
        return False, ""
    centre = goal.get("city_centre") or [goal["lat"], goal["lng"]]
    d_goal = haversine_km(p.lat, p.lng, centre[0], centre[1])
    if d_goal > CITY_RADIUS_KM:
        return False, ""
    for c in gz.cities:
        if {place_norm(n) for n in c.get("names", [c["name"]])} & goal_names:
            continue
        if haversine_km(p.lat, p.lng, c["lat"], c["lng"]) < d_goal:
            return False, f"the coordinates are nearer to {c['name']} than to the city's centre"
    return True, "city judged by the coordinates (within 25 km of its centre)"


def _pointed_city(p: ParsedAnswer, gz: Gazetteer) -> int | None:
    """The gazetteer city the answer's coordinates point to: the nearest, when its centre is within the city level
    (:data:`CITY_RADIUS_KM`); ``None`` without coordinates or far from every city."""
    if p.lat is None or p.lng is None or not gz.cities:
        return None
    d, x = min((haversine_km(p.lat, p.lng, c["lat"], c["lng"]), i) for i, c in enumerate(gz.cities))
    return x if d <= CITY_RADIUS_KM else None


def _coords_contradict(p: ParsedAnswer, gz: Gazetteer, city: int | None, country: str | None,
                       table: dict[str, str]) -> tuple[str, str]:
    """(why the coordinates contradict the city named, why they contradict the country named), each ``""`` when
    they do not. Coordinates that point to another city of the gazetteer (:func:`_pointed_city`) contradict the
    one city named when it lies farther than :data:`NAMED_SLACK_KM` from them ("Graz" with Vienna's coordinates
    is two guesses in one answer), and the one country named when it has no city that near them (Vienna's
    coordinates with "Hungary"). Rough coordinates of the right place (within tens of km) never contradict it."""
    y = _pointed_city(p, gz)
    if y is None:
        return "", ""

    def country_of(i: int) -> str:
        return table.get(norm(gz.cities[i].get("country", "")), gz.cities[i].get("country", ""))

    def near(i: int) -> bool:
        return haversine_km(p.lat, p.lng, gz.cities[i]["lat"], gz.cities[i]["lng"]) <= NAMED_SLACK_KM  # type: ignore[arg-type]

    shown = gz.cities[y]["name"]
    why_city = why_country = ""
    if city is not None and city != y and not near(city):
        why_city = f"the coordinates point to {shown}, not to {gz.cities[city]['name']}: the answer names two places"
    if country and country_of(y) != country and not any(
            near(i) for i in range(len(gz.cities)) if country_of(i) == country):
        why_country = f"the coordinates point to {shown}, not into {country}: the answer names two places"
    return why_city, why_country


def _names_continent(answer: str | None, gz: Gazetteer) -> bool:
    """Whether ``answer`` names a continent anywhere outside a country's name ("South Africa" names none): then
    the continent level judges what it names, and a country's continent stands in only for an answer that names
    none. (The country the answer names is the goal's: its continent is the goal's, whatever a table says of a
    country in two continents.)"""
    return bool(_continents_in(answer or "", gz))


def _goal_city_index(goal: dict[str, Any], gz: Gazetteer) -> int | None:
    """The gazetteer index of the goal's city (its name and country), or None."""
    names = _goal_city_names(goal, gz)
    for i, c in enumerate(gz.cities):
        if c.get("country") == goal.get("country") and {place_norm(n) for n in c.get("names", [c["name"]])} & names:
            return i
    return None


def _other_place(alt: str, goal: dict[str, Any], gz: Gazetteer, table: dict[str, str]) -> str | None:
    """Whether one alternative of an answer reads as the goal's place: ``None`` when it names the goal's city,
    country, continent or a region that holds the city, a street (and no other city after it) or a number (a
    coordinate, judged on its own), and nothing else; otherwise what it is ("another city (Busan)", "another
    country (China)", "no place the judge reads")."""
    goal_names = _goal_city_names(goal, gz)
    goal_country = table.get(norm(goal["country"]), goal["country"])
    continents = {goal["continent"], *goal.get("continent_alt", [])}
    if not [t for t in norm(alt).split() if not t.replace(".", "").isdigit()]:
        return None  # numbers only: a coordinate
    street = is_street(alt) and _names_a_street(alt, gz)
    city_texts = street_and_cities(alt, gz)[1] if street else [alt]
    read = street
    for text in city_texts:
        for x in gz.named_cities(text):
            if not {place_norm(n) for n in gz.cities[x].get("names", [gz.cities[x]["name"]])} & goal_names:
                return f"another city ({gz.cities[x]['name']})"
            read = True
    if street:
        return None
    for c in replace(gz, country_index=table).named_countries(alt):
        if c != goal_country:
            return f"another country ({c})"
        read = True
    for c in _continents_in(alt, gz):
        if c not in continents:
            return f"another continent ({c})"
        read = True
    if not read and _region_part(alt, gz):
        x = _goal_city_index(goal, gz)
        toks = tuple(place_norm(alt).split())
        if x is None or not any(toks[-len(r):] == r or r == toks for r in gz.regions[x]):
            return "a region that does not hold the city"
        read = True
    return None if read else "no place the judge reads"


#: a part's label before its value ("City:", "Lat/Lng:", "Coordinates (approx.):"): words before a colon, no digit
_LABEL = re.compile(r"^[^:\d]*:(?!\S)")


def hedged(goal: dict[str, Any], answer: str | None, gz: Gazetteer, table: dict[str, str]) -> str:
    """Why the answer names no one place, or ``""``: it offers alternatives in some part (its ``;`` parts, or the
    whole free text; :func:`embodiedweb.domains.outdoor.answers.alternatives`, the traveling, errand and
    Assistant judges' rule) and one alternative does not read as the goal's place: another city, country,
    continent or region, or a text naming no place the judge reads (an unread alternative: "Tromsø-ish, possibly
    Bodø", Bodø having no wiki article). "Tainan, Taiwan", "maybe Tainan", a street beside its city pass
    (checker version 11, stop 39: "Tainan or somewhere in Korea", "Taiwan or China" beside Tainan and "Asia or
    Europe" passed the city)."""
    from embodiedweb.domains.outdoor.answers import alternatives

    for part in (answer or "").split(";"):
        low = " ".join(_LABEL.sub("", part).lower().split())  # a label is no alternative ("Lat/Lng: ...")
        for a, b in alternatives(low):
            why = _other_place(low[a:b], goal, gz, table)
            if why:
                return f"the answer offers {' '.join(low[a:b].split())!r} as an alternative, {why}: a hedge names no one place"
    return ""


def check_answer(goal: dict[str, Any], answer: str | None, countries: list[str] | None = None,
                 gz: Gazetteer | None = None) -> dict[str, Any]:
    """Per-level correctness, distance and score of ``answer`` against a task's ``goal``. Here ``overall``
    is the city level alone; :func:`check_geolocation` adds what the episode must show."""
    gz = gz or load_gazetteer()
    p = parse_answer(answer, countries, gz)
    notes = list(p.notes)
    table = {**_names_table(tuple(countries or ())), **gz.country_index}
    cont_ok = bool(p.continent) and _continent_named(p.continent, gz) in (
        [goal["continent"], *goal.get("continent_alt", [])])
    country_ok = False
    if p.country:
        named = replace(gz, country_index=table).named_countries(p.country)
        if len(named) > 1:
            notes.append(f"the answer names {len(named)} countries ({', '.join(named[:6])}): name one")
        elif named:
            country_ok = named[0] == goal["country"] or table.get(norm(goal["country"])) == named[0]
            if not p.continent and not _names_continent(answer, gz):  # "Marseille, France" names Europe too
                cont_ok = country_ok or gz.continent_of.get(named[0]) in [goal["continent"],
                                                                         *goal.get("continent_alt", [])]
        else:
            country_ok = norm(p.country) == norm(goal["country"])
    elif p.city and len(hit := gz.named_cities(p.city)) == 1:  # "Marseille" alone names France and Europe too
        country = gz.cities[hit[0]].get("country", "")
        country_ok = country == goal["country"] or table.get(norm(country)) == table.get(norm(goal["country"]), "?")
        if not p.continent and not _names_continent(answer, gz):
            cont_ok = country_ok or gz.continent_of.get(country) in [goal["continent"], *goal.get("continent_alt", [])]
    city_ok, note = judge_city(goal, p, gz)
    if note:
        notes.append(note)
    hedge = hedged(goal, answer, gz, table) if city_ok else ""
    if hedge:  # alternatives must all read as the city (checker version 11)
        city_ok = False
        notes.append(hedge)
    one_city = hit[0] if p.city and len(hit := gz.named_cities(p.city)) == 1 else None
    if city_ok and one_city is not None:
        why = _city_contradicted(p, one_city, replace(gz, country_index=table), table)
        if why:
            city_ok = False
            notes.append(why)
    one_country = named[0] if p.country and len(named := replace(gz, country_index=table).named_countries(
        p.country)) == 1 else None
    why_city, why_country = _coords_contradict(p, gz, one_city, one_country, table)
    if why_city and city_ok:  # the coordinates name another city than the name does (checker version 10)
        city_ok = False
        notes.append(why_city)
    if why_country and country_ok:
        country_ok = False
        notes.append(why_country)
    # the street counts only where a view shows its name: no score is lost to what cannot be observed
    signed = goal.get("street_signed", True)
    street_ok = same_street(p.street, [goal["street"], *goal.get("street_aliases", [])]) if signed else None
    d = None
    if p.lat is not None and p.lng is not None:
        d = round(haversine_km(p.lat, p.lng, goal["lat"], goal["lng"]), 3)
    levels = [cont_ok, country_ok, city_ok] + ([street_ok] if signed else [])
    m: dict[str, Any] = {"continent": bool(cont_ok), "country": bool(country_ok), "city": bool(city_ok),
                         "street": bool(street_ok) if signed else None, "distance_km": d,
                         "geoguessr_score": geoguessr_score(d), "completion": sum(map(bool, levels)) / len(levels), "overall": bool(city_ok), "parsed_answer": p.to_json()}
    if p.error:
        m["answer_error"] = p.error
    if notes:
        m["answer_notes"] = notes
    return m


# --------------------------------------------------------------------------------------------- research
def distinguishing(standpoint: dict[str, Any]) -> list[dict[str, Any]]:
    """The standpoint's distinguishing cues: ``{"cue", "node", "view", "articles", "lookup"}`` each."""
    return list(standpoint.get("distinguishing", []))


@lru_cache(maxsize=1)
def _chain_names() -> frozenset[str]:
    """The names of the hard tier's regional chains."""
    from embodiedweb.worlds.geo.world import load_standpoints

    return frozenset(sp["chain"]["name"] for sp in load_standpoints().values() if sp.get("chain"))


@lru_cache(maxsize=65536)
def _padded(text: str) -> str:
    """:func:`norm` of ``text`` between two spaces (``"  "`` for a text of no word), cached: the checker of a
    shaped-reward loop matches every search of the episode against the cue terms at most steps."""
    return f" {norm(text)} "


def _mentions(query: str, term: str) -> bool:
    t = _padded(term)
    return t != "  " and t in _padded(query)


#: :func:`_other_cue_terms` by (gazetteer id, place, hard tier, its terms): (the gazetteer, the terms)
_OTHER_TERMS: dict[tuple[Any, ...], tuple[Gazetteer, tuple[str, ...]]] = {}


def _other_cue_terms(gz: Gazetteer, here: tuple[Any, Any], hard: bool, terms: tuple[str, ...]) -> tuple[str, ...]:
    """The cue terms of every place but ``here`` (country code, city), each :func:`_padded` (those of no word
    left out): the gazetteer's other cities', and in the hard tier the regional chains other than ``terms``.
    A function of its arguments, cached: a checker in a shaped-reward loop runs at most steps, and the
    gazetteer lists thousands of terms."""
    key = (id(gz), here, hard, terms)
    hit = _OTHER_TERMS.get(key)
    if hit is not None and hit[0] is gz:  # the gazetteer itself is kept, so its id is not another's
        return hit[1]
    others = [t for t, code, city in gz.cue_terms if (code, city) != here]
    if hard:  # the other regional chains are other places' cues too
        others += sorted(_chain_names() - set(terms))
    if len(_OTHER_TERMS) >= 4096:
        _OTHER_TERMS.clear()
    _OTHER_TERMS[key] = (gz, tuple(p for p in map(_padded, others) if p != "  "))
    return _OTHER_TERMS[key][1]


def _looks_up(query: str, mine: list[str], others: tuple[str, ...]) -> bool:
    """Whether a :func:`_padded` query names one of this place's padded cue terms and none of the others'."""
    return any(t in query for t in mine) and not any(t in query for t in others)


def research(standpoint: dict[str, Any], world: dict[str, Any], wiki: dict[str, Any],
             gz: Gazetteer | None = None) -> dict[str, Any]:
    """What the episode shows: distinguishing cues seen, their articles read, searches for them, and the cues
    both seen and researched (``both``: the cue names, e.g. ``["chain"]``).

    A search counts (``searched``, the ``cue_searches`` metric) when its query names a distinguishing cue of
    this place (the brand, the emblem, the dish) and no made-up cue of any other city: one query listing many
    brands is not looking one up. A cue counts for ``both`` when the agent stood at its viewpoint and was
    shown what the cue tells, in either order: its article read, or a search that looks the cue up and a
    results page whose snippet of its article names the city (``told``, :func:`told_by_snippet`; checker
    version 11: a search alone no longer counts, nor a snippet listed for a query naming many cues). Researching a cue of the place that one never saw (found from the city's name, stop 38) is no
    research of what one saw."""
    gz = gz or load_gazetteer()
    cues = distinguishing(standpoint)
    nodes = {c["node"] for c in cues}
    slugs = {a for c in cues for a in c["articles"]}
    terms = [t for c in cues for t in c.get("lookup", [])]
    here = (standpoint.get("country_code"), standpoint.get("city"))
    others = _other_cue_terms(gz, here, standpoint.get("tier") == "hard", tuple(terms))
    seen = sorted({n for n in world.get("visited", []) if n in nodes})
    read = sorted({s for s in (wiki.get("views") or []) if s in slugs})
    mine = [p for p in map(_padded, terms) if p != "  "]
    searched = sorted({q for q in (wiki.get("searches") or []) if _looks_up(_padded(q), mine, others)})
    told = sorted(told_by_snippet(wiki, slugs, standpoint))
    queries = [_padded(q) for q in searched]

    def looked_up(c: dict[str, Any]) -> bool:  # a search of this cue alone (one listing many is no look-up)
        return any(_looks_up(q, [p for p in map(_padded, c.get("lookup", [])) if p != "  "], others) for q in queries)

    both = sorted({c["cue"] for c in cues if c["node"] in seen and (
        set(c["articles"]) & set(read) or set(c["articles"]) & set(told) and looked_up(c))})
    return {"seen": seen, "read": read, "searched": searched, "told": told, "both": both}


def told_by_snippet(wiki: dict[str, Any], slugs: set[str], standpoint: dict[str, Any]) -> set[str]:
    """The articles of ``slugs`` whose snippet on a search results page named the standpoint's city: the
    fact the cue tells ("SVH is the public transport operator of Kyiv"; a regional chain's list of cities),
    read from the wiki site's record of what each results page showed (``shown``: article and snippet text),
    never from the HTML. A snippet that stops before the fact (the chain's "4 cities of 4 countries") tells
    nothing (stop 39: a search of the cue alone counted as research, and the country's best-known city was
    guessed)."""
    city = str(standpoint.get("city") or "")
    out = set()
    for shown in wiki.get("shown") or []:
        slug = shown.get("slug") if isinstance(shown, dict) else None
        if slug in slugs and city and _mentions(str(shown.get("snippet", "")), city):
            out.add(slug)
    return out


def check_geolocation(goal: dict[str, Any], answer: str | None, world: dict[str, Any], web: dict[str, Any],
                      countries: list[str] | None = None, standpoint: dict[str, Any] | None = None) -> dict[str, Any]:
    m = check_answer(goal, answer, countries)
    wiki = web.get("wiki", {}) if isinstance(web, dict) else {}
    wiki = wiki if isinstance(wiki, dict) else {}
    if standpoint is None:
        from embodiedweb.worlds.geo.world import load_standpoints

        standpoint = load_standpoints().get(str(world.get("standpoint")), {})
    r = research(standpoint, world, wiki)
    m["embodied"] = bool(r["seen"])
    m["web"] = bool(r["read"] or r["searched"])
    m["overall"] = bool(m["city"] and r["both"])  # web and embodied of one cue (checker version 10)
    m["distinguishing_viewpoints_seen"] = len(r["seen"])
    m["cue_articles_read"] = r["read"]
    m["cue_searches"] = len(r["searched"])
    m["cues_seen_and_researched"] = len(r["both"])
    m["viewpoints_visited"] = int(world.get("n_visited", 1))
    m["wiki_articles_read"] = len(wiki.get("views", []) or [])
    return m
