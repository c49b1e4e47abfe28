"""benchmarks/vision.py lists the points it read wrong as they are (where, what the point
holds, what was read and the reader's likeliest readings there) and draws the scenes it names."""

from bgboard.benchmarks import vision as bench

START = [-2, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, -5, 5, 0, 0, 0, -3, 0, -5, 0, 0, 0, 0, 2]


def observation(points, bar=(0, 0), options=True):
    obs = {"points": points, "bar": {"white": bar[0], "black": bar[1]}}
    if options:
        obs["point_options"] = [[[n, 0.9], [n + 1, 0.08], [n - 1, 0.02]] for n in points]
    return obs


def test_a_frame_read_right_has_no_misses():
    assert bench.wrong_points(observation(START), observation(START)) == []


def test_each_wrong_point_and_bar_is_listed_with_the_two_likeliest_readings():
    seen = list(START)
    seen[5], seen[21] = 6, -1  # the 6-point read as six, a bare 22-point as a Black checker
    wrong = bench.wrong_points(observation(seen, bar=(1, 0)), observation(START))
    assert wrong == [
        {"where": "6", "truth": 5, "read": 6, "options": [(6, 0.9), (7, 0.08)]},
        {"where": "22", "truth": 0, "read": -1, "options": [(-1, 0.9), (0, 0.08)]},
        {"where": "bar white", "truth": 0, "read": 1, "options": []},
    ]


def test_a_reader_without_point_options_lists_its_misses_without_them():
    seen = list(START)
    seen[0] = -3
    wrong = bench.wrong_points(observation(seen, options=False), observation(START))
    assert wrong == [{"where": "1", "truth": -2, "read": -3, "options": []}]


def test_drawn_boards_and_each_family_held_out_of_the_draw_are_scenes_of_their_own():
    from bgboard.vision.synthetic.drawn import (
        DRAWN_HELD_OUT,
        drawn_scene,
        held_out_family,
        held_out_scene,
    )

    assert bench.scene_of(bench.DRAWN, 5) == drawn_scene(5, hand=0.1, cocked=0.15)
    assert held_out_family(bench.scene_of(bench.DRAWN, 5).look) is None
    for family in DRAWN_HELD_OUT:
        scene = bench.scene_of(f"held out: {family}", 5)
        assert scene == held_out_scene(5, family, hand=0.1, cocked=0.15)
        assert held_out_family(scene.look) == family
