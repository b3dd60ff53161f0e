"""A chart of members' ratings over a season as inline SVG (no script, no CDN: the page
prints and works offline): one line a member, his mu after each night he played, a band of
mu ± sigma where one member is drawn, and the conservative mu - 3 sigma dashed."""
from __future__ import annotations

from markupsafe import Markup, escape

COLOURS = ("#ffd000", "#4fc3f7", "#ff7043", "#9ccc65", "#ce93d8", "#f48fb1", "#80cbc4", "#bcaaa4")


def rating_chart(parties: list[str], series: list[dict], *, width: int = 640, height: int = 300,
                 ink: str = "#fff", band: bool = False, label: str = "rating over the season") -> Markup:
    """`series`: [{"name", "history": [{"party", "mu", "sigma"}]}], drawn in COLOURS' order."""
    left, right, top, bottom = 40, 170, 14, 40
    ys = [h["mu"] + s * h["sigma"] for x in series for h in x["history"] for s in ((-3, 1) if band else (0,))]
    ys += [h["mu"] - h["sigma"] for x in series for h in x["history"]] if band else []
    lo, hi = (min(ys), max(ys)) if ys else (0.0, 50.0)
    lo, hi = 5 * int(lo // 5), 5 * (int(hi // 5) + 1)
    step = max(1, len(parties) - 1)

    def x_of(party: str) -> float:
        return left + (width - left - right) * (parties.index(party) / step if len(parties) > 1 else 0.5)

    def y_of(v: float) -> float:
        return top + (height - top - bottom) * (hi - v) / (hi - lo)

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" role="img" '
           f'aria-label="{escape(label)}" class="rating-chart" font-size="14" fill="{ink}">']
    for v in range(lo, hi + 1, 5 if hi - lo <= 40 else 10):
        out.append(f'<line x1="{left}" x2="{width - right}" y1="{y_of(v):.1f}" y2="{y_of(v):.1f}" '
                   f'stroke="{ink}" stroke-opacity="0.2"/><text x="{left - 6}" y="{y_of(v) + 4:.1f}" '
                   f'text-anchor="end">{v}</text>')
    for p in parties:
        out.append(f'<text x="{x_of(p):.1f}" y="{height - bottom + 18}" text-anchor="middle">{escape(p)}</text>')
    for i, s in enumerate(series):
        colour, h = COLOURS[i % len(COLOURS)], s["history"]
        if not h:
            continue
        if band:
            upper = [f"{x_of(p['party']):.1f},{y_of(p['mu'] + p['sigma']):.1f}" for p in h]
            lower = [f"{x_of(p['party']):.1f},{y_of(p['mu'] - p['sigma']):.1f}" for p in reversed(h)]
            out.append(f'<polygon points="{" ".join(upper + lower)}" fill="{colour}" fill-opacity="0.25"/>')
            low = " ".join(f"{x_of(p['party']):.1f},{y_of(p['mu'] - 3 * p['sigma']):.1f}" for p in h)
            out.append(f'<polyline points="{low}" fill="none" stroke="{colour}" stroke-dasharray="6 4"/>')
        line = " ".join(f"{x_of(p['party']):.1f},{y_of(p['mu']):.1f}" for p in h)
        out.append(f'<polyline points="{line}" fill="none" stroke="{colour}" stroke-width="3"/>')
        out += [f'<circle cx="{x_of(p["party"]):.1f}" cy="{y_of(p["mu"]):.1f}" r="4" fill="{colour}">'
                f'<title>{escape(s["name"])}, {escape(p["party"])}: {p["mu"]:.1f} ± {p["sigma"]:.1f}</title></circle>'
                for p in h]
        end = h[-1]
        out.append(f'<text x="{width - right + 8}" y="{top + 14 + 18 * i}" fill="{colour}">'
                   f'{escape(s["name"])} {end["mu"]:.1f}</text>')
    if band and series:
        out.append(f'<text x="{width - right + 8}" y="{height - bottom - 26}" font-size="13">band: μ ± σ'
                   f'</text><text x="{width - right + 8}" y="{height - bottom - 8}" font-size="13">'
                   f'dashed: μ − 3σ</text>')
    out.append("</svg>")
    return Markup("".join(out))
