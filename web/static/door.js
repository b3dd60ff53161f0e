// The door (web/door.py): the guests found as the name is typed, and each action of the list
// and of the door (check in, walk-in, rename, has left, came back, undo...) answered in
// place: no page reload, the search and the scroll kept, the verdict shown by the search
// box, the cursor back in it. Without JavaScript every form is a plain POST that comes
// back to the same search, at the guest's row.
"use strict";
(() => {
  const list = document.getElementById("door-list");
  const find = document.getElementById("find");
  const body = document.getElementById("guest-rows");
  const pager = document.getElementById("pager");
  const answer = document.getElementById("answer");
  // the actions answered in place; the others (the draw, an import...) change the whole page
  const IN_PLACE = new Set(["walk-in", "list-guest", "check-in", "undo-check-in", "rename", "remove-guest",
    "seat-guest", "guest-left", "guest-back", "card-drawn", "card-back"]);
  let asking = null;
  list.classList.add("live");
  if (!answer.firstChild) {
    answer.innerHTML = '<p class="hint">Part of a name is enough. Enter goes to the first “Check in” found; Enter again presses it.</p>';
  }

  function nodes(html) {
    const t = document.createElement("template");
    t.innerHTML = html;
    return t.content;
  }

  function here(params) {
    const url = new URL(location.href);
    for (const [k, v] of Object.entries(params)) {
      if (v) url.searchParams.set(k, v); else url.searchParams.delete(k);
    }
    url.hash = "";
    return url;
  }

  // ----- finding ---------------------------------------------------------------------------
  async function show(page) {
    const url = here({ q: find.value.trim(), page: page > 1 ? String(page) : "" });
    asking?.abort();
    asking = new AbortController();
    const rows = new URL(list.dataset.rows, location.href);
    rows.search = url.search;
    try {
      const r = await fetch(rows, { signal: asking.signal, headers: { "X-Door": "1" } });
      if (!r.ok) return;
      const found = await r.json();
      body.replaceChildren(nodes(found.rows));
      pager.replaceChildren(nodes(found.pager));
      history.replaceState(null, "", found.url);
    } catch (e) { /* typed again meanwhile, or the hub is away: the next keystroke asks again */ }
  }

  find.addEventListener("input", () => show(1));
  find.form.addEventListener("submit", (e) => {
    // Enter: to the first guest found not yet checked in, whose "Check in" is then one key away
    e.preventDefault();
    body.querySelector("form[data-action=check-in] button")?.focus();
  });
  pager.addEventListener("click", (e) => {
    const a = e.target.closest("a[data-page]");
    if (!a) return;
    e.preventDefault();
    show(Number(a.dataset.page)).then(() => list.scrollIntoView());
  });

  // ----- acting in place -------------------------------------------------------------------
  function renew(form) {
    // the next use of this form is another action: a fresh one-time id (web/actions.py)
    const bytes = crypto.getRandomValues(new Uint8Array(8));
    form.elements.action_id.value = [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");
  }

  function told(html) {
    for (const old of document.querySelectorAll("main div.flash")) old.remove();
    answer.replaceChildren(nodes(html));
  }

  function row(guest) {
    return guest && [...body.rows].find((tr) => tr.dataset.guest === guest);
  }

  // What the host looks at: the row acted on, else the first below the search box, else the box.
  function watched(form) {
    const top = find.form.getBoundingClientRect().bottom;
    const tr = form.closest("tr") || [...body.rows].find((r) => r.getBoundingClientRect().bottom > top);
    return { guest: tr?.dataset.guest, renamed: form.elements.new_name?.value.trim(),
             top: (tr || find).getBoundingClientRect().top };
  }

  function apply(a, form) {
    const seen = watched(form);
    if (a.ok) {
      body.replaceChildren(nodes(a.rows));   // the same rows as they are now; a walk-in first
      pager.replaceChildren(nodes(a.pager));
      if (!form.closest("#guests")) form.reset();                  // the door's own: ready for the next
    } else if (a.wrong && form.elements[a.wrong]) {
      const field = form.elements[a.wrong];
      field.classList.add("wrong");
      field.setAttribute("aria-invalid", "true");
    }
    renew(form);
    const seats = document.getElementById("draw");
    if (seats && a.seats) seats.replaceWith(nodes(a.seats));
    document.getElementById("door-count").textContent = a.count;
    document.getElementById("last-list")?.replaceChildren(nodes(a.last_list));
    told(a.flashes);
    const again = seen.guest ? row(seen.guest) || row(seen.renamed) : find;
    if (again) scrollBy(0, again.getBoundingClientRect().top - seen.top);   // it stays where it was
    if (!a.ok && a.wrong && form.elements[a.wrong]) form.elements[a.wrong].focus({ preventScroll: true });
    else if (a.ok) { find.focus({ preventScroll: true }); find.select(); }
  }

  async function send(e) {
    const form = e.target;
    if (!IN_PLACE.has(form.dataset.action) || e.defaultPrevented) return;
    e.preventDefault();
    if (form.dataset.sending) return;          // pressed twice: the first is on its way
    form.dataset.sending = "1";
    form.setAttribute("aria-busy", "true");
    for (const f of form.querySelectorAll(".wrong")) { f.classList.remove("wrong"); f.removeAttribute("aria-invalid"); }
    told("");
    form.elements.next.value = location.pathname + location.search;
    try {
      const r = await fetch(form.action, { method: "POST", body: new FormData(form), headers: { "X-Door": "1" } });
      if (!r.ok || !(r.headers.get("Content-Type") || "").startsWith("application/json")) {
        HTMLFormElement.prototype.submit.call(form);   // a page of its own (signed out, say): show it
        return;
      }
      apply(await r.json(), form);
    } catch (err) {
      // the hub did not answer: nothing is lost, the same id sent again is recorded once
      const note = document.createElement("div");
      note.className = "flash refused";
      note.setAttribute("role", "alert");
      note.textContent = "Not sent: the hub is not answering. Press the button again when it is back.";
      answer.replaceChildren(note);
    } finally {
      delete form.dataset.sending;
      form.removeAttribute("aria-busy");
    }
  }

  // on the list and the door's section, before the console's own handler on the document
  list.addEventListener("submit", send);
  document.getElementById("door")?.addEventListener("submit", send);
})();
