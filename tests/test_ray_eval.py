"""``ewa eval --ray`` (issue 15 item 7): episodes in Ray actors on a local Ray instance give the serial
run's records (trace digests, metrics, seeds), stream them to the same JSONL, resume, and record agent
errors as ``status: "error"``.

One local Ray instance (2 CPUs) serves the module; ``evaluate(..., ray_address="")`` uses it as it is.
The serial reference runs in a fresh process, like the actors (other tests add sites to this process's
web app, which changes element ids and so a random agent's choices).
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

ray = pytest.importorskip("ray")

import embodiedweb  # noqa: E402
from embodiedweb.cli import main  # noqa: E402
from embodiedweb.evaluate import evaluate  # noqa: E402
from tests.baselines.fake_openai import FakeOpenAI  # noqa: E402
from tests.signals import SIGINT_DEFAULT  # noqa: E402

ENV_IDS = embodiedweb.registered_ids()
COOKING = "EWA-Cooking-v0"
LIMIT = 2
VOLATILE = ("duration_s",)


def strip(rec: dict) -> dict:
    return {k: v for k, v in rec.items() if k not in VOLATILE}


def lines(path: Path) -> list[dict]:
    return [json.loads(x) for x in path.read_text().splitlines()]


@pytest.fixture(scope="module", autouse=True)
def local_ray():
    os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
    sigterm = signal.getsignal(signal.SIGTERM)  # ray.init installs its own: back after the module
    ray.init(address="local", num_cpus=2, include_dashboard=False, log_to_driver=False, object_store_memory=100 * 2**20,
             configure_logging=True, logging_level="WARNING")
    yield
    ray.shutdown()
    signal.signal(signal.SIGTERM, sigterm)


@pytest.fixture(scope="module")
def serial(tmp_path_factory):
    """agent -> the serial run's records (every env, LIMIT tasks each), from ``ewa eval`` in a fresh process."""
    runs = {}
    for agent in ("oracle", "random"):
        out = tmp_path_factory.mktemp("serial") / f"{agent}.jsonl"
        subprocess.run([sys.executable, "-m", "embodiedweb.cli", "eval", "--env", "all", "--agent", agent,
                        "--limit", str(LIMIT), "--seed", "5", "--out", str(out), "--no-progress"],
                       capture_output=True, text=True, timeout=300, check=True)
        runs[agent] = out
    return runs


@pytest.mark.parametrize("agent", ["oracle", "random"])
def test_ray_equals_serial_on_every_env(agent, serial, tmp_path):
    want = [strip(r) for r in lines(serial[agent])]
    assert len(want) == LIMIT * len(ENV_IDS)
    out = tmp_path / "r.jsonl"
    summary, recs = evaluate(ENV_IDS, agent, limit=LIMIT, seed=5, out=out, progress=False, ray_address="")
    assert [strip(r) for r in recs] == want  # same order, seeds, trace digests, metrics, run identity
    assert [strip(r) for r in lines(out)] == want  # the file is in task order too
    assert [r["seed"] for r in recs] == [5 * 100_003 + i for _ in ENV_IDS for i in range(LIMIT)]
    assert all(r["status"] == "ok" for r in recs) and set(summary) == set(ENV_IDS)
    if agent == "oracle":
        assert all(s["overall"] == 1.0 for s in summary.values())


def test_resume_runs_only_missing_episodes(serial, tmp_path):
    text = serial["random"].read_text().splitlines(keepends=True)
    out = tmp_path / "r.jsonl"
    out.write_text("".join(text[:4]) + text[4][: len(text[4]) // 2])  # killed while writing the 5th record
    _, recs = evaluate(ENV_IDS, "random", limit=LIMIT, seed=5, out=out, progress=False, ray_address="")
    got = lines(out)
    assert [strip(r) for r in got] == [strip(r) for r in lines(serial["random"])] == [strip(r) for r in recs]
    assert out.read_text().splitlines(keepends=True)[:4] == text[:4]  # kept as they were, not run again
    assert [r["duration_s"] for r in recs[:4]] == [json.loads(x)["duration_s"] for x in text[:4]]
    before = out.read_text()
    _, again = evaluate(ENV_IDS, "random", limit=LIMIT, seed=5, out=out, progress=False, ray_address="")
    assert again == recs and out.read_text() == before  # all done: nothing runs


def stop_policy(messages):
    return "In summary, the next action I will perform is ```stop```"


def test_agent_errors_are_error_records_and_retried(tmp_path):
    out = tmp_path / "e.jsonl"
    server = FakeOpenAI(stop_policy)  # its port is chosen but nothing listens yet: the endpoint is down
    kw = {"limit": 2, "out": out, "progress": False, "ray_address": "",
          "agent_kwargs": {"base_url": server.base_url, "model": "m", "max_retries": 0}}
    summary, recs = evaluate([COOKING], "llm", **kw)
    assert [r["status"] for r in recs] == ["error", "error"] and summary[COOKING]["errors"] == 2
    assert all("APIConnectionError" in r["error"] for r in recs)
    with server:
        _, kept = evaluate([COOKING], "llm", **kw)
        assert kept == recs and not server.requests  # errors are kept unless retried
        _, fixed = evaluate([COOKING], "llm", retry_errors=True, **kw)
        assert len(server.requests) == 2
    assert [r["status"] for r in fixed] == ["ok", "ok"]
    assert [(r["task_id"], r["status"]) for r in lines(out)] == [(r["task_id"], "ok") for r in fixed]


def test_cli_ray_flag_saves_steps(tmp_path, capsys):
    out = tmp_path / "o.jsonl"
    assert main(["eval", "--env", COOKING, "--agent", "oracle", "--limit", "2", "--out", str(out), "--ray",
                 "--no-progress", "--json", "--save-steps"]) == 0
    res = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert res["results"][COOKING]["overall"] == 1.0 and res["results"][COOKING]["episodes"] == 2
    traces = sorted((tmp_path / "o.steps" / COOKING).glob("oracle-*/*.trace.jsonl"))
    assert len(traces) == 2 and all(t.with_name(t.name.replace(".trace", "")).exists() for t in traces)


def test_sigterm_keeps_finished_records(tmp_path):
    """SIGTERM while the actors run (Ray's own driver handler, which would exit at once, is set aside for
    the run and back after it): the run stops, the finished records are kept whole."""
    from embodiedweb.evaluate import Stopped

    out = tmp_path / "t.jsonl"
    before = signal.getsignal(signal.SIGTERM)

    def fire() -> None:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if out.exists() and out.read_text().count("\n") >= 3:
                os.kill(os.getpid(), signal.SIGTERM)
                return
            time.sleep(0.05)

    thread = threading.Thread(target=fire, daemon=True)
    thread.start()
    with pytest.raises(Stopped) as e:
        evaluate(ENV_IDS, "random", limit=100, seed=1, out=out, progress=False, ray_address="")
    thread.join()
    recs = lines(out)
    assert e.value.signum == signal.SIGTERM and e.value.finished == len(recs) and 3 <= len(recs) < 500
    assert len({(r["env_id"], r["task_id"]) for r in recs}) == len(recs)
    assert signal.getsignal(signal.SIGTERM) is before


@pytest.mark.parametrize("sig", [signal.SIGINT], ids=["SIGINT"])
def test_stop_keeps_finished_records(sig, tmp_path):
    """Ctrl-C (SIGINT to the eval's whole process group, the Ray instance it started included): the actors
    are killed, the finished records kept whole, the exit code the shell's (SIGTERM works the same way:
    ``test_sigterm_keeps_finished_records`` in this process)."""
    out = tmp_path / "s.jsonl"
    # Ctrl-C at its default in the eval, whatever this process inherited: a CI job started in the background
    # ignores SIGINT, and so would the eval (it then ran to its end and exited 0)
    cmd = [sys.executable, "-c", SIGINT_DEFAULT, "-m", "embodiedweb.cli", "eval", "--env", "all", "--agent", "random",
           "--limit", "100", "--out", str(out), "--ray", "--no-progress"]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and proc.poll() is None:
            if out.exists() and out.read_text().count("\n") >= 3:
                break
            time.sleep(0.1)
        assert proc.poll() is None, proc.communicate()
        if sig == signal.SIGINT:
            os.killpg(proc.pid, sig)
        else:
            proc.send_signal(sig)
        _, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    assert proc.returncode == 128 + sig, err
    recs = lines(out)  # every line whole
    assert 3 <= len(recs) < 500 and len({(r["env_id"], r["task_id"]) for r in recs}) == len(recs)
    assert f"stopped by {sig.name} after {len(recs)} episode(s)" in err, err


class Boom:
    def run(self, fail: bool) -> int:
        if fail:
            raise RuntimeError("boom in the env")
        time.sleep(30)
        return 1


def test_an_episode_that_raises_or_a_dead_actor_is_eval_failed():
    """What stops the run with exit code 1: an exception outside the agent (the env's), an actor that dies."""
    from embodiedweb.evaluate import EvalFailed
    from embodiedweb.ray_eval import _result

    boom = ray.remote(num_cpus=0)(Boom)
    job = (COOKING, "c1", 0, None)
    with pytest.raises(EvalFailed, match=r"episode EWA-Cooking-v0 c1 failed in ray actor 0: .*boom in the env") as e:
        _result(ray, boom.remote().run.remote(True), 0, job)
    assert 'in run\n    raise RuntimeError("boom in the env")' in e.value.detail and "\x1b[" not in e.value.detail
    actor = boom.remote()
    ref = actor.run.remote(False)
    ray.kill(actor, no_restart=True)
    with pytest.raises(EvalFailed, match=r"ray actor 1 died during episode EWA-Cooking-v0 c1"):
        _result(ray, ref, 1, job)


def test_plugin_agent_runs_in_the_actors(tmp_path):
    """``--agent module:Class`` (issue 15 item 4): each actor imports and builds the plug-in itself."""
    out = tmp_path / "p.jsonl"
    summary, recs = evaluate([COOKING], "tests.plugin_agents:StopAgent", limit=2, out=out, progress=False,
                             save_steps=True, ray_address="")
    assert [r["status"] for r in recs] == ["ok", "ok"] and summary[COOKING]["episodes"] == 2
    assert recs[0]["run_settings"]["agent_settings"]["plugin"] == "tests.plugin_agents:StopAgent"
    steps = sorted((tmp_path / "p.steps" / COOKING).glob("*/*.jsonl"))
    views = [json.loads(x) for x in next(p for p in steps if not p.name.endswith(".trace.jsonl")).read_text().splitlines()]
    assert views[1]["agent"]["completion"] == "raw reply 1"  # the agent's side of the step came back too
