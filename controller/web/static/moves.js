// A recorded action as the pages word it ("white 31: 8/5 6/5", "black doubles to 2"): shared
// by the live page (app.js) and the hall's page (hall.js).
"use strict";

function moveText(m) {
  if (m.kind === "move") return `${m.color} ${m.dice.join("")}: ${m.move ?? "(no move)"}`;
  if (m.kind === "double") return `${m.color} doubles to ${m.cube}`;
  if (m.kind === "drop") return `${m.color} passes`;
  return `${m.color} ${m.kind}s` + (m.cube ? ` (cube ${m.cube})` : "");
}
