"""The ``cartoscan`` command: thin typer commands over the library (see CONTRACT.md for exit codes)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

app = typer.Typer(
    no_args_is_help=True, add_completion=False, help="Score photos of Cartographers map sheets."
)


# --- scan (photo -> sheet reading) ------------------------------------------------------------------

_TERRAIN_STYLE = {
    "F": "bold green",
    "V": "bold red",
    "P": "bold yellow",
    "W": "bold blue",
    "M": "bold magenta",
    "H": "bold cyan",
    "X": "bold white on red",
    "^": "bold white on grey37",
    "-": "grey50",
    ".": "grey62",
    "?": "bold black on bright_yellow",
}

# Options that `score` and `batch` share, declared once.
CardsOption = Annotated[
    str | None,
    typer.Option("--cards", help="Scoring cards by id or name, comma-separated (edicts A-D, in order)."),
]
SeasonOption = Annotated[str | None, typer.Option(help="Score one season: spring, summer, fall or winter.")]
FixOption = Annotated[
    str | None,
    typer.Option("--fix", help="Settle cells by hand: CELL=SYMBOL,... e.g. B7=W,C3=. (. F V P W M H X)."),
]
AllowDoubtfulOption = Annotated[
    bool, typer.Option("--allow-doubtful", help="Photos: score the most likely reading of unsure cells.")
]


def _fail(message: str, code: int) -> typer.Exit:
    from rich.console import Console

    Console(stderr=True, highlight=False, soft_wrap=True).print(f"[red]error:[/red] {message}", markup=True)
    return typer.Exit(code)


@app.command()
def scan(
    photo: Annotated[Path, typer.Argument(help="Photo (or scan) of a filled-in map sheet.")],
    *,
    json_out: Annotated[bool, typer.Option("--json", help="Print the reading as one JSON object.")] = False,
    corners: Annotated[
        str | None, typer.Option(help="Grid corners A1,A11,K11,K1 in photo px: x1,y1,...,x4,y4.")
    ] = None,
    side: Annotated[str | None, typer.Option(help="Printed side A-D (default: detected).")] = None,
    debug: Annotated[Path | None, typer.Option(help="Write intermediate images into this directory.")] = None,
) -> None:
    """Read a photo into sheet notation (cells read without confidence are '?', and listed).

    Without --json the output is a .sheet file you can edit and score. Exit 3: unreadable photo or no
    sheet found; 2: bad option; 1: the model files do not match their manifest.
    """
    import json

    from rules.grid import PRINTED_SIDES
    from scanner.debug import png_writer
    from scanner.failure import Failure
    from scanner.nets import ModelError
    from scanner.pipeline import parse_corners, read_photo

    try:
        given = parse_corners(corners) if corners is not None else None
    except ValueError as exc:
        raise _fail(str(exc), 2) from None
    if side is not None and side.upper() not in PRINTED_SIDES:
        raise _fail(f"--side must be A, B, C or D, not {side!r}", 2)
    try:
        result = read_photo(
            photo,
            corners=given,
            side=side.upper() if side else None,
            debug=png_writer(debug) if debug else None,
        )
    except ModelError as exc:
        raise _fail(str(exc), 1) from None
    if isinstance(result, Failure):
        raise _fail(f"{photo}: {result.message}", 3)
    if json_out:
        typer.echo(json.dumps(result.to_json()))
        return
    _print_reading(photo, result)


def _print_reading(photo: Path, reading: Any) -> None:
    from rich.console import Console
    from rich.text import Text

    console = Console(highlight=False, soft_wrap=True)
    lines = reading.sheet.to_text().splitlines()
    head, grid = lines[:-11], lines[-11:]
    console.print(
        f"# {photo.name}: orientation {reading.orientation}, {len(reading.doubtful)} doubtful cell(s)",
        markup=False,
    )
    for doubt in reading.doubts:
        console.print(f"# warning: {doubt}", markup=False)
    if reading.doubtful:
        console.print("# doubtful (fix the '?' before scoring): " + " ".join(reading.doubtful), markup=False)
    for line in head:
        console.print(line, markup=False)
    for row in grid:
        text = Text()
        for i, ch in enumerate(row):
            text.append(ch, style=_TERRAIN_STYLE.get(ch, ""))
            if i < len(row) - 1:
                text.append(" ")
        console.print(text)


# --- score / cards (rules) -------------------------------------------------------------------------


class _InputError(Exception):
    """One input could not become a sheet: a one-line message and the exit status it maps to."""

    def __init__(self, message: str, status: int) -> None:
        super().__init__(message)
        self.status = status


def _load_sheet(
    source: str,
    allow_doubtful: bool,
    chosen: Any,
    which: Any,
    fixes: Any = None,
    ask: Any = None,
) -> tuple[Any, Any]:
    """A rules.Sheet from a .sheet file, '-' (stdin) or a photo, with the photo's
    :class:`rules.policy.Verdict` (None for a sheet file); raises _InputError.

    ``fixes`` ({cell: terrain}) settle cells by hand; ``ask(reading, uncertain, cards, season)`` may
    settle more (``--review``) and returns the uncertain sheet to decide on."""
    import shlex
    import sys

    from rules import Sheet, SheetError

    if source == "-" or source.lower().endswith(".sheet"):
        try:
            text = sys.stdin.read() if source == "-" else Path(source).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            why = "no such file" if isinstance(exc, FileNotFoundError) else exc.__class__.__name__
            raise _InputError(f"{source}: cannot read the sheet file ({why})", 2) from None
        try:
            sheet = Sheet.parse(text)
            return (sheet.replace(fixes) if fixes else sheet), None
        except SheetError as exc:
            raise _InputError(f"{source}: {exc}", 2) from None
    from rules.policy import decide
    from scanner.failure import Failure
    from scanner.nets import ModelError
    from scanner.pipeline import read_photo

    try:
        reading = read_photo(source)
        if isinstance(reading, Failure):
            raise _InputError(f"{source}: {reading.message}", 3)
        uncertain = reading.uncertain.fix(fixes) if fixes else reading.uncertain
        if ask is not None:
            uncertain = ask(reading, uncertain, chosen, which)
        verdict = decide(uncertain, chosen, which, allow_doubtful=allow_doubtful)
    except SheetError as exc:  # the cards do not fit the season (checked while weighing unsure cells)
        raise _InputError(f"{source}: {exc}", 2) from None
    except ModelError as exc:  # the model files are checked against their manifest on load
        raise _InputError(str(exc), 1) from None
    if not verdict:
        quoted = shlex.quote(source)
        fix = (
            f"fix them with --fix CELL=SYMBOL,... or --review, or run 'cartoscan scan {quoted} > map.sheet', "
            "fix the '?' cells and score map.sheet"
            if verdict.doubtful
            else f"check with 'cartoscan scan {quoted}'"
        )
        raise _InputError(
            f"{source}: {verdict.stake}; {fix}, or pass --allow-doubtful to score the most likely reading", 4
        )
    return verdict.sheet, verdict


def _read_sheet(
    source: str, allow_doubtful: bool, chosen: Any, which: Any, fixes: Any = None, ask: Any = None
) -> tuple[Any, Any]:
    """:func:`_load_sheet`, turning a failure into the CLI's one red line and exit status."""
    try:
        return _load_sheet(source, allow_doubtful, chosen, which, fixes, ask)
    except _InputError as exc:
        raise _fail(str(exc), exc.status) from None


def _verdict_note(verdict: Any, where: str = "") -> str | None:
    """The stderr note (rich markup) for a photo scored although something is unsure, or None."""
    if verdict is None or not verdict.message():
        return None
    from rich.markup import escape

    return f"[yellow]note:[/yellow] {escape(where + verdict.message())}"


def _parse_cards_and_season(cards: str | None, season: str | None) -> tuple[Any, Any]:
    """The chosen cards and season from the options; raises typer.Exit(2) with one line."""
    from rules import SheetError
    from rules.cards import parse_card_list
    from rules.season import Season

    if cards is None:
        raise _fail("give the scoring cards with --cards ID[,ID...] (see 'cartoscan cards')", 2)
    try:
        return parse_card_list(cards), Season.parse(season) if season is not None else None
    except SheetError as exc:
        raise _fail(str(exc), 2) from None


def _parse_fixes(fix: str | None) -> Any:
    """--fix as {cell: terrain}; raises typer.Exit(2) with one line."""
    if fix is None:
        return None
    from front.results import parse_fixes
    from rules import SheetError

    try:
        return parse_fixes(fix)
    except SheetError as exc:
        raise _fail(f"--fix: {exc}", 2) from None


def _interactive() -> bool:
    import sys

    return sys.stdin.isatty() and sys.stdout.isatty()


def _review_prompt(reading: Any, uncertain: Any, chosen: Any, which: Any) -> Any:
    """--review: while the policy refuses, ask what the first unsure cell holds and offer the cells
    drawn like it (the reader's look-alike groups) in one go; Enter takes the likeliest, q stops."""
    from rich.console import Console
    from rich.markup import escape

    from front.results import alike
    from rules import SheetError, Terrain, cell_label
    from rules.policy import decide
    from scanner.constants import TERRAIN_SYMBOLS

    console = Console(stderr=True, highlight=False, soft_wrap=True)
    while uncertain.alternatives:
        verdict = decide(uncertain, chosen, which)
        if verdict or uncertain.doubts:  # settled, or a whole-sheet doubt no cell can answer
            break
        console.print(f"[yellow]{escape(verdict.stake)}[/yellow]")
        cell = min(uncertain.alternatives)
        options = uncertain.alternatives[cell]
        odds = reading.probabilities[cell] if reading.probabilities is not None else None
        listed = "  ".join(
            f"[bold]{i}[/bold] {Terrain(t).name.lower()}"
            + (f" {odds[TERRAIN_SYMBOLS.index(str(t))]:.0%}" if odds is not None else "")
            for i, t in enumerate(options, 1)
        )
        console.print(f"{cell_label(cell)}: {listed}  (or a symbol . F V P W M H X; Enter = 1, q = stop)")
        try:
            answer = input("> ").strip()
        except EOFError:
            break
        if answer.lower() == "q":
            break
        if answer.isdigit() and 0 < int(answer) <= len(options):
            chosen_terrain = options[int(answer) - 1]
        else:
            chosen_terrain = answer.upper() if answer else options[0]
        fixes = {cell: chosen_terrain}
        peers = alike(reading.groups, cell, list(uncertain.alternatives))
        if peers:
            names = " ".join(cell_label(p) for p in peers)
            console.print(f"drawn alike and unsure too: {names}; the same for them? [Y/n]")
            try:
                if input("> ").strip().lower() in ("", "y", "yes"):
                    fixes |= dict.fromkeys(peers, chosen_terrain)
            except EOFError:
                break
        try:
            uncertain = uncertain.fix(fixes)
        except (SheetError, ValueError) as exc:
            console.print(f"[red]{escape(str(exc))}[/red]")
    return uncertain


@app.command()
def score(
    source: Annotated[str, typer.Argument(metavar="INPUT", help="A .sheet file, '-' for stdin, or a photo.")],
    *,
    cards: CardsOption = None,
    season: SeasonOption = None,
    json_out: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
    allow_doubtful: AllowDoubtfulOption = False,
    fix: FixOption = None,
    review: Annotated[
        bool,
        typer.Option("--review", help="Photos: ask what the unsure cells hold, group by look-alike group."),
    ] = False,
) -> None:
    """Score a sheet: each card, coins, monsters; with --season the season's two edicts and total.

    --fix B7=W,C3=. settles cells by hand (a photo's unsure cells or a sheet's '?'); --review asks
    for the unsure cells that could change the score, offering the cells drawn alike in one go.

    Exit 2: bad option, unknown card, malformed sheet; 3: unreadable photo or no sheet in it; 4: the
    photo was read but a person must look (unsure cells that could change the score, the side, the A1
    corner or the coin track in doubt).
    """
    import json

    from front.results import score_json
    from rules import SheetError
    from rules.season import score_cards, score_season

    chosen, which = _parse_cards_and_season(cards, season)
    fixes = _parse_fixes(fix)
    if review and not _interactive():
        raise _fail("--review asks questions: it needs a terminal on stdin and stdout", 2)
    ask = _review_prompt if review else None
    sheet, verdict = _read_sheet(source, allow_doubtful, chosen, which, fixes, ask)
    note = _verdict_note(verdict)
    if note:
        from rich.console import Console

        Console(stderr=True, highlight=False, soft_wrap=True).print(note)
    try:
        if json_out:
            typer.echo(json.dumps(score_json(sheet, chosen, which, verdict), ensure_ascii=False))
            return
        result = score_cards(sheet, chosen)
        season_result = score_season(sheet, chosen, which) if which is not None else None
    except SheetError as exc:
        raise _fail(f"{source}: {exc}", 2) from None
    _print_score(source, result, season_result)


def _print_score(source: str, result: Any, season_result: Any) -> None:
    from rich.console import Console
    from rich.table import Table

    from rules.season import EDICT_LETTERS

    console = Console(highlight=False)
    err = Console(stderr=True, highlight=False)
    sheet = result.sheet
    for problem in sheet.problems():
        err.print(f"[yellow]warning:[/yellow] {problem}")
    if sheet.printed.is_low_confidence:
        err.print(f"[yellow]note:[/yellow] side {sheet.side} positions are not confirmed on a real sheet")
    scored = {letter: card.id for letter, (card, _) in season_result.edicts.items()} if season_result else {}
    title = f"{source}: side {sheet.side}" + (f", {season_result.season.value}" if season_result else "")
    table = Table(title=title, title_justify="left")
    if season_result:
        table.add_column("edict")
    table.add_column("card")
    table.add_column("points", justify="right")
    table.add_column("why")
    for i, card in enumerate(result.cards):
        sc = result.scores[card.id]
        why = sc.detail + (f" [bold]choice:[/bold] {sc.choice}" if sc.choice else "")
        row = [card.name, str(sc.points), why]
        if season_result:
            letter = EDICT_LETTERS[i]
            counted = scored.get(letter) == card.id
            row = [letter, *row]
            if not counted:
                row = [f"[dim]{cell}[/dim]" for cell in row[:3]] + ["[dim](not scored this season)[/dim]"]
        table.add_row(*row)
    table.add_section()
    pad = [""] if season_result else []
    table.add_row(*pad, "coins", str(result.coins), f"{sheet.coins} unspent coin(s)")
    monsters = " ".join(sorted(_labels(result.monster_cells)))
    table.add_row(*pad, "monsters", str(result.monsters), f"empty spaces next to monsters: {monsters or '-'}")
    total = season_result.total if season_result else result.total
    table.add_row(*pad, "[bold]total[/bold]", f"[bold]{total}[/bold]", "")
    console.print(table)


def _labels(cells: Any) -> list[str]:
    from rules import cell_label

    return [cell_label(c) for c in sorted(cells)]


@app.command("cards")
def list_cards(
    *, json_out: Annotated[bool, typer.Option("--json", help="Print one JSON array.")] = False
) -> None:
    """List the 32 scoring cards: id, names, card back, solo value."""
    import json

    from rich.console import Console
    from rich.table import Table

    from rules.cards import CARDS

    rows: list[dict[str, Any]] = [
        {
            "id": card.id,
            "names": dict(card.names),
            "category": str(card.category),
            "solo_value": card.solo_value,
            "expansion": card.expansion,
        }
        for card in CARDS.values()
    ]
    if json_out:
        typer.echo(json.dumps(rows, ensure_ascii=False))
        return
    table = Table(title="Scoring cards (names in any listed language work for --cards)", title_justify="left")
    for name in ("id", "English", "Deutsch", "Polski", "Русский", "back", "solo", "game"):
        table.add_column(name, justify="right" if name == "solo" else "left")
    for row in rows:
        names = row["names"]
        table.add_row(
            row["id"],
            names.get("en", ""),
            names.get("de", ""),
            names.get("pl", ""),
            names.get("ru", ""),
            row["category"],
            str(row["solo_value"]),
            row["expansion"],
        )
    Console(highlight=False).print(table)


# --- batch (a tournament folder) ----------------------------------------------------------------------

_BATCH_SUFFIXES = (".sheet", ".jpg", ".jpeg", ".png", ".webp", ".bmp", ".tif", ".tiff", ".heic")


def _batch_inputs(paths: list[Path]) -> list[Path]:
    """Files as given, folders expanded to their photos and .sheet files (sorted, not recursive)."""
    out: list[Path] = []
    for path in paths:
        if path.is_dir():
            out += sorted(p for p in path.iterdir() if p.is_file() and p.suffix.lower() in _BATCH_SUFFIXES)
        else:
            out.append(path)
    return out


@app.command()
def batch(
    inputs: Annotated[list[Path], typer.Argument(help="Photos, .sheet files, or folders of them.")],
    *,
    cards: CardsOption = None,
    season: SeasonOption = None,
    csv: Annotated[Path | None, typer.Option(help="Also write one CSV row per input to this file.")] = None,
    allow_doubtful: AllowDoubtfulOption = False,
) -> None:
    """Score many sheets: one JSON line per input on stdout, failures included (the batch goes on).

    Each line is the `score --json` object plus "input" and "ok"; a failed input has "ok": false,
    "status" (the exit status `score` would give) and "error". Exit 0 when every input scored; 4 when
    the only failures are photos a person must look at; 3 when any input could not be read or parsed (all
    are still reported); 2 for a bad option.
    """
    import csv as csv_module
    import json

    from rich.console import Console
    from rich.progress import Progress

    from front.results import score_json
    from rules import SheetError

    chosen, which = _parse_cards_and_season(cards, season)
    files = _batch_inputs(inputs)
    if not files:
        raise _fail("no photos or .sheet files in the given paths", 2)
    rows: list[dict[str, Any]] = []
    with Progress(transient=True, console=Console(stderr=True)) as progress:
        task = progress.add_task("scoring", total=len(files))
        for path in files:
            row: dict[str, Any] = {"input": str(path)}
            try:
                sheet, verdict = _load_sheet(str(path), allow_doubtful, chosen, which)
                note = _verdict_note(verdict, f"{path}: ")
                if note:
                    progress.console.print(note, highlight=False, soft_wrap=True)
                row |= {"ok": True, **score_json(sheet, chosen, which, verdict)}
            except _InputError as exc:
                row |= {"ok": False, "status": exc.status, "error": str(exc)}
            except SheetError as exc:
                row |= {"ok": False, "status": 2, "error": f"{path}: {exc}"}
            typer.echo(json.dumps(row, ensure_ascii=False))
            rows.append(row)
            progress.advance(task)
    if csv is not None:
        ids = [card.id for card in chosen]
        with csv.open("w", newline="", encoding="utf-8") as handle:
            writer = csv_module.writer(handle)
            writer.writerow(["input", "ok", *ids, "coins", "monsters", "total", "error"])
            for row in rows:
                points = [row["cards"][i] for i in ids] if row["ok"] else [""] * len(ids)
                tail = (
                    [row["coins"], row["monsters"], row["total"], ""]
                    if row["ok"]
                    else ["", "", "", row["error"]]
                )
                writer.writerow([row["input"], row["ok"], *points, *tail])
    failed = [row for row in rows if not row["ok"]]
    if failed:
        # 4 only when every failed input was read and only needs a person to look; else 3 as before.
        status = 4 if all(row["status"] == 4 for row in failed) else 3
        message = f'{len(failed)} of {len(rows)} input(s) could not be scored (lines with "ok": false)'
        raise _fail(message, status)


# --- report / serve (front ends: the HTML report, the web page) -------------------------------------


def _reviewed(source: str, chosen: Any, which: Any, fixes: Any) -> dict[str, Any]:
    """Read one input (photo or .sheet) for a report, doubts kept: the review, the images and what the
    report shows; raises _InputError."""
    from front.report import odds_of
    from front.results import review, uncertain_of
    from rules import Sheet, SheetError
    from scanner.nets import ModelError

    photo = canonical = probabilities = None
    try:
        if source.lower().endswith(".sheet"):
            try:
                sheet = Sheet.parse(Path(source).read_text(encoding="utf-8"))
            except (OSError, UnicodeDecodeError) as exc:
                why = exc.__class__.__name__
                raise _InputError(f"{source}: cannot read the sheet file ({why})", 2) from None
            uncertain = uncertain_of(sheet.replace(fixes) if fixes else sheet)
        else:
            from scanner.failure import Failure
            from scanner.load import load_image
            from scanner.pipeline import read_image

            image = load_image(source)
            reading = image if isinstance(image, Failure) else read_image(image)
            if isinstance(reading, Failure):
                raise _InputError(f"{source}: {reading.message}", 3)
            photo, canonical, probabilities = image, reading.canonical, reading.probabilities
            uncertain = reading.uncertain.fix(fixes) if fixes else reading.uncertain
        return {
            "review": review(uncertain, chosen, which),
            "photo": photo,
            "canonical": canonical,
            "odds": odds_of(probabilities, uncertain.alternatives),
        }
    except SheetError as exc:
        raise _InputError(f"{source}: {exc}", 2) from None
    except ModelError as exc:
        raise _InputError(str(exc), 1) from None


def _write_report(source: str, out: Path, png: Path | None, chosen: Any, which: Any, fixes: Any) -> Any:
    """Write one input's HTML report (and annotated PNG); returns its review; raises _InputError."""
    import cv2

    from front.overlay import draw_sheet
    from front.report import report_html

    got = _reviewed(source, chosen, which, fixes)
    review = got["review"]
    page = report_html(review, chosen, which, title=Path(source).name, photo=got["photo"],
                       canonical=got["canonical"], odds=got["odds"], problems=_problems(review))
    try:
        out.write_text(page, encoding="utf-8")
        if png is not None:
            if got["canonical"] is None:
                raise _InputError(f"{source}: --png needs a photo (a .sheet file has no image)", 2)
            drawn = draw_sheet(got["canonical"], review.uncertain.sheet, review.uncertain.alternatives)
            if not cv2.imwrite(str(png), drawn):
                raise OSError(f"cannot write {png}")
    except OSError as exc:
        raise _InputError(f"cannot write the report: {exc}", 2) from None
    return review


def _problems(review: Any) -> list[dict[str, Any]]:
    """The problems a report lists: the shown sheet's own (``check``'s when it exists)."""
    from rules import cell_label

    sheet = review.uncertain.guess
    return [
        {"code": p.code, "cells": [cell_label(c) for c in p.cells], "message": p.message}
        for p in sheet.problems()
    ]


@app.command()
def report(
    source: Annotated[str, typer.Argument(metavar="INPUT", help="A photo or a .sheet file.")],
    *,
    cards: CardsOption = None,
    season: SeasonOption = None,
    out: Annotated[Path, typer.Option("-o", "--out", help="The HTML file to write.")],
    png: Annotated[Path | None, typer.Option(help="Also write the annotated sheet as a PNG.")] = None,
    fix: FixOption = None,
) -> None:
    """Write one self-contained HTML report: the photo, the sheet as read with its doubts, each card's
    points with the cells that earned them (hover or tap), coins, monsters, problems.

    Doubts are shown rather than refused: a sheet that needs a look is reported with its most likely
    figures marked provisional (exit 0, with a note). Exit 2: bad option or unwritable file; 3:
    unreadable photo or no sheet in it.
    """
    chosen, which = _parse_cards_and_season(cards, season)
    fixes = _parse_fixes(fix)
    try:
        review = _write_report(source, out, png, chosen, which, fixes)
    except _InputError as exc:
        raise _fail(str(exc), exc.status) from None
    from rich.console import Console
    from rich.markup import escape

    err = Console(stderr=True, highlight=False, soft_wrap=True)
    if review.provisional:
        err.print(f"[yellow]note:[/yellow] {escape(source)}: {escape(review.verdict.message())}; "
                  "the report shows the most likely reading")
    typer.echo(f"wrote {out}" + (f" and {png}" if png else ""))


@app.command()
def serve(
    *,
    host: Annotated[str, typer.Option(help="Address to listen on; 0.0.0.0 opens it to the local network.")]
    = "127.0.0.1",
    port: Annotated[int, typer.Option(min=1, max=65535, help="Port.")] = 8000,
) -> None:
    """Serve the page for a phone's or a laptop's browser: take or upload a photo, pick the cards, fix
    the unsure cells, download the .sheet. The API (POST /api/scan, POST /api/score) serves scripts too.

    It listens on 127.0.0.1 (this computer only); --host 0.0.0.0 lets phones on the same network open
    http://<this computer's address>:PORT. Needs the 'web' extra: pip install "cartoscan[web]".
    """
    try:
        import uvicorn

        from front.web import create_app
    except ImportError:
        raise _fail('serve needs the web extra: pip install "cartoscan[web]"', 2) from None
    typer.echo(f"cartoscan: open http://{'localhost' if host in ('127.0.0.1', 'localhost') else host}:{port}/"
               + ("  (this computer only; --host 0.0.0.0 to open it to the local network)"
                  if host in ("127.0.0.1", "localhost") else ""))
    try:
        uvicorn.run(create_app(), host=host, port=port, log_level="warning")
    except OSError as exc:
        raise _fail(f"cannot listen on {host}:{port}: {exc.strerror or exc}", 2) from None


# --- synth (synthetic photos with truth) -------------------------------------------------------------


@app.command()
def synth(
    *,
    out: Annotated[Path, typer.Option(help="Directory for <stem>.jpg / .sheet / .json.")],
    count: Annotated[int, typer.Option(min=1, help="How many samples.")] = 10,
    seed: Annotated[int, typer.Option(min=0, help="Seed of the first sample; the rest follow.")] = 0,
    tier: Annotated[str, typer.Option(help="Camera: scan, phone, webcam or hard.")] = "phone",
    split: Annotated[str, typer.Option(
        help="train, eval (held-out drawing styles) or params (held-out hand, training icons).")] = "train",
) -> None:
    """Write synthetic photos of random legal games with their exact truth (seed N is always the same).

    Exit 2: bad option or unwritable directory.
    """
    from rich.progress import Progress

    from models.synth.generate import SynthError, make_sample, write_sample

    try:
        with Progress(transient=True) as progress:
            task = progress.add_task(f"{tier} photos", total=count)
            for s in range(seed, seed + count):
                write_sample(make_sample(s, tier=tier, split=split), out, f"{split}_{tier}_{s:06d}")
                progress.advance(task)
    except SynthError as exc:
        raise _fail(str(exc), 2) from None
    typer.echo(f"wrote {count} {tier} sample(s) to {out}")


def main() -> None:
    """Run the command; usage errors (typer's own, too) are one red line and exit status 2."""
    import sys

    from typer.exceptions import TyperException

    try:
        code = app(standalone_mode=False)
    except typer.Exit as exc:
        sys.exit(exc.exit_code)
    except typer.Abort:
        sys.exit(130)
    except TyperException as exc:  # typer's vendored click: UsageError and friends (exit_code 2)
        message = exc.format_message() if hasattr(exc, "format_message") else str(exc)
        status = getattr(exc, "exit_code", 2)
        if message:  # empty for a bare `cartoscan`, which has already printed the help
            _fail(f"{message} (see 'cartoscan --help')", status)
        sys.exit(status)
    sys.exit(code if isinstance(code, int) else 0)


if __name__ == "__main__":
    main()
