"""AI2-THOR backend translation (with a fake controller), preflight messages, and the bench figures."""

from __future__ import annotations

from types import SimpleNamespace

from embodiedweb.benches.kitchen import bench_kitchen
from embodiedweb.worlds.kitchen.thor_backend import ThorKitchen, preflight


class FakeController:
    def __init__(self):
        self.calls = []
        self.objects = [
            {"objectId": "Apple|+01.00|+00.90|+01.00", "objectType": "Apple", "distance": 1.2, "visible": False,
             "position": {"x": 1.0, "y": 0.9, "z": 1.0}, "parentReceptacles": None},
            {"objectId": "Apple|+00.20|+00.90|+00.50", "objectType": "Apple", "distance": 0.8, "visible": True,
             "position": {"x": 0.2, "y": 0.9, "z": 0.5}, "parentReceptacles": ["CounterTop|+00.00|+00.90|+00.50"]},
        ]

    def step(self, action=None, **kw):
        self.calls.append((action, kw))
        meta = {"lastActionSuccess": True, "errorMessage": "", "objects": self.objects, "inventoryObjects": [],
                "agent": {"position": {"x": 0.0, "y": 0.9, "z": 0.0}}, "cameraPosition": {"y": 1.57},
                "sceneName": "FloorPlan1"}
        if action == "GetReachablePositions":
            meta["actionReturn"] = [{"x": 0.0, "y": 0.9, "z": 0.0}, {"x": 0.75, "y": 0.9, "z": 0.5}]
        if action == "PickupObject":
            meta["inventoryObjects"] = [{"objectId": kw["objectId"], "objectType": "Apple"}]
        return SimpleNamespace(metadata=meta, frame=None)


def test_translation_with_fake_controller():
    fake = FakeController()
    kit = ThorKitchen(controller=fake)
    assert kit.resolve("Apple") == "Apple|+00.20|+00.90|+00.50"  # visible one first
    kit.step("PickupObject", objectId="Apple|+00.20|+00.90|+00.50")
    assert fake.calls[-1] == ("PickupObject", {"objectId": "Apple|+00.20|+00.90|+00.50"})
    assert kit.held == "Apple|+00.20|+00.90|+00.50"
    kit.step("Teleport", objectId="Apple|+01.00|+00.90|+01.00")
    action, kw = fake.calls[-1]
    assert action == "TeleportFull" and (kw["x"], kw["z"]) == (0.75, 0.5) and kw["rotation"]["y"] == 0.0
    assert "Apple|+00.20" in kit.scene_text()
    assert kit.render((64, 48)).shape == (48, 64, 3)


def test_preflight_messages():
    rep = preflight(env={"HOME": "/nonexistent"}, find_spec=lambda name: None, which=lambda name: None)
    assert not rep.ok
    msg = rep.message()
    assert 'pip install "embodiedweb[ai2thor]"' in msg and "local_executable_path" in msg and "Xvfb" in msg
    assert "CloudRendering" in msg
    rep = preflight(local_executable_path="/nope/thor", env={"DISPLAY": ":0"}, find_spec=lambda n: object(),
                    which=lambda n: None)
    assert len(rep.problems) == 1 and "/nope/thor" in rep.problems[0]


def test_bench_figures():
    # speed targets are read from `make bench`, not asserted here (the machine is noisy)
    res = bench_kitchen(seconds=0.2, fp_kitchens=1)
    assert set(res) == {"kitchen_steps_per_s", "kitchen_render_ms", "kitchen_fp_rgb_fps", "kitchen_fp_depth_mask_fps"}
    assert all(v > 0 for v in res.values())
