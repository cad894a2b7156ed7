"""How often the country's best-known city is a geolocation task's answer, per tier and split (stop 39).

Best-known candidates: the capital (the first city the country's wiki article lists, "The capital is ..."),
the first of the generator's city list (written best-known first: London, Rabat), the first non-capital of that
list (Casablanca, the cheater's guess), and the first of the wiki's "Major cities" (alphabetical). Chance:
1 / the number of the country's cities on the wiki. Run: ``python -m tests.domains.geolocation.measure_best_known_city``.
"""

from __future__ import annotations

from embodiedweb.data_gen.geo import BY_CODE, CITIES
from tests.domains.geolocation import redteam as rt
from tests.domains.geolocation import redteam_hard as rh


def main() -> None:
    """Print one line per tier and split."""
    for tier, tasks in (("standard", rt.all_tasks()), ("hard", rh.hard_tasks())):
        for split in ("train", "test"):
            ts = [t for t in tasks if t.split == split]
            rows = {"capital": 0, "generator's first": 0, "major cities' first": 0, "first non-capital": 0,
                    "any of them": 0}
            chance = 0.0
            for t in ts:
                sp = rt.standpoint_of(t)
                cc = sp["country_code"]
                names = [r[0] for r in CITIES[cc]]
                capital = BY_CODE[cc]["capital"]
                cand = {"capital": capital, "generator's first": names[0], "major cities' first": sorted(names)[0],
                        "first non-capital": next(n for n in names if n != capital)}
                for k, v in cand.items():
                    rows[k] += v == sp["city"]
                rows["any of them"] += sp["city"] in cand.values()
                chance += 1 / len(names)
            print(f"{tier} {split} ({len(ts)} tasks): "
                  + ", ".join(f"{k} {v} ({v / len(ts):.0%})" for k, v in rows.items())
                  + f"; chance {chance / len(ts):.0%}")


if __name__ == "__main__":
    main()
