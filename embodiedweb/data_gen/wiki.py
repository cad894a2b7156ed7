"""Generate ``data/wiki/articles.json``: the wiki's articles, from ``data/places/places.json`` plus topics.

Run ``python -m embodiedweb.data_gen.wiki`` (after ``python -m embodiedweb.data_gen.places``). Deterministic.

Every article has ``slug``, ``title``, ``kind`` (``place``, ``neighborhood``, ``style``, ``architect``,
``topic``, ``list``), ``summary`` (plain text), ``lead`` and ``sections`` (``[{heading,
paragraphs}]``) whose text may hold internal links written ``[[slug|label]]``, ``infobox`` (``[[key,
value], ...]``), ``links`` (slugs linked from the text, all of which exist) and ``categories``. Place
articles also carry ``place_id``, ``coordinates`` and ``facts``: the place's fields as strings
(``year_built``, ``opened``, ``architect``, ``architectural_style``, ``height_m``, ``floors``,
``opening_hours``, ``address``, ``cross_streets``, ``neighborhood``, ``name``, ``category``), each of
which appears verbatim in the article's plain text (:func:`article_text`). Prose about the real place is
generated only from those facts and from the hand-written topic text below (written by the project from
general knowledge); no real-world number is invented.

Place articles also carry ``world_facts`` and the "On site" section (after "Visiting") that states them,
one sentence each: details of this project's own world (a plaque, a restoration, a weekly walk, a
mosaic, a time capsule, an exhibition floor, a sculpture), drawn from :data:`WORLD_SEED` and the slug
(:func:`world_facts`). Traveling tasks ask about them, so the answer must be read, not remembered.

The geolocation cue articles (scripts, driving side, plates, countries) are generated separately by
:mod:`embodiedweb.data_gen.geo` into ``data/wiki/cues.json``; the wiki site serves both files.
"""

from __future__ import annotations

import json
import random
import re
import unicodedata
from pathlib import Path
from typing import Any

from embodiedweb.paths import data_dir
from embodiedweb.worlds.street.geo import haversine_m

# name -> (lead, [paragraphs of the Overview section])
NEIGHBORHOODS: dict[str, tuple[str, list[str]]] = {
    "Midtown": ("Midtown is the central business district of [[manhattan|Manhattan]], roughly between 34th and "
                "59th Streets, with the city's best-known skyscrapers, department stores and Fifth Avenue shops.",
                ["Midtown holds [[rockefeller-center|Rockefeller Center]], the [[nypl-main-branch|New York Public "
                 "Library Main Branch]] and many of the tallest office buildings of [[new-york-city|New York City]].",
                 "The wide crosstown streets [[42nd-street|42nd Street]] and [[57th-street|57th Street]] cross it, and "
                 "[[fifth-avenue|Fifth Avenue]] divides it into an East Side and a West Side."]),
    "Midtown East": ("Midtown East is the eastern part of Midtown, east of Fifth Avenue, around "
                     "[[grand-central-terminal|Grand Central Terminal]] and [[park-avenue|Park Avenue]].",
                     ["Its Park Avenue office towers include the [[seagram-building|Seagram Building]] and "
                      "[[lever-house|Lever House]], two landmarks of the [[international-style|International Style]].",
                      "[[lexington-avenue|Lexington Avenue]] and Third Avenue are its main shopping streets."]),
    "Midtown South": ("Midtown South is the area south of 42nd Street and north of about 26th Street, around "
                      "[[penn-station|Pennsylvania Station]] and the [[empire-state-building|Empire State Building]].",
                      ["It contains the [[garment-district|Garment District]] and [[koreatown|Koreatown]].",
                       "[[34th-street|34th Street]] is its main crosstown shopping street."]),
    "Theater District": ("The Theater District is the area around [[times-square|Times Square]] where most "
                         "[[broadway-theatre|Broadway theatres]] stand, roughly between Sixth and Eighth Avenues "
                         "and 40th and 54th Streets.",
                         ["Most of its theatres are on the side streets west of [[broadway|Broadway]], such as 44th "
                          "and 45th Streets.",
                          "The TKTS booth in [[duffy-square|Duffy Square]] sells discounted same-day tickets."]),
    "Hell's Kitchen": ("Hell's Kitchen, also called Clinton, is a neighbourhood on the West Side between about 34th "
                       "and 59th Streets, west of Eighth Avenue.",
                       ["Ninth Avenue is known for its many restaurants, and [[restaurant-row|Restaurant Row]] on "
                        "46th Street serves theatregoers.",
                        "The [[intrepid-museum|Intrepid Museum]] is on its Hudson River waterfront."]),
    "Garment District": ("The Garment District, or Fashion District, is the area of Midtown between Fifth and Ninth "
                         "Avenues and roughly 34th and 42nd Streets, long the centre of American clothing "
                         "manufacturing.",
                         ["[[seventh-avenue|Seventh Avenue]] is also named Fashion Avenue here.",
                          "The sculpture [[garment-district-needle|Needle Threading a Button]] marks its information "
                          "kiosk."]),
    "Koreatown": ("Koreatown is a small neighbourhood centred on 32nd Street between Fifth Avenue and Broadway, "
                  "known for Korean restaurants and shops.",
                  ["Its main block is also called [[korea-way|Korea Way]].",
                   "It lies a block south of the [[empire-state-building|Empire State Building]]."]),
    "Murray Hill": ("Murray Hill is a residential neighbourhood on the East Side, roughly between 34th and 42nd "
                    "Streets east of Fifth Avenue.",
                    ["It is named after the Murray family, who owned a farm here in the eighteenth century.",
                     "The [[morgan-library|Morgan Library & Museum]] is on Madison Avenue in Murray Hill."]),
    "Turtle Bay": ("Turtle Bay is a neighbourhood on the East Side between about 43rd and 53rd Streets, east of "
                   "Lexington Avenue, named after a former cove of the East River.",
                   ["It is home to the [[united-nations-headquarters|Headquarters of the United Nations]].",
                    "[[tudor-city|Tudor City]] lies at its southern edge."]),
    "Hudson Yards": ("Hudson Yards is a district on the Far West Side around the rail yards between 30th and 34th "
                     "Streets, redeveloped with towers, a park and an extension of the 7 train.",
                     ["Its public square holds the [[vessel|Vessel]], and [[the-shed|The Shed]] stands at the north "
                      "end of the [[high-line|High Line]].",
                      "The [[irt-flushing-line|Flushing Line]] was extended to a new station here in 2015."]),
    "Chelsea": ("Chelsea is a neighbourhood on the West Side between about 14th and 30th Streets, known for its art "
                "galleries, the [[high-line|High Line]] and [[chelsea-market|Chelsea Market]].",
                ["It was named after the estate of Captain Thomas Clarke, who called it after the Royal Hospital "
                 "Chelsea in London.",
                 "The [[hotel-chelsea|Hotel Chelsea]] on [[23rd-street|23rd Street]] is one of its landmarks."]),
    "Flatiron District": ("The Flatiron District is named after the [[flatiron-building|Flatiron Building]] at the "
                          "meeting of Fifth Avenue and Broadway at 23rd Street.",
                          ["[[madison-square-park|Madison Square Park]] lies at its northern edge.",
                           "Its stretch of Fifth Avenue and Broadway was once part of the Ladies' Mile shopping "
                           "district."]),
    "NoMad": ("NoMad, short for North of Madison Square Park, is a neighbourhood between about 25th and 30th Streets "
              "around Fifth Avenue and Broadway.",
              ["The [[new-york-life-building|New York Life Building]] and the "
               "[[appellate-courthouse|Appellate Division Courthouse]] face the park.",
               "The [[marble-collegiate-church|Marble Collegiate Church]] stands on Fifth Avenue at 29th Street."]),
    "Gramercy Park": ("Gramercy Park is a residential neighbourhood around the private park of the same name, "
                      "between about 18th and 23rd Streets east of Park Avenue South.",
                      ["[[gramercy-park|Gramercy Park]] itself is open only to key holders.",
                       "[[stuyvesant-square|Stuyvesant Square]] lies to the southeast."]),
    "Union Square": ("Union Square is the area around the public square of the same name, where Broadway meets "
                     "14th Street.",
                     ["The [[union-square-greenmarket|Union Square Greenmarket]] is held in the square.",
                      "The [[14-st-union-sq-station|14th Street-Union Square station]] is one of the busiest subway "
                      "stations."]),
    "Greenwich Village": ("Greenwich Village is a neighbourhood on the West Side south of 14th Street, known for its "
                          "irregular streets, bohemian history and [[washington-square-park|Washington Square "
                          "Park]].",
                          ["Its streets predate the [[commissioners-plan-of-1811|Commissioners' Plan of 1811]], so "
                           "many do not follow the grid.",
                           "[[new-york-university|New York University]] surrounds Washington Square."]),
    "West Village": ("The West Village is the western part of Greenwich Village, west of Sixth Avenue.",
                     ["The [[stonewall-inn|Stonewall Inn]] on Christopher Street is one of its landmarks.",
                      "The jazz club [[village-vanguard|Village Vanguard]] is on Seventh Avenue South."]),
    "Meatpacking District": ("The Meatpacking District is a neighbourhood in the far west of the Village, around "
                             "Gansevoort Street, once filled with meat-packing plants.",
                             ["The [[whitney-museum|Whitney Museum of American Art]] and the southern end of the "
                              "[[high-line|High Line]] are here.",
                              "[[little-island|Little Island]] lies just off its shore in the Hudson River."]),
    "East Village": ("The East Village is a neighbourhood east of the Bowery and Third Avenue, between Houston and "
                     "14th Streets.",
                     ["It includes [[tompkins-square-park|Tompkins Square Park]] and "
                      "[[st-marks-church-in-the-bowery|St. Mark's Church in-the-Bowery]].",
                      "[[astor-place|Astor Place]] and [[cooper-union|Cooper Union]] are at its western edge."]),
    "NoHo": ("NoHo, short for North of Houston Street, is a small neighbourhood between Houston Street and Astor "
             "Place, around Lafayette Street.",
             ["[[public-theater|The Public Theater]] occupies the former Astor Library on Lafayette Street.",
              "The [[merchants-house-museum|Merchant's House Museum]] on East 4th Street preserves a "
              "nineteenth-century home."]),
    "SoHo": ("SoHo, short for South of Houston Street, is a neighbourhood known for its cast-iron buildings, "
             "galleries and shops.",
             ["Its many [[cast-iron-architecture|cast-iron]] facades form the SoHo-Cast Iron Historic District.",
              "The [[haughwout-building|E. V. Haughwout Building]] on Broadway is one of its best-known examples."]),
    "Little Italy": ("Little Italy is a neighbourhood around Mulberry Street that was home to many Italian "
                     "immigrants.",
                     ["The [[old-st-patricks-cathedral|Basilica of St. Patrick's Old Cathedral]] stands on Mulberry "
                      "Street.",
                      "The Feast of San Gennaro is held on Mulberry Street each September."]),
    "Lower East Side": ("The Lower East Side is a neighbourhood east of the Bowery and south of Houston Street, "
                        "historically a home of immigrant families.",
                        ["The [[tenement-museum|Tenement Museum]] tells the stories of its immigrants.",
                         "[[essex-market|Essex Market]] has been a public market since 1940."]),
    "Civic Center": ("The Civic Center is the area around [[city-hall|New York City Hall]] with city, state and "
                     "federal government buildings.",
                     ["The [[municipal-building|David N. Dinkins Municipal Building]] and the courthouses of "
                      "[[foley-square|Foley Square]] are here.",
                      "The [[brooklyn-bridge|Brooklyn Bridge]] begins beside City Hall Park."]),
    "Financial District": ("The Financial District is the southern tip of Manhattan, the oldest part of the city "
                           "and the home of [[wall-street|Wall Street]].",
                           ["The [[new-york-stock-exchange|New York Stock Exchange]] and "
                            "[[federal-hall|Federal Hall]] stand on Wall Street.",
                            "[[one-world-trade-center|One World Trade Center]] rises at its western edge."]),
    "Battery Park City": ("Battery Park City is a planned neighbourhood on land reclaimed from the Hudson River "
                          "along the southwestern edge of Manhattan.",
                          ["The [[museum-of-jewish-heritage|Museum of Jewish Heritage]] is at its southern end.",
                           "It was built partly on earth excavated for the original World Trade Center."]),
}
# style name (as in places.json) -> (slug, lead, paragraphs)
STYLES: dict[str, tuple[str, str, list[str]]] = {
    "Art Deco": ("art-deco", "Art Deco is a style of design and architecture that flourished in the 1920s and "
                 "1930s, with geometric ornament, stepped setbacks and rich materials.",
                 ["New York's Art Deco skyscrapers include the [[chrysler-building|Chrysler Building]] and the "
                  "[[empire-state-building|Empire State Building]].",
                  "The setbacks required by the [[1916-zoning-resolution|1916 Zoning Resolution]] gave many of these "
                  "towers their stepped, ziggurat-like shapes.",
                  "The name comes from the 1925 Exposition internationale des arts décoratifs in Paris."]),
    "Beaux-Arts": ("beaux-arts", "Beaux-Arts architecture is an academic classical style taught at the École des "
                   "Beaux-Arts in Paris, popular in the United States from about 1880 to 1920.",
                   ["It combines symmetry, grand stairs and sculpture with classical columns and arches.",
                    "[[grand-central-terminal|Grand Central Terminal]] and the "
                    "[[nypl-main-branch|New York Public Library Main Branch]] are major New York examples.",
                    "It is closely linked to the City Beautiful movement."]),
    "Gothic Revival": ("gothic-revival", "Gothic Revival is a style that revived the pointed arches, tracery and "
                       "spires of medieval Gothic architecture, from the late eighteenth century onwards.",
                       ["In New York it was used above all for churches such as "
                        "[[trinity-church|Trinity Church]] and [[st-patricks-cathedral|St. Patrick's Cathedral]].",
                        "Early skyscrapers such as the [[woolworth-building|Woolworth Building]] applied Gothic "
                        "ornament to tall office buildings."]),
    "International Style": ("international-style", "The International Style is a modernist architectural style "
                            "of the 1920s to 1960s, with flat surfaces, glass curtain walls and no applied "
                            "ornament.",
                            ["The name comes from the 1932 exhibition Modern Architecture: International Exhibition "
                             "at the [[moma|Museum of Modern Art]], organised by Henry-Russell Hitchcock and "
                             "[[philip-johnson|Philip Johnson]].",
                             "[[lever-house|Lever House]] and the [[seagram-building|Seagram Building]] on Park "
                             "Avenue are two of its best-known towers."]),
    "Renaissance Revival": ("renaissance-revival", "Renaissance Revival architecture draws on the palaces and "
                            "villas of the Italian Renaissance, with rusticated bases, arched windows and heavy "
                            "cornices.",
                            ["It was a favourite style for clubs, banks and libraries in the late nineteenth and "
                             "early twentieth centuries."]),
    "French Renaissance": ("french-renaissance", "French Renaissance Revival (the château style) draws on the "
                           "châteaux of the Loire Valley, with steep roofs, dormers and turrets.",
                           ["[[henry-janeway-hardenbergh|Henry Janeway Hardenbergh]] used it for "
                            "[[plaza-hotel|The Plaza]]."]),
    "Romanesque Revival": ("romanesque-revival", "Romanesque Revival architecture uses the round arches and "
                           "massive walls of eleventh- and twelfth-century Romanesque buildings.",
                           ["The American variant associated with Henry Hobson Richardson is called Richardsonian "
                            "Romanesque."]),
    "Byzantine Revival": ("byzantine-revival", "Byzantine Revival architecture uses domes, round arches and rich "
                          "mosaics drawn from Byzantine churches.",
                          ["[[st-bartholomews-church|St. Bartholomew's Church]] on Park Avenue is an example."]),
    "Moorish Revival": ("moorish-revival", "Moorish Revival architecture imitates the horseshoe arches, domes and "
                        "patterned surfaces of Islamic Spain and North Africa.",
                        ["In the nineteenth century it was often used for synagogues, such as "
                         "[[central-synagogue|Central Synagogue]]."]),
    "Greek Revival": ("greek-revival", "Greek Revival architecture uses the temple fronts, columns and pediments "
                      "of ancient Greece; it was the leading American style from about 1820 to 1850.",
                      ["[[federal-hall|Federal Hall]] on Wall Street, completed in 1842, is a New York example."]),
    "Georgian": ("georgian-architecture", "Georgian architecture is the classical style of Britain and its "
                 "colonies during the reigns of the four King Georges, from 1714 to 1830.",
                 ["[[st-pauls-chapel|St. Paul's Chapel]], completed in 1766, is the best-known Georgian building in "
                  "Manhattan."]),
    "Georgian Revival": ("georgian-revival", "Georgian Revival (Colonial Revival) architecture revived the "
                         "red brick and classical details of Georgian buildings from the late nineteenth century.",
                         ["[[town-hall|The Town Hall]] on 43rd Street is an example by "
                          "[[mckim-mead-white|McKim, Mead & White]]."]),
    "Federal": ("federal-architecture", "Federal architecture is the American classical style of about 1780 to "
                "1830, lighter and more delicate than Georgian.",
                ["[[city-hall|New York City Hall]], completed in 1812, combines the Federal style with French "
                 "Renaissance details."]),
    "Italianate": ("italianate", "Italianate architecture is a nineteenth-century style based on Italian villas "
                   "and palazzi, with bracketed cornices and tall arched windows.",
                   ["Many [[cast-iron-architecture|cast-iron]] buildings in SoHo have Italianate facades."]),
    "Victorian Gothic": ("victorian-gothic", "Victorian Gothic, or High Victorian Gothic, is a colourful late "
                         "phase of the Gothic Revival with contrasting bands of brick and stone.",
                         ["The [[jefferson-market-library|Jefferson Market Library]] is a New York example."]),
    "Queen Anne": ("queen-anne-style", "The Queen Anne style is a late-nineteenth-century style of picturesque "
                   "red brick buildings with gables, bays and decorative ironwork.",
                   ["The [[hotel-chelsea|Hotel Chelsea]] has Queen Anne details and iron balconies."]),
    "Postmodern": ("postmodern-architecture", "Postmodern architecture reacted in the 1970s and 1980s against the "
                   "austerity of modernism by bringing back historical references, colour and ornament.",
                   ["[[philip-johnson|Philip Johnson]]'s [[sony-building|550 Madison Avenue]] with its "
                    "broken-pediment top is an icon of the style."]),
    "Neoclassical": ("neoclassical-architecture", "Neoclassical architecture revives the temple fronts and orders "
                     "of Greek and Roman architecture.",
                     ["The [[new-york-stock-exchange|New York Stock Exchange]] building has a temple front of six "
                      "Corinthian columns."]),
    "Tudor Revival": ("tudor-revival", "Tudor Revival architecture imitates English buildings of the Tudor period, "
                      "with steep gables, half-timbering and leaded windows.",
                      ["[[tudor-city|Tudor City]] applied it to apartment towers in the 1920s."]),
    "Art Nouveau": ("art-nouveau", "Art Nouveau is a style of the 1890s and 1900s with flowing plant forms and "
                    "curving lines.",
                    ["The interior of the [[new-amsterdam-theatre|New Amsterdam Theatre]] is a rare Art Nouveau "
                     "interior in New York."]),
}

# slug -> (title, aliases matched against places' ``architect`` field, lead, paragraphs)
ARCHITECTS: dict[str, tuple[str, tuple[str, ...], str, list[str]]] = {
    "mckim-mead-white": ("McKim, Mead & White", ("McKim, Mead & White", "Charles Follen McKim"),
                         "McKim, Mead & White was an American architectural firm founded by Charles Follen McKim, "
                         "William Rutherford Mead and [[stanford-white|Stanford White]].",
                         ["It was one of the leading firms of the [[beaux-arts|Beaux-Arts]] era and designed the "
                          "original [[penn-station|Pennsylvania Station]]."]),
    "stanford-white": ("Stanford White", ("Stanford White",),
                       "Stanford White (1853-1906) was an American architect and partner in "
                       "[[mckim-mead-white|McKim, Mead & White]].",
                       ["He designed the [[washington-square-arch|Washington Square Arch]]."]),
    "carrere-and-hastings": ("Carrère and Hastings", ("Carrère and Hastings",),
                             "Carrère and Hastings was an architectural firm founded by John Merven Carrère and "
                             "Thomas Hastings, both trained at the École des Beaux-Arts.",
                             ["Its best-known building is the [[nypl-main-branch|New York Public Library Main "
                              "Branch]]."]),
    "warren-and-wetmore": ("Warren and Wetmore", ("Warren and Wetmore",),
                           "Warren and Wetmore was an architectural firm founded by Whitney Warren and Charles "
                           "Delevan Wetmore.",
                           ["With Reed and Stem it designed [[grand-central-terminal|Grand Central Terminal]]."]),
    "reed-and-stem": ("Reed and Stem", ("Reed and Stem",),
                      "Reed and Stem was an architectural firm from Saint Paul, Minnesota, founded by Charles A. Reed "
                      "and Allen H. Stem.",
                      ["It won the commission for [[grand-central-terminal|Grand Central Terminal]], which it "
                       "designed with [[warren-and-wetmore|Warren and Wetmore]]."]),
    "cass-gilbert": ("Cass Gilbert", ("Cass Gilbert",),
                     "Cass Gilbert (1859-1934) was an American architect known for early skyscrapers and public "
                     "buildings.",
                     ["He designed the [[woolworth-building|Woolworth Building]] and the United States Supreme "
                      "Court Building in Washington, D.C."]),
    "james-renwick-jr": ("James Renwick Jr.", ("James Renwick Jr.",),
                         "James Renwick Jr. (1818-1895) was an American architect of churches and public buildings.",
                         ["He designed [[grace-church|Grace Church]] and [[st-patricks-cathedral|St. Patrick's "
                          "Cathedral]] in the [[gothic-revival|Gothic Revival]] style, and the Smithsonian "
                          "Institution Building in Washington, D.C."]),
    "richard-upjohn": ("Richard Upjohn", ("Richard Upjohn",),
                       "Richard Upjohn (1802-1878) was an English-born American architect and a leading designer "
                       "of [[gothic-revival|Gothic Revival]] churches.",
                       ["He designed the present [[trinity-church|Trinity Church]], completed in 1846."]),
    "raymond-hood": ("Raymond Hood", ("Raymond Hood",),
                     "Raymond Hood (1881-1934) was an American architect of [[art-deco|Art Deco]] skyscrapers.",
                     ["He led the design of [[rockefeller-center|Rockefeller Center]] and designed the "
                      "[[daily-news-building|Daily News Building]] and the "
                      "[[american-radiator-building|American Radiator Building]]."]),
    "edward-durell-stone": ("Edward Durell Stone", ("Edward Durell Stone",),
                            "Edward Durell Stone (1902-1978) was an American modernist architect.",
                            ["He designed the 1939 building of the [[moma|Museum of Modern Art]] with Philip L. "
                             "Goodwin and the [[general-motors-building|General Motors Building]]."]),
    "philip-johnson": ("Philip Johnson", ("Philip Johnson",),
                       "Philip Johnson (1906-2005) was an American architect and critic who moved from the "
                       "[[international-style|International Style]] to [[postmodern-architecture|Postmodernism]].",
                       ["He worked with Mies van der Rohe on the [[seagram-building|Seagram Building]] and designed "
                        "[[sony-building|550 Madison Avenue]] with John Burgee."]),
    "mies-van-der-rohe": ("Ludwig Mies van der Rohe", ("Mies van der Rohe",),
                          "Ludwig Mies van der Rohe (1886-1969) was a German-American architect and a pioneer of "
                          "modernist architecture.",
                          ["His only New York building is the [[seagram-building|Seagram Building]]."]),
    "skidmore-owings-merrill": ("Skidmore, Owings & Merrill", ("Gordon Bunshaft", "David Childs"),
                                "Skidmore, Owings & Merrill (SOM) is an American architectural and engineering "
                                "firm founded in Chicago in 1936.",
                                ["Its New York buildings include [[lever-house|Lever House]] by Gordon Bunshaft and "
                                 "[[one-world-trade-center|One World Trade Center]] by David Childs."]),
    "renzo-piano": ("Renzo Piano", ("Renzo Piano",),
                    "Renzo Piano (born 1937) is an Italian architect who won the Pritzker Prize in 1998.",
                    ["In New York he designed [[new-york-times-building|The New York Times Building]] and the "
                     "[[whitney-museum|Whitney Museum of American Art]]."]),
    "daniel-burnham": ("Daniel Burnham", ("Daniel Burnham",),
                       "Daniel Burnham (1846-1912) was an American architect and planner from Chicago.",
                       ["His firm designed the [[flatiron-building|Flatiron Building]]."]),
    "henry-janeway-hardenbergh": ("Henry Janeway Hardenbergh", ("Henry Janeway Hardenbergh",),
                                  "Henry Janeway Hardenbergh (1847-1918) was an American architect of hotels and "
                                  "apartment houses.",
                                  ["He designed [[plaza-hotel|The Plaza]] and the Dakota apartments."]),
    "herbert-j-krapp": ("Herbert J. Krapp", ("Herbert J. Krapp",),
                        "Herbert J. Krapp (1887-1973) was an American architect who designed many Broadway theatres.",
                        ["His theatres include the [[majestic-theatre|Majestic Theatre]] and the "
                         "[[richard-rodgers-theatre|Richard Rodgers Theatre]]."]),
    "calvert-vaux": ("Calvert Vaux", ("Calvert Vaux",),
                     "Calvert Vaux (1824-1895) was an English-born American architect and landscape designer.",
                     ["With [[frederick-law-olmsted|Frederick Law Olmsted]] he designed [[central-park|Central "
                      "Park]]."]),
    "frederick-law-olmsted": ("Frederick Law Olmsted", ("Frederick Law Olmsted",),
                              "Frederick Law Olmsted (1822-1903) was an American landscape architect.",
                              ["With [[calvert-vaux|Calvert Vaux]] he designed [[central-park|Central Park]] and "
                               "Prospect Park in Brooklyn."]),
    "thomas-heatherwick": ("Thomas Heatherwick", ("Thomas Heatherwick", "Heatherwick Studio"),
                           "Thomas Heatherwick (born 1970) is an English designer whose studio is in London.",
                           ["In New York he designed the [[vessel|Vessel]] and [[little-island|Little Island]]."]),
    "kohn-pedersen-fox": ("Kohn Pedersen Fox", ("Kohn Pedersen Fox",),
                          "Kohn Pedersen Fox (KPF) is an American architecture firm founded in New York in 1976.",
                          ["It designed [[one-vanderbilt|One Vanderbilt]] and 30 Hudson Yards, home of the "
                           "[[edge-observation-deck|Edge]]."]),
    "diller-scofidio-renfro": ("Diller Scofidio + Renfro", ("Diller Scofidio + Renfro",),
                               "Diller Scofidio + Renfro is an interdisciplinary design studio in New York.",
                               ["It designed the [[high-line|High Line]] with James Corner Field Operations and "
                                "[[the-shed|The Shed]] with Rockwell Group."]),
    "william-van-alen": ("William Van Alen", ("William Van Alen",),
                         "William Van Alen (1883-1954) was an American architect.",
                         ["He is remembered above all for the [[chrysler-building|Chrysler Building]]."]),
    "shreve-lamb-harmon": ("Shreve, Lamb & Harmon", ("Shreve, Lamb & Harmon",),
                           "Shreve, Lamb & Harmon was an American architectural firm.",
                           ["It designed the [[empire-state-building|Empire State Building]]."]),
    "sloan-and-robertson": ("Sloan & Robertson", ("Sloan & Robertson",),
                            "Sloan & Robertson was a New York architectural firm of John Sloan and T. Markoe "
                            "Robertson.",
                            ["It designed the [[chanin-building|Chanin Building]] and the "
                             "[[graybar-building|Graybar Building]]."]),
    "york-and-sawyer": ("York and Sawyer", ("York and Sawyer",),
                        "York and Sawyer was an American architectural firm known for banks and hospitals.",
                        ["It designed the [[federal-reserve-bank-of-new-york|Federal Reserve Bank of New York]]."]),
    "herts-and-tallant": ("Herts & Tallant", ("Herts & Tallant",),
                          "Herts & Tallant was an architectural firm of Henry B. Herts and Hugh Tallant that "
                          "specialised in theatres.",
                          ["It designed the [[new-amsterdam-theatre|New Amsterdam Theatre]] and the "
                           "[[lyceum-theatre|Lyceum Theatre]]."]),
    "joseph-francois-mangin": ("Joseph-François Mangin", ("Joseph-François Mangin",),
                               "Joseph-François Mangin was a French-born architect and surveyor in New York.",
                               ["He designed [[city-hall|New York City Hall]] with John McComb Jr. and the "
                                "[[old-st-patricks-cathedral|Old St. Patrick's Cathedral]]."]),
    "cross-and-cross": ("Cross & Cross", ("Cross & Cross",),
                        "Cross & Cross was a New York architectural firm of the brothers John Walter Cross and Eliot "
                        "Cross.",
                        ["It designed the [[general-electric-building|General Electric Building]]."]),
}

# slug -> (title, lead, paragraphs, categories)
TOPICS: dict[str, tuple[str, str, list[str], list[str]]] = {
    "manhattan": ("Manhattan", "Manhattan is the most densely populated of the five boroughs of "
                  "[[new-york-city|New York City]], mostly on an island between the [[hudson-river|Hudson River]] "
                  "and the [[east-river|East River]].",
                  ["North of Houston Street most of its streets follow the grid of the "
                   "[[commissioners-plan-of-1811|Commissioners' Plan of 1811]].",
                   "[[midtown|Midtown]] and the [[financial-district|Financial District]] are its two main business "
                   "districts."], ["City"]),
    "new-york-city": ("New York City", "New York City is the most populous city in the United States, made up of "
                      "five boroughs: [[manhattan|Manhattan]], Brooklyn, Queens, the Bronx and Staten Island.",
                      ["It was founded as the Dutch colony of New Amsterdam and renamed New York in 1664.",
                       "It is served by the [[new-york-city-subway|New York City Subway]]."], ["City"]),
    "commissioners-plan-of-1811": (
        "Commissioners' Plan of 1811", "The Commissioners' Plan of 1811 laid out the rectangular grid of streets "
        "and avenues of [[manhattan|Manhattan]] north of Houston Street.",
        ["It planned twelve numbered avenues running roughly north-south, 100 feet wide, and numbered streets "
         "running east-west, 60 feet wide, with fifteen wider crosstown streets of 100 feet, among them "
         "[[14th-street|14th]], [[23rd-street|23rd]], [[34th-street|34th]], [[42nd-street|42nd]] and "
         "[[57th-street|57th]] Streets.",
         "The grid is tilted about 29 degrees east of true north to follow the island, so 'Manhattan north' is not "
         "true north.",
         "[[broadway|Broadway]] predates the plan and cuts across the grid diagonally, creating squares where it "
         "crosses the avenues.",
         "[[central-park|Central Park]] was not part of the plan; it was added in the 1850s."],
        ["Streets and avenues", "Urban planning"]),
    "street-addresses-in-manhattan": (
        "Street addresses in Manhattan", "Street addresses in [[manhattan|Manhattan]] follow simple rules that "
        "let a visitor find the nearest avenue from a house number.",
        ["On the numbered streets, [[fifth-avenue|Fifth Avenue]] divides East from West: numbers rise away from "
         "Fifth Avenue in both directions.",
         "In Midtown, West-side numbers 1 to 99 lie between Fifth and Sixth Avenues, 100 to 199 between Sixth and "
         "Seventh, 200 to 299 between Seventh and Eighth, and so on.",
         "Even numbers are on the south side of a street and odd numbers on the north side.",
         "Avenue numbers follow separate sequences for each avenue."], ["Streets and avenues"]),
    "landmarks-preservation-commission": (
        "New York City Landmarks Preservation Commission", "The New York City Landmarks Preservation Commission "
        "is the city agency that designates and protects landmarks and historic districts.",
        ["It was created in 1965, shortly after the demolition of the original [[penn-station|Pennsylvania "
         "Station]].",
         "In 1978 the United States Supreme Court upheld the landmarks law in a case about "
         "[[grand-central-terminal|Grand Central Terminal]]."], ["Preservation"]),
    "national-historic-landmark": (
        "National Historic Landmark", "A National Historic Landmark is a building, site or object recognised by the "
        "United States government for its national historic significance.",
        ["Manhattan landmarks with this status include the [[empire-state-building|Empire State Building]] and "
         "[[carnegie-hall|Carnegie Hall]]."], ["Preservation"]),
    "1916-zoning-resolution": (
        "1916 Zoning Resolution", "The 1916 Zoning Resolution was the first citywide zoning code in the United "
        "States.",
        ["It required tall buildings to step back from the street as they rose, so that light could reach the "
         "street.",
         "The setbacks shaped the [[art-deco|Art Deco]] skyscrapers of the 1920s and 1930s."],
        ["Urban planning", "Skyscrapers"]),
    "skyscraper": ("Skyscraper", "A skyscraper is a very tall, continuously habitable building; "
                   "[[new-york-city|New York City]] has one of the largest collections in the world.",
                   ["Towers in Manhattan that were once the tallest in the world include the "
                    "[[metropolitan-life-tower|Metropolitan Life Insurance Company Tower]], the "
                    "[[woolworth-building|Woolworth Building]], the [[chrysler-building|Chrysler Building]] and the "
                    "[[empire-state-building|Empire State Building]].",
                    "See also [[list-of-skyscrapers|the list of skyscrapers in this wiki]]."], ["Skyscrapers"]),
    "billionaires-row": ("Billionaires' Row", "Billionaires' Row is the group of supertall residential towers "
                         "built near [[57th-street|57th Street]] at the southern end of [[central-park|Central "
                         "Park]] since the 2010s.",
                         ["They include [[one57|One57]], [[steinway-tower|Steinway Tower]] and "
                          "[[central-park-tower|Central Park Tower]]."], ["Skyscrapers"]),
    "cast-iron-architecture": (
        "Cast-iron architecture", "Cast-iron architecture uses prefabricated cast-iron facades and columns, a "
        "building method popular in the United States in the mid-nineteenth century.",
        ["Facades could be ordered from catalogues and bolted together, often imitating carved stone.",
         "SoHo has one of the largest collections of cast-iron buildings in the world, such as the "
         "[[haughwout-building|E. V. Haughwout Building]]."], ["Architectural styles"]),
    "broadway-theatre": ("Broadway theatre", "Broadway theatre means the professional theatres with 500 or more "
                         "seats in the [[theater-district|Theater District]] and at Lincoln Center.",
                         ["The Tony Awards honour Broadway productions each year.",
                          "Long-running shows include The Phantom of the Opera at the [[majestic-theatre|Majestic "
                          "Theatre]], Wicked at the [[gershwin-theatre|Gershwin Theatre]] and Hamilton at the "
                          "[[richard-rodgers-theatre|Richard Rodgers Theatre]]."], ["Theatre"]),
    "greenmarket": ("Greenmarket", "Greenmarket is the network of farmers' markets in New York City run by the "
                    "non-profit GrowNYC, founded in 1976.",
                    ["Its largest market is the [[union-square-greenmarket|Union Square Greenmarket]].",
                     "Only farmers and producers from the region may sell at its markets."], ["Markets"]),
    "hudson-river": ("Hudson River", "The Hudson River flows south through eastern New York State and forms the "
                     "western edge of [[manhattan|Manhattan]].",
                     ["It is named after Henry Hudson, who sailed up it in 1609.",
                      "[[little-island|Little Island]] and the [[intrepid-museum|Intrepid Museum]] are on its "
                      "Manhattan shore."], ["Waterways"]),
    "east-river": ("East River", "The East River is a tidal strait between [[manhattan|Manhattan]] and the "
                   "boroughs of Brooklyn and Queens.",
                   ["The [[brooklyn-bridge|Brooklyn Bridge]] and the [[queensboro-bridge|Queensboro Bridge]] cross "
                    "it."], ["Waterways"]),
    # streets and avenues
    "broadway": ("Broadway", "Broadway is the oldest north-south thoroughfare of [[manhattan|Manhattan]], which "
                 "runs the length of the island and beyond.",
                 ["It follows the route of an old Native American trail and predates the "
                  "[[commissioners-plan-of-1811|grid of 1811]], so it crosses the avenues diagonally.",
                  "Where it crosses an avenue it forms a square: [[union-square|Union Square]] at 14th Street, "
                  "[[madison-square-park|Madison Square]] at Fifth Avenue, [[herald-square|Herald Square]] at Sixth "
                  "Avenue, [[times-square|Times Square]] at Seventh Avenue and [[columbus-circle|Columbus Circle]] "
                  "at Eighth Avenue.",
                  "Its name is also used for the [[broadway-theatre|theatre industry]] of the Theater District."],
                 ["Streets and avenues"]),
    "fifth-avenue": ("Fifth Avenue", "Fifth Avenue is a major avenue of [[manhattan|Manhattan]] that begins at "
                     "[[washington-square-arch|Washington Square Arch]] and runs north past Central Park.",
                     ["It divides the East Side from the West Side: [[street-addresses-in-manhattan|street "
                      "numbers]] rise east and west of it.",
                      "Its Midtown section between 49th and 60th Streets is one of the most expensive shopping "
                      "streets in the world.",
                      "Traffic on Fifth Avenue runs one way, southbound."], ["Streets and avenues"]),
    "sixth-avenue": ("Sixth Avenue", "Sixth Avenue, officially Avenue of the Americas since 1945, runs north from "
                     "Lower Manhattan to Central Park.",
                     ["An elevated railway ran above it until 1939; the [[ind-sixth-avenue-line|IND Sixth Avenue "
                      "Line]] now runs beneath it.",
                      "Traffic runs one way, northbound."], ["Streets and avenues"]),
    "seventh-avenue": ("Seventh Avenue", "Seventh Avenue runs north through Midtown to Central Park; in the "
                       "[[garment-district|Garment District]] it is also named Fashion Avenue.",
                       ["It crosses [[broadway|Broadway]] at [[times-square|Times Square]].",
                        "South of 11th Street it continues as Seventh Avenue South, cut through the West Village in "
                        "the 1910s.",
                        "Traffic runs one way, southbound."], ["Streets and avenues"]),
    "eighth-avenue": ("Eighth Avenue", "Eighth Avenue runs north through the West Side to "
                      "[[columbus-circle|Columbus Circle]], where it becomes Central Park West.",
                      ["The [[ind-eighth-avenue-line|IND Eighth Avenue Line]] runs beneath it.",
                       "Traffic runs one way, northbound."], ["Streets and avenues"]),
    "madison-avenue": ("Madison Avenue", "Madison Avenue runs north from Madison Square at 23rd Street, between "
                       "Fifth and Park Avenues.",
                       ["It is named after [[madison-square-park|Madison Square]], itself named after President "
                        "James Madison.",
                        "Its name became a byword for the American advertising industry.",
                        "Traffic runs one way, northbound."], ["Streets and avenues"]),
    "park-avenue": ("Park Avenue", "Park Avenue, originally Fourth Avenue, is a wide avenue on the East Side, "
                    "called Park Avenue South below 32nd Street.",
                    ["The railroad tracks leading to [[grand-central-terminal|Grand Central Terminal]] run beneath "
                     "it north of the terminal.",
                     "Around Grand Central its traffic is carried on a viaduct and through the "
                     "[[helmsley-building|Helmsley Building]].",
                     "Traffic runs in both directions, separated by planted malls north of the terminal."],
                    ["Streets and avenues"]),
    "lexington-avenue": ("Lexington Avenue", "Lexington Avenue runs north from [[gramercy-park|Gramercy Park]] at "
                         "21st Street; south of the park it continues as Irving Place.",
                         ["It is named after the Battle of Lexington of 1775.",
                          "The [[irt-lexington-avenue-line|IRT Lexington Avenue Line]] runs beneath it.",
                          "Traffic runs one way, southbound."], ["Streets and avenues"]),
    "14th-street": ("14th Street", "14th Street is a wide crosstown street that forms the traditional boundary "
                    "between Lower Manhattan and the grid to the north.",
                    ["[[union-square|Union Square]] lies on it at Broadway.",
                     "The [[bmt-canarsie-line|L train]] runs beneath it."], ["Streets and avenues"]),
    "23rd-street": ("23rd Street", "23rd Street is a wide crosstown street through Chelsea, the Flatiron District "
                    "and Gramercy.",
                    ["The [[flatiron-building|Flatiron Building]] and [[madison-square-park|Madison Square Park]] "
                     "face it.",
                     "The [[hotel-chelsea|Hotel Chelsea]] stands on it between Seventh and Eighth Avenues."],
                    ["Streets and avenues"]),
    "34th-street": ("34th Street", "34th Street is a wide crosstown street and a major shopping street.",
                    ["[[macys-herald-square|Macy's Herald Square]] and the [[empire-state-building|Empire State "
                     "Building]] stand on it.",
                     "It is served by the [[34-st-herald-sq-station|34th Street-Herald Square]] and "
                     "[[34-st-penn-station-station|34th Street-Penn Station]] subway stations."],
                    ["Streets and avenues"]),
    "42nd-street": ("42nd Street", "42nd Street is a wide crosstown street through the heart of Midtown, from the "
                    "Hudson River to the United Nations.",
                    ["[[grand-central-terminal|Grand Central Terminal]], [[bryant-park|Bryant Park]] and "
                     "[[times-square|Times Square]] are on it.",
                     "The [[42nd-street-shuttle|42nd Street Shuttle]] runs beneath it between Times Square and Grand "
                     "Central.",
                     "Its theatres between Seventh and Eighth Avenues were restored from the 1990s."],
                    ["Streets and avenues"]),
    "57th-street": ("57th Street", "57th Street is a wide crosstown street known for music halls, luxury shops and "
                    "supertall towers.",
                    ["[[carnegie-hall|Carnegie Hall]] is on it at Seventh Avenue.",
                     "The towers of [[billionaires-row|Billionaires' Row]] rise along it."], ["Streets and avenues"]),
    "wall-street": ("Wall Street", "Wall Street is a short street in the [[financial-district|Financial District]] "
                    "whose name stands for the American financial industry.",
                    ["It is named after a wall built by the Dutch settlers of New Amsterdam in the seventeenth "
                     "century.",
                     "[[trinity-church|Trinity Church]] stands at its western end, and the "
                     "[[new-york-stock-exchange|New York Stock Exchange]] is at its corner with Broad Street."],
                    ["Streets and avenues"]),
    # transit
    "new-york-city-subway": ("New York City Subway", "The New York City Subway is the rapid transit system of "
                             "[[new-york-city|New York City]]; its first line opened on 27 October 1904.",
                             ["It runs 24 hours a day.",
                              "Its lines were built by three companies, the IRT, the BMT and the city-owned IND, "
                              "which were unified in 1940.",
                              "Services are identified by letters and numbers, such as the "
                              "[[irt-lexington-avenue-line|4, 5 and 6]] on the East Side."], ["Transit"]),
    "irt-lexington-avenue-line": ("IRT Lexington Avenue Line", "The IRT Lexington Avenue Line is a subway line "
                                  "under [[lexington-avenue|Lexington Avenue]] and Park Avenue South, served by the "
                                  "4, 5 and 6 trains.",
                                  ["Its section south of [[grand-central-42-st-station|Grand Central]] opened in "
                                   "1904 as part of the first subway line.",
                                   "Stations include [[14-st-union-sq-station|14th Street-Union Square]] and "
                                   "[[23-st-station-6|23rd Street]]."], ["Transit"]),
    "irt-broadway-seventh-avenue-line": (
        "IRT Broadway-Seventh Avenue Line", "The IRT Broadway-Seventh Avenue Line is a subway line on the West "
        "Side, served by the 1, 2 and 3 trains.",
        ["Its section under Broadway north of [[times-square-42-st-station|Times Square]] opened in 1904; the "
         "Seventh Avenue section south of Times Square opened in 1917 and 1918.",
         "Stations include [[34-st-penn-station-station|34th Street-Penn Station]] and "
         "[[59-st-columbus-circle-station|59th Street-Columbus Circle]]."], ["Transit"]),
    "irt-flushing-line": ("IRT Flushing Line", "The IRT Flushing Line, served by the 7 train, runs from Hudson "
                          "Yards in Manhattan to Flushing in Queens.",
                          ["It runs under [[42nd-street|42nd Street]] through Midtown.",
                           "Its extension to 34th Street-Hudson Yards opened in 2015."], ["Transit"]),
    "42nd-street-shuttle": ("42nd Street Shuttle", "The 42nd Street Shuttle (S) is a short subway service under "
                            "[[42nd-street|42nd Street]] between [[times-square-42-st-station|Times Square]] and "
                            "[[grand-central-42-st-station|Grand Central]].",
                            ["Its tracks were part of the original subway line of 1904."], ["Transit"]),
    "bmt-broadway-line": ("BMT Broadway Line", "The BMT Broadway Line is a subway line under "
                          "[[broadway|Broadway]] in Manhattan, served by the N, Q, R and W trains.",
                          ["Stations include [[14-st-union-sq-station|14th Street-Union Square]], "
                           "[[34-st-herald-sq-station|34th Street-Herald Square]] and "
                           "[[times-square-42-st-station|Times Square]]."], ["Transit"]),
    "bmt-canarsie-line": ("BMT Canarsie Line", "The BMT Canarsie Line, served by the L train, runs under "
                          "[[14th-street|14th Street]] in Manhattan and on to Canarsie in Brooklyn.",
                          ["Its Manhattan terminal is at [[14-st-8-av-station|Eighth Avenue]]."], ["Transit"]),
    "ind-eighth-avenue-line": ("IND Eighth Avenue Line", "The IND Eighth Avenue Line is a subway line under "
                               "[[eighth-avenue|Eighth Avenue]], served by the A, C and E trains.",
                               ["It opened in 1932 as the first line of the city-owned Independent Subway System.",
                                "Stations include [[42-st-port-authority-station|42nd Street-Port Authority Bus "
                                "Terminal]] and [[59-st-columbus-circle-station|59th Street-Columbus Circle]]."],
                               ["Transit"]),
    "ind-sixth-avenue-line": ("IND Sixth Avenue Line", "The IND Sixth Avenue Line is a subway line under "
                              "[[sixth-avenue|Sixth Avenue]], served by the B, D, F and M trains.",
                              ["Its Midtown section opened in 1940, a year after the elevated line above the avenue "
                               "was demolished.",
                               "Stations include [[47-50-sts-station|47th-50th Streets-Rockefeller Center]] and "
                               "[[34-st-herald-sq-station|34th Street-Herald Square]]."], ["Transit"]),
}

# --- the project's own facts about each place ------------------------------------------------------
# Every place article gets an "On site" section of details that exist only in this wiki's world (a
# plaque, a restoration, a weekly walk, a mosaic, a time capsule, an exhibition floor, a sculpture).
# They are drawn deterministically (seeded by WORLD_SEED and the article's slug), so no model can know
# them from the real building: an agent has to read the article. Each is stored in the article's
# ``world_facts`` as a typed record (see embodiedweb.domains.outdoor.answers) together with the one
# sentence of the section that states it; traveling tasks ask about them and their checker reads them.

WORLD_SEED = 13
GIVEN_NAMES = (
    "Ada", "Adaeze", "Ahmed", "Aiko", "Alma", "Amara", "Anders", "Ana", "Anika", "Arjun", "Astrid", "Beatriz",
    "Bogdan", "Carmen", "Chidi", "Clara", "Dario", "Dmitri", "Elif", "Elena", "Emeka", "Esther", "Farah", "Felix",
    "Freya", "Gustavo", "Hana", "Hamid", "Inès", "Ingrid", "Isaac", "Jalen", "Jonas", "Jorge", "Kai", "Kalani",
    "Kenji", "Lars", "Leila", "Lucía", "Malik", "Marisol", "Mateo", "Mei", "Milan", "Nadia", "Nia", "Nikhil",
    "Noor", "Olga", "Omar", "Oskar", "Priya", "Rafael", "Ravi", "Rosa", "Ruth", "Samir", "Selma", "Søren",
    "Tariq", "Tomás", "Valeria", "Viktor", "Wanjiru", "Xavier", "Yara", "Yusuf", "Zainab", "Zofia")
SURNAMES = (
    "Abernethy", "Adebayo", "Agarwal", "Akhtar", "Albrecht", "Alvarado", "Andersson", "Aoki", "Arrington",
    "Ashworth", "Babić", "Bachmann", "Balogun", "Barros", "Bergström", "Bhatt", "Blomqvist", "Boateng",
    "Bonnaire", "Brandauer", "Brennan", "Calloway", "Castellanos", "Chaudhry", "Cieślak", "Coyle", "Dąbrowski",
    "Dahlberg", "Delacroix-Hart", "Demirci", "Desrosiers", "Dimitriou", "Donnelly", "Duarte", "Eberhardt",
    "Ekström", "Escobedo", "Esposito", "Falkner", "Fairweather", "Fenwick", "Figueroa", "Fitzgerald-Oyelaran",
    "Galloway", "Gallagher", "Gerhardt", "Ghosh", "Grünewald", "Guerrero", "Gutiérrez", "Hadley", "Halvorsen",
    "Hargreaves", "Hashemi", "Haverkamp", "Hendricks", "Holmberg", "Hosseini", "Ibarra", "Iwasaki", "Jablonski",
    "Jankowski", "Jovanović", "Kamara", "Kapoor", "Karlsson", "Kavanagh", "Kiplagat", "Kowalczyk", "Krishnan",
    "Kuznetsova", "Lachance", "Lindqvist", "Llewellyn", "Lombardi", "Lundgren", "Macintyre", "Maddox",
    "Magnusson", "Makinde", "Marchetti", "Mbeki", "McAllister", "Medeiros", "Mendelsohn", "Moreau", "Morrissey",
    "Mukherjee", "Nakamura", "Navarro", "Ndiaye", "Nieminen", "Novak", "Nwosu", "Oberholzer", "Okafor",
    "Okonkwo", "Olatunji", "Ortega", "Osei", "Ostrowski", "Pacheco", "Palmqvist", "Papadakis", "Pereira",
    "Petrakis", "Pettersen", "Quintero", "Radcliffe", "Rahman", "Rasmussen", "Reyes-Whitlock", "Rinaldi",
    "Rosenthal", "Sandoval", "Santangelo", "Schreiber", "Sekibo", "Shapiro", "Sigurdsson", "Sokolov",
    "Stavros", "Strand", "Sundaram", "Szabó", "Takahashi", "Tanaka-Reid", "Thorne", "Toivonen", "Trevino",
    "Underwood", "Valdés", "Vasquez", "Velasco", "Vidal", "Villanueva", "Voskuijlen", "Wainwright",
    "Wasserman", "Whitfield", "Wojcik", "Yamada", "Yilmaz", "Zamora", "Zielinski", "Zubiri",
    "de la Vega", "de Souza", "van Dalen", "van der Meulen", "di Stefano", "del Castillo", "le Roux",
    "van Houten", "da Silva", "von Ahlen", "O'Halloran", "D'Souza")
PLAQUE_ROLES = (
    "a stonemason who worked on the site", "a local historian", "a longtime caretaker of the site",
    "a founder of the neighborhood association", "a lamplighter who served the district",
    "a schoolteacher who led walks here", "a volunteer gardener", "a mapmaker of the old city",
    "a printer whose shop stood nearby", "a nurse who lived across the street", "a night watchman of the block",
    "a librarian who collected the site's history")
MOSAIC_SUBJECTS = (
    "the old shoreline", "the street grid", "autumn leaves", "the river at dawn", "a summer storm",
    "the night sky", "falling snow", "market stalls", "sailing ships", "a map of the old city",
    "the first subway trains", "a harvest festival", "the harbor lights", "spring blossoms")
ANIMALS = ("owl", "fox", "heron", "hare", "beaver", "lynx", "stag", "swan", "falcon", "otter", "bison", "raven",
           "dolphin", "tortoise", "sparrow", "badger", "peacock", "pelican", "squirrel", "crane", "wolf", "horse",
           "hedgehog", "salmon", "kingfisher", "magpie", "walrus", "moose", "gazelle", "hummingbird", "octopus",
           "camel")
#: the order of the facts in the section (and the keys of ``world_facts``)
WORLD_FACT_KEYS = ("plaque_honoree", "restoration_leads", "tour_time", "mosaic_length", "capsule_year",
                   "exhibit_floor", "sculpture_animal")
EXHIBIT_MIN_FLOORS = 20


def _ordinal(n: int) -> str:
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


def _person(rng: random.Random, used: set[tuple[str, str]]) -> str:
    """A new person's name, sometimes with a middle initial. No two people of the wiki share a surname and an
    initial of a given name (as the answer judge reads names), so any form of a name means one person."""
    from embodiedweb.domains.outdoor.answers import person_keys  # the judge's own reading of names

    while True:
        given, surname = rng.choice(GIVEN_NAMES), rng.choice(SURNAMES)
        middle = rng.choice("ABCDEFGHJKLMNPRSTVW") if rng.random() < 0.4 else ""
        name = f"{given} {middle + '. ' if middle else ''}{surname}"
        keys = person_keys(name)
        if len(keys) == (2 if middle else 1) and not keys & used:
            used.update(keys)
            return name


def world_facts(p: dict[str, Any], used: set[tuple[str, str]]) -> dict[str, dict[str, Any]]:
    """The place's own details (see above): key -> ``{"kind", "value", ..., "text"}``; ``used`` holds the
    (first initial, surname) pairs of people already in the wiki and is updated."""
    rng = random.Random(f"{WORLD_SEED}:{p['place_id']}")
    out: dict[str, dict[str, Any]] = {}
    honoree = _person(rng, used)
    out["plaque_honoree"] = {"kind": "name", "value": honoree,
                             "text": f"A bronze plaque beside the main entrance honours {honoree}, "
                                     f"{rng.choice(PLAQUE_ROLES)}."}
    leads = f"{_person(rng, used)} and {_person(rng, used)}"
    out["restoration_leads"] = {"kind": "name", "value": leads,
                                "text": f"The most recent restoration of the site was led by the architects {leads}."}
    minutes = rng.randrange(8 * 60, 18 * 60, 5)
    h, m = divmod(minutes, 60)
    when = f"{(h - 1) % 12 + 1}:{m:02d} {'am' if h < 12 else 'pm'}"
    out["tour_time"] = {"kind": "time", "value": when,
                        "text": f"Free guided walks leave from the main entrance every Saturday at {when}."}
    length = rng.randrange(40, 401) / 10
    out["mosaic_length"] = {"kind": "number", "value": f"{length:.1f}", "unit": "m",
                            "tol": round(max(0.16, 0.01 * length), 2),  # half a foot: the feet are rounded
                            "text": f"A mosaic of {rng.choice(MOSAIC_SUBJECTS)} beside the main entrance is "
                                    f"{length:.1f} metres ({round(length / 0.3048)} feet) long."}
    year = rng.randrange(2030, 2150)
    out["capsule_year"] = {"kind": "number", "value": str(year), "unit": "year", "tol": 0,
                           "text": f"A time capsule is buried by the main entrance; it is to be opened in {year}."}
    if (p.get("floors") or 0) >= EXHIBIT_MIN_FLOORS:
        floor = rng.randrange(2, int(p["floors"]))
        out["exhibit_floor"] = {"kind": "number", "value": str(floor), "unit": "floor", "tol": 0,
                                "text": f"A permanent exhibition on the history of the site is on the "
                                        f"{_ordinal(floor)} floor."}
    animal = rng.choice(ANIMALS)
    out["sculpture_animal"] = {"kind": "choice", "value": animal, "choices": list(ANIMALS),
                               "text": f"A small bronze sculpture of {'an' if animal[0] in 'aeiou' else 'a'} {animal} "
                                       "stands beside the main entrance."}
    return out


# --- generation --------------------------------------------------------------------------------

LINK_RX = re.compile(r"\[\[([^\]|]+)(?:\|([^\]]*))?\]\]")

CATEGORY_LABELS = {
    "landmark": ("landmark", "Landmarks"), "skyscraper": ("skyscraper", "Skyscrapers"),
    "museum": ("museum", "Museums"), "theater": ("theatre", "Theatres"),
    "venue": ("performance and event venue", "Venues"), "station": ("transit station", "Stations"),
    "park": ("park", "Parks"), "square": ("public square", "Squares"), "church": ("house of worship", "Churches"),
    "library": ("library", "Libraries"), "hotel": ("hotel", "Hotels"), "market": ("market", "Markets"),
    "retail": ("shop", "Shops"), "university": ("educational institution", "Universities and schools"),
    "memorial": ("memorial", "Memorials"), "civic": ("civic building", "Civic buildings"),
    "bridge": ("bridge", "Bridges"), "store": ("grocery store", "Stores of the shop website"),
}


def slugify(text: str) -> str:
    s = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode().lower()
    s = re.sub(r"['’]", "", s)
    return re.sub(r"[^a-z0-9]+", "-", s).strip("-")


def plain_text(text: str) -> str:
    """Text with ``[[slug|label]]`` links replaced by their labels."""
    return LINK_RX.sub(lambda m: m.group(2) if m.group(2) is not None else m.group(1).replace("-", " "), text)


def link_slugs(text: str) -> list[str]:
    return [m.group(1) for m in LINK_RX.finditer(text)]


def neighborhood_slug(name: str, place_ids: set[str]) -> str:
    if name == "Central Park":
        return "central-park"
    s = slugify(name)
    return f"{s}-neighborhood" if s in place_ids else s


def short_address(address: str) -> str:
    return re.sub(r",\s*New York,\s*NY\s*\d{5}$", "", address)


def _round_m(d: float) -> int:
    return int(round(d / 10.0) * 10)


def _architect_slugs(architect: str) -> list[str]:
    return [slug for slug, (_, aliases, _, _) in ARCHITECTS.items() if any(a in architect for a in aliases)]


def _style_slug(style: str) -> str | None:
    return STYLES[style][0] if style in STYLES else None


#: what every place article says about itself: the real place, except what this benchmark's world adds
PLACE_FOOTER = ("Opening hours are illustrative. The details under \"On site\" (plaques, walks, mosaics, time "
                "capsules, exhibitions, sculptures, restorations) belong to this benchmark's world, not to the real "
                "place; the rest describes the real place.")


def on_grid(places: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Places whose ``cross_streets`` say where the street world has them: the corner (``"1st Ave & E 43rd
    St"``) or the block (``"W 57th St between 7th Ave & Broadway"``) of the node the map, the street views
    and the checkers use for the place, so the wiki never sends a walker to another corner. Places beyond
    the street world keep their written cross streets."""
    from embodiedweb.worlds.street.city import build_city, streets_path

    city = build_city(json.loads(streets_path().read_text()))
    city.set_places(places)
    out = []
    for p in places:
        node = city.place_node(str(p.get("place_id")))
        out.append({**p, "cross_streets": city.intersection_name(node)} if node else dict(p))
    return out


def place_facts(p: dict[str, Any]) -> dict[str, str]:
    """Machine-readable facts of a place article (all values are strings, as they appear in the text)."""
    out = {"name": p["name"], "category": p["category"], "address": p["address"],
           "cross_streets": p["cross_streets"], "neighborhood": p["neighborhood"]}
    for key in ("year_built", "opened", "architect", "architectural_style", "height_m", "floors", "opening_hours"):
        if p.get(key) not in (None, ""):
            out[key] = str(p[key])
    return out


def _place_article(p: dict[str, Any], places: list[dict[str, Any]], ids: set[str]) -> dict[str, Any]:
    name, cat = p["name"], p["category"]
    label, list_title = CATEGORY_LABELS[cat]
    hood = p["neighborhood"]
    hslug = neighborhood_slug(hood, ids)
    addr = short_address(p["address"])
    year, opened = p.get("year_built"), p.get("opened")
    style, architect = p.get("architectural_style"), p.get("architect")
    sslug = _style_slug(style) if style else None
    style_link = f"[[{sslug}|{style}]]" if sslug else style
    arch_slugs = _architect_slugs(architect) if architect else []

    lead = f"{name} is a {label} in [[{hslug}|{hood}]], [[manhattan|Manhattan]], New York City, at {addr} ({p['cross_streets']})."
    bits = []
    if year:
        bits.append(f"It was completed in {year}")
    if architect:
        bits.append(("it was designed by " if not bits else "to a design by ") + architect)
    if style:
        bits.append(f"in the {style_link} style")
    if bits:
        s = bits[0] + (", " + " ".join(bits[1:]) if len(bits) > 1 and not bits[1].startswith("in the") else
                       (" " + " ".join(bits[1:]) if len(bits) > 1 else ""))
        lead += " " + s[0].upper() + s[1:] + "."
    if cat == "store":
        lead += (" It is one of the four stores of the [[list-of-stores-of-the-shop-website|shop website]], where "
                 "its products and prices can be compared.")

    history: list[str] = []
    if p.get("history"):
        history.append(p["history"])
    if year and opened and str(opened) != str(year):
        history.append(f"Construction was completed in {year}; it opened in {opened}.")
    elif year and opened:
        history.append(f"It was completed and opened in {year}.")
    elif year:
        history.append(f"Construction was completed in {year}.")
    elif opened:
        history.append(f"It opened in {opened}.")
    if not history:
        history.append(f"This wiki records no founding date for {name}.")

    arch: list[str] = []
    if architect:
        who = architect
        if arch_slugs:
            who += " (see " + ", ".join(f"[[{s}|{ARCHITECTS[s][0]}]]" for s in arch_slugs) + ")"
        arch.append(f"Architect: {who}.")
    if style:
        arch.append(f"Architectural style: {style_link}.")
    if p.get("height_m"):
        h = p["height_m"]
        arch.append(f"Height: {h} metres (about {round(h / 0.3048):,} feet).")
    if p.get("floors"):
        arch.append(f"Floors: {p['floors']}.")

    stations = [q for q in places if q["category"] == "station" and q["place_id"] != p["place_id"]]
    near_st = min(stations, key=lambda q: haversine_m(p["lat"], p["lng"], q["lat"], q["lng"]))
    d_st = _round_m(haversine_m(p["lat"], p["lng"], near_st["lat"], near_st["lng"]))
    others = sorted((q for q in places if q["place_id"] != p["place_id"]),
                    key=lambda q: (haversine_m(p["lat"], p["lng"], q["lat"], q["lng"]), q["place_id"]))[:4]
    visiting = [f"Address: {p['address']}.", f"On the street grid: {p['cross_streets']}."]
    if p.get("opening_hours"):
        visiting.append(f"Opening hours: {p['opening_hours']} (illustrative; check before visiting).")
    visiting.append(f"The nearest station listed in this wiki is [[{near_st['place_id']}|{near_st['name']}]], about "
                    f"{d_st} metres away in a straight line.")
    visiting.append("Nearby (straight-line distances): " + "; ".join(
        f"[[{q['place_id']}|{q['name']}]] ({_round_m(haversine_m(p['lat'], p['lng'], q['lat'], q['lng']))} m)"
        for q in others) + ".")

    sections = [{"heading": "History", "paragraphs": history},
                {"heading": "Architecture", "paragraphs": arch},
                {"heading": "Visiting", "paragraphs": visiting}]
    if p.get("notable_facts"):
        sections.append({"heading": "Notable facts", "paragraphs": list(p["notable_facts"])})
    rel = [r for r in p.get("related", []) if r != p["place_id"]]
    if rel:
        sections.append({"heading": "See also", "paragraphs": [", ".join(f"[[{r}]]" for r in rel)]})

    infobox = [["Type", label.capitalize()], ["Neighborhood", hood], ["Address", addr],
               ["Cross streets", p["cross_streets"]], ["Coordinates", f"{p['lat']:.4f}, {p['lng']:.4f}"]]
    if year:
        infobox.append(["Completed", str(year)])
    if opened:
        infobox.append(["Opened", str(opened)])
    if architect:
        infobox.append(["Architect", architect])
    if style:
        infobox.append(["Architectural style", style])
    if p.get("height_m"):
        infobox.append(["Height", f"{p['height_m']} m"])
    if p.get("floors"):
        infobox.append(["Floors", str(p["floors"])])
    if p.get("opening_hours"):
        infobox.append(["Opening hours", p["opening_hours"]])

    cats = [list_title, hood]
    if style:
        cats.append(f"{style} buildings")
    if year:
        cats.append(f"Built in the {int(year) // 10 * 10}s")
    return {"slug": p["place_id"], "title": name, "kind": "place", "place_id": p["place_id"], "lead": lead,
            "sections": sections, "infobox": infobox, "categories": cats, "facts": place_facts(p),
            "coordinates": [p["lat"], p["lng"]], "footer": PLACE_FOOTER}


def _list_section(places: list[dict[str, Any]], group_key: str) -> list[dict[str, Any]]:
    groups: dict[str, list[dict[str, Any]]] = {}
    for p in places:
        groups.setdefault(p[group_key] if group_key != "category" else CATEGORY_LABELS[p["category"]][1],
                          []).append(p)
    out = []
    for g in sorted(groups):
        items = sorted(groups[g], key=lambda p: p["name"])
        out.append({"heading": g, "paragraphs": [
            f"[[{p['place_id']}|{p['name']}]]" + (f", completed {p['year_built']}" if p.get("year_built") else "")
            + f" - {short_address(p['address'])}" for p in items]})
    return out


def _topic(slug: str, title: str, kind: str, lead: str, paragraphs: list[str], categories: list[str],
           extra: list[dict[str, Any]] | None = None, infobox: list[list[str]] | None = None) -> dict[str, Any]:
    sections = [{"heading": "Overview", "paragraphs": paragraphs}] if paragraphs else []
    return {"slug": slug, "title": title, "kind": kind, "lead": lead, "sections": sections + (extra or []),
            "infobox": infobox or [], "categories": categories}


def build(places: list[dict[str, Any]] | None = None) -> list[dict[str, Any]]:
    if places is None:
        places = json.loads((data_dir() / "places" / "places.json").read_text(encoding="utf-8"))
    places = on_grid(places)
    ids = {p["place_id"] for p in places}
    arts: list[dict[str, Any]] = [_place_article(p, places, ids) for p in places]
    used: set[tuple[str, str]] = set()
    for p, a in sorted(zip(places, arts, strict=True), key=lambda pa: pa[0]["place_id"]):
        a["world_facts"] = world_facts(p, used)
        at = [s["heading"] for s in a["sections"]].index("Visiting") + 1
        a["sections"].insert(at, {"heading": "On site", "paragraphs": [
            a["world_facts"][k]["text"] for k in WORLD_FACT_KEYS if k in a["world_facts"]]})

    hoods = sorted({p["neighborhood"] for p in places})
    for h in hoods:
        slug = neighborhood_slug(h, ids)
        if slug in ids:
            continue
        lead, paras = NEIGHBORHOODS[h]
        members = [p for p in places if p["neighborhood"] == h]
        arts.append(_topic(slug, h if slug == slugify(h) else f"{h} (neighborhood)", "neighborhood", lead, paras,
                           ["Neighborhoods"], [{"heading": "Places in this wiki", "paragraphs": []}]
                           + _list_section(members, "category"),
                           [["Borough", "Manhattan"], ["Places in this wiki", str(len(members))]]))
        arts[-1]["sections"] = [s for s in arts[-1]["sections"] if s["paragraphs"]]

    for style, (slug, lead, paras) in STYLES.items():
        members = [p for p in places if p.get("architectural_style") == style]
        extra = [{"heading": "Examples in this wiki", "paragraphs": [
            f"[[{p['place_id']}|{p['name']}]]" + (f" ({p['year_built']})" if p.get("year_built") else "")
            for p in sorted(members, key=lambda p: (p.get("year_built") or 0, p["name"]))]}] if members else []
        arts.append(_topic(slug, style if style not in ("Georgian", "Federal", "Postmodern", "Neoclassical")
                           else {"Georgian": "Georgian architecture", "Federal": "Federal architecture",
                                 "Postmodern": "Postmodern architecture",
                                 "Neoclassical": "Neoclassical architecture"}[style],
                           "style", lead, paras, ["Architectural styles"], extra))

    for slug, (title, aliases, lead, paras) in ARCHITECTS.items():
        members = [p for p in places if p.get("architect") and any(a in p["architect"] for a in aliases)]
        extra = [{"heading": "Works in this wiki", "paragraphs": [
            f"[[{p['place_id']}|{p['name']}]]" + (f" ({p['year_built']})" if p.get("year_built") else "")
            for p in sorted(members, key=lambda p: (p.get("year_built") or 0, p["name"]))]}] if members else []
        arts.append(_topic(slug, title, "architect", lead, paras, ["Architects"], extra))

    for slug, (title, lead, paras, cats) in TOPICS.items():
        arts.append(_topic(slug, title, "topic", lead, paras, cats))

    for cat, (label, list_title) in CATEGORY_LABELS.items():
        members = [p for p in places if p["category"] == cat]
        if not members:
            continue
        slug = "list-of-" + slugify(list_title)
        arts.append(_topic(slug, f"List of {list_title[0].lower() + list_title[1:]}"
                           if cat != "store" else "List of stores of the shop website", "list",
                           f"This list gives the {len(members)} places of the type '{label}' described in this "
                           f"wiki, grouped by neighborhood.", [], ["Lists"],
                           _list_section(members, "neighborhood")))

    for a in arts:
        a["summary"] = plain_text(a["lead"])
        links: list[str] = []
        for text in [a["lead"]] + [t for s in a["sections"] for t in s["paragraphs"]]:
            for s in link_slugs(text):
                if s not in links:
                    links.append(s)
        a["links"] = links
    slugs = [a["slug"] for a in arts]
    dup = {s for s in slugs if slugs.count(s) > 1}
    if dup:
        raise ValueError(f"duplicate article slugs: {sorted(dup)}")
    known = set(slugs)
    titles = {a["slug"]: a["title"] for a in arts}
    bad = sorted({(a["slug"], s) for a in arts for s in a["links"] if s not in known})
    if bad:
        raise ValueError(f"unresolved links: {bad}")
    # give bare [[slug]] links their article title as label
    for a in arts:
        def fill(text: str) -> str:
            return LINK_RX.sub(lambda m: m.group(0) if m.group(2) else f"[[{m.group(1)}|{titles[m.group(1)]}]]", text)
        a["lead"] = fill(a["lead"])
        for s in a["sections"]:
            s["paragraphs"] = [fill(t) for t in s["paragraphs"]]
    return sorted(arts, key=lambda a: a["slug"])


def article_text(article: dict[str, Any]) -> str:
    """The article's plain text: title, lead, headings and paragraphs, infobox values."""
    parts = [article["title"], plain_text(article["lead"])]
    for s in article["sections"]:
        parts.append(s["heading"])
        parts.extend(plain_text(t) for t in s["paragraphs"])
    parts.extend(f"{k}: {v}" for k, v in article.get("infobox", []))
    return "\n".join(parts)


def write(path: Path | None = None) -> Path:
    path = path or data_dir() / "wiki" / "articles.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    arts = build()
    lines = ["["]
    for i, a in enumerate(arts):
        lines.append("  " + json.dumps(a, sort_keys=True, ensure_ascii=False) + ("," if i < len(arts) - 1 else ""))
    lines.append("]")
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


if __name__ == "__main__":
    print(write())
