// The projected standings: render what the hub's stream says; never scroll.
// Lists too long for the screen at a legible size are shown a page at a time,
// turning every PAGE_SECONDS; the table grid shrinks and adds columns instead.
"use strict";

const PAGE_SECONDS = 8;
const MIN_PX = 16;       // the tiles' small texts read from the back of the room (a 1024×768 projector)
const STATE_TEXT = {
  waiting: "Waiting for the bell",
  playing: "Playing",
  finishing: "Bell rung: finish the game",
  stopped: "Bell rung: stop now",
  between: "Between sessions",
  over: "The prizes",
};

let view = null;         // the view drawn: the latest `standings` message, with the `change`s since applied
let boards = {};         // table -> online | offline | silent | none
let page = 0;
let skew = 0;            // the hub's clock minus this screen's, in ms

const $ = (id) => document.getElementById(id);

function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}

// A name the box may cut with an ellipsis: the whole of it stays in its title. Its direction
// is its own (dir=auto): a right-to-left name never turns the text after it round.
function nameEl(cls, text) {
  const e = el("span", cls, text);
  e.title = text;
  e.dir = "auto";
  e.dataset.full = text;
  return e;
}

// A name too long for its box is cut in its middle, not at its end: "Mary-Elizabeth … Bennett"
// and "Mary-Elizabeth … Brown" stay two people, where an ellipsis at the end showed both as
// "Mary-Elizabeth Fitzw…". Measured on a canvas (one layout read for all the names, not one each).
const ruler = document.createElement("canvas").getContext("2d");
function cutNames(root) {
  const long = [...root.querySelectorAll("[data-full]")].filter((e) => e.scrollWidth > e.clientWidth + 1)
    .map((e) => [e, e.clientWidth - 2, getComputedStyle(e).font]);
  for (const [e, room, font] of long) {
    ruler.font = font;
    const full = e.dataset.full;
    let lo = 2, hi = full.length - 1, best = null;
    while (lo <= hi) {
      const k = (lo + hi) >> 1, text = middleCut(full, k);
      if (ruler.measureText(text).width <= room) { best = text; lo = k + 1; } else hi = k - 1;
    }
    if (best) e.textContent = best;
  }
}
// `k` letters of `full`: its beginning and its last word whole where that leaves four letters
// before it ("Mary … Bennett"), else its beginning and its end half and half
function middleCut(full, k) {
  const last = full.slice(full.lastIndexOf(" ") + 1);
  const tail = last.length < full.length && last.length <= k - 4 ? last.length : Math.floor(k / 2);
  return full.slice(0, k - tail).trimEnd() + " … " + full.slice(full.length - tail).trimStart();
}

function render() {
  if (!view) return;
  $("title").textContent = view.title || "";
  $("session").textContent = view.session ? `Session ${view.session}${view.sessions ? " of " + view.sessions : ""}` : "";
  const st = $("state");
  st.className = "state " + view.state;
  const over = view.state === "over" && (view.prizes || []).length > 0;
  // the last session ended, the final count not made yet: the room reads the standings, no prizes
  st.textContent = view.state === "over" && !over ? "Last session over" : STATE_TEXT[view.state] || view.state;
  st.dataset.state = view.state;
  $("ceremony").hidden = !over;
  $("main").hidden = over;   // the ceremony takes the screen
  renderLeft();
  renderTables();
  renderClock();
  if (over) renderPrizes();
}

// A party run by the clock (Bergen, Tiddle-a-wink: "an hour and a half") counts down in the header.
function renderClock() {
  const clock = $("clock");
  clock.hidden = !view.clock;
  if (!view.clock) return;
  const left = Math.max(0, Math.round((view.clock.ends_at * 1000 - (Date.now() + skew)) / 1000));
  const h = Math.floor(left / 3600), m = Math.floor(left / 60) % 60, sec = left % 60;
  const two = (n) => String(n).padStart(2, "0");
  clock.textContent = left ? `${h ? h + ":" + two(m) : m}:${two(sec)} left` : "Time is up";
  clock.classList.toggle("up", left === 0);
}

function renderLeft() {
  const list = $("left-list");
  list.replaceChildren();
  let rows = [];
  if (view.state === "between" && (view.moves || []).length) {
    $("left-title").textContent = `To your seats for session ${view.session}`;
    rows = view.moves.map((m) => {
      const li = el("li");
      li.append(nameEl("name", m.name), el("span", "arrow", "→"), el("span", "total", m.to));
      return li;
    });
  } else if (!(view.leaders || []).length && view.note) {
    $("left-title").textContent = "Welcome";
    list.append(el("li", "note", view.note));
    $("left-page").textContent = "";
    return;
  } else if (view.hidden) {
    $("left-title").textContent = "Standings";
    const li = el("li", "note hidden-notice", "The standings are hidden for the last session: the prizes will tell!");
    list.append(li);
    $("left-page").textContent = "";
    return;
  } else {
    $("left-title").textContent = `Leaders — ${view.measure_label || "total"}`;
    rows = leaderRows();
  }
  fitPaged(list, rows, $("left-page"));
  cutNames(list);
}

function leaderRows() {
  return (view.leaders || []).map((p, i) => {   // ranked by their places (web/projection.py)
    const li = el("li");
    li.append(el("span", "rank", (i + 1) + "."), nameEl("name", p.name),
              el("span", "where", p.card || ""), el("span", "total", String(p.total)));
    return li;
  });
}

// Show rows as large as the box allows (down to a legible minimum), a page at a time.
function fitPaged(list, rows, pager) {
  const h = list.clientHeight, w = list.clientWidth;
  const vmin = Math.min(window.innerWidth, window.innerHeight) / 100;
  // a row holds its rank, about ten letters of name and the total (16 em); the place
  // beside them (another 5 em) only where the row is wide enough at that size
  let font = Math.max(3.6 * vmin, Math.min(5.2 * vmin, w / 16)), perPage = rows.length;
  for (; font >= 3.6 * vmin; font -= 0.2 * vmin) {
    perPage = Math.max(1, Math.floor(h / (font * 1.45)));
    if (perPage >= rows.length) break;
  }
  font = Math.max(font, 3.6 * vmin);
  list.style.fontSize = font + "px";
  list.classList.toggle("narrow", font * 21 > w);
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
  // room for the four seats' names and totals: in screen units, so 1280×720 shows
  // the seats wherever 1920×1080 does, at the same share of the screen
  const vmin = Math.min(window.innerWidth, window.innerHeight) / 100;
  const detailed = th > 20 * vmin && tw > 18 * vmin;
  const numberPx = Math.floor(Math.min(detailed ? th * 0.26 : th * 0.5, tw * 0.42));
  const smallPx = Math.max(MIN_PX, Math.floor(detailed ? th * 0.1 : Math.min(th * 0.2, tw * 0.16)));
  box.replaceChildren(...tables.map((t) => {
    const board = boards[String(t.table)] || "none";
    const tile = el("div", "tile");
    // a tile too short for its number over its progress at MIN_PX (two hundred tables on
    // 1024×768): a thin border and tight lines give them the room
    if (th < 2.5 * MIN_PX) tile.classList.add("dense");
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
    // partnership forms count the partners' points to ten, not games; never wider than its
    // tile: where the whole ("A+C 7 · B+D 9 ✔") would be under MIN_PX, the short form ("7 · 9")
    const progress = t.of ? `${t.games}/${t.of}` : (t.points || `${t.games} games`);
    const fits = (s) => Math.floor(0.9 * tw / (0.62 * s.length));
    const texts = [progress + (t.done ? " ✔" : ""), progress.replace(/[AB]\+[CD] /g, "").replace(" games", "")];
    const text = texts.find((s) => fits(s) >= MIN_PX) || texts[1];
    const games = el("div", "games", text);
    games.style.fontSize = Math.max(MIN_PX, Math.min(smallPx, fits(text))) + "px";
    tile.append(no, games);
    if (detailed && !view.hidden) {
      const seats = el("div", "seats");
      seats.style.fontSize = Math.max(MIN_PX, Math.floor(Math.min(th * 0.095, tw * 0.075))) + "px";
      for (const s of t.seats || []) {
        const row = el("div");
        row.append(nameEl("", `${s.seat} ${s.name || ""}`), el("span", "", s.score === null || s.score === undefined ? "" : String(s.score)));
        seats.append(row);
      }
      tile.append(seats);
    }
    return tile;
  }));
  cutNames(box);
}

function renderPrizes() {
  const list = $("final-list");
  list.replaceChildren();
  fitPaged(list, leaderRows(), $("final-page"));
  $("prizes").replaceChildren(...view.prizes.map((p) => {
    const li = el("li");
    li.append(el("span", "which", p.label || `Prize ${p.prize}`));
    if (p.play_off && p.play_off.length) {
      const names = el("span", "play-off", "Play-off: ");
      p.play_off.forEach((n, i) => names.append(i ? ", " : "", nameEl("", n)));
      li.append(names);
    } else {
      li.append(nameEl("who", p.name || ""), el("span", "total", p.total === undefined ? "" : String(p.total)));
    }
    return li;
  }));
  cutNames($("ceremony"));
}

// The view after a `change` (web/frames.py `applied`): every key it sets, and the lists it
// names made of the runs of rows held (`from`: [first, count] each; without it the list held,
// cut or grown to its new length) and the rows sent, at their places.
function applied(before, change) {
  const next = { ...before, ...change.set };
  for (const [name, told] of Object.entries(change.lists)) {
    const held = before[name];
    const rows = told.from
      ? told.from.flatMap(([first, count]) => Array.from({ length: count }, (_, k) => held[first + k] ?? null))
      : held.slice(0, told.length);
    while (rows.length < told.length) rows.push(null);
    for (const [i, row] of told.rows) rows[i] = row;
    next[name] = rows;
  }
  return next;
}

function connect() {
  const source = new EventSource("stream");
  const conn = $("conn");
  source.onopen = () => { conn.textContent = "live"; conn.className = "conn"; };
  source.onerror = () => {
    conn.textContent = "The hub is not answering — reconnecting… (the standings as last seen)";
    conn.className = "conn lost";
  };
  source.addEventListener("standings", (e) => {
    view = JSON.parse(e.data);
    document.body.dataset.seq = e.lastEventId;
    render();
  });
  // what changed since the view of seq `base`: applied only to that view, so a screen that
  // somehow holds another never draws wrong standings: it starts again from a whole view
  source.addEventListener("change", (e) => {
    const change = JSON.parse(e.data);
    if (!view || String(change.base) !== document.body.dataset.seq) {
      source.close();
      connect();   // a new stream, no Last-Event-ID: the whole view first
      return;
    }
    view = applied(view, change);
    document.body.dataset.seq = e.lastEventId;
    render();
  });
  source.addEventListener("boards", (e) => {
    boards = JSON.parse(e.data);
    if (view) renderTables();
  });
}

window.addEventListener("resize", render);
setInterval(() => { page++; if (view) render(); }, PAGE_SECONDS * 1000);
setInterval(() => { if (view) renderClock(); }, 1000);
// the hub's clock (its HTTP Date), so the time limit counts down by it, not by this screen's
fetch("standings.json", { method: "HEAD" }).then((r) => {
  const at = Date.parse(r.headers.get("Date"));
  if (!Number.isNaN(at)) skew = at + 500 - Date.now();   // Date is to the second: half a second on average
}).catch(() => {});
connect();
