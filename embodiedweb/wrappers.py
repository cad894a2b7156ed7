"""Gymnasium wrappers that make the EmbodiedWeb envs RL-ready (issue 16, item 2).

* :class:`ShapedReward` - the sparse success reward, or that reward plus potential-based shaping on the
  checker's completion fraction (the optimal policy is unchanged, Ng et al. 1999).
* :class:`DiscreteActions` - a ``Discrete(K)`` action space over the env's admissible actions plus
  ``type`` actions with candidate strings from the instruction and the page, with a mask
  (``info["action_mask"]`` and ``action_masks()``, sb3-contrib ``MaskablePPO``'s convention).

Both wrap an env made by ``gym.make("EWA-...-v0")`` (any wrappers in between) and read the
:class:`embodiedweb.env.EmbodiedWebEnv` under them through ``env.unwrapped``.
"""

from __future__ import annotations

import re
from typing import Any, SupportsFloat

import gymnasium as gym

__all__ = ["ShapedReward", "completion_now", "canonical_action"]


def completion_now(base: Any) -> float:
    """The checker's completion fraction (0..1) of the env's current semantic state.

    ``base`` is an :class:`embodiedweb.env.EmbodiedWebEnv`; the domain's ``check`` runs on an
    :class:`embodiedweb.domains.base.Episode` built from the world's semantic state, the web session's
    snapshot, the answer so far (``None`` until ``stop``), the step and switch counts and the history:
    the same Episode the env checks at the end of an episode, so at the last step this is
    ``info["metrics"]["completion"]``. A checker error counts as 0.
    """
    if base.task is None:
        return 0.0
    return float(base._metrics().get("completion", 0.0))


class ShapedReward(gym.Wrapper[Any, Any, Any, Any], gym.utils.RecordConstructorArgs):
    """Chooses the reward of an EmbodiedWeb env: ``sparse`` or ``progress`` (potential-based shaping).

    * ``mode="sparse"``: the env's own reward, 1.0 on the step that ends a successful episode
      (``info["metrics"]["overall"]``), 0.0 otherwise. The wrapper then only adds ``info["potential"]``
      and ``info["shaping"]`` = 0.0 (nothing is computed: sparse costs nothing).
    * ``mode="progress"``: ``r' = r + gamma * Phi(s') - Phi(s)`` where the potential ``Phi(s)`` is the
      checker's completion fraction of the state (:func:`completion_now`: the domain's ``check`` on the
      current semantic state, every step). Because the shaping term is a difference of potentials, the
      optimal policy of the shaped MDP is the optimal policy of the sparse one (Ng, Harada and Russell,
      *Policy invariance under reward transformations*, ICML 1999); use the same ``gamma`` as the agent.

    Terminal states: by default (``terminal_potential="zero"``) the potential of the state an episode
    *terminates* in (``stop``) is 0, as Ng et al.'s absorbing state requires for invariance in episodic
    tasks: over an episode the shaping terms then sum to ``-Phi(s_0)`` for ``gamma=1`` (progress earned
    is given back at the end unless the success reward pays for it). With ``terminal_potential="completion"``
    the terminal state keeps its completion as potential (the episode's shaping then sums to
    ``Phi(s_T) - Phi(s_0)`` for ``gamma=1``, a bonus for partial completion: no longer strictly
    policy-invariant). A truncated episode's last state is not absorbing: its potential is its completion.

    ``info`` gains ``potential`` (``Phi(s')`` as used) and ``shaping`` (``r' - r``); the env's reward stays
    in ``info["sparse_reward"]``.

    Example:
        >>> import gymnasium as gym, embodiedweb
        >>> from embodiedweb.wrappers import ShapedReward
        >>> env = ShapedReward(gym.make("EWA-Navigation-v0"), mode="progress", gamma=0.99)
        >>> obs, info = env.reset(seed=0)
        >>> info["potential"]
        0.0

    Cost: one checker call per step in ``progress`` mode (see the README's measured figures).
    """

    def __init__(self, env: gym.Env[Any, Any], mode: str = "progress", gamma: float = 0.99,
                 terminal_potential: str = "zero") -> None:
        if mode not in ("sparse", "progress"):
            raise ValueError(f"mode must be 'sparse' or 'progress', got {mode!r}")
        if not 0.0 <= gamma <= 1.0:
            raise ValueError(f"gamma must be in [0, 1], got {gamma!r}")
        if terminal_potential not in ("zero", "completion"):
            raise ValueError(f"terminal_potential must be 'zero' or 'completion', got {terminal_potential!r}")
        gym.utils.RecordConstructorArgs.__init__(self, mode=mode, gamma=gamma, terminal_potential=terminal_potential)
        gym.Wrapper.__init__(self, env)
        self.mode = mode
        self.gamma = float(gamma)
        self.terminal_potential = terminal_potential
        self.potential = 0.0

    def _phi(self) -> float:
        return completion_now(self.env.unwrapped) if self.mode == "progress" else 0.0

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[Any, dict[str, Any]]:
        obs, info = self.env.reset(seed=seed, options=options)
        self.potential = self._phi()
        info["potential"] = self.potential
        info["shaping"] = 0.0
        return obs, info

    def step(self, action: Any) -> tuple[Any, SupportsFloat, bool, bool, dict[str, Any]]:
        obs, reward, terminated, truncated, info = self.env.step(action)
        if self.mode == "progress":
            if terminated and self.terminal_potential == "zero":
                phi = 0.0
            elif "metrics" in info:  # the env checked the final state already
                phi = float(info["metrics"].get("completion", 0.0))
            else:
                phi = self._phi()
            shaping = self.gamma * phi - self.potential
            self.potential = phi
        else:
            shaping = 0.0
        info["potential"] = self.potential
        info["shaping"] = shaping
        info["sparse_reward"] = float(reward)
        return obs, float(reward) + shaping, terminated, truncated, info


def canonical_action(action: str) -> str:
    """An action with its whitespace normalised: runs of whitespace become one space, none at the ends
    and none just inside brackets (``type [ 3 ] [a  b]`` -> ``type [3] [a b]``)."""
    text = re.sub(r"\s+", " ", str(action)).strip()
    return re.sub(r"\[\s*(.*?)\s*\]", lambda m: f"[{m.group(1)}]", text)
