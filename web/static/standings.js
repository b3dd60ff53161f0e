// The projected standings: render what the hub's stream says; never scroll.
// Lists too long for the screen at a legible size are shown a page at a time,
// turning every PAGE_SECONDS; the table grid shrinks and adds columns instead.
"use strict";

const PAGE_SECONDS = 8;
const STATE_TEXT = {
  waiting: "Waiting for the bell",
  playing: "Playing",
  finishing: "Bell rung: finish the game",
  stopped: "Bell rung: stop now",
  between: "Between sessions",
  over: "The prizes",
};

let view = null;         // the latest `standings` message
let boards = {};         // table -> online | offline | silent | none
let page = 0;

const $ = (id) => document.getElementById(id);

function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}

function render() {
  if (!view) return;
  $("title").textContent = view.title || "";
  $("session").textContent = view.session ? `Session ${view.session}${view.sessions ? " of " + view.sessions : ""}` : "";
  const st = $("state");
  st.className = "state " + view.state;
  st.textContent = STATE_TEXT[view.state] || view.state;
  st.dataset.state = view.state;
  const over = view.state === "over" && (view.prizes || []).length > 0;
  $("ceremony").hidden = !over;
  renderLeft();
  renderTables();
  if (over) renderPrizes();
}

function renderLeft() {
  const list = $("left-list");
  list.replaceChildren();
  let rows = [];
  if (view.state === "between" && (view.moves || []).length) {
    $("left-title").textContent = `To your seats for session ${view.session}`;
    rows = view.moves.map((m) => {
      const li = el("li");
      li.append(el("span", "name", m.name), el("span", "arrow", "→"), el("span", "total", m.to));
      return li;
    });
  } else if (!(view.leaders || []).length && view.note) {
    $("left-title").textContent = "Welcome";
    list.append(el("li", "note", view.note));
    $("left-page").textContent = "";
    return;
  } else if (view.hidden) {
    $("left-title").textContent = "Standings";
    const li = el("li", "note", "Hidden for the last session: the prizes will tell!");
    list.append(li);
    $("left-page").textContent = "";
    return;
  } else {
    $("left-title").textContent = `Leaders — ${view.measure_label || "total"}`;
    rows = (view.leaders || []).map((p) => {
      const li = el("li");
      li.append(el("span", "rank", p.rank + "."), el("span", "name", p.name),
                el("span", "where", p.card || ""), el("span", "total", String(p.total)));
      return li;
    });
  }
  fitPaged(list, rows, $("left-page"));
}

// Show rows as large as the box allows (down to a legible minimum), a page at a time.
function fitPaged(list, rows, pager) {
  const h = list.clientHeight;
  const vmin = Math.min(window.innerWidth, window.innerHeight) / 100;
  let font = 5.2 * vmin, perPage = rows.length;
  for (; font >= 3.6 * vmin; font -= 0.2 * vmin) {
    perPage = Math.max(1, Math.floor(h / (font * 1.45)));
    if (perPage >= rows.length) break;
  }
  font = Math.max(font, 3.6 * vmin);
  list.style.fontSize = font + "px";
  const pages = Math.max(1, Math.ceil(rows.length / perPage));
  const p = page % pages;
  for (const li of rows.slice(p * perPage, (p + 1) * perPage)) {
    li.style.lineHeight = "1.4";
    list.append(li);
  }
  pager.textContent = pages > 1 ? `page ${p + 1} of ${pages}` : "";
}

// Columns and rows for n tiles of about 8:7 in a w x h box, tiles as large as possible.
function grid(n, w, h) {
  let best = { cols: 1, rows: n, size: 0 };
  for (let cols = 1; cols <= n; cols++) {
    const rows = Math.ceil(n / cols);
    const tw = w / cols, th = h / rows;
    const size = Math.min(tw, th * 8 / 7);
    if (size > best.size) best = { cols, rows, size, tw, th };
  }
  return best;
}

function renderTables() {
  const box = $("tables");
  const tables = view.tables || [];
  const g = grid(tables.length || 1, box.clientWidth, box.clientHeight);
  const gap = Math.min(window.innerWidth, window.innerHeight) * 0.006;
  const th = g.th - gap, tw = g.tw - gap;
  box.style.gridTemplateColumns = `repeat(${g.cols}, 1fr)`;
  box.style.gridAutoRows = `${Math.floor(th)}px`;
  const detailed = th > 220 && tw > 200;       // room for the four seats' scores
  const numberPx = Math.floor(Math.min(detailed ? th * 0.26 : th * 0.5, tw * 0.42));
  const smallPx = Math.max(12, Math.floor(detailed ? th * 0.1 : Math.min(th * 0.2, tw * 0.16)));
  box.replaceChildren(...tables.map((t) => {
    const board = boards[String(t.table)] || "none";
    const tile = el("div", "tile");
    tile.dataset.table = t.table;
    if (board === "offline" || board === "silent") {
      const mark = el("div", "mark", board === "offline" ? "OFFLINE" : "SILENT");
      mark.style.fontSize = smallPx + "px";
      tile.append(mark);
    }
    if (t.done) tile.classList.add("done");
    if (board === "offline" || board === "silent") tile.classList.add(board);
    const no = el("div", "no", String(t.table));
    no.style.fontSize = numberPx + "px";
    // partnership forms count the partners' points to ten, not games
    const progress = t.of ? `${t.games}/${t.of}` : (t.points || `${t.games} games`);
    const games = el("div", "games", progress + (t.done ? " ✔" : ""));
    games.style.fontSize = smallPx + "px";
    tile.append(no, games);
    if (detailed && !view.hidden) {
      const seats = el("div", "seats");
      seats.style.fontSize = Math.floor(th * 0.095) + "px";
      for (const s of t.seats || []) {
        const row = el("div");
        row.append(el("span", "", `${s.seat} ${s.name || ""}`), el("span", "", s.score === null || s.score === undefined ? "" : String(s.score)));
        seats.append(row);
      }
      tile.append(seats);
    }
    return tile;
  }));
}

function renderPrizes() {
  $("prizes").replaceChildren(...view.prizes.map((p) => {
    const li = el("li");
    li.append(el("span", "which", p.label || `Prize ${p.prize}`));
    if (p.play_off && p.play_off.length) {
      li.append(el("span", "play-off", "Play-off: " + p.play_off.join(", ")));
    } else {
      li.append(el("span", "who", p.name || ""), el("span", "total", p.total === undefined ? "" : String(p.total)));
    }
    return li;
  }));
}

function connect() {
  const source = new EventSource("stream");
  const conn = $("conn");
  source.onopen = () => { conn.textContent = "live"; conn.className = "conn"; };
  source.onerror = () => { conn.textContent = "connection lost — reconnecting…"; conn.className = "conn lost"; };
  source.addEventListener("standings", (e) => {
    view = JSON.parse(e.data);
    document.body.dataset.seq = e.lastEventId;
    render();
  });
  source.addEventListener("boards", (e) => {
    boards = JSON.parse(e.data);
    if (view) renderTables();
  });
}

window.addEventListener("resize", render);
setInterval(() => { page++; if (view) renderLeft(); }, PAGE_SECONDS * 1000);
connect();
