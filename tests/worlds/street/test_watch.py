"""The walker's watch (:mod:`embodiedweb.worlds.street.watch`): clock times, whole minutes walked, the metres of a
path, the watch config's errors, and the street world's watch line (only with a watch)."""

from __future__ import annotations

import pytest

from embodiedweb.worlds.street.city import load_city
from embodiedweb.worlds.street.watch import (
    clock_text,
    parse_clock,
    path_metres,
    step_metres,
    validate_watch,
    watch_minutes,
)
from embodiedweb.worlds.street.world import StreetWorld


def test_clock_times():
    assert parse_clock("09:40") == 580 and parse_clock("00:00") == 0 and parse_clock("23:59") == 1439
    assert clock_text(580) == "09:40" and clock_text(1440 + 5) == "00:05"
    for bad in ("9:40", "24:00", "09:60", "0940", None, 940, " 09:40"):
        with pytest.raises(ValueError, match="HH:MM"):
            parse_clock(bad)


def test_watch_minutes_are_whole_minutes_walked():
    """The watch shows the minute it is in: 0-79.99 m at 80 m a minute is minute 0, 80 m minute 1; float noise of
    a sum just under a whole minute does not hold the watch back."""
    assert watch_minutes(0.0, 80) == 0 and watch_minutes(79.99, 80) == 0 and watch_minutes(80.0, 80) == 1
    assert watch_minutes(159.99999999999997, 80) == 2 and watch_minutes(1000.0, 80) == 12


def test_watch_config_errors_name_the_key():
    assert validate_watch({"start": "10:00", "pace_m_per_min": 80}) == (600, 80.0)
    for watch, key in (({"start": "10", "pace_m_per_min": 80}, "watch.start"),
                       ({"pace_m_per_min": 80}, "watch.start"),
                       ({"start": "10:00", "pace_m_per_min": 0}, "watch.pace_m_per_min"),
                       ({"start": "10:00", "pace_m_per_min": True}, "watch.pace_m_per_min"),
                       ({"start": "10:00"}, "watch.pace_m_per_min"),
                       ("10:00", "watch")):
        with pytest.raises(ValueError, match=rf"^{key}:"):
            validate_watch(watch)


def test_path_metres_sum_the_moves():
    c = load_city()
    a = c.node_ids()[0]
    b, _h, length, _s = c.neighbors(a)[0]
    assert step_metres(c, a, b) == length and step_metres(c, a, a) == 0.0
    assert path_metres(c, [a, b, b, a]) == pytest.approx(2 * length) and path_metres(c, []) == 0.0


def test_the_world_shows_the_watch_only_when_given_one():
    """With a watch the text's second line is the watch, ticking with the metres walked; a bad watch is refused;
    without one the text is exactly as before (no watch line)."""
    c = load_city()
    start = next(n for n in c.node_ids() if c.degree(n) >= 3)
    plain = StreetWorld(c)
    plain.reset({"start": start, "view": "walker"}, 0)
    w = StreetWorld(c)
    w.reset({"start": start, "view": "walker", "watch": {"start": "09:58", "pace_m_per_min": 10}}, 0)
    assert "watch" not in plain.text().lower()
    assert w.text().splitlines()[1] == "Your watch: 09:58."
    assert w.text().replace("Your watch: 09:58.\n", "") == plain.text()
    walked = 0.0
    for _ in range(6):
        nb, _h, length, _s = c.neighbors(w.node)[0]
        w.execute("move", {"node_id": nb})
        walked += length
        assert w.text().splitlines()[1] == f"Your watch: {clock_text(598 + int(walked // 10))}."
    assert w.walked == pytest.approx(path_metres(c, w.path))
    w.reset({"start": start}, 0)  # a task without a watch after one with it: none shown
    assert "watch" not in w.text().lower()
    with pytest.raises(ValueError, match="watch.start"):
        w.reset({"start": start, "watch": {"start": "noon", "pace_m_per_min": 80}}, 0)
