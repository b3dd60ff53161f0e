// The console's table status: refreshed from tables.json every two seconds.
"use strict";
const url = document.currentScript.dataset.url;
const body = document.querySelector("#tables tbody");

function cell(text, cls) {
  const td = document.createElement("td");
  td.textContent = text === null || text === undefined ? "" : String(text);
  if (cls) td.className = cls;
  return td;
}

// Each guest's name isolated for direction (a right-to-left name never turns the next one round).
function players(list) {
  const td = document.createElement("td");
  list.filter((p) => p.name).forEach((p, i) => {
    const name = document.createElement("bdi");
    name.textContent = p.name;
    td.append(`${i ? ", " : ""}${p.seat} `, name);
  });
  return td;
}

function render(data) {
  let acked = 0, bellTables = 0, missing = 0, offline = 0;
  body.replaceChildren(...data.tables.map((t) => {
    const tr = document.createElement("tr");
    tr.dataset.table = t.table;
    const board = t.board.state || "none";
    tr.className = [board, t.missing ? "missing" : ""].join(" ");
    if (t.bell_acked !== null) { bellTables++; if (t.bell_acked) acked++; }
    if (t.missing) missing++;
    if (board === "offline" || board === "silent") offline++;
    // a partnership form's sides, as their points are made (the projector's score line)
    const points = t.points ? ` · A+C ${t.points.AC} · B+D ${t.points.BD}` : "";
    tr.append(
      cell(t.table), cell(t.state + (t.pending ? " (to confirm)" : "")), players(t.players),
      cell(`${t.games}${t.of ? "/" + t.of : ""}${points}${t.missing ? " — missing" : ""}`, "games"),
      t.bell_acked === null ? cell("") : cell(t.bell_acked ? "✔ seen" : "✘ not yet", t.bell_acked ? "acked" : "not-acked"),
      cell(board + (t.board.board ? ` (${t.board.board})` : "") + (board === "silent" ? `, ${t.board.age}s` : ""), "board"),
      cell(t.board.rssi === null || t.board.rssi === undefined ? "" : `${t.board.rssi} dBm`),
      cell(t.board.battery === null || t.board.battery === undefined ? "" : `${t.board.battery}%`),
      cell(t.board.outbox), cell(t.calls ? `calls (${t.calls})` : ""));
    return tr;
  }));
  // The journal's replica, rendered by the server as on every console page (console/replica.html).
  const replica = document.getElementById("replica");
  if (replica && data.replica) replica.outerHTML = data.replica;
  document.getElementById("summary").textContent =
    (bellTables ? `Bell seen at ${acked} of ${bellTables} tables. ` : "") +
    (missing ? `${missing} table(s) with results missing. ` : "") +
    (offline ? `${offline} board(s) offline or silent.` : "");
}

async function refresh() {
  try {
    const r = await fetch(url, { headers: { Accept: "application/json" } });
    if (r.ok) render(await r.json());
  } catch (e) { /* the next refresh will tell */ }
}
refresh();
setInterval(refresh, 2000);
