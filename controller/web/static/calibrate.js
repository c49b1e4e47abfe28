// The bgboard calibrate page: the field's corners dragged into place on the frame (mouse or
// touch), the point grid and what is read through them after each drag, and Save.
"use strict";

const $ = (id) => document.getElementById(id);
const SVG = "http://www.w3.org/2000/svg";
const NAMES = ["p1", "p12", "p13", "p24"];
let size = [0, 0];    // the frame's pixels
let corners = {};     // name -> [x, y] in frame pixels
let dragging = null;  // the corner being dragged, where the pointer and the corner started
let asked = 0;        // the newest preview asked for: answers to older ones are dropped

function say(words, bad) {
  $("message").textContent = words;
  $("message").classList.toggle("bad", bad);
}

async function post(path, then) {
  const answer = await fetch(path, {
    method: "POST", headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ corners_px: corners }),
  });
  if (!answer.ok) return say(await answer.text(), true);
  then(await answer.json());
}

function preview() {
  const mine = ++asked;
  return post("calibrate/preview", (seen) => {
    if (mine !== asked) return;
    $("grid").innerHTML = seen.svg;
    if ($("message").classList.contains("bad")) say("", false);  // the corners are good again
  });
}

function element(name, attributes) {
  const el = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attributes)) el.setAttribute(key, value);
  return el;
}

// The outline through the corners and a handle on each, in frame pixels.
function build() {
  const svg = $("handles");
  const r = Math.max(...size) / 60;
  svg.setAttribute("viewBox", `0 0 ${size[0]} ${size[1]}`);
  const parts = [element("polygon", { id: "outline" })];
  for (const name of NAMES) {
    const handle = element("g", { class: "handle", "data-corner": name });
    handle.append(element("circle", { r }), element("text", { y: -1.4 * r, "font-size": r }));
    handle.lastChild.textContent = name;
    handle.onpointerdown = (e) => grab(e, name);
    parts.push(handle);
  }
  svg.replaceChildren(...parts);
  svg.onpointermove = drag;
  svg.onpointerup = svg.onpointercancel = drop;
}

function draw() {
  $("outline").setAttribute("points", NAMES.map((n) => corners[n].join(",")).join(" "));
  for (const handle of document.querySelectorAll("#handles .handle")) {
    const [x, y] = corners[handle.dataset.corner];
    handle.setAttribute("transform", `translate(${x} ${y})`);
  }
}

function grab(e, name) {
  e.preventDefault();
  e.currentTarget.setPointerCapture(e.pointerId);
  const box = $("handles").getBoundingClientRect();
  dragging = { name, x: e.clientX, y: e.clientY, from: corners[name],
               scale: [size[0] / box.width, size[1] / box.height] };
}

function drag(e) {
  if (!dragging) return;
  const d = dragging;
  const clamp = (v, most) => Math.min(Math.max(v, 0), most);
  corners[d.name] = [clamp(d.from[0] + (e.clientX - d.x) * d.scale[0], size[0]),
                     clamp(d.from[1] + (e.clientY - d.y) * d.scale[1], size[1])];
  draw();
}

function drop() {
  if (!dragging) return;
  dragging = null;
  preview();
}

function refresh() {
  if (dragging) return;
  $("picture").src = `calibrate/frame.jpg?t=${Date.now()}`;
  preview();
}

async function start() {
  const answer = await fetch("calibrate/state");
  if (!answer.ok) {
    say(await answer.text(), true);
    return setTimeout(start, 1000);
  }
  const state = await answer.json();
  size = state.image_size;
  corners = state.corners_px;
  $("note").textContent = state.note;
  $("file").textContent = state.out;
  $("game").hidden = !state.game;
  $("picture").src = "calibrate/frame.jpg";
  build();
  draw();
  await preview();
  if (state.live) setInterval(refresh, 2000);
}

$("save").onclick = () => post("calibrate/save", (saved) => say(saved.message, false));
start();
