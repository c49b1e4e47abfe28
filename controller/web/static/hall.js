// The bgboard hall page: every board from /events (one board an event), each a card; a click
// opens the board large with its moves.
"use strict";

const $ = (id) => document.getElementById(id);
const boards = new Map();  // name -> the board's latest view
let opened = null;  // the name of the board shown large

function scoreText(b) {
  const [white, black] = b.players;
  const match = b.match_length ? `match to ${b.match_length}` : "money game";
  return `${white} ${b.score[0]} - ${b.score[1]} ${black} (${match}, game ${b.game_number})`;
}

function turnText(b) {
  return b.turn ? `${b.players[b.turn === "white" ? 0 : 1]} (${b.turn})` : "-";
}

function line(cls, words) {
  const div = document.createElement("div");
  div.className = "line " + cls;
  div.textContent = words;
  return div;
}

function card(b) {
  let el = document.querySelector(`.card[data-board="${CSS.escape(b.board)}"]`);
  if (!el) {
    el = document.createElement("article");
    el.className = "card";
    el.dataset.board = b.board;
    el.onclick = () => open(b.board);
    const names = [...boards.keys()].sort();
    const next = names[names.indexOf(b.board) + 1];
    $("boards").insertBefore(el, next ? document.querySelector(
      `.card[data-board="${CSS.escape(next)}"]`) : null);
  }
  const last = b.moves.length ? moveText(b.moves[b.moves.length - 1]) : "no move yet";
  const title = document.createElement("h2");
  title.textContent = `${b.board} (${b.online})`;
  const picture = document.createElement("div");
  picture.innerHTML = b.svg;
  el.replaceChildren(title, picture, line("score", scoreText(b)),
                     line("turn", `on roll: ${turnText(b)}`), line("last", last));
  el.classList.toggle("offline", b.online === "offline");
}

function showDetail() {
  $("detail").hidden = opened === null;
  if (opened === null) return;
  const b = boards.get(opened);
  $("detail-name").textContent = `${b.board} (${b.online})`;
  $("detail-score").textContent = scoreText(b);
  $("detail-board").innerHTML = b.svg;
  $("detail-turn").textContent = turnText(b);
  $("detail-dice").textContent = b.dice ? b.dice.join("-") : "-";
  $("detail-cube").textContent = `${b.cube.value}` + (b.cube.owner ? ` (${b.cube.owner}'s)` : " (centred)");
  $("detail-moves").replaceChildren(...b.moves.map((m) => {
    const li = document.createElement("li");
    li.textContent = moveText(m);
    return li;
  }));
  $("detail-mat").href = `board/${encodeURIComponent(b.board)}.mat`;
}

function open(name) {
  opened = name;
  showDetail();
  window.scrollTo(0, 0);
}

$("detail-close").onclick = () => { opened = null; showDetail(); };

function badge(words, health) {
  const span = document.createElement("span");
  span.className = "badge " + health;
  span.textContent = words;
  $("status").replaceChildren(span);
}

const source = new EventSource("events");
source.onopen = () => badge("page: connected", "ok");
source.onerror = () => badge("page: reconnecting", "bad");
source.onmessage = (e) => {
  const b = JSON.parse(e.data);
  boards.set(b.board, b);
  card(b);
  if (opened === b.board) showDetail();
  $("count").textContent = `${boards.size} board${boards.size === 1 ? "" : "s"}`;
};
