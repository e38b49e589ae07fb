// The play page: talks to /ws and draws any game's board view (docs/web.md) as SVG.
// Everything from the server is put on the page as text (textContent), never as HTML.
"use strict";

const SVG = "http://www.w3.org/2000/svg";
const CELL = 56; // a square's side in px
const HEX_R = 32; // a hex's circumradius in px
const PAD = 10;
const $ = (id) => document.getElementById(id);

let socket = null;
let games = [];
let last = null; // the last state message
let paused = false;
let waiting = false; // a step asked for and not answered yet
let timer = null;

function send(message) {
  if (socket && socket.readyState === WebSocket.OPEN) {
    waiting = true;
    socket.send(JSON.stringify(message));
  }
}

function el(tag, text, cls) {
  const node = document.createElement(tag);
  if (text !== undefined) node.textContent = text;
  if (cls) node.className = cls;
  return node;
}

function svg(tag, attrs, parent) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (parent) parent.appendChild(node);
  return node;
}

// --- the board ----------------------------------------------------------------------------

function geometry(grid) {
  if (grid.shape === "hex") {
    const w = Math.sqrt(3) * HEX_R;
    return {
      centre: (x, y) => [PAD + w / 2 + x * w + (y % 2) * (w / 2), PAD + HEX_R + y * 1.5 * HEX_R],
      width: 2 * PAD + grid.width * w + w / 2,
      height: 2 * PAD + 2 * HEX_R + (grid.height - 1) * 1.5 * HEX_R,
      size: HEX_R * 1.4,
      outline: (x, y) => {
        const [cx, cy] = geometry(grid).centre(x, y);
        const points = [];
        for (let i = 0; i < 6; i++) {
          const a = (Math.PI / 180) * (60 * i - 90);
          points.push(`${cx + HEX_R * Math.cos(a)},${cy + HEX_R * Math.sin(a)}`);
        }
        return ["polygon", { points: points.join(" ") }];
      },
      // a side's two corners: corner i lies at 60 i - 90 degrees (0 the top, then clockwise)
      side: (x, y, name) => {
        const [cx, cy] = geometry(grid).centre(x, y);
        const first = { NE: 0, E: 1, SE: 2, SW: 3, W: 4, NW: 5 }[name];
        const corner = (i) => {
          const a = (Math.PI / 180) * (60 * (i % 6) - 90);
          return [cx + HEX_R * Math.cos(a), cy + HEX_R * Math.sin(a)];
        };
        return [...corner(first), ...corner(first + 1)];
      },
    };
  }
  return {
    centre: (x, y) => [PAD + x * CELL + CELL / 2, PAD + y * CELL + CELL / 2],
    width: 2 * PAD + grid.width * CELL,
    height: 2 * PAD + grid.height * CELL,
    size: CELL,
    outline: (x, y) => ["rect", { x: PAD + x * CELL, y: PAD + y * CELL, width: CELL, height: CELL }],
    side: (x, y, name) => {
      const x0 = PAD + x * CELL, y0 = PAD + y * CELL;
      return {
        N: [x0, y0, x0 + CELL, y0], S: [x0, y0 + CELL, x0 + CELL, y0 + CELL],
        W: [x0, y0, x0, y0 + CELL], E: [x0 + CELL, y0, x0 + CELL, y0 + CELL],
      }[name];
    },
  };
}

function drawBoard(view) {
  const board = $("board");
  board.replaceChildren();
  const geo = geometry(view.grid);
  board.setAttribute("width", geo.width);
  board.setAttribute("height", geo.height);
  const colour = {};
  for (const row of view.legend) colour[row.key] = row.colour;
  for (const cell of view.cells) {
    const [tag, attrs] = geo.outline(cell.x, cell.y);
    svg(tag, { ...attrs, fill: colour[cell.key] || "#fff", stroke: "#bbb" }, board);
    if (cell.label) {
      const [cx, cy] = geo.centre(cell.x, cell.y);
      const t = svg("text", { x: cx, y: cy + geo.size * 0.32, "text-anchor": "middle", "font-size": 11 }, board);
      t.textContent = cell.label;
    }
  }
  for (const edge of view.edges) drawEdge(board, geo, edge, colour);
  const stacked = {}; // living figures sharing a square are drawn side by side
  for (const piece of view.pieces) {
    const at = `${piece.x},${piece.y}`;
    if (!piece.dead) stacked[at] = (stacked[at] || 0) + 1;
  }
  const placed = {};
  for (const piece of view.pieces) {
    const at = `${piece.x},${piece.y}`;
    let shift = 0;
    if (!piece.dead && stacked[at] > 1) {
      placed[at] = (placed[at] || 0) + 1;
      shift = (placed[at] - (stacked[at] + 1) / 2) * geo.size * 0.45;
    }
    drawPiece(board, geo, piece, colour, shift);
  }
  for (const target of view.targets) {
    const [tag, attrs] = geo.outline(target.x, target.y);
    const node = svg(tag, {
      ...attrs, fill: "rgba(245,166,35,0.18)", stroke: "#f5a623", "stroke-width": 3,
      "stroke-dasharray": "6 4", class: "target", "data-action": target.action,
    }, board);
    const tip = svg("title", {}, node);
    tip.textContent = target.name;
    node.addEventListener("click", () => send({ kind: "move", action: target.action }));
  }
}

function drawEdge(board, geo, edge, colour) {
  const [a, b, c, d] = geo.side(edge.x, edge.y, edge.side);
  const door = edge.key !== "wall";
  const inset = door ? 0.2 : 0; // a door leaves a fifth of the side open at each end
  const line = [a + (c - a) * inset, b + (d - b) * inset, c - (c - a) * inset, d - (d - b) * inset];
  svg("line", {
    x1: line[0], y1: line[1], x2: line[2], y2: line[3],
    stroke: colour[edge.key] || "#000", "stroke-width": door ? 8 : 4, "stroke-linecap": "square",
  }, board);
}

function drawPiece(board, geo, piece, colour, shift) {
  const [x0, cy] = geo.centre(piece.x, piece.y);
  const cx = x0 + shift;
  const r = geo.size * (shift ? 0.24 : 0.3);
  const group = svg("g", {}, board);
  svg("title", {}, group).textContent = piece.title;
  if (piece.dead) {
    svg("circle", { cx, cy, r: r * 0.8, fill: "#bbb", stroke: "#777" }, group);
    svg("path", { d: `M${cx - r / 2},${cy - r / 2}L${cx + r / 2},${cy + r / 2}M${cx + r / 2},${cy - r / 2}L${cx - r / 2},${cy + r / 2}`, stroke: "#555", "stroke-width": 3 }, group);
    return;
  }
  svg("circle", {
    cx, cy, r, fill: colour[piece.key] || "#888",
    stroke: piece.active ? "#f5d000" : piece.wounded ? "#d0021b" : "#222", "stroke-width": piece.active || piece.wounded ? 4 : 1.5,
  }, group);
  if (piece.facing) {
    const dir = { N: [0, -1], E: [1, 0], S: [0, 1], W: [-1, 0] }[piece.facing];
    const tip = [cx + dir[0] * (r + 9), cy + dir[1] * (r + 9)];
    const side = [-dir[1] * 6, dir[0] * 6];
    const base = [cx + dir[0] * (r + 1), cy + dir[1] * (r + 1)];
    svg("polygon", {
      points: `${tip[0]},${tip[1]} ${base[0] + side[0]},${base[1] + side[1]} ${base[0] - side[0]},${base[1] - side[1]}`,
      fill: "#111",
    }, group);
  }
  const text = svg("text", { x: cx, y: cy + 5, "text-anchor": "middle", "font-size": 13, fill: "#fff", "font-weight": "bold" }, group);
  text.textContent = piece.label + (piece.wounded && piece.facing ? "'" : "");
}

function drawLegend(view) {
  const list = $("legend");
  list.replaceChildren();
  for (const row of view.legend) {
    const item = el("li");
    const swatch = el("span", row.symbol || "", `swatch ${row.shape}`);
    if (row.colour) {
      swatch.style.background = row.colour;
      swatch.style.borderColor = row.colour;
    }
    item.append(swatch, el("span", row.text));
    list.appendChild(item);
  }
}

function cards(container, items) {
  for (const item of items) {
    const card = el("div", undefined, "card");
    if (item.title) card.appendChild(el("b", item.title + (item.action ? `  [${item.action}]` : "")));
    for (const line of item.lines) card.appendChild(el("div", line));
    container.appendChild(card);
  }
}

// --- a state ------------------------------------------------------------------------------

function show(state) {
  last = state;
  const view = state.view;
  drawBoard(view);
  drawLegend(view);
  const status = $("status");
  status.replaceChildren();
  status.appendChild(el("div", `${state.mode}: ${view.title} (${state.scenario}), you see ${view.seat}'s view`));
  for (const line of view.status) status.appendChild(el("div", line));
  status.appendChild(el("div", state.over ? `game over: ${state.result}` : `to move: ${state.to_move}`));
  const moves = $("moves");
  moves.replaceChildren();
  for (const move of state.legal) {
    const button = el("button", move.name, "move");
    button.dataset.action = move.action;
    button.addEventListener("click", () => send({ kind: "move", action: move.action }));
    moves.appendChild(button);
  }
  if (!state.legal.length) moves.appendChild(el("span", state.over ? "the game is over" : "none now"));
  const top = $("top");
  top.replaceChildren();
  for (const move of state.top) top.appendChild(el("li", `${move.name}  ${(100 * move.p).toFixed(1)}%`));
  if (!state.top.length) top.appendChild(el("li", "this bot gives no probabilities"));
  $("hand-title").textContent = view.hand.title;
  const hand = $("hand");
  hand.replaceChildren();
  cards(hand, view.hand.items);
  if (view.hand.others) hand.appendChild(el("div", view.hand.others));
  const panels = $("panels");
  panels.replaceChildren();
  for (const panel of view.panels) {
    panels.appendChild(el("h3", panel.title));
    cards(panels, panel.items);
  }
  const history = $("history");
  history.replaceChildren();
  for (const move of state.history) history.appendChild(el("li", `${move.agent}: ${move.name}`));
  history.scrollTop = history.scrollHeight;
  $("watch-controls").classList.toggle("hidden", state.mode !== "watch");
  $("replay-controls").classList.toggle("hidden", state.mode !== "replay");
  if (state.replay) {
    $("position").max = state.replay.total;
    $("position").value = state.replay.index;
    $("position-text").textContent = `move ${state.replay.index} of ${state.replay.total}`;
  }
  document.body.dataset.over = state.over ? "yes" : "no";
  document.body.dataset.scenario = state.scenario;
  document.body.dataset.moves = String(state.history.length);
}

// --- controls -----------------------------------------------------------------------------

function fill(select, values, chosen) {
  select.replaceChildren();
  for (const value of values) {
    const option = el("option", value);
    option.value = value;
    select.appendChild(option);
  }
  if (chosen !== undefined) select.value = chosen;
}

function gameChanged() {
  const game = games.find((g) => g.env === $("env").value);
  fill($("scenario"), game.scenarios, game.scenario);
  fill($("seat"), game.agents, game.seat);
  fill($("bot"), game.bots);
  fill($("bot2"), game.bots);
}

function newGame() {
  const message = {
    kind: "new", mode: $("mode").value, env: $("env").value, scenario: $("scenario").value,
    seat: $("seat").value, bot: $("bot").value,
  };
  if (message.mode === "watch") message.bot2 = $("bot2").value;
  if ($("seed").value !== "") message.seed = Number($("seed").value);
  paused = false;
  $("pause").textContent = "pause";
  send(message);
}

function tick() {
  if (last && last.mode === "watch" && !last.over && !paused && !waiting) send({ kind: "step" });
  const every = 1000 / Number($("speed").value);
  timer = setTimeout(tick, every);
}

function upload(event) {
  const file = event.target.files[0];
  if (!file) return;
  file.text().then((text) => {
    let log;
    try {
      log = JSON.parse(text);
    } catch (err) {
      $("error").textContent = `not a JSON game log: ${err.message}`;
      return;
    }
    send({ kind: "replay", log, seat: $("seat").value });
  });
  event.target.value = "";
}

function download(log) {
  const blob = new Blob([JSON.stringify(log, null, 1)], { type: "application/json" });
  const link = el("a");
  link.href = URL.createObjectURL(blob);
  link.download = `${log.env}_game_log.json`;
  document.body.appendChild(link);
  link.click();
  link.remove();
  URL.revokeObjectURL(link.href);
}

function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  socket = new WebSocket(`${scheme}://${location.host}/ws`);
  socket.addEventListener("open", () => send({ kind: "hello" }));
  socket.addEventListener("message", (event) => {
    waiting = false;
    const message = JSON.parse(event.data);
    if (message.kind === "error") {
      $("error").textContent = message.message;
      return;
    }
    $("error").textContent = "";
    if (message.kind === "hello") {
      games = message.games;
      fill($("env"), games.map((g) => g.env), message.default);
      gameChanged();
      newGame();
    } else if (message.kind === "state") {
      show(message);
    } else if (message.kind === "log") {
      download(message.log);
    }
  });
  socket.addEventListener("close", () => { $("error").textContent = "disconnected from the server; reload the page"; });
}

window.addEventListener("DOMContentLoaded", () => {
  $("env").addEventListener("change", gameChanged);
  $("mode").addEventListener("change", () => $("bot2-label").classList.toggle("hidden", $("mode").value !== "watch"));
  $("bot2-label").classList.add("hidden");
  $("new").addEventListener("click", newGame);
  $("pause").addEventListener("click", () => { paused = !paused; $("pause").textContent = paused ? "resume" : "pause"; });
  $("step").addEventListener("click", () => send({ kind: "step" }));
  $("back").addEventListener("click", () => last && last.replay && send({ kind: "goto", index: last.replay.index - 1 }));
  $("forward").addEventListener("click", () => send({ kind: "step" }));
  $("position").addEventListener("change", () => send({ kind: "goto", index: Number($("position").value) }));
  $("upload").addEventListener("change", upload);
  $("download").addEventListener("click", () => send({ kind: "log" }));
  connect();
  tick();
});
