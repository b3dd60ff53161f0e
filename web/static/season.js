// The season on the projector: the standings a page at a time (every 8 s) where they do not
// fit the screen, as the party's standings page; a phone scrolls, and paper prints them all.
(function () {
  const body = document.querySelector("tbody.cycle");
  const pager = document.getElementById("pager");
  if (!body || !pager) return;
  const rows = Array.from(body.rows);
  const rowHeight = rows.length ? rows[0].getBoundingClientRect().height : 0;
  let page = 0;

  function show() {
    if (!rowHeight || window.matchMedia("(max-width: 900px)").matches) {
      rows.forEach((r) => { r.hidden = false; });
      pager.textContent = "";
      return;
    }
    const room = window.innerHeight - body.getBoundingClientRect().top - pager.offsetHeight - 16;
    const per = Math.max(5, Math.floor(room / rowHeight));
    const pages = Math.ceil(rows.length / per);
    page %= pages;
    rows.forEach((r, i) => { r.hidden = Math.floor(i / per) !== page; });
    pager.textContent = pages > 1 ? `page ${page + 1} of ${pages}` : "";
  }

  show();
  window.addEventListener("resize", show);
  setInterval(() => { page += 1; show(); }, 8000);
})();
