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
  const el = $("ack");
  el.textContent = ack.ok ? ack.msg || "SAVED" : ack.why;
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

// ----- what the table keys: the screen's form, field by field -------------------
let screen = null;
let walk = null;   // {formKey, i, values, typed}

function formKey(form) { return form ? JSON.stringify(form) : ""; }

function renderEntry() {
  const form = screen && screen.form;
  $("entry").hidden = !form;
  if (!form) return;
  if (!walk || walk.formKey !== formKey(form)) walk = { formKey: formKey(form), i: 0, values: {}, typed: "" };
  const f = form.fields[walk.i];
  // a seat is keyed as its number, as the board's 4x4 keypad keys A-D: 1=A 2=B 3=C 4=D (0: none)
  $("field").textContent = `${form.title} — ${f.label}${f.seat ? " (1=A 2=B 3=C 4=D, 0=none)" : ""}` +
    ` · ${walk.i + 1}/${form.fields.length}`;
  $("typed").textContent = walk.typed;
}

function key(k) {
  if (!walk) return;
  const form = screen.form, f = form.fields[walk.i];
  if (k === "del") {
    if (walk.typed) walk.typed = walk.typed.slice(0, -1);
    else if (walk.i > 0) {   // back to the previous field, its value to edit
      walk.i--;
      walk.typed = String(walk.values[form.fields[walk.i].k]);
    }
  }
  else if (k === "ok") {
    if (walk.typed === "") return;
    const v = Number(walk.typed);
    if (f.max !== undefined && v > f.max) { showAck({ ok: false, why: `MAX ${f.max}` }); return; }
    if (f.min !== undefined && v < f.min) { showAck({ ok: false, why: `MIN ${f.min}` }); return; }
    walk.values[f.k] = v;
    walk.typed = "";
    walk.i++;
    if (walk.i >= form.fields.length) {
      // the form says which event its values make (docs/protocol.md, screen.form.kind)
      if (form.kind === "seat-check") send("seat-check", { cards: walk.values });
      else if (form.kind === "confirm") send("confirm", { entry: form.entry, seat: "ABCD"[walk.values.seat - 1] });
      else send("result", { game: form.game, values: walk.values });
      walk = { formKey: walk.formKey, i: 0, values: {}, typed: "", sent: true };
    }
  } else if (walk.typed.length < 4) { walk.typed += k; }
  renderEntry();
}

function renderScreen() {
  $("lines").textContent = (screen.lines || []).join("\n");
  const bell = screen.bell;
  $("bell").hidden = !bell;
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
    renderScreen();
  });
}

document.querySelectorAll(".keys button").forEach((b) => b.addEventListener("click", () => key(b.dataset.key)));
$("ring").addEventListener("click", () => { if (confirm("Ring the bell: this table finished its games?")) send("bell", {}); });
$("call").addEventListener("click", () => send("call", {}));
connect();
pump();
