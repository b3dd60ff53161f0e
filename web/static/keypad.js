// A phone as a table's board: the same envelopes, the same outbox discipline.
// Every entry gets an id <phone>.<boot>.<seq> (phone id and boot counter kept in
// localStorage, the boot counted up at every page load, as a board counts its
// boots), waits in a persisted outbox and is resent until the hub's ack comes.
"use strict";

const TABLE = Number(document.body.dataset.table);
const RESEND_MS = Number(document.body.dataset.resendMs);
const CSRF = document.querySelector("meta[name=csrf-token]").content;
const BASE = location.pathname.replace(/\/$/, "");
const store = window.localStorage;
const OUTBOX = `keypad.outbox.${TABLE}`;
const ACKED_BELLS = `keypad.bells.${TABLE}`;
const $ = (id) => document.getElementById(id);

function phoneId() {
  let id = store.getItem("keypad.phone");
  if (!id) {
    const abc = "abcdefghijklmnopqrstuvwxyz0123456789";
    const bytes = crypto.getRandomValues(new Uint8Array(10));
    id = "phone-" + Array.from(bytes, (b) => abc[b % abc.length]).join("");
    store.setItem("keypad.phone", id);
  }
  return id;
}
const PHONE = phoneId();
const BOOT = Number(store.getItem("keypad.boot") || "0") + 1;
store.setItem("keypad.boot", String(BOOT));
let seq = 0;

const outbox = () => JSON.parse(store.getItem(OUTBOX) || "[]");
const saveOutbox = (list) => store.setItem(OUTBOX, JSON.stringify(list));
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function send(kind, body) {
  const envelope = { v: 1, id: `${PHONE}.${BOOT}.${++seq}`, table: TABLE, kind, body };
  saveOutbox([...outbox(), envelope]);
  pump();
  return envelope.id;
}

function showAck(ack) {
  const counted = lastCount && ack.id === lastCount.id;
  if (counted && !ack.ok) lastCount = null;   // a refused count is nothing to undo
  if (!ack.ok && lastSent && ack.id === lastSent.id && !lastSent.count) {
    // refused: the entry comes back with every value kept, on the field the reason names
    // ("B: 32 AT MOST": seat B's), else on its review page, as on a board (firmware/app.py).
    // Not a count: it has no review page, and what the hub refused would only be refused again.
    draft = { key: lastSent.entry, values: { ...lastSent.values } };
    fix = seatNamed(ack.why);
    if (!walk && screen && screen.form && entryOf(screen.form) === lastSent.entry) {
      resume(screen.form, false);
      renderEntry();
    }
  }
  const el = $("ack");
  // a count: what was recorded (it has no review page; "Undo last count" takes it back)
  el.textContent = ack.ok ? (ack.msg || "SAVED") + (counted ? ` — ${lastCount.text}` : "") : ack.why;
  el.className = "ack " + (ack.ok ? "ok" : "refused");
  el.dataset.id = ack.id || "";
}

function showOutbox(note) {
  const n = outbox().length;
  $("outbox").textContent = note || (n ? `${n} waiting to be sent` : "");
}

let pumping = false;
async function pump() {
  if (pumping) return;
  pumping = true;
  try {
    while (outbox().length) {
      const envelope = outbox()[0];
      let response;
      try {
        response = await fetch(BASE + "/event", {
          method: "POST", body: JSON.stringify(envelope),
          headers: { "Content-Type": "application/json", "X-CSRF-Token": CSRF },
        });
      } catch (e) {
        showOutbox("no connection — resending…");
        await sleep(RESEND_MS);
        continue;
      }
      if (response.status === 400 || response.status === 404) {
        // not the hub's verdict: keep the entry (nothing keyed is lost) and say what to do
        showOutbox(response.status === 400 ? "reload the page to send" : "this link is not for this table");
        return;
      }
      if (!response.ok) { await sleep(RESEND_MS); continue; }
      const ack = await response.json();
      saveOutbox(outbox().filter((e) => e.id !== envelope.id));
      showAck(ack);
    }
  } finally {
    pumping = false;
    if (!outbox().length) showOutbox();
  }
}

// ----- what the table keys: the board's flows (firmware/entry.py, docs/firmware.md) -----
// A field the hub presets ("v") is not asked; a field with "when" is asked only while the
// field it names holds one of its values; a seat is one key (A-D, 0 none); a card is keyed
// as printed (table, letter, on White and Red cards 1 white / 2 red); a review page before
// sending, where a field's key (A-D) opens it to fix. ⌫ before the first field asks before
// cancelling; a cancelled entry keeps its values for its next open, and a refused one comes
// back with them on the field its reason names.
let screen = null;
let walk = null;   // {form, key, i, values, typed, review, fixing, asking, msg}
let draft = null;   // {key, values}: what was keyed for one entry (entryOf), kept until it is sent
let fix = null;   // the seat a refusal named: its field opens when the entry next opens with OK
let lastSent = null;   // {id, entry, values, count}: given back if the hub refuses it (not a count)
let lastCount = null;   // {id, game, text}: the last count sent, until the hand's result
const SEAT_KEYS = "ABCD";

// What is keyed survives a reload of the page (a tap on the wrong link, the phone's browser
// reloading a tab in the background): the entry's values, and where it was, are kept in
// sessionStorage for this table and its game (entryOf) until the entry is sent or cancelled.
const DRAFT = `keypad.draft.${TABLE}`;
let reloaded = JSON.parse(sessionStorage.getItem(DRAFT) || "null");
function keepDraft() {
  if (reloaded) return;   // not yet given back to its entry (reopen)
  if (!draft || !Object.keys(draft.values).length) { sessionStorage.removeItem(DRAFT); return; }
  const at = walk && !walk.count && walk.values === draft.values
    ? { i: walk.i, typed: walk.typed, review: walk.review } : null;
  sessionStorage.setItem(DRAFT, JSON.stringify({ key: draft.key, values: draft.values, at }));
}
// The first screen after a reload: its entry reopened as it was left, if it is the same one.
function reopen() {
  const left = reloaded;
  reloaded = null;
  const form = screen && screen.form;
  if (!left || !form || entryOf(form) !== left.key || walk) return;
  draft = { key: left.key, values: left.values };
  if (!left.at) return;
  open(form, false);
  if (left.at.review) { walk.review = shown(walk).every((f) => f.k in walk.values); return; }
  walk.review = false;
  moveTo(left.at.i, false);
  walk.typed = left.at.typed;
}

const asked = (f, values) => !f.when || f.when[1].includes(values[f.when[0]]);
const shown = (w) => w.form.fields.filter((f) => asked(f, w.values));

const SPARE = 10000;   // a spare card, the second for a seat ("TABLE 2 C/2"): the seat's card + 10000
function cardKeys(f, v) {
  if (!v) return "0";
  const c = Math.floor(v / SPARE), n = v % SPARE;
  const t = String(Math.floor((n - 1) / 4) + 1), i = (n - 1) % 4;
  return (f.card === 2 ? t + "ABAB"[i] + "1122"[i] : t + SEAT_KEYS[i]) + (c ? String(c + 1) : "");
}
function cardNumber(f, typed) {
  for (let c = 0; c < (f.copies || 1); c++) {
    for (let v = c ? 1 : 0; v <= (f.max || 0); v++) if (cardKeys(f, v + SPARE * c) === typed) return v + SPARE * c;
  }
  return null;
}
// the card keyed so far as printed on it: "1B2" shows "1B RED", a spare's copy after a slash
// ("2C2" is "2C/2", printed "TABLE 2 C/2"); keys that make no card stay as typed (firmware/entry.py)
function cardTyped(f, typed) {
  if (typed === "0") return "EMPTY";
  const m = /^(\d+)([A-D])(\d*)$/.exec(typed);
  if (!m) return typed;
  const colour = f.card === 2 ? m[3].slice(0, 1) : "", copy = m[3].slice(colour.length);
  if (colour && !("12".includes(colour) && "AB".includes(m[2]))) return typed;
  return m[1] + m[2] + (copy ? "/" + copy : "") + (colour === "1" ? " WHITE" : colour ? " RED" : "");
}
// what a field takes, said when a key does not fit it (firmware/entry.py): a seat field with
// min 1 (the confirmation's YOUR SEAT) has no none
const cardHint = (f) => (f.card === 2 ? "TABLE,A/B,1W/2R" : "TABLE, THEN A-D");
const seatHint = (f) => ((f.min || 0) >= 1 ? "PICK A-D" : "A-D OR 0=NONE");
function showValue(f, v) {
  if (f.card) {
    if (!v) return "EMPTY";
    const k = cardKeys(f, v % SPARE), copy = v >= SPARE ? "/" + (Math.floor(v / SPARE) + 1) : "";
    return (f.card === 2 ? (k.endsWith("2") ? "R" : "W") + k.slice(0, -1) : k) + copy;
  }
  if (f.seat) return v ? SEAT_KEYS[v - 1] : "NONE";
  return String(v);
}

// Drafts are kept per form kind and game, as a board keeps them (firmware/app.py)
const entryOf = (form) => `${form.kind || "result"}:${form.game}`;
// the draft of `form` holds values the table keyed, not only the hub's presets
const kept = (form) => !!draft && draft.key === entryOf(form) && form.fields.some((f) => f.v === undefined && f.k in draft.values);
// A refusal names a seat by beginning with it ("B: 32 AT MOST", "B OUT: DOMINO BY"): its
// field is the one to fix (docs/protocol.md, "ack"; firmware/app.py reads it the same way)
const seatNamed = (why) => (/^[A-D][ :]/.test(why || "") ? why[0] : null);

// Opens the entry of `form` with the values kept for it (its draft), on the first field with
// its kept value, or on the review page when every field has one (firmware/entry.py, Entry);
// returns the seat a refusal named, taken: only an open by OK goes to its field (fixField).
function open(form, count) {
  const key = entryOf(form);
  if (!draft || draft.key !== key) draft = { key, values: {} };
  const values = draft.values;
  form.fields.forEach((f) => { if (f.v !== undefined && !(f.k in values)) values[f.k] = f.v; });
  walk = { form, key: JSON.stringify(form), count, i: 0, values, typed: "", review: false, msg: "" };
  moveTo(0, false);
  walk.review = shown(walk).every((f) => f.k in values);
  const seat = fix;
  fix = null;
  return seat;
}

// Opened as OK opens it: the refused entry on the field its reason names (firmware/app.py)
function resume(form, count) {
  const seat = open(form, count);
  if (seat && walk.review) fixField(seat);
}

// On the review page a field's key (A-D) opens that field to fix; its OK returns to the review.
function fixField(k) {
  const i = walk.form.fields.findIndex((x) => x.k === k && asked(x, walk.values));
  if (i >= 0) { walk.review = false; walk.fixing = true; moveTo(i, false); }
}

function moveTo(i, emptyOnly) {
  const fields = walk.form.fields;
  while (i < fields.length && !(asked(fields[i], walk.values) && !(emptyOnly && fields[i].k in walk.values))) i++;
  if (i >= fields.length) { walk.review = true; return; }
  walk.i = i;
  const f = fields[i], v = walk.values[f.k];
  walk.typed = v === undefined ? "" : f.card ? cardKeys(f, v) : f.seat ? showValue(f, v).replace("NONE", "0") : String(v);
}

// No further digit fits: the field takes itself, as OK would, unless the next field holds a
// kept value (an OK out of habit would accept it unseen) or a count would be sent; a review
// page it opens ignores OK for 0.7 s (firmware/entry.py)
const LOOK_MS = 700;
function takesItself() {
  if (walk.fixing) return true;
  const next = walk.form.fields.slice(walk.i + 1).find((g) => asked(g, walk.values));
  return next === undefined ? !walk.count : !(next.k in walk.values);
}

function accept(f) {
  walk.quick = 0;
  let v;
  if (walk.typed === "") { walk.msg = f.card ? cardHint(f) : f.seat ? seatHint(f) : "TYPE A NUMBER"; return; }
  if (f.card) {
    v = cardNumber(f, walk.typed);
    if (v === null) { walk.msg = "NO SUCH CARD"; return; }
  } else if (f.seat) {
    v = walk.typed === "0" ? 0 : SEAT_KEYS.indexOf(walk.typed) + 1;
  } else {
    v = Number(walk.typed);
    const lo = f.min || 0, hi = f.max === undefined ? 999 : f.max;
    if (v < lo || v > hi) { walk.msg = `ONLY ${lo} TO ${hi}`; return; }   // kept, to correct
    // with the other fields of its sum keyed so far, at most f.sum (firmware/entry.py)
    const others = shown(walk).filter((g) => g !== f && f.sum && g.sum === f.sum && g.k in walk.values);
    if (f.sum && others.reduce((n, g) => n + walk.values[g.k], v) > f.sum) { walk.msg = `ALL: ${f.sum} AT MOST`; return; }
  }
  walk.values[f.k] = v;
  if (walk.fixing) { walk.fixing = false; moveTo(0, true); } else moveTo(walk.i + 1, false);
  if (walk.review && walk.count) sendWalk();   // a count has no review page: it can be undone
}

function sendWalk() {
  const form = walk.form, values = {};
  shown(walk).forEach((f) => { values[f.k] = walk.values[f.k]; });   // what was asked
  let id;
  // the form says which event its values make (docs/protocol.md, screen.form.kind)
  if (form.kind === "seat-check") id = send("seat-check", { cards: values });
  else if (form.kind === "confirm") id = send("confirm", { entry: form.entry, seat: SEAT_KEYS[values.seat - 1] });
  else if (form.kind === "count") id = send("count", { game: form.game, values });
  else id = send("result", { game: form.game, values });
  lastSent = { id, entry: entryOf(form), values: { ...walk.values }, count: walk.count };
  lastCount = walk.count ? { id, game: form.game,
    text: shown(walk).map((f) => `${f.label} ${showValue(f, walk.values[f.k])}`).join(", ") } : null;
  if (draft && draft.values === walk.values) draft = null;   // (a refused entry's, back meanwhile, stays)
  walk = null;
}

// On the idle page a key does what it does on a board's idle screen (firmware/app.py): OK opens
// the entry; a digit, or a seat where the first field is one and no count made in play owns the
// seat keys, opens a result's entry as its first key (never the seat check's or a confirmation's:
// they open on the names or the seat to confirm); a seat where a count is offered opens the count
// with that seat; ⌫ takes back the last count, or after a finish bell says no game is in hand.
function idleKey(k) {
  const form = screen && screen.form, count = screen && screen.count;
  const result = form && (form.kind || "result") === "result";
  if (k === "ok" && form) resume(form, false);
  else if (result && (/^[0-9]$/.test(k) || (SEAT_KEYS.includes(k) && !count && form.fields[0].seat))) {
    return firstKey(form, false, k);
  } else if (SEAT_KEYS.includes(k) && count) {
    return firstKey(count, true, k);
  } else if (k === "del" && undoable()) undoCount();
  else if (k === "del" && betweenGames()) noGame();
  renderEntry();
}

// A key that opens an entry begins its first field afresh, a kept value or not (firmware/app.py)
function firstKey(form, count, k) {
  open(form, count);
  if (!walk.review) walk.typed = "";
  return key(k);
}

const undoable = () => !!(lastCount && screen && screen.count && screen.count.game === lastCount.game);
const betweenGames = () => !!screen && screen.state === "finishing" && !outbox().some((e) => e.kind === "no-game");

function undoCount() {
  send("count-undone", { game: lastCount.game, count: lastCount.id });
  lastCount = null;
}

function noGame() {
  send("no-game", {});
}

function key(k) {
  if (!walk) return idleKey(k);
  walk.msg = "";
  const f = walk.form.fields[walk.i];
  if (walk.asking) {   // CANCEL ENTRY?: ⌫ yes, any other key no (and does nothing else)
    walk.asking = false;
    if (k === "del") walk = null;   // its values kept in the draft, for the next open
  } else if (walk.review) {
    if (k === "ok" && Date.now() - (walk.quick || 0) < LOOK_MS) walk.msg = "CHECK, THEN OK";   // the last field took itself
    else if (k === "ok") sendWalk();
    else if (k === "del") { walk.review = false; walk.i = walk.form.fields.indexOf(shown(walk).slice(-1)[0]); moveTo(walk.i, false); }
    else fixField(k);
  } else if (k === "del") {
    if (walk.typed) walk.typed = walk.typed.slice(0, -1);
    else {
      let i = walk.i - 1;
      while (i >= 0 && !asked(walk.form.fields[i], walk.values)) i--;
      if (i >= 0) moveTo(i, false); else walk.asking = true;   // before the first field: cancel?
    }
  } else if (k === "ok") accept(f);
  else if (f.card) {   // table, letter (and colour): checked whole on OK
    if (walk.typed.length < 6) walk.typed = walk.typed === "0" ? k : walk.typed + k;
    else walk.msg = cardHint(f);
  }
  else if (f.seat) {
    if (SEAT_KEYS.includes(k) || (k === "0" && (f.min || 0) < 1)) { walk.typed = k; accept(f); }   // one key
    else walk.msg = seatHint(f);
  } else if (/^[0-9]$/.test(k)) {
    const hi = f.max === undefined ? 999 : f.max;
    if (walk.typed.length >= String(hi).length) walk.msg = `MAX ${String(hi).length} DIGITS`;
    else {
      walk.typed = walk.typed === "0" ? k : walk.typed + k;
      if (walk.form.kind === "count" && hi < 10) accept(f);   // a single-digit count: no OK
      // no digit fits after a first 0 either (a number is never typed "05")
      else if ((Number(walk.typed) * 10 > hi || (walk.typed === "0" && !f.min)) && takesItself()) {
        accept(f);
        if (walk && walk.review) walk.quick = Date.now();   // an OK this soon is habit, not a look
      }
    }
  } else walk.msg = "DIGITS ONLY";
  renderEntry();
}

function renderEntry() {
  const form = screen && screen.form;
  if (walk && walk.key !== JSON.stringify(walk.count ? screen.count : form)) walk = null;   // the hub moved on
  keepDraft();
  $("entry").hidden = !form && !walk;
  $("points").hidden = !(screen && screen.count) || !!(walk && walk.count);
  $("undo").hidden = !undoable();
  $("nogame").hidden = !betweenGames();
  if (!walk) {
    // what the keys do here, as a board's idle screen says it (docs/firmware.md)
    const offers = [form ? `${form.title} — press OK${kept(form) ? " (values kept)" : ""}` : ""];
    if (screen && screen.count) offers.push("A-D: points made");
    if (undoable()) offers.push(`⌫: undo ${lastCount.text}`);
    else if (betweenGames()) offers.push("⌫: no game begun");
    $("field").textContent = offers.filter(Boolean).join(" · ");
    $("typed").textContent = "";
    $("review").hidden = true;
    return;
  }
  $("review").hidden = !walk.review || walk.asking;
  if (walk.asking) {
    $("field").textContent = `${walk.form.title} — CANCEL ENTRY? (values are kept)`;
    $("typed").textContent = "⌫ yes · OK no";
    return;
  }
  if (walk.review) {
    const how = walk.form.kind === "seat-check" ? "OK: all right · A-D: fix a seat" : "OK: send · ⌫: back · A-D: fix";
    $("field").textContent = `${walk.form.title} — CHECK · ${how}`;
    $("review").textContent = shown(walk).map((f) => `${f.label}  ${showValue(f, walk.values[f.k])}`).join("\n");
    $("typed").textContent = walk.msg;
    return;
  }
  const f = walk.form.fields[walk.i];
  const hint = f.card ? (f.card === 2 ? "table, A/B, 1 white 2 red" : "table, then A-D") : f.seat ? "A-D" + ((f.min || 0) < 1 ? ", 0 none" : "") : "";
  $("field").textContent = `${walk.form.title} — ${f.label}${hint ? ` (${hint})` : ""}`;
  const typed = f.card ? cardTyped(f, walk.typed) : walk.typed;
  $("typed").textContent = [typed, walk.msg].filter(Boolean).join(" · ");
}

function renderScreen() {
  $("lines").textContent = (screen.lines || []).join("\n");
  const bell = screen.bell;
  // the bell's meaning only while it matters (finishing, stopped); acknowledged once either way
  $("bell").hidden = !bell || !["finishing", "stopped"].includes(screen.state);
  if (bell) {
    $("bell").textContent = bell.meaning === "stop" ? "BELL: STOP NOW" : "BELL: FINISH THIS GAME";
    const acked = JSON.parse(store.getItem(ACKED_BELLS) || "[]");
    if (!acked.includes(bell.id)) {   // a board acknowledges each bell id once
      store.setItem(ACKED_BELLS, JSON.stringify([...acked, bell.id]));
      send("bell-ack", { bell: bell.id });
    }
  }
  renderEntry();
}

function connect() {
  const source = new EventSource(BASE + "/stream");
  source.onopen = () => { $("conn").textContent = "connected"; $("conn").className = "conn"; };
  source.onerror = () => { $("conn").textContent = "HUB?"; $("conn").className = "conn lost"; };
  source.addEventListener("screen", (e) => {
    screen = JSON.parse(e.data);
    document.body.dataset.seq = e.lastEventId;
    reopen();
    renderScreen();
  });
}

document.querySelectorAll(".keys button").forEach((b) => b.addEventListener("click", () => key(b.dataset.key)));
// a physical keyboard: digits, a-d for the seats, Enter or # = OK, Backspace or * = back
document.addEventListener("keydown", (e) => {
  if (e.ctrlKey || e.metaKey || e.altKey) return;
  const k = e.key.length === 1 ? e.key.toUpperCase() : e.key;
  const map = { Enter: "ok", "#": "ok", Backspace: "del", "*": "del" };
  if (/^[0-9A-D]$/.test(k) || map[k]) { e.preventDefault(); key(map[k] || k); }
});
$("points").addEventListener("click", () => { if (screen && screen.count) { resume(screen.count, true); renderEntry(); } });
$("nogame").addEventListener("click", () => { noGame(); renderEntry(); });
$("undo").addEventListener("click", () => {
  if (!lastCount || !confirm(`Undo the last count: ${lastCount.text}?`)) return;
  undoCount();
  renderEntry();
});
$("ring").addEventListener("click", () => { if (confirm("Ring the bell: this table finished its games?")) send("bell", {}); });
$("call").addEventListener("click", () => send("call", {}));
connect();
pump();
