"""The HTML report of one sheet: one self-contained file (images as data: URIs, inline CSS and JS, no
network resource), readable from a USB stick on any browser.

It shows the photo, the rectified sheet with each reading and its doubt drawn over it
(:func:`front.overlay.cell_layers`, the same drawing as the page and the report PNG), each card's points
with the cells that earned them highlighted on hover or tap, coins, the monster penalty, the sheet's
problems and what the scoring policy made of the doubts.  Every string from outside (file names, card
names, messages, sheet comments) goes through :func:`html.escape`.
"""

from __future__ import annotations

import base64
import html
from collections.abc import Iterable, Mapping, Sequence
from typing import Any
from urllib.parse import quote

import cv2
import numpy as np

from front.overlay import DOUBT_COLOUR, HIGHLIGHT_COLOUR, cell_layers, hex_colour
from front.results import Review, outcome_label
from rules import Cell, Terrain, parse_label
from rules.grid import SIZE
from scanner.constants import CANON_MARGIN, CANON_PPC

__all__ = ["data_uri", "index_html", "odds_of", "photo_part", "report_html"]

_PHOTO_SIDE = 1200  # px: the photo is shown, not measured, so a smaller copy keeps the file light
_CANVAS = round((SIZE + 2 * CANON_MARGIN) * CANON_PPC)  # the canonical image's side, px
_PART_MARGIN = 3.0  # cells around the grid kept by photo_part: the title above, the coin track below


def data_uri(image: np.ndarray, *, max_side: int | None = None, quality: int = 85) -> str:
    """A ``data:image/jpeg;base64,...`` URI of a BGR image, shrunk to `max_side` px if larger."""
    if max_side is not None and max(image.shape[:2]) > max_side:
        f = max_side / max(image.shape[:2])
        image = cv2.resize(image, None, fx=f, fy=f, interpolation=cv2.INTER_AREA)
    ok, buffer = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, quality])
    if not ok:  # pragma: no cover - imencode of a uint8 BGR array does not fail
        raise ValueError("cannot encode the image as JPEG")
    return "data:image/jpeg;base64," + base64.b64encode(buffer.tobytes()).decode("ascii")


def photo_part(image: np.ndarray, corners: np.ndarray) -> np.ndarray:
    """The part of a photo around one sheet's grid (a table photo of several sheets).

    Parameters
    ----------
    image : (H, W, 3) array, the photo.
    corners : (4, 2) array, the grid's corners in the image's px.

    Returns
    -------
    (h, w, 3) array, a view of `image`: the grid's bounding box widened by ``_PART_MARGIN`` cells on
    each side (so the title and the coin track show), clipped to the image.
    """
    corners = np.asarray(corners, dtype=np.float64)
    low, high = corners.min(axis=0), corners.max(axis=0)
    pad = (high - low) / SIZE * _PART_MARGIN
    height, width = image.shape[:2]
    x0, y0 = np.maximum(np.floor(low - pad), 0).astype(int)
    x1, y1 = np.minimum(np.ceil(high + pad), (width, height)).astype(int)
    if x1 <= x0 or y1 <= y0:  # a grid wholly outside the image: the whole photo, not an empty one
        return image
    return image[y0:y1, x0:x1]


def _e(text: object) -> str:
    return html.escape(str(text), quote=True)


def _hex(bgr: tuple[int, int, int]) -> str:
    b, g, r = bgr
    return f"#{r:02x}{g:02x}{b:02x}"


def _svg(
    layers: Sequence[Mapping[str, Any]], odds: Mapping[Cell, Mapping[str, float]], background: str | None
) -> str:
    """The sheet as SVG over the canonical image: tints, symbols, doubt frames, ids for highlights."""
    parts = [
        f'<svg class="sheet" viewBox="0 0 {_CANVAS} {_CANVAS}" role="img" '
        'aria-label="the sheet as read" xmlns="http://www.w3.org/2000/svg">'
    ]
    if background:
        parts.append(f'<image href="{background}" x="0" y="0" width="{_CANVAS}" height="{_CANVAS}"/>')
    else:
        parts.append(f'<rect x="0" y="0" width="{_CANVAS}" height="{_CANVAS}" fill="#fbf8ef"/>')
    for layer in layers:
        x, y, s = layer["x"], layer["y"], layer["size"]
        cell = layer["cell"]
        title = cell
        if layer["doubtful"]:
            choices = odds.get(parse_label(cell), {})
            title += " unsure: " + ", ".join(
                Terrain(t).name.lower() + ("" if np.isnan(p) else f" {p:.0%}") for t, p in choices.items()
            )
        fill = _e(layer["colour"]) if layer["tint"] else "none"
        classes = "cell doubt" if layer["doubtful"] else "cell"
        parts.append(
            f'<g id="c-{_e(cell)}" class="{classes}"><title>{_e(title)}</title>'
            f'<rect x="{x}" y="{y}" width="{s}" height="{s}" fill="{fill}" class="tint"/>'
        )
        if layer["symbol"] != ".":
            parts.append(f'<text x="{x + 4}" y="{y + 17}" class="sym">{_e(layer["symbol"])}</text>')
        if layer["doubtful"]:
            parts.append(f'<rect x="{x + 4}" y="{y + 4}" width="{s - 8}" height="{s - 8}" class="frame"/>')
        parts.append("</g>")
    parts.append("</svg>")
    return "".join(parts)


_CSS = """
:root{--doubt:%(doubt)s;--hl:%(hl)s;font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}
body{margin:0;background:#f4f1ea;color:#222}
main{max-width:1200px;margin:auto;padding:12px}
h1{font-size:1.3rem;margin:.2em 0;word-break:break-word}
.banner{padding:8px 12px;border-radius:6px;margin:8px 0;background:#e4efe0}
.banner.refused{background:#fde3cf;border-left:6px solid var(--doubt)}
.cols{display:flex;flex-wrap:wrap;gap:16px}
.cols>section{flex:1 1 340px;min-width:0}
.cols>section.wide{flex:3 1 480px}
section.photo{max-width:720px}
figure{margin:0}
img.photo{width:100%%;height:auto;border-radius:4px}
svg.sheet{width:100%%;height:auto;background:#fff;border-radius:4px;touch-action:manipulation}
svg .tint{fill-opacity:.35;stroke:#0003;stroke-width:.5}
svg .sym{font:bold 16px sans-serif;fill:#111;paint-order:stroke;stroke:#fff;stroke-width:3px}
svg .doubt .sym{fill:var(--doubt)}
svg .frame{fill:none;stroke:var(--doubt);stroke-width:4}
svg .hl .tint{stroke:var(--hl);stroke-width:5;stroke-opacity:1;fill-opacity:.55}
table{border-collapse:collapse;width:100%%;background:#fff;border-radius:4px}
th,td{padding:6px 8px;border-bottom:1px solid #ddd;text-align:left;vertical-align:top}
td.n{text-align:right;font-variant-numeric:tabular-nums}
tr[data-cells]{cursor:pointer}
tr[data-cells]:hover,tr.pinned{background:#fff6c8}
tr.off{color:#888}
tr.total td{font-weight:bold;font-size:1.1em}
.provisional{color:#a34800}
ul.problems{padding-left:1.2em}
.legend span{display:inline-block;margin:2px 6px 2px 0;padding:1px 6px;border-radius:3px}
"""

_JS = """
(function(){
  var pinned=null;
  function mark(row,on){
    var cells=(row.getAttribute('data-cells')||'').split(' ');
    for(var i=0;i<cells.length;i++){
      var g=document.getElementById('c-'+cells[i]);
      if(g){g.classList.toggle('hl',on);}
    }
  }
  var rows=document.querySelectorAll('tr[data-cells]');
  for(var i=0;i<rows.length;i++){(function(row){
    row.addEventListener('mouseenter',function(){if(!pinned)mark(row,true);});
    row.addEventListener('mouseleave',function(){if(!pinned)mark(row,false);});
    row.addEventListener('click',function(){
      if(pinned){mark(pinned,false);pinned.classList.remove('pinned');}
      if(pinned===row){pinned=null;return;}
      pinned=row;row.classList.add('pinned');mark(row,true);
    });
  })(rows[i]);}
})();
"""


def _labels(cells: Iterable[str]) -> str:
    return " ".join(cells)


def report_html(
    review: Review,
    cards: Sequence[Any],
    season: Any = None,
    *,
    title: str,
    photo: np.ndarray | None = None,
    canonical: np.ndarray | None = None,
    odds: Mapping[Cell, Mapping[str, float]] | None = None,
    problems: Sequence[Mapping[str, Any]] = (),
) -> str:
    """One self-contained HTML page reporting a reviewed sheet.

    Parameters
    ----------
    review : :func:`front.results.review` of the reading (its doubts are shown, not refused).
    cards, season : as scored.
    title : shown as the heading (a file name, a player's name): escaped.
    photo : the photo as BGR, optional; canonical : the rectified image the cells were read from.
    odds : each doubtful cell's likely terrains (symbol -> probability), for their tooltips.
    problems : ``{"code", "cells": [labels], "message"}`` dicts (``check``'s problems, the sheet's own).

    Returns
    -------
    str, the whole HTML document.
    """
    score = review.shown
    uncertain = review.uncertain
    details = score["details"]
    scored = {cid: [parse_label(c) for c in d["cells"]] for cid, d in details.items()}
    layers = cell_layers(uncertain.sheet, uncertain.alternatives, scored)
    background = data_uri(canonical) if canonical is not None else None
    season_json = score.get("season")
    counted = set(season_json["edicts"]) if season_json else {c.id for c in cards}
    letters = {cid: letter for letter, cid in season_json["edict_letters"].items()} if season_json else {}

    rows = []
    for card in cards:
        d = details[card.id]
        off = "" if card.id in counted else ' class="off"'
        note = "" if card.id in counted else " (not scored this season)"
        choice = f" — choice: {d['choice']}" if d.get("choice") else ""
        rows.append(
            f'<tr data-cells="{_e(_labels(d["cells"]))}"{off}><td>{_e(letters.get(card.id, ""))}</td>'
            f"<td>{_e(card.name)}</td><td class=n>{_e(d['points'])}</td>"
            f"<td>{_e(d['detail'])}{_e(choice)}{_e(note)}</td></tr>"
        )
    coins = season_json["coins"] if season_json else score["coins"]
    monsters = season_json["monsters"] if season_json else score["monsters"]
    total = season_json["total"] if season_json else score["total"]
    rows.append(f"<tr><td></td><td>coins</td><td class=n>{_e(coins)}</td>"
                f"<td>{_e(uncertain.guess.coins)} unspent, {_e(uncertain.guess.spent)} spent</td></tr>")
    rows.append(
        f'<tr data-cells="{_e(_labels(score["monster_cells"]))}"><td></td><td>monsters</td>'
        f"<td class=n>{_e(monsters)}</td><td>empty spaces next to monsters: "
        f"{_e(_labels(score['monster_cells']) or '-')}</td></tr>"
    )
    rows.append(f'<tr class="total"><td></td><td>total</td><td class=n>{_e(total)}</td><td>'
                + ('<span class="provisional">provisional: the most likely reading</span>'
                   if review.provisional else "") + "</td></tr>")

    verdict = review.verdict
    banner_class = "banner refused" if not verdict else "banner"
    banner = f"<strong>{_e(outcome_label(verdict.outcome))}</strong>"
    if verdict.message():
        banner += f": {_e(verdict.message())}"
    if review.provisional:
        confirm = "fix the framed cells" if verdict.doubtful else "compare the reading with the sheet"
        banner += f". The figures below are the most likely reading's; {confirm} to confirm them."
    warnings = "".join(f"<li>{_e(w)}</li>" for w in uncertain.doubts)
    problem_items = "".join(
        f"<li><code>{_e(p.get('code', ''))}</code> {_e(' '.join(p.get('cells', [])))}: "
        f"{_e(p.get('message', ''))}</li>"
        for p in problems
    )
    legend = "".join(
        f'<span style="background:{hex_colour(s)}59">{_e(s)} {_e(Terrain(s).name.lower())}</span>'
        for s in "FVPWMH^-X"
    ) + f'<span style="outline:3px solid {_hex(DOUBT_COLOUR)}">? unsure</span>'
    season_line = f", {_e(season_json['name'])}" if season_json else ""
    photo_block = (
        f'<section class="photo"><h2>Photo</h2><figure><img class="photo" alt="the photo" '
        f'src="{data_uri(photo, max_side=_PHOTO_SIDE)}"></figure></section>'
        if photo is not None else ""
    )
    css = _CSS % {"doubt": _hex(DOUBT_COLOUR), "hl": _hex(HIGHLIGHT_COLOUR)}
    return f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1">
<title>{_e(title)} — cartoscan report</title>
<style>{css}</style></head>
<body><main>
<h1>{_e(title)}</h1>
<div>side {_e(uncertain.guess.side)}{season_line} · total <strong>{_e(total)}</strong></div>
<div class="{banner_class}">{banner}</div>
{f'<ul class="problems">{warnings}</ul>' if warnings else ''}
<div class="cols">
<section class="wide"><h2>The sheet as read</h2>{_svg(layers, odds or {}, background)}
<div class="legend">{legend}</div></section>
<section class="wide"><h2>Score</h2><p>Hover or tap a row to see the cells it counts.</p>
<table><thead><tr><th>edict</th><th>card</th><th>points</th><th>why</th></tr></thead>
<tbody>{''.join(rows)}</tbody></table>
<h2>Problems</h2>{f'<ul class="problems">{problem_items}</ul>' if problem_items else '<p>none found</p>'}
</section>
{photo_block}
</div>
<p><small>cartoscan report · {_e(len(uncertain.alternatives))} unsure cell(s)</small></p>
</main><script>{_JS}</script></body></html>
"""


def index_html(entries: Sequence[Mapping[str, Any]], *, title: str = "cartoscan: players") -> str:
    """An index page ranking the players: ``{"name", "report" (file name), "total" (or None),
    "monsters", "note"}`` each; best total first, then fewest stars lost to monsters (the rulebook's
    tie-break); inputs without a total last."""
    ranked = sorted(
        entries,
        key=lambda e: (e.get("total") is None, -(e.get("total") or 0), -(e.get("monsters") or 0),
                       str(e.get("name"))),
    )
    rows = []
    place = 0
    previous: tuple[Any, Any] | None = None
    for i, entry in enumerate(ranked, 1):
        key = (entry.get("total"), entry.get("monsters"))
        if entry.get("total") is not None and key != previous:
            place = i
        previous = key
        shown_place = str(place) if entry.get("total") is not None else "–"
        link = quote(str(entry["report"]))
        name = f'<a href="{_e(link)}">{_e(entry["name"])}</a>' if entry.get("report") else _e(entry["name"])
        rows.append(
            f"<tr><td class=n>{_e(shown_place)}</td><td>{name}</td>"
            f"<td class=n>{_e(entry.get('total') if entry.get('total') is not None else '')}</td>"
            f"<td class=n>{_e(entry.get('monsters') if entry.get('monsters') is not None else '')}</td>"
            f"<td>{_e(entry.get('note', ''))}</td></tr>"
        )
    css = _CSS % {"doubt": _hex(DOUBT_COLOUR), "hl": _hex(HIGHLIGHT_COLOUR)}
    return f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1">
<title>{_e(title)}</title><style>{css}</style></head>
<body><main><h1>{_e(title)}</h1>
<table><thead><tr><th>place</th><th>player</th><th>total</th><th>monsters</th><th>note</th></tr></thead>
<tbody>{''.join(rows)}</tbody></table></main></body></html>
"""


def odds_of(
    probabilities: np.ndarray | None, alternatives: Mapping[Cell, Sequence[Any]]
) -> dict[Cell, dict[str, float]]:
    """Each doubtful cell's likely terrains with their probabilities, from a reading's (11, 11, 8)
    probabilities (only the terrains when none are known)."""
    from scanner.constants import TERRAIN_SYMBOLS

    out: dict[Cell, dict[str, float]] = {}
    for cell, alts in alternatives.items():
        if probabilities is None:
            out[cell] = {str(t): float("nan") for t in alts}
        else:
            out[cell] = {str(t): float(probabilities[cell][TERRAIN_SYMBOLS.index(str(t))]) for t in alts}
    return out

