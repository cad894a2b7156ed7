"""Instructions given one at a time (a domain with ``multi_turn``, e.g. EWA-Assistant-v0).

The user's instructions come in turns: the observation's ``instruction`` holds the current one and
``dialogue`` the conversation so far. The agent ends a turn with ``done [answer]``; the domain's
:meth:`~embodiedweb.domains.base.Domain.check_turn` judges it at that moment on the semantic state (the
world, every site's per-session state and the browser's tabs), against the state at the turn's start, and
the next instruction appears. After the last one the episode terminates.

With ``teacher_forcing=True`` a wrong turn does not spoil the next ones: the env rebuilds the state a
correct agent would have at that point (the task's start, then the domain's oracle playing the finished
turns through the same action interface, unseen and not counted as steps), so every turn is scored on its
own (the step success rate of sequential-instruction benchmarks).
"""

from __future__ import annotations

from typing import Any

from embodiedweb.actions import REGISTRY, ActionError

#: the longest ``dialogue`` observation (characters); older turns are cut first
DIALOGUE_MAX = 8_192


class MultiTurn:
    """The turn logic of :class:`embodiedweb.env.EmbodiedWebEnv` (see the module docstring)."""

    # provided by the env
    task: Any
    domain: Any
    multi_turn: bool
    teacher_forcing: bool
    turn: int
    turns: list[dict[str, Any]]
    _turn_start: dict[str, Any]

    def turn_texts(self) -> list[str]:
        """The task's instructions, one per turn (one for an env without turns)."""
        assert self.task is not None
        if not self.multi_turn:
            return [self.task.instruction]
        return self.domain.instructions(self.task)

    @property
    def instruction(self) -> str:
        """The current instruction (the last one once the episode has ended)."""
        assert self.task is not None
        if not self.multi_turn:
            return self.task.instruction
        texts = self.turn_texts()
        return texts[min(self.turn, len(texts) - 1)]

    def dialogue_text(self) -> str:
        """The conversation so far: each finished instruction with the agent's ``done``, then the current one."""
        texts = self.turn_texts()
        lines: list[str] = []
        for r in self.turns:
            lines.append(f"User ({r['turn'] + 1}/{len(texts)}): {texts[r['turn']]}")
            lines.append(f"You: done [{r['answer']}]" if r["answer"] else "You: done")
            if r.get("restored"):
                lines.append("(Teacher forcing: the state was set to what a correct run would have here.)")
        if self.turn < len(texts):
            lines.append(f"User ({self.turn + 1}/{len(texts)}): {texts[self.turn]}")
        text = "\n".join(lines)
        if len(text) > DIALOGUE_MAX:  # keep the newest turns
            text = "… " + text[-(DIALOGUE_MAX - 2):]
        return text

    def _turn_snapshot(self) -> dict[str, Any]:
        """What a turn's checker compares: the world, the sites' per-session state and the browser's tabs (their
        URLs, the active one, and each one's serial number)."""
        driver = self._ensure_driver()  # type: ignore[attr-defined]
        try:
            tabs = [url for _, url in driver.tab_titles()]
            active = driver.active_tab
        except Exception:  # a browser that is down has no tabs to judge
            tabs, active = [], 0
        return {"world": self.world.semantic_state(), "web": self.webapp.snapshot(self.session),  # type: ignore[attr-defined]
                "browser": {"tabs": tabs, "active": active, "ids": driver.tab_ids()}}

    def _finish_turn(self, answer: str) -> None:
        """``done [answer]``: judge the current turn, move to the next one (or end the episode)."""
        texts = self.turn_texts()
        after = self._turn_snapshot()
        try:
            result = dict(self.domain.check_turn(self.task, self.turn, self._turn_start, after, answer))
        except Exception as e:  # a checker bug must be visible, not crash the run
            result = {"ok": False, "checker_error": f"{type(e).__name__}: {e}"}
        result = {"turn": self.turn, "ok": bool(result.pop("ok", False)), "answer": answer,
                  "step": self.steps + 1, **result}  # type: ignore[attr-defined]
        self.turns.append(result)
        self.turn += 1
        if self.turn >= len(texts):
            self.answer = answer  # type: ignore[attr-defined]  (ends the episode)
            return
        if self.teacher_forcing and not result["ok"]:
            self._restore(self.turn)
            result["restored"] = True
        self._turn_start = self._turn_snapshot()

    def _restore(self, n_turns: int) -> None:
        """Rebuild the state a correct agent would have after ``n_turns`` turns: the task's start, then the
        domain's oracle playing those turns (its ``done`` actions are not run). Counters, the trace and the
        dialogue are the agent's own and stay."""
        env: Any = self
        task, seed = env.task, env.episode_seed
        env.world.reset(task.embodied, seed)
        env.world.set_clock(env.steps)
        env.webapp.reset_session(env.session, task.web, seed)
        env.webapp.set_clock(env.session, env.steps)
        env.driver.reset(env.session, task.web.get("start_url", "/"))
        env.active = task.start
        agent = env.domain.oracle(task)
        obs, info = env._observation(), env._info()
        agent.reset(env, obs, info)
        done, guard = 0, 0
        while done < n_turns and guard < 5_000:
            guard += 1
            action = agent.act(obs, info)
            try:
                p = REGISTRY.parse(action, env.domains)
            except ActionError as e:
                raise RuntimeError(f"teacher forcing: the oracle's action {action!r} does not parse: {e}") from e
            if p.domain == "dialogue":
                done += 1
            elif p.name == "stop":
                break
            else:
                env._execute(p)
            obs, info = env._observation(), env._info()
        env.last_error = ""
        env.trace.add({"step": env.steps, "event": "restore", "turns": n_turns, "active": env.active,
                       "web_url": env.driver.url})
