"""Red-team rows on the test split of both tiers (stop 39): overall under checker 11, or with ``--before``
under checker 10's rules (the hedge rule switched off, and a cue search counted as research, recomputed from the
episode's metrics). Run: ``python -m tests.domains.geolocation.measure_research_and_hedges [--before] NAME...``
with red-team class names of ``redteam.py`` or ``redteam_hard.py``."""

from __future__ import annotations

import sys

from embodiedweb.domains.geolocation import checker
from tests.domains.geolocation import redteam as rt
from tests.domains.geolocation import redteam_hard as rh


def main(argv: list[str]) -> None:
    """Print one line per tier and agent: passes of the episodes that carried the agent's idea out."""
    before = "--before" in argv
    names = [a for a in argv if a != "--before"]
    if before:
        checker.hedged = lambda *a, **k: ""  # type: ignore[assignment]
    for tier, tasks in (("hard", rh.hard_tasks()), ("standard", rt.all_tasks())):
        ts = [t for t in tasks if t.split == "test"]
        for n in names:
            cls = getattr(rh, n, None) or getattr(rt, n, None)
            if cls is None:
                print(f"no red-team agent {n!r}")
                continue
            if tier == "standard" and cls.__module__.endswith("hard"):
                continue
            res = [r for r in rt.run(cls, [t for t in ts if cls.applies(t)]) if r["carried_out"]]
            m = [r["metrics"] for r in res]
            if before:
                ok = sum(bool(x["city"] and x["embodied"] and (x["cue_articles_read"] or x["cue_searches"])) for x in m)
            else:
                ok = sum(bool(x["overall"]) for x in m)
            print(f"{tier} {n}: {ok}/{len(m)} {'checker 10' if before else 'checker 11'}")


if __name__ == "__main__":
    main(sys.argv[1:])
