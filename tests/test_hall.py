"""The hall's bookkeeping, fed a board's messages directly (the broker's part is in
test_relay.py): actions taken in sequence order only, repeats and gaps dropped, the retained
match message filling gaps, a new match under a name (the one before kept in earlier/), a
record that does not fit left out with a note, and the files kept through a restart. And the
hall's web app's routes."""

from __future__ import annotations

import json

import pytest
from starlette.testclient import TestClient

from bgboard.controller.broker import parse_url
from bgboard.controller.hall import Hall
from bgboard.controller.turns.journal import rebuild
from bgboard.controller.web.hall import create_hall_app, serve_hall
from bgboard.engine.matfile import write_mat

HEAD = {"type": "match", "length": 3, "players": ["Ann", "Ben"], "version": 1}
RECORDS = [HEAD,
           {"type": "turn", "color": "white", "dice": [3, 1], "move": "8/5 6/5", "opening": True},
           {"type": "turn", "color": "black", "dice": [6, 4], "move": "24/14"},
           {"type": "undo"},
           {"type": "turn", "color": "black", "dice": [6, 4], "move": "24/18 13/9"},
           {"type": "double"},
           {"type": "drop"},
           {"type": "game"}]


def action(seq: int) -> dict:
    return {"board": "t1", "seq": seq, "at": 100.0 + seq, "record": RECORDS[seq]}


def files(hall: Hall) -> tuple[str, str]:
    return (hall.out / "t1.jsonl").read_text(), (hall.out / "t1.mat").read_text()


def expected(records: list[dict]) -> tuple[str, str]:
    match, names = rebuild(records)
    return "".join(f"{line}\n" for line in map(json.dumps, records)), write_mat(match, names)


def test_actions_in_order_repeats_and_gaps_dropped_the_match_message_fills_in(tmp_path):
    notes = []
    hall = Hall(parse_url("mqtt://localhost/club"), tmp_path, note=notes.append)
    for seq in (0, 1, 1, 0, 3, 2):  # 1 and 0 again: repeats; 3 before 2: a gap
        hall.action("t1", action(seq))
    assert files(hall) == expected(RECORDS[:3])
    hall.match("t1", {"board": "t1", "seq": 5, "at": 105.0, "records": RECORDS[:6]})
    assert files(hall) == expected(RECORDS[:6])
    hall.match("t1", {"board": "t1", "seq": 3, "at": 103.0, "records": RECORDS[:4]})  # older
    for seq in (6, 7):
        hall.action("t1", action(seq))
    assert files(hall) == expected(RECORDS)
    (view,) = hall.changed(0)
    assert (view["seq"], view["at"], view["score"], view["game_number"]) == (7, 107.0, [1, 0], 2)
    assert notes == []

    again = Hall(parse_url("mqtt://localhost/club"), tmp_path, note=notes.append)  # restarted
    assert again.boards["t1"].records == RECORDS
    assert [view["seq"] for view in again.changed(0)] == [7]  # on the page from the start
    again.action("t1", action(7))
    assert files(again) == expected(RECORDS) and notes == []


def test_a_new_match_under_a_name_keeps_the_one_before_and_a_bad_record_is_left_out(
        tmp_path):
    notes = []
    hall = Hall(parse_url("mqtt://localhost/club"), tmp_path, note=notes.append)
    hall.match("t1", {"board": "t1", "seq": 4, "at": 1.0, "records": RECORDS[:5]})
    other = [{**HEAD, "players": ["Cy", "Di"]}, RECORDS[1]]
    hall.match("t1", {"board": "t1", "seq": 1, "at": 2.0, "records": other})
    assert files(hall) == expected(other)
    assert notes == [f"board t1 started a new match: the one before is kept as "
                     f"{tmp_path}/earlier/t1-1.mat"]
    assert (tmp_path / "earlier" / "t1-1.mat").read_text() == expected(RECORDS[:5])[1]
    assert (tmp_path / "earlier" / "t1-1.jsonl").read_text() == expected(RECORDS[:5])[0]
    hall._message(None, None, Message("club/t1/action", json.dumps(
        {"board": "t1", "seq": 2, "at": 3.0, "record": {"type": "turn", "color": "black",
                                                        "dice": [6, 4], "move": "1/off"}})))
    assert notes[1].startswith("board t1: its action message was left out: ")
    assert files(hall) == expected(other)
    hall.action("t1", {"board": "t1", "seq": 2, "at": 3.0, "record": RECORDS[2]})
    assert files(hall) == expected([*other, RECORDS[2]])


class Message:
    """What paho hands the hall: a topic and a payload."""

    def __init__(self, topic: str, payload: str) -> None:
        self.topic, self.payload = topic, payload.encode()


def test_the_hall_app_lists_the_boards_serves_their_files_and_keeps_its_token(tmp_path):
    hall = Hall(parse_url("mqtt://localhost/club"), tmp_path)
    hall.match("t1", {"board": "t1", "seq": 7, "at": 107.0, "records": RECORDS})
    client = TestClient(create_hall_app(hall, token="s3cret"))
    assert client.get("/boards").status_code == 401
    (board,) = client.get("/boards?token=s3cret").json()
    assert (board["board"], board["seq"], board["online"], board["players"]) == (
        "t1", 7, "unknown", ["Ann", "Ben"])
    assert board["svg"].startswith("<svg") and 'viewBox="0 0 480 300"' in board["svg"]
    assert client.get("/board/t1.mat?token=s3cret").text == files(hall)[1]
    assert client.get("/board/t2.mat?token=s3cret").status_code == 404
    assert "hall.js" in client.get("/?token=s3cret").text
    with pytest.raises(ValueError, match="needs a token"):
        serve_hall(hall, "0.0.0.0", 0)
