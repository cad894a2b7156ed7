"""Digests of :class:`~embodiedweb.wrappers.DiscreteActions`' candidate lists over random play (a check for work on
the wrapper's speed: a change that keeps the lists keeps the digests).

``python -m embodiedweb.benches.candidate_lists [--steps 800] [--long-steps 3000] [--out lists.jsonl.gz]`` plays
``steps`` random steps (seed 0) of every env and level (Assistant has the standard tier only), then
``long_steps`` steps (seed 7) of Assistant and Geolocation, where random play keeps meeting pages never read
before; each step's list goes into a SHA-256 digest per run and a total, and ``--out`` writes every list
(gzip JSON lines) to diff two versions with. The random agent is ``ewa bench``'s (an unmasked index that is not a
``stop``), so a list that differs sends the run elsewhere and every digest after it differs. Run it from two
checkouts on the same data (task files, site data): the digests are of this data, not pinned values.
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import json
from typing import IO, Any

import gymnasium as gym
import numpy as np


def _runs(steps: int, long_steps: int) -> list[tuple[str, str, int, int]]:
    """(env id, level, seed, steps) of each run."""
    import embodiedweb  # noqa: F401  (registers the ids)
    from embodiedweb.registration import registered_ids

    runs = [(env_id, level, 0, steps) for env_id in registered_ids()
            for level in (("standard",) if "Assistant" in env_id else ("standard", "hard"))]
    return runs + [("EWA-Assistant-v0", "standard", 7, long_steps), ("EWA-Geolocation-v0", "standard", 7, long_steps)]


def candidate_digests(steps: int = 800, long_steps: int = 3000, out: IO[str] | None = None
                      ) -> tuple[list[tuple[str, str, int, int, str]], str, int]:
    """(per run: env id, level, seed, steps and the digest of its lists; the total digest; the number of lists),
    writing each list as a JSON line to ``out`` when given."""
    from embodiedweb.benches.rl import _random_action
    from embodiedweb.wrappers import DiscreteActions

    total = hashlib.sha256()
    rows: list[tuple[str, str, int, int, str]] = []
    count = 0
    for env_id, level, seed, n in _runs(steps, long_steps):
        env: Any = DiscreteActions(gym.make(env_id, level=level))
        rng = np.random.default_rng(seed)
        _obs, info = env.reset(seed=seed)
        digest = hashlib.sha256()
        for i in range(n):
            line = json.dumps([env_id, level, i, info["candidate_actions"], env.last_candidate_count],
                              ensure_ascii=False)
            digest.update(line.encode())
            count += 1
            if out is not None:
                out.write(line + "\n")
            _obs, _, terminated, truncated, info = env.step(_random_action(env, info, rng))
            if terminated or truncated:
                _obs, info = env.reset(seed=seed + i + 1)
        env.close()
        total.update(digest.digest())
        rows.append((env_id, level, seed, n, digest.hexdigest()))
    return rows, total.hexdigest(), count


def main(argv: list[str] | None = None) -> int:
    """Print each run's digest and the total (see the module's docstring)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n", 1)[0])
    parser.add_argument("--steps", type=int, default=800, help="random steps per env and level (seed 0)")
    parser.add_argument("--long-steps", type=int, default=3000, help="steps of the Assistant and Geolocation runs")
    parser.add_argument("--out", help="write every list here (gzip JSON lines)")
    args = parser.parse_args(argv)
    if args.steps < 1 or args.long_steps < 1:
        parser.error("--steps and --long-steps must be positive")
    with gzip.open(args.out, "wt", encoding="utf-8") if args.out else _NoFile() as fh:
        rows, total, count = candidate_digests(args.steps, args.long_steps, fh if args.out else None)
    for env_id, level, seed, n, digest in rows:
        print(f"{env_id} {level} seed {seed}, {n} steps: {digest[:16]}")
    print(f"total over {count} lists: {total}")
    return 0


class _NoFile:
    """A context manager standing in for the output file when there is none."""

    def __enter__(self) -> None:
        return None

    def __exit__(self, *exc: object) -> None:
        return None


if __name__ == "__main__":
    raise SystemExit(main())
