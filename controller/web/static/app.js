// The bgboard live page: follows the session through /events and sends button presses.
"use strict";

const $ = (id) => document.getElementById(id);
const WARNINGS = new Set(["illegal", "mismatch", "roll_again", "no_move", "unsure"]);
const PASSING = new Set(["in_progress", "complete"]);  // the board and the move list show these
let cameraBusy = false;

function text(id, value) { $(id).textContent = value; }

function list(id, items, render) {
  const el = $(id);
  el.replaceChildren(...items.map((item) => {
    const li = document.createElement("li");
    const [words, warn] = render(item);
    li.textContent = words;
    if (warn) li.className = "warn";
    return li;
  }));
}

// The coach's advice (controller/coach.py): a verdict, a hint, cube advice or a failure.
function tutorText(t) {
  if (t.kind === "verdict") {
    return [`${t.player} ${t.dice.join("")}: ${t.move} is ${t.verdict}; best ${t.best}` +
            ` (loses ${t.equity_loss})`, t.warn];
  }
  if (t.kind === "hint") {
    const left = t.hints_left === null ? "" : ` (${t.hints_left} hints left)`;
    return [`hint for ${t.player}: ${t.best}${left}`, false];
  }
  if (t.kind === "cube") return [`cube for ${t.player}: ${t.advice}`, false];
  if (t.kind === "failed") return [`tutor: ${t.reason}`, true];
  return [t.text ?? JSON.stringify(t), false];
}

// Two readings the session cannot tell apart (points in doubt flash pink on the board).
function showUnsure(u) {
  $("unsure").hidden = !u;
  if (!u) return;
  text("unsure-points", u.points.join(", "));
  list("unsure-readings", u.readings, (r) => [r, false]);
}

function badge(name, value) {
  const span = document.createElement("span");
  const health = /^(ok|connected|sim)/.test(value) ? " ok" :
    /(lost|error|fail|unplugged|missing|reconnecting|no )/.test(value) ? " bad" : "";
  span.className = "badge" + health;
  span.textContent = `${name}: ${value}`;
  return span;
}

function showStatus(status, server) {
  const parts = Object.entries(status).map(([name, value]) => badge(name, value));
  $("status").replaceChildren(...parts, badge("page", server));
}

let lastStatus = {};
const advice = [];  // the tutor's last few words, newest first (the state holds the latest)

function remember(t) {
  if (t && (advice.length === 0 || JSON.stringify(advice[0]) !== JSON.stringify(t))) {
    advice.unshift(t);
    advice.length = Math.min(advice.length, 4);
  }
}

function show(s) {
  const [white, black] = s.players;
  const match = s.match_length ? `match to ${s.match_length}` : "money game";
  text("score", `${white} ${s.score[0]} - ${s.score[1]} ${black} (${match}, game ${s.game_number})`);
  text("turn", s.turn ? s.players[s.turn === "white" ? 0 : 1] + ` (${s.turn})` : "-");
  text("dice", s.dice ? s.dice.join("-") : "-");
  const cube = s.cube;
  text("cube", `${cube.value}` + (cube.owner ? ` (${cube.owner}'s)` : " (centred)") +
       (cube.offered_by ? `, ${cube.offered_by} doubles to ${cube.value * 2}` : ""));
  text("ids", `${s.position_id}:${s.match_id}`);
  $("board").innerHTML = s.board_svg;
  $("read").innerHTML = s.read_svg ?? "<p>nothing read yet</p>";
  $("camera-overlay").innerHTML = s.camera_svg ?? "";
  const obs = s.observation;
  text("reading", obs ? (obs.hand ? "a hand is over the board; " : "") +
       `dice read: ${obs.dice.map((d) => d.value + (d.cocked ? " (cocked)" : "")).join(", ") || "none"}; ` +
       `confidence ${obs.confidence}` : "");
  if (s.has_camera && !cameraBusy) {
    cameraBusy = true;
    $("camera").src = `camera.jpg?v=${s.version}`;
  }
  showUnsure(s.unsure);
  list("moves", s.moves, (m) => [moveText(m), false]);
  list("events", s.events.filter((e) => !PASSING.has(e.kind)).reverse(), (e) => [e.text, WARNINGS.has(e.kind) || e.ok === false]);
  remember(s.tutor);
  list("tutor", advice, tutorText);
  $("moves").scrollTop = $("moves").scrollHeight;
  lastStatus = s.status;
  showStatus(s.status, "connected");
  document.body.dataset.version = s.version;
}

$("camera").onload = $("camera").onerror = () => { cameraBusy = false; };

for (const button of document.querySelectorAll("button[data-button]")) {
  button.onclick = async () => {
    const name = button.dataset.button;
    const answer = await fetch("press", {
      method: "POST", headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ button: name }),
    });
    text("pressed", answer.ok ? `${name} sent` : `${name}: ${await answer.text()}`);
  };
}

const source = new EventSource("events");
source.onmessage = (e) => show(JSON.parse(e.data));
source.onerror = () => showStatus(lastStatus, "reconnecting");
