"""``ewa alfred-replay``: replay ALFRED expert trajectories in the kitchen simulator."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any


def cmd_alfred_replay(a: argparse.Namespace) -> int:
    from embodiedweb.worlds.kitchen.alfred import (
        replay_file,  # loaded when the command runs: `ewa --help` stays quick
    )

    try:
        res = replay_file(a.file, ablate=a.ablate, layouts_dir=a.layouts, progress=not a.json, split=a.split)
    except FileNotFoundError as e:
        print(f"ewa alfred-replay: {e}", file=sys.stderr)
        return 2
    if not a.json:
        n = max(res["trajectories"], 1)
        print(f"trajectories {res['trajectories']}  actions_ok {res['actions_ok']} ({res['actions_ok'] / n:.1%})  "
              f"goal_satisfied {res['goal_satisfied']} ({res['goal_satisfied'] / n:.1%})", file=sys.stderr)
    print(json.dumps(res))
    return 0


def add_commands(sub: Any) -> None:
    p = sub.add_parser("alfred-replay", help="replay ALFRED trajectories (.jsonl or .jsonl.gz) in the simulator")
    p.add_argument("file")
    p.add_argument("--ablate", action="store_true",
                   help="drop SliceObject, ToggleObjectOn and Fridge CloseObject; count heat/cool/clean/slice goals")
    p.add_argument("--layouts", default=None, help="folder of FloorPlanN-* layout files (default: FILE's layouts/)")
    p.add_argument("--split", choices=("tune", "heldout"), default=None)
    p.add_argument("--json", action="store_true", help="print only the JSON object")
    p.set_defaults(func=cmd_alfred_replay)
