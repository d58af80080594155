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


def _load_sheet(source: str, allow_doubtful: bool, chosen: Any, which: Any) -> tuple[Any, Any]:
    """A rules.Sheet from a .sheet file, '-' (stdin) or a photo, with the photo's
    :class:`rules.policy.Verdict` (None for a sheet file); raises _InputError."""
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
            return Sheet.parse(text), None
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
        verdict = decide(reading.uncertain, chosen, which, allow_doubtful=allow_doubtful)
    except SheetError as exc:  # the cards do not fit the season (checked while weighing unsure cells)
        raise _InputError(f"{source}: {exc}", 2) from None
    except ModelError as exc:  # the model files are checked against their manifest on load
        raise _InputError(str(exc), 1) from None
    if not verdict:
        quoted = shlex.quote(source)
        fix = (
            f"run 'cartoscan scan {quoted} > map.sheet', fix the '?' cells and score map.sheet"
            if verdict.doubtful
            else f"check with 'cartoscan scan {quoted}'"
        )
        raise _InputError(
            f"{source}: {verdict.stake}; {fix}, or pass --allow-doubtful to score the most likely reading", 4
        )
    return verdict.sheet, verdict


def _read_sheet(source: str, allow_doubtful: bool, chosen: Any, which: Any) -> tuple[Any, Any]:
    """:func:`_load_sheet`, turning a failure into the CLI's one red line and exit status."""
    try:
        return _load_sheet(source, allow_doubtful, chosen, which)
    except _InputError as exc:
        raise _fail(str(exc), exc.status) from None


def _score_json(sheet: Any, chosen: Any, which: Any, verdict: Any = None) -> dict[str, Any]:
    """The CONTRACT score object for one sheet (raises rules.SheetError for '?' cells); a photo's
    verdict scored despite doubts adds the ``"doubtful"`` object."""
    from rules.season import score_cards, score_season

    out: dict[str, Any] = {"side": sheet.side, **score_cards(sheet, chosen).to_json()}
    if which is not None:
        season_result = score_season(sheet, chosen, which)
        out["season"] = season_result.to_json()
        out["total"] = season_result.total
    doubtful = verdict.doubtful_json() if verdict is not None else None
    if doubtful is not None:
        out["doubtful"] = doubtful
    return out


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


@app.command()
def score(
    source: Annotated[str, typer.Argument(metavar="INPUT", help="A .sheet file, '-' for stdin, or a photo.")],
    *,
    cards: CardsOption = None,
    season: SeasonOption = None,
    json_out: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
    allow_doubtful: AllowDoubtfulOption = False,
) -> None:
    """Score a sheet: each card, coins, monsters; with --season the season's two edicts and total.

    Exit 2: bad option, unknown card, malformed sheet; 3: unreadable photo or no sheet in it; 4: the
    photo was read but a person must look (unsure cells that could change the score, the side, the A1
    corner or the coin track in doubt).
    """
    import json

    from rules import SheetError
    from rules.season import score_cards, score_season

    chosen, which = _parse_cards_and_season(cards, season)
    sheet, verdict = _read_sheet(source, allow_doubtful, chosen, which)
    note = _verdict_note(verdict)
    if note:
        from rich.console import Console

        Console(stderr=True, highlight=False, soft_wrap=True).print(note)
    try:
        if json_out:
            typer.echo(json.dumps(_score_json(sheet, chosen, which, verdict), ensure_ascii=False))
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
                row |= {"ok": True, **_score_json(sheet, chosen, which, verdict)}
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
    video: Annotated[bool, typer.Option(
        "--video", help="Videos instead (<stem>.avi, MJPG, 720p): a moving camera, a hand, glare.")] = False,
    frames: Annotated[int, typer.Option(min=2, help="--video: frames per video (30 per second).")] = 150,
    family: Annotated[str | None, typer.Option(
        help="--video: drawing family graphite, color, color_icon, marker or mixed (default: any).")] = None,
) -> None:
    """Write synthetic photos (or videos) of random legal games with their exact truth (seed N is always
    the same).

    Exit 2: bad option or unwritable directory.
    """
    from rich.progress import Progress

    from models.synth.generate import SynthError, make_sample, write_sample

    try:
        with Progress(transient=True) as progress:
            task = progress.add_task(f"{'videos' if video else tier + ' photos'}", total=count)
            for s in range(seed, seed + count):
                if video:
                    from models.synth.video import make_video, write_video

                    clip = make_video(s, frames=frames, family=family, split=split)
                    write_video(clip, out, f"{split}_video_{s:06d}")
                else:
                    write_sample(make_sample(s, tier=tier, split=split), out, f"{split}_{tier}_{s:06d}")
                progress.advance(task)
    except SynthError as exc:
        raise _fail(str(exc), 2) from None
    typer.echo(f"wrote {count} {'video' if video else tier + ' sample'}(s) to {out}")


# --- live (a camera at the table) ----------------------------------------------------------------------


@app.command()
def live(
    source: Annotated[str, typer.Argument(help="Camera index (0 = the first camera) or a video file.")] = "0",
    *,
    cards: CardsOption = None,
    season: SeasonOption = None,
    json_out: Annotated[bool, typer.Option(
        "--json", help="One JSON line per reading; {\"fps\", \"frames\"} at the end of a file.")] = False,
    window: Annotated[bool | None, typer.Option(
        "--window/--no-window", help="Show the overlay in a window (default: when this OpenCV can).")] = None,
    allow_doubtful: AllowDoubtfulOption = False,
    frames: Annotated[int, typer.Option(min=0, help="Stop after this many frames (0: until the end).")] = 0,
) -> None:
    """Follow a sheet in front of a camera (or in a video), read it when it holds still, vote over frames
    and score it with --cards.

    In the window: space captures the reading, r reads again from scratch, q quits. A window needs an
    OpenCV with a GUI (pip install opencv-python); the default install is headless. Exit 2: bad option;
    3: the camera or video cannot be opened, or no sheet was read in a video.
    """
    import json

    from rich.console import Console

    from front.live import KEYS, Event, LiveError, Session, frames_of, has_window, open_source, run
    from scanner.nets import ModelError

    chosen, which = _parse_cards_and_season(cards, season) if cards is not None else ((), None)
    if season is not None and cards is None:
        raise _fail("--season needs --cards", 2)
    err = Console(stderr=True, highlight=False, soft_wrap=True)
    show = has_window() if window is None else window
    if show and not has_window():
        raise _fail("this OpenCV has no window support (the default install is headless: "
                    "pip install opencv-python for a window), or there is no display; use --no-window", 2)
    if window is None and not show and not json_out:
        err.print("[yellow]note:[/yellow] no window (headless OpenCV or no display); printing readings")
    try:
        cap = open_source(source)
    except LiveError as exc:
        raise _fail(str(exc), 3) from None
    camera = source.isdigit()
    session = Session(cards=chosen, season=which, allow_doubtful=allow_doubtful, background=camera)
    seen: list[Event] = []

    def report(event: Event) -> None:
        if event.kind in ("reading", "captured"):
            seen.append(event)
            if json_out:
                typer.echo(json.dumps(event.to_json(chosen, which), ensure_ascii=False))
            else:
                _print_live(err, event)
        elif not json_out:
            why = f" ({event.message})" if event.message else ""
            err.print(f"frame {event.frame}: sheet {event.kind}{why}")

    if show:
        err.print(f"cartoscan live: {KEYS}")
    try:
        stats = run(frames_of(cap, frames), session, report, window=show)
    except ModelError as exc:
        raise _fail(str(exc), 1) from None
    finally:
        cap.release()
    if not camera:
        if json_out:
            typer.echo(json.dumps({"fps": round(stats.fps, 1), "frames": stats.frames}))
        if not seen:
            raise _fail(f"{source}: no map sheet was read in {stats.frames} frame(s)", 3)


def _print_live(console: Any, event: Any) -> None:
    """One reading of the live camera for a person: the frame, the rest of the line the verdict."""
    reading = event.reading
    head = f"frame {event.frame} ({event.ballots} read): side {reading.side}, {len(reading.doubtful)} '?'"
    if event.kind == "captured":
        head = "[bold]captured[/bold] " + head
    console.print(head)
    for row in reading.sheet.rows:
        console.print("  " + " ".join(row), markup=False)
    verdict = event.verdict
    if verdict is not None:
        stake = f": {verdict.stake}" if not verdict else ""
        console.print(f"  {verdict.outcome.value}{stake}", markup=False)


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
