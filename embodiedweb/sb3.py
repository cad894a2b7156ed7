"""Stable-Baselines3 support (the ``rl`` extra): a ``VecEnv`` over Gymnasium's vector envs, and a
candidate-scoring ``MaskablePPO`` policy for the masked discrete actions."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import gymnasium as gym
import numpy as np

from embodiedweb.extras import require

require("rl")

import torch as th  # noqa: E402
from sb3_contrib.common.maskable.policies import MaskableMultiInputActorCriticPolicy  # noqa: E402
from stable_baselines3.common.torch_layers import BaseFeaturesExtractor  # noqa: E402
from stable_baselines3.common.vec_env import VecEnv  # noqa: E402
from torch import nn  # noqa: E402

from embodiedweb.wrappers import unbatch_info  # noqa: E402

__all__ = ["SB3VecEnv", "CandidateFeatures", "CandidatePolicy", "candidate_policy_kwargs"]


class SB3VecEnv(VecEnv):
    """A Stable-Baselines3 ``VecEnv`` over a Gymnasium vector env made with same-step autoreset
    (:func:`make_rl_vec`).

    SB3 keeps its own vector-env classes (``DummyVecEnv``, ``SubprocVecEnv``) that do not accept Gymnasium's
    ``gym.make_vec``; this adapter lets SB3 and sb3-contrib train on it, sync or async:

    - ``step`` returns ``dones = terminated | truncated`` and one info dict per env with SB3's keys:
      ``terminal_observation`` (the episode's last observation) and ``TimeLimit.truncated``;
    - ``env_method("action_masks")`` (what ``MaskablePPO`` calls) answers from each env's last
      ``info["action_mask"]``, without a round trip to the worker processes;
    - ``get_attr``, ``set_attr`` and other ``env_method`` calls go to Gymnasium's ``get_attr``/``call``.

    Example:
        >>> from sb3_contrib import MaskablePPO
        >>> from embodiedweb.rl import make_rl_vec
        >>> venv = SB3VecEnv(make_rl_vec("EWA-Navigation-v0", 2, "async", split="train"))
        >>> model = MaskablePPO("MultiInputPolicy", venv, n_steps=64).learn(256)
    """

    def __init__(self, vector_env: gym.vector.VectorEnv) -> None:
        mode = vector_env.metadata.get("autoreset_mode")
        if mode is not None and str(getattr(mode, "value", mode)) != "SameStep":
            raise ValueError("SB3VecEnv needs a vector env with same-step autoreset "
                             "(make_rl_vec, or vector_kwargs={'autoreset_mode': gym.vector.AutoresetMode.SAME_STEP})")
        self.venv = vector_env
        self._actions: np.ndarray | None = None
        self._masks: list[np.ndarray] = []
        super().__init__( vector_env.num_envs, vector_env.single_observation_space,
                                 vector_env.single_action_space)

    # SB3's VecEnv API ---------------------------------------------------------------------------------
    def reset(self) -> Any:
        """Reset all envs (with the pending seeds/options) and return the batched observation; keeps ``reset_infos`` and action masks."""
        seed = None if all(s is None for s in self._seeds) else list(self._seeds)
        options = self._options[0] if self._options and all(o == self._options[0] for o in self._options) else None
        obs, info = self.venv.reset(seed=seed, options=options or None)
        self.reset_infos = [unbatch_info(info, i) for i in range(self.num_envs)]
        self._masks = [np.asarray(i["action_mask"]) for i in self.reset_infos if "action_mask" in i]
        self._reset_seeds()
        self._reset_options()
        return obs

    def step_async(self, actions: np.ndarray) -> None:
        """Store the batch of actions for the next ``step_wait``."""
        self._actions = np.asarray(actions)

    def step_wait(self) -> Any:
        """Step all envs with the stored actions; returns SB3-style ``(obs, rewards, dones, infos)`` with ``terminal_observation`` on done envs."""
        obs, rewards, terminated, truncated, info = self.venv.step(self._actions)
        dones = np.logical_or(terminated, truncated)
        infos = []
        for i in range(self.num_envs):
            item = unbatch_info(info, i)
            if dones[i]:
                final_info = item.pop("final_info", {}) or {}
                final_obs = item.pop("final_obs", None)
                item.update({k: v for k, v in final_info.items() if k != "action_mask"})
                item["terminal_observation"] = final_obs
                item["TimeLimit.truncated"] = bool(truncated[i] and not terminated[i])
                self.reset_infos[i] = item
            infos.append(item)
        self._masks = [np.asarray(item["action_mask"]) for item in infos if "action_mask" in item]
        return obs, np.asarray(rewards, dtype=np.float32), dones, infos

    def close(self) -> None:
        """Close the underlying vector env."""
        self.venv.close()

    def get_attr(self, attr_name: str, indices: Any = None) -> list[Any]:
        """Values of an attribute from the envs selected by ``indices``."""
        values = list(self.venv.get_attr(attr_name))
        return [values[i] for i in self._get_indices(indices)]

    def has_attr(self, attr_name: str) -> bool:
        """Whether every env has the attribute (``action_masks`` also counts when masks came with the last infos)."""
        if attr_name == "action_masks":
            return len(self._masks) == self.num_envs or self._all_have(attr_name)
        return self._all_have(attr_name)

    def _all_have(self, attr_name: str) -> bool:
        try:
            self.venv.get_attr(attr_name)
            return True
        except AttributeError:
            return False

    def set_attr(self, attr_name: str, value: Any, indices: Any = None) -> None:
        """Set an attribute on every env; raises ``NotImplementedError`` for a strict subset of indices."""
        if indices is not None and list(self._get_indices(indices)) != list(range(self.num_envs)):
            raise NotImplementedError("SB3VecEnv.set_attr sets an attribute on every env")
        self.venv.set_attr(attr_name, value)

    def env_method(self, method_name: str, *method_args: Any, indices: Any = None, **method_kwargs: Any) -> list[Any]:
        """Call a method on the selected envs; ``action_masks`` is answered from the cached masks when possible."""
        if method_name == "action_masks" and not method_args and not method_kwargs and len(self._masks) == self.num_envs:
            return [self._masks[i].copy() for i in self._get_indices(indices)]
        values = list(self.venv.call(method_name, *method_args, **method_kwargs))
        return [values[i] for i in self._get_indices(indices)]

    def env_is_wrapped(self, wrapper_class: type, indices: Any = None) -> list[bool]:
        """Always ``False`` per env: the wrappers live inside the workers."""
        return [False for _ in self._get_indices(indices)]  # the wrappers live in the workers

    def get_images(self) -> Sequence[np.ndarray | None]:
        """One rendered frame per env (``None`` for each when the vector env renders nothing)."""
        frames = self.venv.render()
        return list(frames) if frames is not None else [None] * self.num_envs


def candidate_policy_kwargs(dim: int = 64, hidden: int = 128) -> dict[str, Any]:
    """``policy_kwargs`` for :class:`CandidatePolicy` (``MaskablePPO(CandidatePolicy, env, policy_kwargs=...)``)."""
    return {"features_extractor_class": CandidateFeatures, "features_extractor_kwargs": {"dim": dim},
            "hidden": hidden}


class CandidateFeatures(BaseFeaturesExtractor):
    """Embeds token-id observations (:class:`~embodiedweb.wrappers.TokenObservations` with ``encoding="ids"``
    and ``candidates=True``): each text field and each candidate action is the mean of its tokens'
    embeddings (one table, so a word means the same in the page and in an action); other fields (one-hot
    ``active``, counts) are flattened. The features are ``[state | candidates (K x dim)]``.

    With ``match=True`` (the default) both sides also see *exact-match* features (DrQA's, Chen et al.
    2017): which of their tokens occur in each text field of the observation. A hashed id or a number
    means nothing by itself, but that it occurs both here and there does, and that generalises to ids and
    numbers never seen in training (the node a map's directions say to turn at and the node the street view
    says the agent is at, the quantity an instruction asks for and the one a page shows):

    - each candidate adds, per field, a learnt vector times the share of its tokens found in that field,
      and a projection of the found/not-found bits of its first ``positions`` tokens (which token matched: the id of ``move [n842]``, the place in
      ``stop | You are at n842 ...``);
    - the state adds the found/not-found bits of the first ``positions`` tokens of each text field in each
      other field (``You are at n842``: is ``842`` on the page?)."""

    def __init__(self, observation_space: gym.spaces.Dict, dim: int = 64, candidates_key: str = "candidates",
                 match: bool = True, positions: int = 24) -> None:
        self.candidates_key = candidates_key
        if candidates_key not in observation_space.spaces:
            raise ValueError(f"CandidateFeatures needs a {candidates_key!r} observation "
                             "(TokenObservations(..., encoding='ids', candidates=True))")
        cand = observation_space.spaces[candidates_key]
        self.k, row_tokens = int(cand.shape[0]), int(cand.shape[1])
        self.text_keys = [k for k, s in observation_space.spaces.items()
                          if k != candidates_key and isinstance(s, gym.spaces.Box) and len(s.shape) == 1
                          and np.issubdtype(s.dtype, np.integer)]
        self.other_keys = [k for k in observation_space.spaces if k != candidates_key and k not in self.text_keys]
        vocab = int(max(np.max(observation_space.spaces[k].high) for k in [*self.text_keys, candidates_key])) + 1
        other_dim = sum(int(gym.spaces.flatdim(observation_space.spaces[k])) for k in self.other_keys)
        self.match_keys = list(self.text_keys) if match else []
        self.positions = min(int(positions), row_tokens) if match else 0
        self.state_positions = {k: min(self.positions, int(observation_space.spaces[k].shape[0]))
                                for k in self.text_keys} if match else {}
        state_bits = sum(n * (len(self.match_keys) - 1) for n in self.state_positions.values())
        self.state_dim = dim * len(self.text_keys) + other_dim + state_bits
        super().__init__(observation_space, features_dim=self.state_dim + self.k * dim)
        self.dim = dim
        self.vocab = vocab
        self.embed = nn.EmbeddingBag(vocab, dim, mode="mean", padding_idx=0)
        # per field: what the share of a candidate's tokens found in that field adds (a token-specific table per
        # field was tried: 4x slower to train; cloned, 56.5 % instead of 65.2 % of held-back navigation tasks,
        # 20 % instead of 12 % of cooking ones)
        self.match_shared = nn.Parameter(th.zeros(len(self.match_keys), dim))
        self.match_positions = nn.Linear(self.positions * len(self.match_keys), dim, bias=False) \
            if self.match_keys else None

    def forward(self, obs: dict[str, Any]) -> Any:
        """Concatenate the embedded text fields, the flattened other fields, the state's match bits and
        the K embedded candidates."""
        parts = [self.embed(obs[k].long()) for k in self.text_keys]
        parts += [obs[k].float().reshape(obs[k].shape[0], -1) for k in self.other_keys]
        full = obs[self.candidates_key].long()
        b = full.shape[0]
        # only the rows up to the batch's last candidate: an empty row embeds to zeros (padding, no bias),
        # so the rest is zero-padded at the end (most states have far fewer candidates than K)
        used = int((full > 0).any(2).any(0).nonzero().max()) + 1 if bool((full > 0).any()) else 1
        cand = full[:, :used]
        rows = cand.reshape(b * used, -1)
        emb = self.embed(rows)
        if self.match_keys:
            presence = {k: self._presence(obs[k].long()) for k in self.match_keys}
            real = rows > 0
            share = real.float() / real.sum(1, keepdim=True).clamp(min=1)
            flat = cand.reshape(b, -1)
            bits = []
            for i, key in enumerate(self.match_keys):
                found = presence[key].gather(1, flat).reshape(b * used, -1) & real
                weights = found.float() * share
                emb = emb + weights.sum(1, keepdim=True) * self.match_shared[i]
                bits.append(found[:, : self.positions].float())
            emb = emb + self.match_positions(th.cat(bits, dim=1))
            for key, n in self.state_positions.items():
                head = obs[key].long()[:, :n]
                for other in self.match_keys:
                    if other != key:
                        parts.append((presence[other].gather(1, head) & (head > 0)).float())
        emb = th.nn.functional.pad(emb.reshape(b, used * self.dim), (0, (self.k - used) * self.dim))
        return th.cat([*parts, emb], dim=1)

    def _presence(self, ids: Any) -> Any:
        """(batch, vocab) booleans: which token ids occur in each row of ``ids`` (padding excluded)."""
        out = th.zeros(ids.shape[0], self.vocab, dtype=th.bool, device=ids.device)
        out.scatter_(1, ids, True)
        out[:, 0] = False
        return out


class _ScoreCandidates(nn.Module):
    """The mlp extractor of :class:`CandidatePolicy`: ``latent_pi`` is one logit per candidate (the dot
    product of a query from the state with the candidate's embedding), ``latent_vf`` the state's hidden layer."""

    def __init__(self, state_dim: int, dim: int, k: int, hidden: int) -> None:
        super().__init__()
        self.state_dim, self.dim, self.k = state_dim, dim, k
        self.body = nn.Sequential(nn.Linear(state_dim, hidden), nn.Tanh(), nn.Linear(hidden, hidden), nn.Tanh())
        self.query = nn.Linear(hidden, dim)
        self.latent_dim_pi = k
        self.latent_dim_vf = hidden

    def _split(self, features: Any) -> tuple[Any, Any]:
        state = features[:, : self.state_dim]
        cands = features[:, self.state_dim:].reshape(-1, self.k, self.dim)
        return self.body(state), cands

    def forward(self, features: Any) -> tuple[Any, Any]:
        h, cands = self._split(features)
        return (cands * self.query(h).unsqueeze(1)).sum(-1), h

    def forward_actor(self, features: Any) -> Any:
        return self.forward(features)[0]

    def forward_critic(self, features: Any) -> Any:
        return self._split(features)[0]


class CandidatePolicy(MaskableMultiInputActorCriticPolicy):
    """A ``MaskablePPO`` policy that scores the candidate actions by their text (DRRN-style, He et al. 2016):
    the logit of action ``i`` is ``q(state) . e(candidate_i)``, so what an index means is read from the
    candidate's words each step instead of being learnt per index (the candidate list changes from state
    to state). Needs :class:`~embodiedweb.wrappers.TokenObservations` with ``encoding="ids"`` and
    ``candidates=True`` over :class:`~embodiedweb.wrappers.DiscreteActions`.

    Example:
        >>> model = MaskablePPO(CandidatePolicy, venv, policy_kwargs=candidate_policy_kwargs())
    """

    def __init__(self, *args: Any, hidden: int = 128, **kwargs: Any) -> None:
        self._hidden = hidden
        kwargs.setdefault("features_extractor_class", CandidateFeatures)
        kwargs.setdefault("share_features_extractor", True)
        super().__init__(*args, **kwargs)

    def _build_mlp_extractor(self) -> None:
        fx = self.features_extractor
        self.mlp_extractor = _ScoreCandidates(fx.state_dim, fx.dim, fx.k, self._hidden)

    def _build(self, lr_schedule: Any) -> None:
        super()._build(lr_schedule)
        self.action_net = nn.Identity()  # the extractor's latent_pi is the logits already
        self.optimizer = self.optimizer_class(self.parameters(), lr=lr_schedule(1), **self.optimizer_kwargs)
