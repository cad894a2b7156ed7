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
    assert set(res) == {
        "kitchen_steps_per_s",
        "kitchen_render_ms",
        "kitchen_fp_rgb_fps",
        "kitchen_fp_rgb_only_fps",
        "kitchen_fp_depth_mask_fps",
        "kitchen_fp_rgb_changed_fps",
        "kitchen_fp_rgb_only_changed_fps",
    }
    assert all(v > 0 for v in res.values())


class FramedController(FakeController):
    """A fake controller whose events carry AI2-THOR's frames: RGB, depth and instance segmentation (8 x 12)."""

    APPLE, COUNTER = (200, 10, 10), (90, 90, 200)

    def step(self, action=None, **kw):
        ev = super().step(action, **kw)
        import numpy as np

        h, w = 8, 12
        ev.frame = np.full((h, w, 3), 120, np.uint8)
        ev.frame[:, : w // 2] = (10, 200, 30)
        ev.depth_frame = np.tile(np.linspace(0.5, 3.0, w, dtype=np.float32), (h, 1))
        seg = np.zeros((h, w, 3), np.uint8)
        seg[: h // 2] = self.APPLE
        seg[h // 2:] = self.COUNTER
        seg[0, 0] = (1, 2, 3)  # a colour no object has
        ev.instance_segmentation_frame = seg
        ev.color_to_object_id = {self.APPLE: self.objects[1]["objectId"], self.COUNTER: "CounterTop|+00.00|+00.90|+00.50"}
        return ev


def test_thor_backend_frames_come_through_the_env_keys():
    """With the AI2-THOR backend the env's first-person keys carry the controller's own frames (no ai2thor needed)."""
    import gymnasium as gym
    import numpy as np

    import embodiedweb  # noqa: F401  (registers the envs)

    env = gym.make("EWA-Cooking-v0", render_images=True, embodied_view="first_person", embodied_depth=True,
                   embodied_masks=True, image_size=(6, 4))
    try:
        env.reset(seed=0)
        base = env.unwrapped
        kit = ThorKitchen(controller=FramedController())
        kit.step("Pass")
        base.world.sim = kit
        obs = base._embodied_views()
        assert obs["embodied_image"].shape == (4, 6, 3) and obs["embodied_image"].dtype == np.uint8
        assert (obs["embodied_image"][:, 0] == (10, 200, 30)).all() and (obs["embodied_image"][:, -1] == 120).all()
        depth = obs["embodied_depth"]
        assert depth.shape == (4, 6) and depth.dtype == np.float32
        src = np.linspace(0.5, 3.0, 12, dtype=np.float32)
        assert np.array_equal(depth[0], src[[1, 3, 5, 7, 9, 11]])  # nearest source pixel: no blended depths
        mask = obs["embodied_masks"]
        assert mask.shape == (4, 6) and mask.dtype == np.int32
        frame = base.world.first_person((6, 4))
        apple = frame.ids[int(mask[1, 1])]
        assert apple == "Apple|+00.20|+00.90|+00.50" and (mask[:2] == mask[1, 1]).all()
        assert (mask[2:] == 0).all()  # the counter is not in the controller's object list: no id
        assert frame.pixel_counts() == {apple: 12}
        for key in ("embodied_image", "embodied_depth", "embodied_masks"):
            assert env.observation_space[key].contains(obs[key])
    finally:
        env.close()
