// Every console page: the hub's state, and tables readable on a phone.
//
// The console is served by the hub's own process: when the hub stops answering, so
// does this page's server. The page asks the hub every POLL_MS; a failed answer
// says so at the top at once (within 5 s), and what is typed stays in the page. A
// form sent meanwhile is kept and sent when the hub is back (its one-time action id
// makes a second send record nothing twice), or plainly refused when one is already
// waiting; a link followed meanwhile opens when the hub is back. Never the browser's
// "This site can't be reached". Back again, the page recovers by itself: reloaded
// where nothing was typed, else told of the restart in place (console/restart.html).
"use strict";
(() => {
  const POLL_MS = 1500, ASK_MS = 3000;   // a hung hub is told within 4.5 s
  const bar = document.getElementById("hub-state");
  if (!bar) return;
  const url = bar.dataset.url;
  let up = true, started = Number(bar.dataset.started), downSince = null;
  let asking = 0;       // when the poll now in flight was sent
  let waiting = null;   // {form, submitter} or {href}: what was asked while the hub was away

  async function ask() {
    asking = Date.now();
    const stop = new AbortController();
    const timer = setTimeout(() => stop.abort(), ASK_MS);
    try {
      const r = await fetch(url, { signal: stop.signal, cache: "no-store", redirect: "manual",
                                   headers: { Accept: "application/json" } });
      if (r.type === "opaqueredirect") return { started };   // signed out: to the login page, an answer
      return r.ok ? await r.json() : null;
    } catch (e) {
      return null;   // refused, reset or timed out: the hub is not answering
    } finally {
      clearTimeout(timer);
      asking = 0;
    }
  }

  function clock(t) { return new Date(t).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit", second: "2-digit", hour12: false }); }

  function say(text, back) {
    bar.textContent = text;
    bar.className = "hub-state " + (back ? "back" : "down");
    bar.setAttribute("role", back ? "status" : "alert");
    bar.hidden = false;
  }

  function gone() {
    if (!up) return;
    up = false;
    downSince = Date.now();
    document.body.dataset.hub = "down";
    say(`The hub is not answering (since ${clock(downSince)}). What you type here is kept; ` +
        "the party's record is safe in the journal. This page carries on by itself when the hub is back.");
  }

  function typed() {
    for (const el of document.querySelectorAll("input, textarea, select")) {
      if (el.type === "hidden" || el.type === "file" && !el.value) continue;
      if (el.type === "checkbox" || el.type === "radio") { if (el.checked !== el.defaultChecked) return true; }
      else if (el.tagName === "SELECT") { if ([...el.options].some((o) => o.selected !== o.defaultSelected)) return true; }
      else if (el.value !== el.defaultValue) return true;
    }
    return false;
  }

  function back(state) {
    const restarted = state.started !== started;
    up = true;
    started = state.started;
    document.body.dataset.hub = "up";
    if (waiting) { const w = waiting; waiting = null; return send(w); }
    // Started again: this page's content is from before; fresh, with the restart's summary.
    if (restarted && !typed()) return location.reload();
    say(`The hub is back${restarted ? `: it started again at ${clock(state.started * 1000)}` : ""}. ` +
        (typed() ? "What you typed is still here." : ""), true);
    if (state.restart && !document.getElementById("restart")) {
      document.querySelector("main").insertAdjacentHTML("afterbegin", state.restart);
      document.querySelector("#restart input[name=next]").value = location.pathname + location.search;
    }
    if (!restarted) setTimeout(() => { if (up) bar.hidden = true; }, 5000);
  }

  async function poll() {
    const state = await ask();
    if (!state) gone();
    else if (!up || state.started !== started) back(state);
    setTimeout(poll, POLL_MS);
  }

  function send(w) {
    if (w.href) { location.href = w.href; return; }
    w.form.dataset.hubChecked = "1";
    w.form.requestSubmit(w.submitter && w.submitter.form === w.form ? w.submitter : null);
  }

  function hold(form, what) {
    form.querySelector(".waiting")?.remove();
    const note = document.createElement("span");
    note.className = "waiting";
    note.setAttribute("role", "alert");
    note.textContent = what;
    form.append(note);
  }

  // Is the hub there, right now? Asked synchronously so that a form or link the hub
  // answers goes in the click's own task, as it would without this script (a local
  // round trip). Not asked while a poll is slow in coming (a busy hub, or a hung one: it
  // would block the page): then the form or link goes as it would without this script.
  // Only a hub that does not answer at all holds it (a dead one refuses at once).
  function answersNow() {
    if (asking && Date.now() - asking > 500) return true;
    const x = new XMLHttpRequest();
    try {
      x.open("GET", url, false);
      x.send();
      return x.status === 200;
    } catch (e) {
      return false;
    }
  }

  function keep(form, submitter) {
    gone();
    if (waiting && waiting.form !== form) {
      hold(form, "Not sent: the hub is not answering, and another action is already waiting to be sent. " +
                 "Send this one again when the hub is back.");
      return;
    }
    waiting = { form, submitter };
    hold(form, "Not sent yet: the hub is not answering. It is sent as soon as the hub is back.");
  }

  // Bubbling to the document: a page's own script that took the form over (fetch) has
  // called preventDefault already and handles its own answer.
  document.addEventListener("submit", (e) => {
    const form = e.target;
    if (e.defaultPrevented || form.target === "_blank") return;
    if (form.dataset.hubChecked) { delete form.dataset.hubChecked; return; }   // checked: let it go
    if (answersNow()) return;
    e.preventDefault();
    keep(form, e.submitter);
  });

  document.addEventListener("click", (e) => {
    const a = e.target.closest("a[href]");
    if (!a || e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    if (a.target === "_blank" || a.origin !== location.origin || a.hasAttribute("download") || a.hash && a.pathname === location.pathname) return;
    if (answersNow()) return;
    e.preventDefault();
    gone();
    if (waiting) { say("The hub is not answering: “" + a.textContent.trim() + "” not opened, an action is waiting to be sent first."); return; }
    waiting = { href: a.href };
    say(`The hub is not answering (since ${clock(downSince)}). “${a.textContent.trim()}” opens as soon as it is back.`);
  });

  // A table's rows stack on a phone (console.css): each cell named by its column.
  function label(table) {
    const names = [...table.querySelectorAll("thead th")].map((th) => th.textContent.trim());
    for (const tr of table.querySelectorAll("tbody tr")) {
      [...tr.children].forEach((td, i) => { if (names[i] && !td.dataset.label) td.dataset.label = names[i]; });
    }
  }
  for (const table of document.querySelectorAll("table.list")) {
    label(table);
    new MutationObserver(() => label(table)).observe(table, { childList: true, subtree: true });
  }

  setTimeout(poll, POLL_MS);
})();
