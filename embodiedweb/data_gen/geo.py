"""Generate the geolocation data: ``python -m embodiedweb.data_gen.geo``.

Writes, deterministically and from the facts below (written for this project):

- ``data/geo/standpoints.json``: real places (a real street in a real city, lat/lng to about 100 m), each a
  small street graph (the start viewpoint and 2-4 more along the street) whose four views per
  viewpoint (N/E/S/W) carry the cues of the place: driving side, road lines, licence plates, bollards,
  utility poles, vegetation, architecture, the sun's side of the sky, and signs in the local script and
  language; some signs are *hints* (a street-name sign, a hotel named after the city, a phone number
  with its country prefix, a web address with its country domain).
- ``data/geo/tasks.jsonl``: one task per standpoint (``geo-NNN``).
- ``data/wiki/cues.json``: wiki articles on the cues (driving side, writing systems, licence plates,
  road markings, bollards, poles, the sun, codes, words on signs, cities) and one per country.

View sentences never name a country, city, language or script; only hint signs carry names. The wiki
articles describe each cue with the same words a person would use for what they see (e.g. "The rear
licence plate is yellow with black characters"), followed by the countries where it is seen, so that a
reader can go from a view to a short list of countries.
"""

from __future__ import annotations

import json
import math
import random
import re
import unicodedata
from typing import Any

from embodiedweb.paths import data_dir

TROPIC = 23.44

# --------------------------------------------------------------------------------------------- cue phrases
# Sentences a view may contain, and the same wording used by the wiki's cue lists.
TRAFFIC = {"left": "Cars keep to the left side of the road.", "right": "Cars keep to the right side of the road."}
CENTRE = {"white": "A {d} white line runs down the middle of the road.",
          "yellow": "A {d} yellow line runs down the middle of the road."}
EDGE = {"double_yellow": "Two yellow lines run along the kerb.",
        "yellow": "A yellow line runs along the edge of the road."}
PLATE = {
    "white_black": "The licence plate is white with black characters.",
    "rear_yellow": "The rear licence plate is yellow with black characters.",
    "front_white": "The front licence plate is white with black characters.",
    "front_yellow": "The front licence plate is yellow with black characters.",
    "eu": "The licence plate has a blue band with a ring of yellow stars at its left end.",
    "right_blue": "The licence plate has a blue band at its right end.",
    "right_yellow": "The licence plate has a yellow band at its right end.",
    "red_stripes": "The licence plate has red stripes along its top and bottom edges.",
    "two_arms": "The licence plate shows two small coats of arms.",
    "flag_left": "The licence plate has a small flag at its left end.",
    "flag_right": "The licence plate has a small flag at its right end.",
    "blue_letters_left": "The licence plate has a blue band with white letters at its left end.",
    "red_border": "The licence plate has a thin red border.",
    "top_blue": "The licence plate has a blue band across its top.",
    "pale_top": "The licence plate has a pale blue strip along its top edge.",
    "white_green": "The licence plate is white with green characters.",
    "blue_white": "The licence plate is blue with white characters.",
    "black_white": "The licence plate is black with white characters.",
    "white_blue": "The licence plate is white with blue characters.",
    "white_maroon": "The licence plate is white with maroon characters.",
    "rear_only": "Cars carry a licence plate only at the rear.",
    "graphics": "The licence plate has colourful graphics and a slogan.",
    "small_line": "The licence plate has a line of small writing above or below the main characters.",
}
# (background, characters) colours for drawing a plate style
PLATE_COLOURS = {"white_black": ("white", "black"), "rear_yellow": ("yellow", "black"),
                 "front_white": ("white", "black"), "front_yellow": ("yellow", "black"),
                 "white_green": ("white", "green"), "blue_white": ("blue", "white"),
                 "black_white": ("black", "white"), "white_blue": ("white", "blue"),
                 "white_maroon": ("white", "maroon")}
BOLLARD = {"black_band": "Roadside posts are white with a black band near the top.",
           "red_reflector": "Roadside posts are white with a red reflector."}
POLE = {"jp_stripe": "A utility pole's stay wire has a yellow-and-black striped guard.",
        "wood_transformer": "Wooden utility poles carry grey cylindrical transformers.",
        "concrete_holes": "Concrete utility poles have rows of holes.",
        "tangle": "Thick tangles of black cables hang from the utility poles.",
        "plain": "Plain metal lamp posts line the pavement."}
VEG = {"plane": "Plane trees with mottled bark line the street.", "palm": "Palm trees grow beside the road.",
       "birch": "Birch trees with white bark grow nearby.", "conifer": "Dark conifers stand on a hill in the distance.",
       "tropical": "Lush tropical plants with broad leaves grow along the pavement.",
       "cactus": "Cacti and dry shrubs grow in a small bed.", "eucalyptus": "Tall eucalyptus trees stand nearby.",
       "deciduous": "Leafy broadleaf trees line the street.", "none": "There are hardly any trees in sight.",
       "jacaranda": "Jacaranda trees with purple blossom line the street.",
       "bougainvillea": "Bougainvillea with magenta flowers climbs a wall."}
ARCH = {
    "haussmann": "Cream stone apartment buildings with wrought-iron balconies and grey zinc roofs.",
    "brick_terrace": "Rows of red-brick terraced buildings with sash windows.",
    "gabled": "Narrow brick houses with tall gables stand side by side.",
    "baroque": "Ornate pastel-coloured buildings with stucco facades.",
    "plattenbau": "Large concrete apartment blocks with many identical windows.",
    "stone_old": "Old stone buildings with arcades at street level.",
    "tiles": "Building facades are covered with glazed ceramic tiles.",
    "whitewashed": "Low whitewashed buildings with flat roofs.",
    "colonial": "Brightly painted colonial houses with wooden balconies.",
    "glass_towers": "Tall glass office towers rise above the street.",
    "shophouse": "Two-storey shophouses with covered walkways in front.",
    "neon": "Dense buildings are covered with vertical illuminated signs.",
    "wooden": "Wooden houses with painted weatherboards.",
    "soviet": "Grand stone buildings with columns and heavy cornices.",
    "orthodox": "A church with onion-shaped domes is visible in the distance.",
    "mosque": "A minaret rises above the rooftops.",
    "modern_low": "Low modern commercial buildings with large shop windows.",
    "balconies_concrete": "Concrete apartment buildings with enclosed balconies.",
    "ochre": "Ochre and terracotta buildings with green shutters.",
    "red_earth": "Buildings of reddish earth-coloured plaster with flat roofs.",
    "temple": "A temple roof with upswept gilded eaves shows between buildings.",
    "victorian": "Victorian buildings with ornate cast-iron verandas.",
}
SUN = {"south": "The sun stands in this direction, in the southern part of the sky.",
       "north": "The sun stands in this direction, in the northern part of the sky."}

SCRIPT_NAMES = {
    "latin": "Latin alphabet", "cyrillic": "Cyrillic script", "greek": "Greek alphabet",
    "arabic": "Arabic script", "hebrew": "Hebrew alphabet", "devanagari": "Devanagari script",
    "thai": "Thai script", "hangul": "Hangul (the Korean alphabet)",
    "kana": "Hiragana and katakana (the Japanese kana)", "hanzi": "Chinese characters",
    "georgian": "Georgian script", "armenian": "Armenian alphabet", "geez": "Ethiopic (Ge'ez) script",
    "tifinagh": "Tifinagh script", "tamil": "Tamil script",
}

CONTINENTS = ["Africa", "Asia", "Europe", "North America", "Oceania", "South America"]


def C(name: str, code: str, cont: str, capital: str, cap: tuple[float, float], drive: str, langs: list[str],
      scripts: list[str], shop: list[tuple[str, str, str]], street: list[tuple[str, str, str]],
      hotel: tuple[str, str], plates: list[str], centre: str | None, phone: str, tld: str, veg: list[str],
      arch: list[str], **extra: Any) -> dict[str, Any]:
    d = {"name": name, "code": code, "continent": cont, "capital": capital, "capital_ll": list(cap),
         "drive": drive, "languages": langs, "scripts": scripts, "shop": shop, "street_words": street,
         "hotel": hotel, "plates": plates, "centre": centre, "phone": phone, "tld": tld, "veg": veg,
         "arch": arch, "edge": None, "bollard": None, "pole": None, "letters": "", "aliases": [],
         "continent_alt": [], "about": "", "city_names": {}}
    d.update(extra)
    return d


EU = ["white_black", "eu"]
# shop words: (word as written, Latin transliteration or "", meaning); street words likewise
COUNTRIES: list[dict[str, Any]] = [
    C("United Kingdom", "GB", "Europe", "London", (51.507, -0.128), "left", ["English"], ["latin"],
      [("Chemist", "", "pharmacy"), ("Newsagent", "", "shop selling newspapers"), ("Off Licence", "", "shop selling alcohol")],
      [("Street", "", "street"), ("Road", "", "road")], ("Hotel", ""), ["front_white", "rear_yellow"], "white",
      "+44", ".uk", ["deciduous", "plane"], ["brick_terrace", "victorian"], edge="double_yellow",
      aliases=["UK", "Great Britain", "Britain", "England", "Scotland", "U.K."],
      about="a country in north-western Europe made up of England, Scotland, Wales and Northern Ireland"),
    C("Ireland", "IE", "Europe", "Dublin", (53.350, -6.260), "left", ["Irish", "English"], ["latin"],
      [("Cógaslann", "", "pharmacy (Irish)"), ("Pharmacy", "", "pharmacy"), ("Off Licence", "", "shop selling alcohol")],
      [("Sráid", "", "street (Irish)"), ("Street", "", "street")], ("Hotel", ""), EU + ["small_line"], "white",
      "+353", ".ie", ["deciduous"], ["brick_terrace", "gabled"], edge="double_yellow", letters="áéíóú",
      aliases=["Republic of Ireland", "Eire", "Éire"],
      about="an island country in north-western Europe; street signs are bilingual in Irish and English"),
    C("France", "FR", "Europe", "Paris", (48.857, 2.352), "right", ["French"], ["latin"],
      [("Pharmacie", "", "pharmacy"), ("Boulangerie", "", "bakery"), ("Tabac", "", "tobacconist")],
      [("Rue", "", "street"), ("Avenue", "", "avenue")], ("Hôtel", ""), EU + ["right_blue"], "white",
      "+33", ".fr", ["plane"], ["haussmann", "ochre"], letters="éèêçàœ",
      about="a country in western Europe"),
    C("Germany", "DE", "Europe", "Berlin", (52.520, 13.405), "right", ["German"], ["latin"],
      [("Apotheke", "", "pharmacy"), ("Bäckerei", "", "bakery"), ("Metzgerei", "", "butcher's shop")],
      [("Straße", "", "street"), ("Platz", "", "square")], ("Hotel", ""), EU, "white",
      "+49", ".de", ["deciduous", "birch"], ["plattenbau", "gabled"], bollard="black_band", letters="ßäöü",
      about="a country in central Europe"),
    C("Austria", "AT", "Europe", "Vienna", (48.208, 16.373), "right", ["German"], ["latin"],
      [("Apotheke", "", "pharmacy"), ("Bäckerei", "", "bakery"), ("Trafik", "", "tobacconist (Austrian)")],
      [("Gasse", "", "lane"), ("Straße", "", "street")], ("Hotel", ""), EU + ["red_stripes"], "white",
      "+43", ".at", ["deciduous"], ["baroque", "stone_old"], bollard="black_band", letters="ßäöü",
      about="a landlocked country in central Europe"),
    C("Switzerland", "CH", "Europe", "Bern", (46.948, 7.447), "right", ["German", "French", "Italian", "Romansh"],
      ["latin"],
      [("Apotheke", "", "pharmacy"), ("Bäckerei", "", "bakery"), ("Pharmacie", "", "pharmacy (French)")],
      [("Strasse", "", "street, written without ß"), ("Gasse", "", "lane"), ("Rue", "", "street (French)")],
      ("Hotel", ""), ["white_black", "two_arms"], "white", "+41", ".ch", ["conifer", "deciduous"],
      ["stone_old", "baroque"], letters="äöü", about="a landlocked country in central Europe"),
    C("Spain", "ES", "Europe", "Madrid", (40.417, -3.704), "right", ["Spanish", "Catalan", "Galician", "Basque"],
      ["latin"],
      [("Farmacia", "", "pharmacy"), ("Panadería", "", "bakery"), ("Estanco", "", "tobacconist")],
      [("Calle", "", "street"), ("Avenida", "", "avenue")], ("Hotel", ""), EU, "white",
      "+34", ".es", ["plane", "palm"], ["baroque", "balconies_concrete"], letters="ñáéíóú",
      about="a country on the Iberian Peninsula in south-western Europe"),
    C("Portugal", "PT", "Europe", "Lisbon", (38.722, -9.139), "right", ["Portuguese"], ["latin"],
      [("Farmácia", "", "pharmacy"), ("Pastelaria", "", "pastry shop"), ("Talho", "", "butcher's shop")],
      [("Rua", "", "street"), ("Avenida", "", "avenue")], ("Hotel", ""), EU + ["right_yellow"], "white",
      "+351", ".pt", ["palm", "jacaranda"], ["tiles", "ochre"], letters="ãõçáâê",
      about="a country on the Iberian Peninsula in south-western Europe"),
    C("Italy", "IT", "Europe", "Rome", (41.903, 12.496), "right", ["Italian"], ["latin"],
      [("Farmacia", "", "pharmacy"), ("Tabacchi", "", "tobacconist"), ("Gelateria", "", "ice-cream shop")],
      [("Via", "", "street"), ("Corso", "", "main street")], ("Albergo", ""), EU + ["right_blue"], "white",
      "+39", ".it", ["plane", "palm"], ["ochre", "stone_old"], letters="àèéìòù",
      about="a country in southern Europe"),
    C("Netherlands", "NL", "Europe", "Amsterdam", (52.370, 4.895), "right", ["Dutch"], ["latin"],
      [("Apotheek", "", "pharmacy"), ("Bakkerij", "", "bakery"), ("Slagerij", "", "butcher's shop")],
      [("straat", "", "street"), ("gracht", "", "canal")], ("Hotel", ""), ["front_yellow", "rear_yellow", "eu"],
      "white", "+31", ".nl", ["deciduous"], ["gabled", "brick_terrace"], letters="ij",
      aliases=["Holland", "The Netherlands"], about="a low-lying country in north-western Europe"),
    C("Poland", "PL", "Europe", "Warsaw", (52.230, 21.012), "right", ["Polish"], ["latin"],
      [("Apteka", "", "pharmacy"), ("Piekarnia", "", "bakery"), ("Sklep", "", "shop")],
      [("ulica", "", "street, abbreviated ul."), ("Aleje", "", "avenues")], ("Hotel", ""), EU, "white",
      "+48", ".pl", ["birch", "deciduous"], ["plattenbau", "baroque"], letters="łąęśźżćń",
      about="a country in central Europe"),
    C("Czech Republic", "CZ", "Europe", "Prague", (50.076, 14.438), "right", ["Czech"], ["latin"],
      [("Lékárna", "", "pharmacy"), ("Pekárna", "", "bakery"), ("Potraviny", "", "grocery")],
      [("ulice", "", "street"), ("náměstí", "", "square")], ("Hotel", ""), EU, "white",
      "+420", ".cz", ["deciduous"], ["baroque", "stone_old"], letters="řůěščž",
      aliases=["Czechia"], about="a landlocked country in central Europe"),
    C("Hungary", "HU", "Europe", "Budapest", (47.498, 19.040), "right", ["Hungarian"], ["latin"],
      [("Gyógyszertár", "", "pharmacy"), ("Pékség", "", "bakery"), ("Nemzeti Dohánybolt", "", "national tobacco shop")],
      [("utca", "", "street"), ("út", "", "road")], ("Szálloda", ""), EU, "white",
      "+36", ".hu", ["deciduous"], ["baroque", "plattenbau"], pole="concrete_holes", letters="őűáéó",
      about="a landlocked country in central Europe"),
    C("Sweden", "SE", "Europe", "Stockholm", (59.329, 18.069), "right", ["Swedish"], ["latin"],
      [("Apotek", "", "pharmacy"), ("Bageri", "", "bakery"), ("Apoteket", "", "the pharmacy")],
      [("gatan", "", "the street"), ("vägen", "", "the road")], ("Hotell", ""), EU, "white",
      "+46", ".se", ["birch", "conifer"], ["stone_old", "ochre"], letters="åäö",
      about="a country in northern Europe on the Scandinavian Peninsula"),
    C("Norway", "NO", "Europe", "Oslo", (59.914, 10.752), "right", ["Norwegian"], ["latin"],
      [("Apotek", "", "pharmacy"), ("Bakeri", "", "bakery"), ("Kiosk", "", "kiosk")],
      [("gate", "", "street"), ("vei", "", "road")], ("Hotell", ""), ["white_black", "flag_left"], "yellow",
      "+47", ".no", ["conifer", "birch"], ["wooden", "stone_old"], letters="æøå",
      about="a country in northern Europe on the Scandinavian Peninsula"),
    C("Finland", "FI", "Europe", "Helsinki", (60.170, 24.938), "right", ["Finnish", "Swedish"], ["latin"],
      [("Apteekki", "", "pharmacy"), ("Leipomo", "", "bakery"), ("Kauppa", "", "shop")],
      [("katu", "", "street"), ("tie", "", "road")], ("Hotelli", ""), EU, "yellow",
      "+358", ".fi", ["birch", "conifer"], ["stone_old", "plattenbau"], letters="äö",
      about="a country in northern Europe"),
    C("Denmark", "DK", "Europe", "Copenhagen", (55.676, 12.568), "right", ["Danish"], ["latin"],
      [("Apotek", "", "pharmacy"), ("Bageri", "", "bakery"), ("Slagter", "", "butcher")],
      [("gade", "", "street"), ("vej", "", "road")], ("Hotel", ""), EU + ["red_border"], "white",
      "+45", ".dk", ["deciduous"], ["gabled", "ochre"], letters="æøå",
      about="a country in northern Europe"),
    C("Greece", "GR", "Europe", "Athens", (37.984, 23.728), "right", ["Greek"], ["greek"],
      [("Φαρμακείο", "Farmakeio", "pharmacy"), ("Φούρνος", "Fournos", "bakery"), ("Περίπτερο", "Periptero", "kiosk")],
      [("Οδός", "Odos", "street"), ("Λεωφόρος", "Leoforos", "avenue")], ("Ξενοδοχείο", "Xenodocheio"), EU, "white",
      "+30", ".gr", ["palm", "bougainvillea"], ["balconies_concrete", "whitewashed"], letters="ωψξ",
      about="a country in south-eastern Europe"),
    C("Russia", "RU", "Europe", "Moscow", (55.756, 37.617), "right", ["Russian"], ["cyrillic"],
      [("Аптека", "Apteka", "pharmacy"), ("Продукты", "Produkty", "groceries"), ("Булочная", "Bulochnaya", "bakery")],
      [("улица", "ulitsa", "street"), ("проспект", "prospekt", "avenue")], ("Гостиница", "Gostinitsa"),
      ["white_black", "flag_right"], "white", "+7", ".ru", ["birch", "deciduous"], ["soviet", "orthodox"],
      letters="ыэъ", aliases=["Russian Federation"], continent_alt=["Asia"],
      about="a country spanning eastern Europe and northern Asia"),
    C("Ukraine", "UA", "Europe", "Kyiv", (50.450, 30.524), "right", ["Ukrainian"], ["cyrillic"],
      [("Аптека", "Apteka", "pharmacy"), ("Продукти", "Produkty", "groceries"), ("Хліб", "Khlib", "bread")],
      [("вулиця", "vulytsia", "street"), ("проспект", "prospekt", "avenue")], ("Готель", "Hotel"),
      ["white_black", "flag_left"], "white", "+380", ".ua", ["deciduous"], ["soviet", "orthodox"],
      letters="іїєґ", about="a country in eastern Europe"),
    C("Romania", "RO", "Europe", "Bucharest", (44.427, 26.103), "right", ["Romanian"], ["latin"],
      [("Farmacie", "", "pharmacy"), ("Brutărie", "", "bakery"), ("Magazin", "", "shop")],
      [("Strada", "", "street"), ("Bulevardul", "", "the boulevard")], ("Hotel", ""), EU, "white",
      "+40", ".ro", ["deciduous"], ["soviet", "baroque"], pole="concrete_holes", letters="ăâîșț",
      about="a country in south-eastern Europe"),
    C("Bulgaria", "BG", "Europe", "Sofia", (42.698, 23.322), "right", ["Bulgarian"], ["cyrillic"],
      [("Аптека", "Apteka", "pharmacy"), ("Хлебарница", "Hlebarnitsa", "bakery"), ("Магазин", "Magazin", "shop")],
      [("улица", "ulitsa", "street"), ("булевард", "bulevard", "boulevard")], ("Хотел", "Hotel"), EU, "white",
      "+359", ".bg", ["deciduous"], ["soviet", "orthodox"], letters="ъщ",
      about="a country in south-eastern Europe"),
    C("Turkey", "TR", "Asia", "Ankara", (39.933, 32.860), "right", ["Turkish"], ["latin"],
      [("Eczane", "", "pharmacy"), ("Fırın", "", "bakery"), ("Bakkal", "", "grocery")],
      [("Caddesi", "", "avenue"), ("Sokak", "", "street")], ("Otel", ""), ["white_black", "blue_letters_left"],
      "white", "+90", ".tr", ["plane", "palm"], ["balconies_concrete", "mosque"], letters="şğıİçöü",
      aliases=["Türkiye", "Turkiye"], continent_alt=["Europe"],
      about="a country spanning Anatolia in western Asia and East Thrace in south-eastern Europe"),
    C("Georgia", "GE", "Asia", "Tbilisi", (41.716, 44.783), "right", ["Georgian"], ["georgian"],
      [("აფთიაქი", "aptiaki", "pharmacy"), ("პური", "puri", "bread"), ("მაღაზია", "maghazia", "shop")],
      [("ქუჩა", "kucha", "street"), ("გამზირი", "gamziri", "avenue")], ("სასტუმრო", "sastumro"),
      ["white_black", "flag_left"], "white", "+995", ".ge", ["deciduous"], ["soviet", "baroque"],
      continent_alt=["Europe"], about="a country in the South Caucasus, between eastern Europe and western Asia"),
    C("Armenia", "AM", "Asia", "Yerevan", (40.179, 44.499), "right", ["Armenian"], ["armenian"],
      [("Դեղատուն", "deghatun", "pharmacy"), ("Հաց", "hats", "bread"), ("Խանութ", "khanut", "shop")],
      [("փողոց", "poghots", "street"), ("պողոտա", "poghota", "avenue")], ("Հյուրանոց", "hyuranots"),
      ["white_black", "flag_left"], "white", "+374", ".am", ["deciduous"], ["red_earth", "soviet"],
      continent_alt=["Europe"], about="a landlocked country in the South Caucasus"),
    C("Japan", "JP", "Asia", "Tokyo", (35.682, 139.759), "left", ["Japanese"], ["kana", "hanzi"],
      [("薬局", "yakkyoku", "pharmacy"), ("コンビニ", "konbini", "convenience store"), ("パン屋", "pan-ya", "bakery")],
      [("通り", "dori", "street"), ("丁目", "chome", "city block")], ("ホテル", "hoteru"), ["white_green"], "white",
      "+81", ".jp", ["deciduous"], ["neon", "modern_low"], pole="jp_stripe",
      about="an island country in East Asia"),
    C("South Korea", "KR", "Asia", "Seoul", (37.567, 126.978), "right", ["Korean"], ["hangul"],
      [("약국", "yakguk", "pharmacy"), ("편의점", "pyeonuijeom", "convenience store"), ("빵집", "ppangjip", "bakery")],
      [("대로", "daero", "boulevard"), ("길", "gil", "street")], ("호텔", "hotel"), ["white_black"], "yellow",
      "+82", ".kr", ["deciduous"], ["neon", "glass_towers"], aliases=["Korea", "Republic of Korea"],
      about="a country in East Asia on the southern part of the Korean Peninsula"),
    C("China", "CN", "Asia", "Beijing", (39.904, 116.407), "right", ["Chinese (Mandarin)"], ["hanzi"],
      [("药店", "yaodian", "pharmacy"), ("超市", "chaoshi", "supermarket"), ("银行", "yinhang", "bank")],
      [("路", "lu", "road"), ("街", "jie", "street")], ("酒店", "jiudian"), ["blue_white"], "yellow",
      "+86", ".cn", ["deciduous"], ["glass_towers", "temple"], letters="药银门东",
      aliases=["People's Republic of China", "PRC"], about="a country in East Asia"),
    C("Taiwan", "TW", "Asia", "Taipei", (25.033, 121.565), "right", ["Chinese (Mandarin)"], ["hanzi"],
      [("藥局", "yaoju", "pharmacy"), ("便利商店", "bianli shangdian", "convenience store"), ("銀行", "yinhang", "bank")],
      [("路", "lu", "road"), ("街", "jie", "street")], ("飯店", "fandian"), ["white_black"], "yellow",
      "+886", ".tw", ["tropical"], ["shophouse", "neon"], letters="藥銀門東",
      aliases=["Republic of China"], about="an island in East Asia governed as the Republic of China"),
    C("Thailand", "TH", "Asia", "Bangkok", (13.756, 100.502), "left", ["Thai"], ["thai"],
      [("ร้านขายยา", "ran khai ya", "pharmacy"), ("ร้านอาหาร", "ran ahan", "restaurant"), ("ธนาคาร", "thanakhan", "bank")],
      [("ถนน", "thanon", "road"), ("ซอย", "soi", "side street")], ("โรงแรม", "rongraem"),
      ["white_black", "small_line"], None, "+66", ".th", ["tropical", "palm"], ["shophouse", "temple"],
      pole="tangle", about="a country in South-East Asia"),
    C("India", "IN", "Asia", "New Delhi", (28.614, 77.209), "left", ["Hindi", "English"], ["devanagari", "latin"],
      [("दवाखाना", "davakhana", "dispensary"), ("Chemist", "", "pharmacy"), ("Medical Store", "", "pharmacy")],
      [("मार्ग", "marg", "road"), ("Road", "", "road")], ("Hotel", ""), ["white_black"], "white",
      "+91", ".in", ["tropical", "deciduous"], ["red_earth", "colonial"], pole="tangle",
      about="a country in South Asia"),
    C("Indonesia", "ID", "Asia", "Jakarta", (-6.175, 106.827), "left", ["Indonesian"], ["latin"],
      [("Apotek", "", "pharmacy"), ("Toko", "", "shop"), ("Warung", "", "small eatery or shop")],
      [("Jalan", "", "street, abbreviated Jl."), ("Gang", "", "alley")], ("Hotel", ""), ["black_white"], "white",
      "+62", ".id", ["tropical", "palm"], ["shophouse", "modern_low"], about="an archipelago country in South-East Asia"),
    C("Malaysia", "MY", "Asia", "Kuala Lumpur", (3.139, 101.687), "left", ["Malay"], ["latin", "hanzi"],
      [("Farmasi", "", "pharmacy"), ("Kedai", "", "shop"), ("Restoran", "", "restaurant")],
      [("Jalan", "", "street"), ("Lebuh", "", "street (in older towns)")], ("Hotel", ""), ["black_white"], "white",
      "+60", ".my", ["tropical", "palm"], ["shophouse", "glass_towers"], about="a country in South-East Asia"),
    C("Singapore", "SG", "Asia", "Singapore", (1.290, 103.852), "left", ["English", "Malay", "Chinese", "Tamil"],
      ["latin", "hanzi", "tamil"],
      [("Pharmacy", "", "pharmacy"), ("Coffee Shop", "", "coffee shop"), ("Kopitiam", "", "coffee shop")],
      [("Road", "", "road"), ("Street", "", "street")], ("Hotel", ""), ["black_white"], "white",
      "+65", ".sg", ["tropical"], ["shophouse", "glass_towers"], about="a city-state in South-East Asia"),
    C("Philippines", "PH", "Asia", "Manila", (14.599, 120.984), "right", ["Filipino", "English"], ["latin"],
      [("Botika", "", "pharmacy"), ("Sari-sari Store", "", "small neighbourhood shop"), ("Kainan", "", "eatery")],
      [("Avenue", "", "avenue"), ("Street", "", "street")], ("Hotel", ""), ["white_black"], None,
      "+63", ".ph", ["tropical", "palm"], ["modern_low", "colonial"], pole="tangle",
      about="an archipelago country in South-East Asia"),
    C("Vietnam", "VN", "Asia", "Hanoi", (21.028, 105.854), "right", ["Vietnamese"], ["latin"],
      [("Nhà thuốc", "", "pharmacy"), ("Cà phê", "", "coffee"), ("Phở", "", "noodle soup")],
      [("Phố", "", "street"), ("Đường", "", "road")], ("Khách sạn", ""), ["white_black"], None,
      "+84", ".vn", ["tropical"], ["shophouse", "colonial"], pole="tangle", letters="đơưăạảấầẩậếệộờợữ",
      aliases=["Viet Nam"], about="a country in South-East Asia"),
    C("Israel", "IL", "Asia", "Jerusalem", (31.778, 35.235), "right", ["Hebrew", "Arabic"], ["hebrew", "arabic"],
      [("בית מרקחת", "beit merkachat", "pharmacy"), ("מאפייה", "maafiya", "bakery"), ("מכולת", "makolet", "grocery")],
      [("רחוב", "rechov", "street"), ("שדרות", "sderot", "boulevard")], ("מלון", "malon"),
      ["front_yellow", "rear_yellow", "blue_letters_left"], "white", "+972", ".il", ["palm"],
      ["whitewashed", "balconies_concrete"], about="a country in western Asia on the eastern Mediterranean coast"),
    C("United Arab Emirates", "AE", "Asia", "Abu Dhabi", (24.453, 54.377), "right", ["Arabic"], ["arabic", "latin"],
      [("صيدلية", "saydaliyya", "pharmacy"), ("مطعم", "mataam", "restaurant"), ("بقالة", "baqala", "grocery")],
      [("شارع", "shari", "street"), ("Street", "", "street")], ("فندق", "funduq"), ["white_black"], "white",
      "+971", ".ae", ["palm"], ["glass_towers", "mosque"], aliases=["UAE", "Emirates"],
      about="a federation of seven emirates on the Arabian Peninsula"),
    C("South Africa", "ZA", "Africa", "Pretoria", (-25.747, 28.188), "left", ["English", "Afrikaans", "Zulu", "Xhosa"],
      ["latin"],
      [("Pharmacy", "", "pharmacy"), ("Apteek", "", "pharmacy (Afrikaans)"), ("Bottle Store", "", "shop selling alcohol")],
      [("Street", "", "street"), ("Straat", "", "street (Afrikaans)")], ("Hotel", ""), ["white_black"], "white",
      "+27", ".za", ["jacaranda", "palm"], ["victorian", "modern_low"], edge="yellow",
      about="the southernmost country of Africa; Pretoria is the executive capital, Cape Town the legislative one"),
    C("Kenya", "KE", "Africa", "Nairobi", (-1.286, 36.817), "left", ["Swahili", "English"], ["latin"],
      [("Chemist", "", "pharmacy"), ("Duka la Dawa", "", "pharmacy (Swahili)"), ("Hoteli", "", "eatery (Swahili)")],
      [("Avenue", "", "avenue"), ("Street", "", "street")], ("Hotel", ""), ["front_white", "rear_yellow"], "white",
      "+254", ".ke", ["jacaranda", "tropical"], ["modern_low", "colonial"], about="a country in East Africa"),
    C("Nigeria", "NG", "Africa", "Abuja", (9.076, 7.399), "right", ["English", "Hausa", "Yoruba", "Igbo"], ["latin"],
      [("Pharmacy", "", "pharmacy"), ("Buka", "", "roadside eatery"), ("Chemist", "", "pharmacy")],
      [("Street", "", "street"), ("Way", "", "road")], ("Hotel", ""), ["white_blue"], "white",
      "+234", ".ng", ["palm", "tropical"], ["modern_low", "red_earth"], about="a country in West Africa"),
    C("Ghana", "GH", "Africa", "Accra", (5.603, -0.187), "right", ["English", "Akan"], ["latin"],
      [("Pharmacy", "", "pharmacy"), ("Chop Bar", "", "local eatery"), ("Chemical Seller", "", "licensed medicine shop")],
      [("Street", "", "street"), ("Road", "", "road")], ("Hotel", ""), ["white_black"], "white",
      "+233", ".gh", ["palm", "tropical"], ["modern_low", "red_earth"], about="a country in West Africa"),
    C("Egypt", "EG", "Africa", "Cairo", (30.044, 31.236), "right", ["Arabic"], ["arabic"],
      [("صيدلية", "saydaliyya", "pharmacy"), ("مخبز", "makhbaz", "bakery"), ("مطعم", "mataam", "restaurant")],
      [("شارع", "shari", "street"), ("ميدان", "midan", "square")], ("فندق", "funduq"), ["white_black", "pale_top"],
      "white", "+20", ".eg", ["palm"], ["soviet", "mosque"], about="a country in north-eastern Africa"),
    C("Morocco", "MA", "Africa", "Rabat", (34.020, -6.841), "right", ["Arabic", "Berber (Tamazight)", "French"],
      ["arabic", "latin", "tifinagh"],
      [("Pharmacie", "", "pharmacy (French)"), ("صيدلية", "saydaliyya", "pharmacy"), ("ⵜⴰⵙⴷⵍⵉⵜ", "tasdlit", "pharmacy (Tamazight)")],
      [("Avenue", "", "avenue"), ("زنقة", "zanqa", "street (Moroccan)")], ("Hôtel", ""), ["white_black"], "white",
      "+212", ".ma", ["palm", "cactus"], ["red_earth", "mosque"], about="a country in north-western Africa"),
    C("Tunisia", "TN", "Africa", "Tunis", (36.806, 10.181), "right", ["Arabic", "French"], ["arabic", "latin"],
      [("Pharmacie", "", "pharmacy (French)"), ("صيدلية", "saydaliyya", "pharmacy"), ("Pâtisserie", "", "pastry shop")],
      [("Avenue", "", "avenue"), ("نهج", "nahj", "street (Tunisian)")], ("Hôtel", ""), ["black_white"], "white",
      "+216", ".tn", ["palm"], ["whitewashed", "colonial"], about="a country in northern Africa"),
    C("Senegal", "SN", "Africa", "Dakar", (14.716, -17.467), "right", ["French", "Wolof"], ["latin"],
      [("Pharmacie", "", "pharmacy"), ("Boutique", "", "small shop"), ("Dibiterie", "", "grilled-meat eatery")],
      [("Avenue", "", "avenue"), ("Rue", "", "street")], ("Hôtel", ""), ["white_black"], "white",
      "+221", ".sn", ["palm", "bougainvillea"], ["modern_low", "colonial"], about="a country in West Africa"),
    C("Ethiopia", "ET", "Africa", "Addis Ababa", (9.030, 38.740), "right", ["Amharic"], ["geez"],
      [("ፋርማሲ", "farmasi", "pharmacy"), ("ሱቅ", "suq", "shop"), ("ካፌ", "kafe", "cafe")],
      [("መንገድ", "menged", "road"), ("ጎዳና", "godana", "avenue")], ("ሆቴል", "hotel"), [], "white",
      "+251", ".et", ["eucalyptus"], ["modern_low", "red_earth"], about="a landlocked country in the Horn of Africa"),
    C("United States", "US", "North America", "Washington, D.C.", (38.907, -77.037), "right", ["English"], ["latin"],
      [("Pharmacy", "", "pharmacy"), ("Drugstore", "", "pharmacy"), ("Deli", "", "delicatessen")],
      [("Street", "", "street"), ("Avenue", "", "avenue"), ("Boulevard", "", "boulevard")], ("Hotel", ""),
      ["graphics"], "yellow", "+1", ".us", ["deciduous", "palm"], ["glass_towers", "brick_terrace"],
      pole="wood_transformer",
      aliases=["USA", "US", "U.S.", "U.S.A.", "United States of America", "America"],
      about="a country in North America"),
    C("Canada", "CA", "North America", "Ottawa", (45.421, -75.697), "right", ["English", "French"], ["latin"],
      [("Pharmacy", "", "pharmacy"), ("Pharmacie", "", "pharmacy (French)"), ("Dépanneur", "", "corner shop (Quebec)")],
      [("Street", "", "street"), ("Rue", "", "street (French)")], ("Hotel", ""), ["white_blue"], "yellow",
      "+1", ".ca", ["deciduous", "conifer"], ["brick_terrace", "glass_towers"], pole="wood_transformer",
      about="a country in North America"),
    C("Mexico", "MX", "North America", "Mexico City", (19.433, -99.133), "right", ["Spanish"], ["latin"],
      [("Farmacia", "", "pharmacy"), ("Abarrotes", "", "grocery"), ("Tortillería", "", "tortilla shop")],
      [("Calle", "", "street"), ("Avenida", "", "avenue")], ("Hotel", ""), ["graphics"], "yellow",
      "+52", ".mx", ["jacaranda", "cactus"], ["colonial", "modern_low"], letters="ñáéíóú",
      about="a country in the south of North America"),
    C("Costa Rica", "CR", "North America", "San José", (9.928, -84.091), "right", ["Spanish"], ["latin"],
      [("Farmacia", "", "pharmacy"), ("Soda", "", "small local eatery"), ("Pulpería", "", "corner shop")],
      [("Avenida", "", "avenue"), ("Calle", "", "street")], ("Hotel", ""), ["white_blue"], "yellow",
      "+506", ".cr", ["tropical", "palm"], ["modern_low", "colonial"], letters="ñáéíóú",
      continent_alt=["Central America"], about="a country in Central America"),
    C("Brazil", "BR", "South America", "Brasília", (-15.794, -47.882), "right", ["Portuguese"], ["latin"],
      [("Farmácia", "", "pharmacy"), ("Padaria", "", "bakery"), ("Lanchonete", "", "snack bar")],
      [("Rua", "", "street"), ("Avenida", "", "avenue")], ("Hotel", ""), ["white_black", "top_blue"], "yellow",
      "+55", ".br", ["palm", "tropical"], ["balconies_concrete", "glass_towers"], letters="ãõçáâê",
      about="the largest country in South America"),
    C("Argentina", "AR", "South America", "Buenos Aires", (-34.604, -58.382), "right", ["Spanish"], ["latin"],
      [("Farmacia", "", "pharmacy"), ("Kiosco", "", "kiosk"), ("Parrilla", "", "grill restaurant")],
      [("Avenida", "", "avenue"), ("Calle", "", "street")], ("Hotel", ""), ["white_black", "top_blue"], None,
      "+54", ".ar", ["plane", "jacaranda"], ["haussmann", "balconies_concrete"], letters="ñáéíóú",
      about="a country in the south of South America"),
    C("Chile", "CL", "South America", "Santiago", (-33.449, -70.669), "right", ["Spanish"], ["latin"],
      [("Farmacia", "", "pharmacy"), ("Botillería", "", "shop selling alcohol (Chilean)"), ("Panadería", "", "bakery")],
      [("Avenida", "", "avenue"), ("Calle", "", "street")], ("Hotel", ""), ["white_black"], None,
      "+56", ".cl", ["palm", "plane"], ["colonial", "balconies_concrete"], letters="ñáéíóú",
      about="a long, narrow country along the west coast of South America"),
    C("Colombia", "CO", "South America", "Bogotá", (4.711, -74.072), "right", ["Spanish"], ["latin"],
      [("Droguería", "", "pharmacy (Colombian)"), ("Panadería", "", "bakery"), ("Tienda", "", "shop")],
      [("Carrera", "", "street running roughly north-south"), ("Calle", "", "street")], ("Hotel", ""),
      ["front_yellow", "rear_yellow"], "yellow", "+57", ".co", ["tropical", "palm"], ["colonial", "red_earth"],
      letters="ñáéíóú", about="a country in the north-west of South America"),
    C("Peru", "PE", "South America", "Lima", (-12.046, -77.043), "right", ["Spanish", "Quechua"], ["latin"],
      [("Botica", "", "pharmacy"), ("Pollería", "", "roast-chicken restaurant"), ("Farmacia", "", "pharmacy")],
      [("Jirón", "", "street (Peruvian)"), ("Avenida", "", "avenue")], ("Hotel", ""), ["white_black", "top_blue"],
      "yellow", "+51", ".pe", ["palm", "cactus"], ["colonial", "red_earth"], letters="ñáéíóú",
      about="a country in western South America"),
    C("Uruguay", "UY", "South America", "Montevideo", (-34.901, -56.164), "right", ["Spanish"], ["latin"],
      [("Farmacia", "", "pharmacy"), ("Panadería", "", "bakery"), ("Autoservice", "", "small supermarket")],
      [("Avenida", "", "avenue"), ("Calle", "", "street")], ("Hotel", ""), ["white_black", "top_blue"], None,
      "+598", ".uy", ["plane", "palm"], ["haussmann", "balconies_concrete"], letters="ñáéíóú",
      about="a country in the south-east of South America"),
    C("Australia", "AU", "Oceania", "Canberra", (-35.281, 149.130), "left", ["English"], ["latin"],
      [("Chemist", "", "pharmacy"), ("Bottle Shop", "", "shop selling alcohol"), ("Pharmacy", "", "pharmacy")],
      [("Street", "", "street"), ("Road", "", "road")], ("Hotel", ""), ["graphics"], "white",
      "+61", ".au", ["eucalyptus", "palm"], ["victorian", "glass_towers"], bollard="red_reflector",
      about="a country made up of the mainland of the Australian continent, Tasmania and smaller islands"),
    C("New Zealand", "NZ", "Oceania", "Wellington", (-41.286, 174.776), "left", ["English", "Māori"], ["latin"],
      [("Pharmacy", "", "pharmacy"), ("Dairy", "", "corner shop"), ("Kia Ora", "", "hello (Māori greeting)")],
      [("Street", "", "street"), ("Quay", "", "waterfront street")], ("Hotel", ""), ["white_black"], "white",
      "+64", ".nz", ["conifer", "deciduous"], ["wooden", "victorian"], letters="āēīōū",
      aliases=["Aotearoa"], about="an island country in the south-western Pacific Ocean"),
]
BY_CODE = {c["code"]: c for c in COUNTRIES}

# Standpoints: (country code, city, street, street as signed locally, lat, lng, street axis "NS"/"EW",
# city name as written locally (for hints, "" = same), overrides)
SPOTS: list[tuple[Any, ...]] = [
    ("GB", "London", "Oxford Street", "Oxford Street", 51.5152, -0.1418, "EW", "", {}),
    ("GB", "Manchester", "Deansgate", "Deansgate", 53.4794, -2.2494, "NS", "", {}),
    ("GB", "Edinburgh", "Princes Street", "Princes Street", 55.9520, -3.1960, "EW", "", {}),
    ("GB", "Liverpool", "Bold Street", "Bold Street", 53.4029, -2.9800, "EW", "", {}),
    ("IE", "Dublin", "Grafton Street", "Sráid Grafton / Grafton Street", 53.3414, -6.2601, "NS", "Baile Átha Cliath", {}),
    ("IE", "Cork", "St Patrick's Street", "Sráid Phádraig / St Patrick's Street", 51.8985, -8.4728, "EW", "Corcaigh", {}),
    ("IE", "Galway", "Shop Street", "Sráid an tSiopa / Shop Street", 53.2726, -9.0522, "NS", "Gaillimh", {}),
    ("FR", "Paris", "Rue de Rivoli", "Rue de Rivoli", 48.8606, 2.3376, "EW", "", {}),
    ("FR", "Lyon", "Rue de la République", "Rue de la République", 45.7620, 4.8360, "NS", "", {}),
    ("FR", "Marseille", "La Canebière", "La Canebière", 43.2973, 5.3800, "EW", "", {"veg": ["palm", "plane"]}),
    ("FR", "Bordeaux", "Rue Sainte-Catherine", "Rue Sainte-Catherine", 44.8393, -0.5737, "NS", "", {}),
    ("DE", "Berlin", "Friedrichstraße", "Friedrichstraße", 52.5170, 13.3889, "NS", "", {}),
    ("DE", "Munich", "Kaufingerstraße", "Kaufingerstraße", 48.1375, 11.5710, "EW", "München", {}),
    ("DE", "Hamburg", "Mönckebergstraße", "Mönckebergstraße", 53.5505, 10.0000, "EW", "", {}),
    ("DE", "Cologne", "Hohe Straße", "Hohe Straße", 50.9380, 6.9570, "NS", "Köln", {}),
    ("AT", "Vienna", "Kärntner Straße", "Kärntner Straße", 48.2050, 16.3710, "NS", "Wien", {}),
    ("AT", "Graz", "Herrengasse", "Herrengasse", 47.0705, 15.4385, "NS", "", {}),
    ("AT", "Salzburg", "Getreidegasse", "Getreidegasse", 47.8000, 13.0430, "EW", "", {}),
    ("CH", "Zurich", "Bahnhofstrasse", "Bahnhofstrasse", 47.3720, 8.5390, "NS", "Zürich", {}),
    ("CH", "Geneva", "Rue du Rhône", "Rue du Rhône", 46.2030, 6.1480, "EW", "Genève",
     {"shop": [("Pharmacie", "", "pharmacy (French)"), ("Boulangerie", "", "bakery (French)")], "hotel": ("Hôtel", "")}),
    ("CH", "Bern", "Marktgasse", "Marktgasse", 46.9480, 7.4440, "EW", "", {}),
    ("ES", "Madrid", "Gran Vía", "Gran Vía", 40.4200, -3.7050, "EW", "", {}),
    ("ES", "Barcelona", "Passeig de Gràcia", "Passeig de Gràcia", 41.3915, 2.1650, "NS", "",
     {"shop": [("Farmàcia", "", "pharmacy (Catalan)"), ("Forn de Pa", "", "bakery (Catalan)")]}),
    ("ES", "Seville", "Calle Sierpes", "Calle Sierpes", 37.3920, -5.9945, "NS", "Sevilla", {}),
    ("ES", "Valencia", "Calle de Colón", "Calle de Colón / Carrer de Colom", 39.4705, -0.3720, "EW", "", {}),
    ("PT", "Lisbon", "Rua Augusta", "Rua Augusta", 38.7100, -9.1375, "NS", "Lisboa", {}),
    ("PT", "Porto", "Rua de Santa Catarina", "Rua de Santa Catarina", 41.1490, -8.6060, "NS", "", {}),
    ("PT", "Coimbra", "Rua Ferreira Borges", "Rua Ferreira Borges", 40.2095, -8.4295, "NS", "", {}),
    ("IT", "Rome", "Via del Corso", "Via del Corso", 41.9005, 12.4815, "NS", "Roma", {}),
    ("IT", "Milan", "Via Dante", "Via Dante", 45.4660, 9.1855, "EW", "Milano", {}),
    ("IT", "Naples", "Via Toledo", "Via Toledo", 40.8420, 14.2490, "NS", "Napoli", {}),
    ("IT", "Florence", "Via dei Calzaiuoli", "Via dei Calzaiuoli", 43.7715, 11.2550, "NS", "Firenze", {}),
    ("NL", "Amsterdam", "Kalverstraat", "Kalverstraat", 52.3700, 4.8915, "NS", "", {}),
    ("NL", "Rotterdam", "Coolsingel", "Coolsingel", 51.9205, 4.4780, "NS", "", {}),
    ("NL", "Utrecht", "Oudegracht", "Oudegracht", 52.0905, 5.1215, "NS", "", {}),
    ("PL", "Warsaw", "Nowy Świat", "ul. Nowy Świat", 52.2330, 21.0185, "NS", "Warszawa", {}),
    ("PL", "Kraków", "Floriańska Street", "ul. Floriańska", 50.0635, 19.9395, "NS", "", {}),
    ("PL", "Gdańsk", "Długa Street", "ul. Długa", 54.3490, 18.6510, "EW", "", {}),
    ("CZ", "Prague", "Národní", "Národní", 50.0815, 14.4180, "EW", "Praha", {}),
    ("CZ", "Prague", "Na Příkopě", "Na Příkopě", 50.0855, 14.4240, "EW", "Praha", {}),
    ("CZ", "Brno", "Masarykova", "Masarykova", 49.1935, 16.6110, "NS", "", {}),
    ("HU", "Budapest", "Váci utca", "Váci utca", 47.4935, 19.0530, "NS", "", {}),
    ("HU", "Debrecen", "Piac utca", "Piac utca", 47.5300, 21.6260, "NS", "", {}),
    ("HU", "Szeged", "Kárász utca", "Kárász utca", 46.2530, 20.1480, "NS", "", {}),
    ("SE", "Stockholm", "Drottninggatan", "Drottninggatan", 59.3335, 18.0620, "NS", "", {}),
    ("SE", "Gothenburg", "Kungsgatan", "Kungsgatan", 57.7050, 11.9650, "EW", "Göteborg", {}),
    ("SE", "Malmö", "Södergatan", "Södergatan", 55.6040, 13.0010, "NS", "", {}),
    ("NO", "Oslo", "Karl Johans gate", "Karl Johans gate", 59.9130, 10.7400, "EW", "", {}),
    ("NO", "Bergen", "Torgallmenningen", "Torgallmenningen", 60.3930, 5.3240, "EW", "", {}),
    ("NO", "Trondheim", "Nordre gate", "Nordre gate", 63.4320, 10.3960, "NS", "", {}),
    ("FI", "Helsinki", "Aleksanterinkatu", "Aleksanterinkatu / Alexandersgatan", 60.1690, 24.9465, "EW", "", {}),
    ("FI", "Tampere", "Hämeenkatu", "Hämeenkatu", 61.4980, 23.7620, "EW", "", {}),
    ("FI", "Turku", "Yliopistonkatu", "Yliopistonkatu / Universitetsgatan", 60.4515, 22.2670, "EW", "", {}),
    ("DK", "Copenhagen", "Frederiksberggade", "Frederiksberggade", 55.6775, 12.5710, "EW", "København", {}),
    ("DK", "Aarhus", "Søndergade", "Søndergade", 56.1545, 10.2070, "NS", "", {}),
    ("GR", "Athens", "Ermou Street", "Οδός Ερμού|Odos Ermou", 37.9760, 23.7300, "EW", "Αθήνα|Athina", {}),
    ("GR", "Thessaloniki", "Tsimiski Street", "Οδός Τσιμισκή|Odos Tsimiski", 40.6320, 22.9450, "EW",
     "Θεσσαλονίκη|Thessaloniki", {}),
    ("GR", "Heraklion", "25th August Street", "Οδός 25ης Αυγούστου|Odos 25is Avgoustou", 35.3400, 25.1335, "NS",
     "Ηράκλειο|Irakleio", {}),
    ("RU", "Moscow", "Tverskaya Street", "Тверская улица|Tverskaya ulitsa", 55.7620, 37.6080, "NS", "Москва|Moskva", {}),
    ("RU", "Saint Petersburg", "Nevsky Prospekt", "Невский проспект|Nevsky prospekt", 59.9345, 30.3350, "EW",
     "Санкт-Петербург|Sankt-Peterburg", {}),
    ("RU", "Kazan", "Bauman Street", "улица Баумана|ulitsa Baumana", 55.7895, 49.1165, "NS", "Казань|Kazan", {}),
    ("RU", "Novosibirsk", "Krasny Prospekt", "Красный проспект|Krasny prospekt", 55.0300, 82.9200, "NS",
     "Новосибирск|Novosibirsk", {"continent": "Asia"}),
    ("UA", "Kyiv", "Khreshchatyk", "вулиця Хрещатик|vulytsia Khreshchatyk", 50.4475, 30.5215, "NS", "Київ|Kyiv", {}),
    ("UA", "Lviv", "Svobody Avenue", "проспект Свободи|prospekt Svobody", 49.8425, 24.0275, "NS", "Львів|Lviv", {}),
    ("UA", "Odesa", "Derybasivska Street", "вулиця Дерибасівська|vulytsia Derybasivska", 46.4840, 30.7360, "EW",
     "Одеса|Odesa", {}),
    ("RO", "Bucharest", "Calea Victoriei", "Calea Victoriei", 44.4380, 26.0970, "NS", "București", {}),
    ("RO", "Cluj-Napoca", "Bulevardul Eroilor", "Bulevardul Eroilor", 46.7700, 23.5920, "EW", "", {}),
    ("BG", "Sofia", "Vitosha Boulevard", "бул. Витоша|bul. Vitosha", 42.6935, 23.3210, "NS", "София|Sofia", {}),
    ("BG", "Plovdiv", "Knyaz Alexander I Street", "ул. Княз Александър I|ul. Knyaz Aleksandar I", 42.1470, 24.7490,
     "NS", "Пловдив|Plovdiv", {}),
    ("TR", "Istanbul", "İstiklal Caddesi", "İstiklal Caddesi", 41.0340, 28.9780, "NS", "İstanbul",
     {"continent": "Europe", "continent_alt": ["Asia"]}),
    ("TR", "Ankara", "Atatürk Bulvarı", "Atatürk Bulvarı", 39.9200, 32.8540, "NS", "", {}),
    ("TR", "İzmir", "Kıbrıs Şehitleri Caddesi", "Kıbrıs Şehitleri Caddesi", 38.4330, 27.1430, "NS", "", {}),
    ("GE", "Tbilisi", "Rustaveli Avenue", "რუსთაველის გამზირი|Rustavelis gamziri", 41.6990, 44.7980, "NS",
     "თბილისი|Tbilisi", {}),
    ("GE", "Tbilisi", "Aghmashenebeli Avenue", "აღმაშენებლის გამზირი|Aghmaseneblis gamziri", 41.7100, 44.8010,
     "NS", "თბილისი|Tbilisi", {}),
    ("AM", "Yerevan", "Abovyan Street", "Աբովյան փողոց|Abovyan poghots", 40.1830, 44.5185, "NS", "Երևան|Yerevan", {}),
    ("AM", "Yerevan", "Mashtots Avenue", "Մաշտոցի պողոտա|Mashtotsi poghota", 40.1850, 44.5110, "NS",
     "Երևան|Yerevan", {}),
    ("JP", "Tokyo", "Chuo-dori", "中央通り|Chuo-dori", 35.6715, 139.7650, "NS", "東京|Tokyo", {}),
    ("JP", "Osaka", "Midosuji", "御堂筋|Midosuji", 34.6930, 135.5010, "NS", "大阪|Osaka", {}),
    ("JP", "Kyoto", "Shijo-dori", "四条通|Shijo-dori", 35.0035, 135.7640, "EW", "京都|Kyoto", {}),
    ("KR", "Seoul", "Sejong-daero", "세종대로|Sejong-daero", 37.5715, 126.9770, "NS", "서울|Seoul", {}),
    ("KR", "Busan", "Jungang-daero", "중앙대로|Jungang-daero", 35.1040, 129.0360, "NS", "부산|Busan", {}),
    ("KR", "Daegu", "Dongseong-ro", "동성로|Dongseong-ro", 35.8695, 128.5960, "NS", "대구|Daegu", {}),
    ("CN", "Beijing", "Wangfujing Street", "王府井大街|Wangfujing Dajie", 39.9140, 116.4110, "NS", "北京|Beijing", {}),
    ("CN", "Shanghai", "Nanjing Road East", "南京东路|Nanjing Donglu", 31.2370, 121.4800, "EW", "上海|Shanghai", {}),
    ("CN", "Guangzhou", "Shangxiajiu Road", "上下九路|Shangxiajiu Lu", 23.1190, 113.2460, "EW", "广州|Guangzhou", {}),
    ("CN", "Chengdu", "Chunxi Road", "春熙路|Chunxi Lu", 30.6560, 104.0800, "EW", "成都|Chengdu", {}),
    ("TW", "Taipei", "Zhongxiao East Road", "忠孝東路|Zhongxiao Donglu", 25.0415, 121.5440, "EW", "台北|Taipei", {}),
    ("TW", "Kaohsiung", "Zhongshan 1st Road", "中山一路|Zhongshan Yilu", 22.6300, 120.3020, "NS", "高雄|Kaohsiung", {}),
    ("TH", "Bangkok", "Sukhumvit Road", "ถนนสุขุมวิท|Thanon Sukhumvit", 13.7380, 100.5600, "EW",
     "กรุงเทพ|Krung Thep", {}),
    ("TH", "Chiang Mai", "Tha Phae Road", "ถนนท่าแพ|Thanon Tha Phae", 18.7880, 98.9930, "EW", "เชียงใหม่|Chiang Mai", {}),
    ("TH", "Phuket", "Thalang Road", "ถนนถลาง|Thanon Thalang", 7.8850, 98.3880, "EW", "ภูเก็ต|Phuket", {}),
    ("IN", "New Delhi", "Janpath", "जनपथ / Janpath|Janpath", 28.6250, 77.2190, "NS", "", {}),
    ("IN", "Mumbai", "Colaba Causeway", "Colaba Causeway", 18.9160, 72.8310, "NS", "", {}),
    ("IN", "Jaipur", "MI Road", "एम आई रोड / M.I. Road|M.I. Road", 26.9160, 75.8050, "EW", "", {}),
    ("ID", "Jakarta", "Jalan M.H. Thamrin", "Jl. M.H. Thamrin", -6.1930, 106.8230, "NS", "", {}),
    ("ID", "Yogyakarta", "Jalan Malioboro", "Jl. Malioboro", -7.7930, 110.3660, "NS", "", {}),
    ("ID", "Bandung", "Jalan Braga", "Jl. Braga", -6.9170, 107.6095, "NS", "", {}),
    ("ID", "Denpasar", "Jalan Gajah Mada", "Jl. Gajah Mada", -8.6565, 115.2140, "EW", "", {}),
    ("MY", "Kuala Lumpur", "Jalan Bukit Bintang", "Jalan Bukit Bintang", 3.1470, 101.7110, "EW", "", {}),
    ("MY", "George Town", "Lebuh Chulia", "Lebuh Chulia", 5.4170, 100.3370, "EW", "", {}),
    ("MY", "Malacca", "Jalan Hang Jebat", "Jalan Hang Jebat", 2.1955, 102.2470, "EW", "Melaka", {}),
    ("SG", "Singapore", "Orchard Road", "Orchard Road", 1.3040, 103.8320, "EW", "", {}),
    ("SG", "Singapore", "North Bridge Road", "North Bridge Road", 1.2990, 103.8550, "NS", "", {}),
    ("PH", "Makati", "Ayala Avenue", "Ayala Avenue", 14.5560, 121.0230, "NS", "", {}),
    ("PH", "Manila", "Taft Avenue", "Taft Avenue", 14.5810, 120.9840, "NS", "Maynila", {}),
    ("PH", "Cebu City", "Colon Street", "Colon Street", 10.2960, 123.8985, "EW", "Cebu", {}),
    ("VN", "Hanoi", "Hàng Gai Street", "Phố Hàng Gai", 21.0320, 105.8500, "EW", "Hà Nội", {}),
    ("VN", "Ho Chi Minh City", "Đồng Khởi Street", "Đường Đồng Khởi", 10.7760, 106.7030, "NS", "Sài Gòn", {}),
    ("VN", "Da Nang", "Bạch Đằng Street", "Đường Bạch Đằng", 16.0700, 108.2240, "NS", "Đà Nẵng", {}),
    ("IL", "Tel Aviv", "Dizengoff Street", "רחוב דיזנגוף|Rechov Dizengoff", 32.0780, 34.7740, "NS",
     "תל אביב|Tel Aviv", {}),
    ("IL", "Jerusalem", "Jaffa Road", "רחוב יפו|Rechov Yafo", 31.7825, 35.2180, "EW", "ירושלים|Yerushalayim", {}),
    ("IL", "Haifa", "Ben Gurion Boulevard", "שדרות בן גוריון|Sderot Ben Gurion", 32.8190, 34.9890, "NS",
     "חיפה|Haifa", {}),
    ("AE", "Dubai", "Al Rigga Road", "شارع الرقة / Al Rigga Road|Al Rigga Road", 25.2650, 55.3200, "NS",
     "دبي|Dubai", {}),
    ("AE", "Abu Dhabi", "Hamdan Street", "شارع حمدان / Hamdan Street|Hamdan Street", 24.4915, 54.3690, "EW",
     "أبوظبي|Abu Dhabi", {}),
    ("ZA", "Cape Town", "Long Street", "Long Street", -33.9230, 18.4180, "NS", "Kaapstad", {}),
    ("ZA", "Johannesburg", "Commissioner Street", "Commissioner Street", -26.2050, 28.0450, "EW", "", {}),
    ("ZA", "Durban", "Florida Road", "Florida Road", -29.8350, 31.0110, "NS", "", {}),
    ("ZA", "Pretoria", "Pretorius Street", "Pretorius Street", -25.7470, 28.1960, "EW", "", {}),
    ("KE", "Nairobi", "Kenyatta Avenue", "Kenyatta Avenue", -1.2850, 36.8210, "EW", "", {}),
    ("KE", "Mombasa", "Moi Avenue", "Moi Avenue", -4.0610, 39.6700, "NS", "", {}),
    ("KE", "Kisumu", "Oginga Odinga Street", "Oginga Odinga Street", -0.1020, 34.7530, "EW", "", {}),
    ("NG", "Lagos", "Broad Street", "Broad Street", 6.4530, 3.3890, "EW", "", {}),
    ("NG", "Abuja", "Ahmadu Bello Way", "Ahmadu Bello Way", 9.0570, 7.4890, "NS", "", {}),
    ("GH", "Accra", "Oxford Street", "Oxford Street", 5.5560, -0.1810, "NS", "", {}),
    ("GH", "Accra", "Independence Avenue", "Independence Avenue", 5.5700, -0.1950, "NS", "", {}),
    ("EG", "Cairo", "Talaat Harb Street", "شارع طلعت حرب|Shari Talaat Harb", 30.0480, 31.2390, "NS",
     "القاهرة|al-Qahira", {}),
    ("EG", "Cairo", "Qasr El Nil Street", "شارع قصر النيل|Shari Qasr al-Nil", 30.0490, 31.2420, "EW",
     "القاهرة|al-Qahira", {}),
    ("EG", "Alexandria", "Fouad Street", "شارع فؤاد|Shari Fuad", 31.1980, 29.9000, "EW",
     "الإسكندرية|al-Iskandariya", {}),
    ("MA", "Casablanca", "Boulevard Mohammed V", "Boulevard Mohammed V", 33.5960, -7.6150, "EW", "", {}),
    ("MA", "Rabat", "Avenue Mohammed V", "Avenue Mohammed V", 34.0180, -6.8360, "NS", "", {}),
    ("MA", "Marrakesh", "Avenue Mohammed V", "Avenue Mohammed V", 31.6340, -8.0080, "NS", "Marrakech", {}),
    ("TN", "Tunis", "Avenue Habib Bourguiba", "Avenue Habib Bourguiba", 36.8000, 10.1860, "EW", "", {}),
    ("TN", "Sousse", "Avenue Habib Bourguiba", "Avenue Habib Bourguiba", 35.8280, 10.6380, "NS", "", {}),
    ("SN", "Dakar", "Avenue Georges Pompidou", "Avenue Georges Pompidou", 14.6720, -17.4340, "EW", "", {}),
    ("SN", "Dakar", "Avenue Léopold Sédar Senghor", "Avenue Léopold Sédar Senghor", 14.6690, -17.4330, "NS", "", {}),
    ("ET", "Addis Ababa", "Churchill Avenue", "ቸርችል ጎዳና / Churchill Avenue|Churchill Avenue", 9.0300, 38.7480, "NS",
     "አዲስ አበባ|Addis Abeba", {}),
    ("ET", "Addis Ababa", "Bole Road", "ቦሌ መንገድ / Bole Road|Bole Road", 8.9980, 38.7860, "NS",
     "አዲስ አበባ|Addis Abeba", {}),
    ("US", "Chicago", "Michigan Avenue", "N Michigan Ave", 41.8945, -87.6240, "NS", "",
     {"plates": ["graphics", "rear_only"]}),
    ("US", "San Francisco", "Market Street", "Market St", 37.7890, -122.4010, "EW", "", {}),
    ("US", "Los Angeles", "Hollywood Boulevard", "Hollywood Blvd", 34.1016, -118.3400, "EW", "",
     {"veg": ["palm"]}),
    ("US", "Boston", "Newbury Street", "Newbury St", 42.3500, -71.0810, "EW", "", {}),
    ("US", "Seattle", "Pike Street", "Pike St", 47.6100, -122.3390, "EW", "", {}),
    ("CA", "Toronto", "Yonge Street", "Yonge St", 43.6560, -79.3810, "NS", "", {}),
    ("CA", "Montreal", "Rue Sainte-Catherine", "Rue Sainte-Catherine", 45.5030, -73.5700, "EW", "Montréal",
     {"plates": ["white_blue", "rear_only"],
      "shop": [("Pharmacie", "", "pharmacy (French)"), ("Dépanneur", "", "corner shop (Quebec)")]}),
    ("CA", "Vancouver", "Robson Street", "Robson St", 49.2840, -123.1240, "EW", "", {}),
    ("CA", "Quebec City", "Rue Saint-Jean", "Rue Saint-Jean", 46.8110, -71.2150, "EW", "Québec",
     {"plates": ["white_blue", "rear_only"],
      "shop": [("Pharmacie", "", "pharmacy (French)"), ("Dépanneur", "", "corner shop (Quebec)")]}),
    ("MX", "Mexico City", "Paseo de la Reforma", "Paseo de la Reforma", 19.4270, -99.1670, "EW", "Ciudad de México",
     {}),
    ("MX", "Guadalajara", "Avenida Juárez", "Av. Juárez", 20.6745, -103.3500, "EW", "", {}),
    ("MX", "Monterrey", "Calle Morelos", "Calle Morelos", 25.6690, -100.3100, "EW", "", {}),
    ("MX", "Oaxaca", "Calle Macedonio Alcalá", "Calle Macedonio Alcalá", 17.0640, -96.7240, "NS", "", {}),
    ("CR", "San José", "Avenida Central", "Avenida Central", 9.9330, -84.0780, "EW", "", {}),
    ("CR", "San José", "Avenida Segunda", "Avenida Segunda", 9.9325, -84.0760, "EW", "", {}),
    ("BR", "São Paulo", "Avenida Paulista", "Av. Paulista", -23.5630, -46.6540, "EW", "", {}),
    ("BR", "Rio de Janeiro", "Avenida Atlântica", "Av. Atlântica", -22.9710, -43.1840, "NS", "", {}),
    ("BR", "Curitiba", "Rua XV de Novembro", "Rua XV de Novembro", -25.4310, -49.2700, "EW", "", {}),
    ("BR", "Brasília", "Eixo Monumental", "Eixo Monumental", -15.7930, -47.8830, "EW", "", {}),
    ("AR", "Buenos Aires", "Avenida Corrientes", "Av. Corrientes", -34.6035, -58.3850, "EW", "", {}),
    ("AR", "Córdoba", "Avenida Colón", "Av. Colón", -31.4130, -64.1880, "EW", "", {}),
    ("AR", "Mendoza", "Avenida San Martín", "Av. San Martín", -32.8900, -68.8390, "NS", "", {}),
    ("AR", "Rosario", "Calle Córdoba", "Calle Córdoba", -32.9460, -60.6390, "EW", "", {}),
    ("CL", "Santiago", "Paseo Ahumada", "Paseo Ahumada", -33.4400, -70.6510, "NS", "", {}),
    ("CL", "Valparaíso", "Avenida Pedro Montt", "Av. Pedro Montt", -33.0470, -71.6130, "EW", "", {}),
    ("CL", "Concepción", "Calle Barros Arana", "Barros Arana", -36.8270, -73.0500, "EW", "", {}),
    ("CO", "Bogotá", "Carrera Séptima", "Carrera 7", 4.6010, -74.0720, "NS", "", {}),
    ("CO", "Medellín", "Carrera Junín", "Carrera 49 Junín", 6.2480, -75.5690, "NS", "", {}),
    ("CO", "Cali", "Avenida Sexta", "Avenida 6 Norte", 3.4570, -76.5320, "NS", "", {}),
    ("PE", "Lima", "Jirón de la Unión", "Jr. de la Unión", -12.0480, -77.0340, "NS", "", {}),
    ("PE", "Cusco", "Avenida El Sol", "Av. El Sol", -13.5200, -71.9760, "NS", "Cuzco", {}),
    ("PE", "Arequipa", "Calle Mercaderes", "Calle Mercaderes", -16.3985, -71.5360, "EW", "", {}),
    ("UY", "Montevideo", "Avenida 18 de Julio", "Av. 18 de Julio", -34.9060, -56.1900, "EW", "", {}),
    ("UY", "Montevideo", "Calle Sarandí", "Sarandí", -34.9070, -56.2060, "EW", "", {}),
    ("AU", "Sydney", "George Street", "George St", -33.8700, 151.2070, "NS", "", {}),
    ("AU", "Melbourne", "Swanston Street", "Swanston St", -37.8140, 144.9660, "NS", "",
     {"plates": ["white_blue", "graphics"]}),
    ("AU", "Brisbane", "Queen Street", "Queen St", -27.4700, 153.0250, "EW", "",
     {"plates": ["white_maroon", "graphics"]}),
    ("AU", "Perth", "Hay Street", "Hay St", -31.9540, 115.8590, "EW", "", {}),
    ("NZ", "Auckland", "Queen Street", "Queen St", -36.8480, 174.7650, "NS", "", {}),
    ("NZ", "Wellington", "Lambton Quay", "Lambton Quay", -41.2820, 174.7760, "NS", "", {}),
    ("NZ", "Christchurch", "Colombo Street", "Colombo St", -43.5320, 172.6365, "NS", "", {}),
]
CITY_ALIASES = {"Munich": ["München"], "Cologne": ["Köln"], "Vienna": ["Wien"], "Zurich": ["Zürich"],
                "Geneva": ["Genève", "Genf"], "Seville": ["Sevilla"], "Lisbon": ["Lisboa"], "Rome": ["Roma"],
                "Milan": ["Milano"], "Naples": ["Napoli"], "Florence": ["Firenze"], "Warsaw": ["Warszawa"],
                "Kraków": ["Krakow", "Cracow"], "Prague": ["Praha"], "Gothenburg": ["Göteborg"],
                "Copenhagen": ["København"], "Athens": ["Athina"], "Heraklion": ["Iraklio", "Irakleio"],
                "Moscow": ["Moskva"], "Saint Petersburg": ["St Petersburg", "St. Petersburg", "Sankt-Peterburg"],
                "Kyiv": ["Kiev"], "Odesa": ["Odessa"], "Lviv": ["Lvov", "Lwów"], "Bucharest": ["București"],
                "Istanbul": ["İstanbul"], "İzmir": ["Izmir"], "Malacca": ["Melaka"],
                "Ho Chi Minh City": ["Saigon", "Sài Gòn", "HCMC"], "Hanoi": ["Hà Nội"], "Da Nang": ["Đà Nẵng"],
                "Marrakesh": ["Marrakech"], "Montreal": ["Montréal"], "Quebec City": ["Québec", "Quebec"],
                "Mexico City": ["Ciudad de México", "CDMX"], "Cusco": ["Cuzco"], "Cape Town": ["Kaapstad"],
                "Tel Aviv": ["Tel Aviv-Yafo", "Tel Aviv-Jaffa"], "New Delhi": ["Delhi"], "Mumbai": ["Bombay"],
                "Cebu City": ["Cebu"], "Addis Ababa": ["Addis Abeba"], "Manila": ["Maynila"]}


# --------------------------------------------------------------------------------------------- helpers
def slugify(name: str) -> str:
    s = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode().lower()
    return re.sub(r"[^a-z0-9]+", "-", s).strip("-")


def ascii_word(s: str) -> str:
    s = s.replace("ß", "ss").replace("ł", "l").replace("đ", "d").replace("ı", "i")
    s = unicodedata.normalize("NFKD", s).encode("ascii", "ignore").decode().lower()
    return re.sub(r"[^a-z0-9]+", "", s)


def split_local(text: str) -> tuple[str, str]:
    """``"Москва|Moskva"`` -> (``Москва``, ``Moskva``); Latin text has no transliteration."""
    a, _, b = text.partition("|")
    return a, b


def offset(lat: float, lng: float, heading: str, metres: float) -> tuple[float, float]:
    dlat = {"N": 1, "S": -1}.get(heading, 0) * metres / 111_320
    dlng = {"E": 1, "W": -1}.get(heading, 0) * metres / (111_320 * math.cos(math.radians(lat)))
    return round(lat + dlat, 6), round(lng + dlng, 6)


def join_names(names: list[str]) -> str:
    names = list(names)
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]


OPP = {"N": "S", "S": "N", "E": "W", "W": "E"}


# --------------------------------------------------------------------------------------------- standpoints
def _phone_number(c: dict[str, Any], rng: random.Random) -> str:
    groups = [str(rng.randint(10, 99)), str(rng.randint(100, 999)), str(rng.randint(1000, 9999))]
    return f"{c['phone']} {' '.join(groups)}"


def _sign(role: str, text: str, translit: str = "", hint: bool = False) -> dict[str, Any]:
    say = {"shop": f'A shop sign reads "{text}".', "street": f'A street-name sign reads "{text}".',
           "phone": f'A sign in a shop window gives the phone number "{text}".',
           "domain": f'An advertisement shows the web address "{text}".',
           "city": f'A hotel sign reads "{text}".'}[role]
    d = {"kind": "sign", "role": role, "text": text, "say": say, "hint": hint}
    if translit:
        d["translit"] = translit
    return d


def build_standpoint(idx: int, spot: tuple[Any, ...]) -> dict[str, Any]:
    code, city, street, street_sign, lat, lng, axis, city_local, over = spot
    c = BY_CODE[code]
    sid = f"g{idx:03d}"
    rng = random.Random(f"geo:{sid}:{city}:{street}")
    shop = over.get("shop", c["shop"])
    hotel = over.get("hotel", c["hotel"])
    plates = over.get("plates", c["plates"])
    veg = over.get("veg", c["veg"])
    continent = over.get("continent", c["continent"])
    continent_alt = over.get("continent_alt", c["continent_alt"])

    # graph: a chain along the street; the start has 2 neighbours, sometimes one more beyond
    along = ("N", "S") if axis == "NS" else ("E", "W")
    n_extra = rng.choice([0, 1, 2])
    order = [0, 1, 2] + list(range(3, 3 + n_extra))
    ids = [f"{sid}_{i}" for i in order]
    pos = {ids[0]: (lat, lng), ids[1]: offset(lat, lng, along[0], 40), ids[2]: offset(lat, lng, along[1], 40)}
    edges = [(ids[0], ids[1], along[0]), (ids[0], ids[2], along[1])]
    if n_extra >= 1:
        pos[ids[3]] = offset(*pos[ids[1]], along[0], 40)
        edges.append((ids[1], ids[3], along[0]))
    if n_extra >= 2:
        pos[ids[4]] = offset(*pos[ids[2]], along[1], 40)
        edges.append((ids[2], ids[4], along[1]))
    neighbors: dict[str, dict[str, str]] = {i: {} for i in ids}
    for a, b, h in edges:
        neighbors[a][h] = b
        neighbors[b][OPP[h]] = a
    views: dict[str, dict[str, list[dict[str, Any]]]] = {i: {h: [] for h in "NESW"} for i in ids}
    side = [h for h in "NESW" if h not in along]

    # road cues: every along-view shows the road and its centre line
    dashed = rng.choice(["dashed", "solid"])
    for i in ids:
        for h in along:
            road = {"kind": "road", "centre": c["centre"], "dashed": dashed == "dashed", "edge": c["edge"],
                    "say": "The street continues in this direction."}
            views[i][h].append(road)
            if c["centre"]:
                views[i][h].append({"kind": "centre", "colour": c["centre"], "say": CENTRE[c["centre"]].format(d=dashed)})
    slots_along = [(i, h) for i in ids for h in along if not (i == ids[0] and h == "N")]
    slots_side = [(i, h) for i in ids for h in side]
    slots_any = slots_along + slots_side
    rng.shuffle(slots_along)
    rng.shuffle(slots_side)
    rng.shuffle(slots_any)

    def put(slots: list[tuple[str, str]], item: dict[str, Any], k: int = 0) -> None:
        i, h = slots[k % len(slots)]
        views[i][h].append(item)

    # traffic side: seen in two along views (never only from the start's north view)
    for k in range(2):
        put(slots_along, {"kind": "traffic", "side": c["drive"], "say": TRAFFIC[c["drive"]]}, k)
    if c["edge"]:
        put(slots_along, {"kind": "edge", "colour": c["edge"], "say": EDGE[c["edge"]]}, 2)
    for k, p in enumerate(plates):
        bg, fg = PLATE_COLOURS.get(p, ("white", "black"))
        put(slots_along, {"kind": "plate", "style": p, "bg": bg, "fg": fg, "say": PLATE[p]}, 3 + k)
    if c["bollard"]:
        put(slots_along, {"kind": "bollard", "style": c["bollard"], "say": BOLLARD[c["bollard"]]}, 1)
    pole = c["pole"] or "plain"
    put(slots_side, {"kind": "pole", "style": pole, "say": POLE[pole]}, 0)
    for k, v in enumerate(veg[:2]):
        put(slots_any, {"kind": "vegetation", "style": v, "say": VEG[v]}, k)
    for k, a in enumerate(c["arch"][:2]):
        put(slots_side, {"kind": "building", "style": a, "say": ARCH[a]}, 1 + k)
    # the start's north view shows the road and one building-or-vegetation cue
    views[ids[0]]["N"].append({"kind": "building", "style": c["arch"][0], "say": ARCH[c["arch"][0]]})
    # the sun: in the view that faces it, at every viewpoint (outside the tropics)
    if abs(lat) > TROPIC:
        sun_dir = "S" if lat > 0 else "N"
        for i in ids:
            views[i][sun_dir].append({"kind": "sun", "side": "south" if lat > 0 else "north",
                                      "say": SUN["south" if lat > 0 else "north"]})
    # shop signs (local words)
    words = list(shop)
    rng.shuffle(words)
    for k, (w, tr, _m) in enumerate(words[:3]):
        put(slots_side, _sign("shop", w, tr), 3 + k)
    # hints
    hints: list[str] = []
    hint_slots = [s for s in slots_any if s != (ids[0], "N")]
    r = rng.random()
    kinds = ["phone", "domain"] if r < 0.3 else (["phone"] if r < 0.6 else (["domain"] if r < 0.88 else []))
    if rng.random() < 0.55:
        kinds.append("city")
    if rng.random() < 0.7:
        kinds.append("street")
    if not kinds:
        kinds = ["street"]
    rng.shuffle(hint_slots)
    for k, kind in enumerate(kinds):
        if kind == "phone":
            item = _sign("phone", _phone_number(c, rng), hint=True)
        elif kind == "domain":
            w, tr, _m = words[0]
            base = ascii_word(tr or w) or "info"
            item = _sign("domain", f"www.{base}{rng.randint(2, 99)}{c['tld'] if c['tld'] != '.uk' else '.co.uk'}",
                         hint=True)
        elif kind == "city":
            local, tr = split_local(city_local or city)
            hw, htr = hotel
            if code in ("JP", "CN", "TW"):
                text, tl = f"{local}{hw}", f"{tr} {htr}" if tr else ""
            else:
                text, tl = f"{hw} {local}", (f"{htr or hw} {tr}" if tr else "")
            item = _sign("city", text, tl, hint=True)
        else:
            local, tr = split_local(street_sign)
            item = _sign("street", local, tr, hint=True)
        hints.append(kind)
        views[hint_slots[k][0]][hint_slots[k][1]].append(item)

    nodes = {}
    for i in ids:
        nodes[i] = {"lat": pos[i][0], "lng": pos[i][1], "street": street, "neighbors": neighbors[i], "views": views[i]}
    local_street, street_tr = split_local(street_sign)
    street_aliases = sorted({street, *[p.strip() for p in local_street.split(" / ")], *([street_tr] if street_tr else [])})
    return {"id": sid, "country": c["name"], "country_code": code, "continent": continent,
            "continent_alt": continent_alt, "city": city,
            "city_aliases": sorted(set(CITY_ALIASES.get(city, [])) | ({split_local(city_local)[0]} if city_local else set())),
            "street": street, "street_aliases": street_aliases, "lat": lat, "lng": lng, "start": ids[0],
            "heading": 0, "nodes": nodes, "hints": hints}


def standpoints() -> list[dict[str, Any]]:
    return [build_standpoint(i + 1, s) for i, s in enumerate(SPOTS)]


# --------------------------------------------------------------------------------------------- tasks
INSTRUCTION = (
    "You are standing somewhere in the world. Look around (you may turn and walk to adjacent viewpoints) "
    "and, if you like, research what you see on the wiki. Then say where you are with "
    "stop [lat, lng; continent; country; city; street], for example "
    "stop [48.8606, 2.3376; Europe; France; Paris; Rue de Rivoli]. Leave out parts you do not know "
    "but keep the semicolons, e.g. stop [; Europe; France; Paris; ].")


def tasks(sps: list[dict[str, Any]]) -> list[dict[str, Any]]:
    out = []
    for k, sp in enumerate(sps):
        h = int.from_bytes(sp["id"].encode(), "big") * 2654435761 % 1000
        split = "test" if h % 10 < 3 else "train"
        out.append({"task_id": f"geo-{k + 1:03d}", "env_id": "EWA-Geolocation-v0", "instruction": INSTRUCTION,
                    "embodied": {"standpoint": sp["id"]}, "web": {"start_url": "/wiki/"},
                    "goal": {"lat": sp["lat"], "lng": sp["lng"], "continent": sp["continent"],
                             "continent_alt": sp["continent_alt"], "country": sp["country"],
                             "city": sp["city"], "city_aliases": sp["city_aliases"], "street": sp["street"],
                             "street_aliases": sp["street_aliases"]},
                    "split": split, "start": "embodied",
                    "meta": {"standpoint": sp["id"], "country_code": sp["country_code"], "hints": sp["hints"]}})
    return out


# --------------------------------------------------------------------------------------------- wiki
def article(slug: str, title: str, summary: str, sections: list[tuple[str, list[str]]],
            infobox: list[tuple[str, str]] | None = None, links: list[str] | None = None,
            categories: list[str] | None = None) -> dict[str, Any]:
    return {"slug": slug, "title": title, "summary": summary,
            "sections": [{"heading": h, "paragraphs": ps} for h, ps in sections],
            "infobox": [[k, v] for k, v in (infobox or [])], "links": links or [],
            "categories": categories or ["Geolocation cues"]}


def _entry(key: str, countries: list[str], note: str = "") -> str:
    names = sorted(set(countries))
    return f"{key}: {join_names(names)}{f' ({note})' if note else ''}."


def _countries_with(sps: list[dict[str, Any]], pred: Any) -> list[str]:
    return sorted({sp["country"] for sp in sps if pred(sp)})


def _items(sp: dict[str, Any]) -> list[dict[str, Any]]:
    return [it for n in sp["nodes"].values() for v in n["views"].values() for it in v]


def wiki_articles(sps: list[dict[str, Any]]) -> list[dict[str, Any]]:
    arts: list[dict[str, Any]] = []
    names = [c["name"] for c in COUNTRIES]
    country_slugs = [slugify(n) for n in names]
    cue_links = ["driving-side-by-country", "vehicle-registration-plates-by-country", "road-markings-by-country",
                 "writing-systems", "words-on-signs", "telephone-country-codes", "country-code-top-level-domains",
                 "list-of-countries-by-continent", "roadside-bollards", "utility-poles", "position-of-the-sun",
                 "major-cities-by-country"]

    # continents
    by_cont: dict[str, list[str]] = {k: [] for k in CONTINENTS}
    for c in COUNTRIES:
        by_cont[c["continent"]].append(c["name"])
    cont_entries = [_entry(k, v) for k, v in by_cont.items() if v]
    trans = [c for c in COUNTRIES if c["continent_alt"]]
    arts.append(article(
        "list-of-countries-by-continent", "List of countries by continent",
        "The countries described on this wiki, grouped by the continent they are usually counted in.",
        [("Countries", cont_entries),
         ("Transcontinental countries", [
             f"{c['name']} is usually counted in {c['continent']} but is also counted in "
             f"{join_names(c['continent_alt'])}." for c in trans])],
        [("Continents", str(len([v for v in by_cont.values() if v]))), ("Countries", str(len(COUNTRIES)))],
        country_slugs[:20] + cue_links, ["Geography", "Lists"]))

    # driving side
    left = [c["name"] for c in COUNTRIES if c["drive"] == "left"]
    right = [c["name"] for c in COUNTRIES if c["drive"] == "right"]
    arts.append(article(
        "driving-side-by-country", "Driving side by country",
        "Traffic keeps either to the left or to the right side of the road. About a third of the world's "
        "people live in countries with left-hand traffic, mostly former parts of the British Empire and Japan.",
        [("Lists", [_entry(TRAFFIC["left"].rstrip("."), left, "left-hand traffic"),
                    _entry(TRAFFIC["right"].rstrip("."), right, "right-hand traffic")]),
         ("How to tell", ["Look at which side of the road moving cars use, and at which side of the car the "
                          "driver sits: in left-hand traffic the steering wheel is on the right.",
                          "Sweden switched from left to right in 1967 (Dagen H); Samoa switched from right to "
                          "left in 2009."])],
        [("Left-hand traffic", f"{len(left)} countries on this wiki"),
         ("Right-hand traffic", f"{len(right)} countries on this wiki")],
        ["vehicle-registration-plates-by-country", "road-markings-by-country"], ["Road transport"]))

    # plates
    plate_entries = []
    for key, phrase in PLATE.items():
        cs = _countries_with(sps, lambda sp, key=key: any(it["kind"] == "plate" and it["style"] == key
                                                           for it in _items(sp)))
        if cs:
            note = {"eu": "the European Union band, with the country's code letters under the stars",
                    "rear_only": "in some states or provinces", "graphics": "designs differ by state",
                    "top_blue": "the common plate of the Mercosur countries, or a similar national design",
                    "right_blue": "a regional or provincial code", "small_line": "a county or province name"}.get(key, "")
            plate_entries.append(_entry(phrase.rstrip("."), cs, note))
    arts.append(article(
        "vehicle-registration-plates-by-country", "Vehicle registration plates by country",
        "Licence plates differ in colour, shape and the bands or emblems printed on them, which makes them "
        "one of the best clues to the country a car is registered in.",
        [("Styles", plate_entries),
         ("Notes", ["Most European Union countries use a white plate with black characters and a blue band "
                    "at the left end that carries a ring of twelve yellow stars and the country code.",
                    "In the United Kingdom, Kenya and a few other countries the front plate is white and the "
                    "rear plate yellow; in the Netherlands, Israel and Colombia both plates are yellow.",
                    "Japanese private cars have white plates with green characters; small kei cars have "
                    "yellow plates."])],
        [("Also called", "licence plate, number plate, registration plate")],
        ["driving-side-by-country"], ["Road transport"]))

    # road markings
    centre_entries = []
    for col in ("white", "yellow"):
        cs = [c["name"] for c in COUNTRIES if c["centre"] == col]
        centre_entries.append(_entry(CENTRE[col].format(d="").replace("  ", " ").rstrip("."), cs,
                                     f"{col} centre lines"))
    edge_entries = [_entry(EDGE[e].rstrip("."), [c["name"] for c in COUNTRIES if c["edge"] == e],
                           {"double_yellow": "no waiting at any time", "yellow": "yellow edge lines"}[e])
                    for e in EDGE]
    arts.append(article(
        "road-markings-by-country", "Road markings by country",
        "Lines painted on roads follow national rules. The colour of the line down the middle of a two-way "
        "road is a strong clue: most of the Americas, South Korea, China, Taiwan, Norway and Finland use "
        "yellow, while most of Europe, Africa, Oceania and much of Asia use white.",
        [("Centre lines", centre_entries), ("Edge lines", edge_entries),
         ("Notes", ["Where no centre line is listed, city streets are often unmarked or the colours vary.",
                    "Yellow lines in Japan mark sections where overtaking is forbidden; ordinary centre "
                    "lines are white."])],
        [("Yellow centre lines", "the Americas, South Korea, China, Taiwan, Norway, Finland")],
        ["driving-side-by-country"], ["Road transport"]))

    # writing systems
    script_entries = []
    for key, title in SCRIPT_NAMES.items():
        cs = [c["name"] for c in COUNTRIES if key in c["scripts"]]
        if cs:
            script_entries.append(_entry(title, cs))
    letter_entries = []
    letters: dict[str, list[str]] = {}
    for c in COUNTRIES:
        for ch in c["letters"]:
            letters.setdefault(ch, []).append(c["name"])
    for ch in sorted(letters):
        if ch in "áéíóú" or ch == "j" or ch == "i":
            continue
        letter_entries.append(_entry(f"Letter {ch}", letters[ch]))
    arts.append(article(
        "writing-systems", "Writing systems",
        "The script on signs narrows down a place quickly: Cyrillic, Greek, Hebrew, Arabic, Thai, Hangul, "
        "Japanese kana, Georgian and Armenian are each used in few countries. Within the Latin alphabet, "
        "letters with diacritics tell languages apart.",
        [("Scripts", script_entries), ("Letters that tell languages apart", letter_entries),
         ("Notes", ["German writes ß (sharp s), which Switzerland replaces by ss.",
                    "Spanish uses ñ; Portuguese uses ã and õ; Polish uses ł, ą and ę; Hungarian uses the "
                    "double acute ő and ű; Turkish uses ş, ğ and the dotless ı; Czech uses ř and ů; "
                    "Romanian uses ș and ț; Vietnamese stacks tone marks on letters such as ơ and ư and "
                    "writes đ; Danish and Norwegian use æ and ø; Swedish and Finnish use ä and ö.",
                    "Russian uses ы and э, which Ukrainian lacks; Ukrainian uses і, ї, є and ґ; Bulgarian "
                    "uses ъ as a full vowel.",
                    "Japanese mixes Chinese characters (kanji) with the kana syllabaries; Chinese in mainland "
                    "China uses simplified characters (药, 银, 门, 东), while Taiwan uses traditional ones "
                    "(藥, 銀, 門, 東)."])],
        [("Scripts covered", str(len(script_entries)))],
        ["latin-alphabet", "cyrillic-script", "greek-alphabet", "arabic-script", "hebrew-alphabet",
         "devanagari", "thai-script", "hangul", "japanese-writing-system", "chinese-characters",
         "georgian-script", "armenian-alphabet", "geez-script", "words-on-signs"], ["Writing systems"]))
    for key, slug, extra in [
        ("latin", "latin-alphabet", "The most widely used alphabet. Languages add letters with diacritics "
                                    "(ß, ñ, ł, ő, ş, ř, ø, ã, ș, đ)."),
        ("cyrillic", "cyrillic-script", "Used for Russian, Ukrainian, Bulgarian and other Slavic languages. "
                                        "Ы and Э point to Russian; І, Ї and Є to Ukrainian."),
        ("greek", "greek-alphabet", "Used for Greek; letters such as Ω, Σ, Λ and Φ stand out on signs."),
        ("arabic", "arabic-script", "Written right to left; used for Arabic in North Africa and western Asia."),
        ("hebrew", "hebrew-alphabet", "Written right to left; used for Hebrew in Israel."),
        ("devanagari", "devanagari", "An abugida with a horizontal head line, used for Hindi and Marathi in India "
                                     "and for Nepali."),
        ("thai", "thai-script", "An abugida with looped letters and no spaces between words, used for Thai."),
        ("hangul", "hangul", "The Korean alphabet, whose letters are grouped into square syllable blocks."),
        ("kana", "japanese-writing-system", "Japanese mixes kanji with hiragana (rounded) and katakana (angular)."),
        ("hanzi", "chinese-characters", "Logographic characters: simplified in mainland China, traditional in "
                                        "Taiwan; also used as kanji in Japan."),
        ("georgian", "georgian-script", "The rounded Mkhedruli letters of Georgian, a unique script."),
        ("armenian", "armenian-alphabet", "The alphabet created by Mesrop Mashtots, used only for Armenian."),
        ("geez", "geez-script", "An abugida used for Amharic in Ethiopia."),
    ]:
        cs = [c["name"] for c in COUNTRIES if key in c["scripts"]]
        arts.append(article(slug, SCRIPT_NAMES[key], extra, [("Where it is used", [_entry(SCRIPT_NAMES[key], cs)])],
                            [("Type", "writing system")], ["writing-systems"], ["Writing systems"]))

    # words on signs
    word_countries: dict[str, set[str]] = {}
    word_meaning: dict[str, str] = {}
    for c in COUNTRIES:
        for w, tr, m in c["shop"] + c["street_words"] + [(c["hotel"][0], c["hotel"][1], "hotel")]:
            word_countries.setdefault(w, set()).add(c["name"])
            word_meaning.setdefault(w, m if not tr else f"{tr}, {m}")
    for spot in SPOTS:
        for w, tr, m in spot[8].get("shop", []):
            word_countries.setdefault(w, set()).add(BY_CODE[spot[0]]["name"])
            word_meaning.setdefault(w, m if not tr else f"{tr}, {m}")
    word_entries = [_entry(w, sorted(cs), word_meaning[w]) for w, cs in sorted(word_countries.items())]
    arts.append(article(
        "words-on-signs", "Words on shop and street signs",
        "Common words on shop fronts and street-name signs, with the countries where they are seen. The "
        "word for pharmacy alone often narrows a place down to a language.",
        [("Words", word_entries)], [("Entries", str(len(word_entries)))],
        ["writing-systems"], ["Languages"]))

    # codes
    phone_entries: dict[str, list[str]] = {}
    for c in COUNTRIES:
        phone_entries.setdefault(c["phone"], []).append(c["name"])
    arts.append(article(
        "telephone-country-codes", "Telephone country codes",
        "International phone numbers begin with + and a country code. Shop signs and adverts often print it.",
        [("Codes", [_entry(k, v) for k, v in sorted(phone_entries.items(), key=lambda kv: kv[0])])],
        [("Standard", "ITU-T E.164")], ["country-code-top-level-domains"], ["Codes"]))
    arts.append(article(
        "country-code-top-level-domains", "Country code top-level domains",
        "Web addresses often end in a two-letter country code top-level domain (ccTLD).",
        [("Domains", [_entry(c["tld"], [c["name"]]) for c in sorted(COUNTRIES, key=lambda c: c["tld"])]),
         ("Notes", ["Addresses in the United Kingdom usually end in .co.uk or .org.uk.",
                    "Many businesses in the United States use .com rather than .us."])],
        [("Managed by", "IANA")], ["telephone-country-codes"], ["Codes"]))

    # bollards, poles, sun
    arts.append(article(
        "roadside-bollards", "Roadside bollards",
        "Roadside posts (bollards or delineators) mark the edge of the road and carry reflectors. Their design "
        "is national and often recognisable.",
        [("Styles", [_entry(BOLLARD[k].rstrip("."), [c["name"] for c in COUNTRIES if c["bollard"] == k])
                     for k in BOLLARD]),
         ("Notes", ["German and Austrian posts are white with a black band that slopes down towards the road.",
                    "Australian guide posts are white and carry a red reflector."])],
        [("Also called", "delineator, guide post")], ["road-markings-by-country"], ["Road transport"]))
    arts.append(article(
        "utility-poles", "Utility poles",
        "Electricity and telephone poles differ between countries in material and fittings.",
        [("Styles", [_entry(POLE[k].rstrip("."), [c["name"] for c in COUNTRIES if c["pole"] == k])
                     for k in POLE if any(c["pole"] == k for c in COUNTRIES)])],
        [("Material", "wood, concrete or steel")], ["roadside-bollards"], ["Infrastructure"]))
    north = sorted({sp["country"] for sp in sps if sp["lat"] > TROPIC})
    south = sorted({sp["country"] for sp in sps if sp["lat"] < -TROPIC})
    arts.append(article(
        "position-of-the-sun", "Position of the Sun",
        "Outside the tropics the midday sun is always towards the equator: in the southern part of the sky "
        "in the Northern Hemisphere and in the northern part of the sky in the Southern Hemisphere.",
        [("Hemispheres", [_entry(SUN["south"].replace("stands in this direction, in", "is in").rstrip("."), north,
                                 "Northern Hemisphere, north of the Tropic of Cancer"),
                          _entry(SUN["north"].replace("stands in this direction, in", "is in").rstrip("."), south,
                                 "Southern Hemisphere, south of the Tropic of Capricorn")]),
         ("Tropics", ["Between the tropics the sun can be north or south of the zenith depending on the season."])],
        [("Tropic of Cancer", "23.44° N"), ("Tropic of Capricorn", "23.44° S")], [], ["Astronomy"]))

    # cities
    city_entries = []
    cities_of: dict[str, dict[str, tuple[str, float, float]]] = {}
    for spot in SPOTS:
        code, city, _street, _sign, lat, lng, _axis, city_local, _o = spot
        local, _tr = split_local(city_local)
        cities_of.setdefault(code, {})
        if city not in cities_of[code]:
            cities_of[code][city] = (local, lat, lng)
    for c in COUNTRIES:
        cs = cities_of.get(c["code"], {})
        items = [f"{k} ({v[0]})" if v[0] and v[0] != k else k for k, v in cs.items()]
        if c["capital"] not in cs:
            items.insert(0, c["capital"])
        city_entries.append(f"{', '.join(items)}: {c['name']}.")
    arts.append(article(
        "major-cities-by-country", "Major cities by country",
        "Major cities of the countries on this wiki, with their names as written locally.",
        [("Cities", city_entries)], [("Countries", str(len(COUNTRIES)))], country_slugs, ["Geography", "Lists"]))

    # one article per country
    for c in COUNTRIES:
        arts.append(country_article(c, sps, cities_of.get(c["code"], {})))
    return arts


def country_article(c: dict[str, Any], sps: list[dict[str, Any]], cities: dict[str, tuple[str, float, float]]
                    ) -> dict[str, Any]:
    name = c["name"]
    mine = [sp for sp in sps if sp["country"] == name]
    plates = sorted({it["style"] for sp in mine for it in _items(sp) if it["kind"] == "plate"})
    cap_lat, cap_lng = c["capital_ll"]
    city_lines = [f"The capital is {c['capital']} ({cap_lat:.3f}, {cap_lng:.3f})."]
    for city, (local, lat, lng) in cities.items():
        if city == c["capital"]:
            continue
        shown = f"{city} ({local}; {lat:.3f}, {lng:.3f})" if local and local != city else f"{city} ({lat:.3f}, {lng:.3f})"
        city_lines.append(f"{shown} is a major city of {name}.")
    streets = []
    for sp in mine:
        alias = [a for a in sp["street_aliases"] if a != sp["street"]]
        also = f" (signed {join_names([f'“{a}”' for a in alias])})" if alias else ""
        streets.append(f"{sp['street']}{also} is a street in {sp['city']}.")
    scripts = join_names([SCRIPT_NAMES[s] for s in c["scripts"]])
    shop = "; ".join(f"{w}{f' ({tr})' if tr else ''}: {m}" for w, tr, m in c["shop"])
    street_words = "; ".join(f"{w}{f' ({tr})' if tr else ''}: {m}" for w, tr, m in c["street_words"])
    road = [TRAFFIC[c["drive"]]]
    if c["centre"]:
        road.append(CENTRE[c["centre"]].format(d="").replace("  ", " "))
    if c["edge"]:
        road.append(EDGE[c["edge"]])
    road += [PLATE[p] for p in plates]
    if c["bollard"]:
        road.append(BOLLARD[c["bollard"]])
    if c["pole"]:
        road.append(POLE[c["pole"]])
    hemi = "Northern" if cap_lat > 0 else "Southern"
    hotel = f"{c['hotel'][0]} ({c['hotel'][1]})" if c["hotel"][1] else c["hotel"][0]
    sights = [VEG[v] for v in c["veg"]] + [ARCH[a] for a in c["arch"]]
    sections = [
        ("Geography", [f"{name} is {c['about']}. It lies in {c['continent']}"
                       f"{' (also counted in ' + join_names(c['continent_alt']) + ')' if c['continent_alt'] else ''}"
                       f", in the {hemi} Hemisphere.", "Typical street scenes: " + " ".join(sights)]),
        ("Cities", city_lines),
        ("Streets", streets),
        ("Languages and writing", [f"Languages: {join_names(c['languages'])}. Script: {scripts}."
                                   + (f" Letters seen on signs include {' '.join(c['letters'])}." if c["letters"] else ""),
                                   f"Words on shop signs: {shop}.", f"Street words: {street_words}.",
                                   f"Hotel: {hotel}."]),
        ("On the road", road),
        ("Codes", [f"The international telephone prefix is {c['phone']}. The country code top-level domain is "
                   f"{c['tld']}."]),
    ]
    info = [("Continent", c["continent"]), ("Capital", c["capital"]), ("Coordinates", f"{cap_lat:.3f}, {cap_lng:.3f}"),
            ("Largest cities", ", ".join(list(cities)[:4]) or c["capital"]), ("Languages", ", ".join(c["languages"])),
            ("Script", scripts), ("Drives on the", c["drive"]),
            ("Centre line", c["centre"] or "varies"), ("Phone prefix", c["phone"]), ("Web domain", c["tld"])]
    if c["aliases"]:
        info.append(("Also called", ", ".join(c["aliases"])))
    return article(slugify(name), name, f"{name} is {c['about']}. Its capital is {c['capital']}.", sections, info,
                   ["list-of-countries-by-continent", "driving-side-by-country", "vehicle-registration-plates-by-country",
                    "writing-systems"], ["Countries", c["continent"]])


# --------------------------------------------------------------------------------------------- main
def main() -> None:
    sps = standpoints()
    out = data_dir() / "geo"
    out.mkdir(parents=True, exist_ok=True)
    with open(out / "standpoints.json", "w", encoding="utf-8") as f:
        json.dump({"version": 1, "standpoints": sps}, f, ensure_ascii=False, indent=1, sort_keys=True)
        f.write("\n")
    with open(out / "tasks.jsonl", "w", encoding="utf-8") as f:
        for t in tasks(sps):
            f.write(json.dumps(t, ensure_ascii=False, sort_keys=True) + "\n")
    wiki = data_dir() / "wiki"
    wiki.mkdir(parents=True, exist_ok=True)
    with open(wiki / "cues.json", "w", encoding="utf-8") as f:
        json.dump(wiki_articles(sps), f, ensure_ascii=False, indent=1)
        f.write("\n")
    countries = {sp["country"] for sp in sps}
    continents = {sp["continent"] for sp in sps}
    print(f"{len(sps)} standpoints, {len(countries)} countries, {len(continents)} continents")


if __name__ == "__main__":
    main()
