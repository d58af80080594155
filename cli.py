"""The ``cartoscan`` command: thin typer commands over the library (exit statuses: docs/INTERFACES.md §3)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

if TYPE_CHECKING:  # the library is imported inside the commands (start-up time); these are for types
    from rich.console import Console

    from front.live import Event
    from front.results import Review
    from rules.cards import ScoringCard
    from rules.check import CheckProblem, CheckResult
    from rules.grid import Cell
    from rules.policy import UncertainSheet, Verdict
    from rules.season import Season, SeasonScore, SheetScore
    from rules.sheet import Sheet, Terrain
    from scanner.failure import Failure
    from scanner.pipeline import Reading

    # --review's question: settle more cells of a reading before the policy decides.
    Ask = Callable[[Reading, UncertainSheet, Sequence[ScoringCard], Season | None], UncertainSheet]

app = typer.Typer(
    no_args_is_help=True,
    add_completion=False,
    help="Score photos of Cartographers map sheets.",
    context_settings={"help_option_names": ["-h", "--help"]},
    rich_markup_mode="markdown",  # docstring paragraphs reflow to the terminal's width
)


def _print_version(value: bool) -> None:
    if value:
        from importlib.metadata import PackageNotFoundError, version

        try:
            number = version("cartoscan")
        except PackageNotFoundError:  # run from a checkout that was never installed
            number = "unknown"
        typer.echo(f"cartoscan {number}")
        raise typer.Exit(0)


@app.callback()
def _options(
    *,
    version: Annotated[
        bool,
        typer.Option(
            "--version", callback=_print_version, is_eager=True, metavar="", help="Print the version, exit."
        ),
    ] = False,
) -> None:
    """Score photos of Cartographers map sheets."""


# --- messages and output files: every line of user text and every file written goes through here ----

_MESSAGE_LIMIT = 2000  # characters of one message line; a hostile name can be longer


def _one_line(text: str) -> str:
    """User text safe for one terminal line: newlines and other control characters shown as escapes."""
    if len(text) > _MESSAGE_LIMIT:
        text = text[: _MESSAGE_LIMIT - 3] + "..."
    if text.isprintable():
        return text
    return "".join(ch if ch.isprintable() else repr(ch)[1:-1] for ch in text)


def _say(label: str, style: str, message: str, console: Any = None) -> None:
    """One line on stderr: a coloured label, then `message` as plain text (never read as rich markup).

    `console`: a progress display's console, so that the line is printed above the live display."""
    from rich.console import Console
    from rich.text import Text

    line = Text.assemble((f"{label}:", style), " ", _one_line(message))
    (console or Console(stderr=True, highlight=False)).print(line, soft_wrap=True)


def _fail(message: str, code: int) -> typer.Exit:
    """Print the one error line and return the exit to raise (``raise _fail(...)``)."""
    _say("error", "red", message)
    return typer.Exit(code)


def _check_output_file(path: Path, option: str) -> None:
    """Refuse, before any work, an output file that cannot be written as a new file (exit 2)."""
    import os

    if path.is_symlink():
        raise _fail(f"{option} {path}: a symbolic link; refusing to write through it", 2)
    if path.is_dir():
        raise _fail(f"{option} {path}: a folder, not a file", 2)
    folder = path.parent
    if not folder.is_dir():
        raise _fail(f"{option} {path}: no such folder {folder}", 2)
    if not os.access(folder, os.W_OK | os.X_OK):
        raise _fail(f"{option} {path}: cannot write in {folder}", 2)


def _output_dir(path: Path, option: str) -> Path:
    """Make sure `path` is a writable folder (created if missing), before any work (exit 2)."""
    import os

    if path.is_symlink():
        raise _fail(f"{option} {path}: a symbolic link; refusing to write through it", 2)
    if path.exists() and not path.is_dir():
        raise _fail(f"{option} {path}: exists and is not a folder", 2)
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        why = exc.strerror or type(exc).__name__
        raise _fail(f"{option} {path}: cannot create the folder ({why})", 2) from None
    if not os.access(path, os.W_OK | os.X_OK):
        raise _fail(f"{option} {path}: cannot write in the folder", 2)
    return path


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
    typer.Option(
        "--cards", metavar="ID,...", help="Scoring cards by id or name, comma-separated (edicts A-D)."
    ),
]
SeasonOption = Annotated[
    str | None, typer.Option(metavar="[spring|summer|fall|winter]", help="Score one season (its two edicts).")
]
FixOption = Annotated[
    str | None,
    typer.Option("--fix", help="Settle cells by hand: CELL=SYMBOL,... e.g. B7=W,C3=. (. F V P W M H X)."),
]
AllowDoubtfulOption = Annotated[
    bool,
    typer.Option("--allow-doubtful", metavar="", help="Photos: score the likeliest reading of unsure cells."),
]


@app.command()
def scan(
    photo: Annotated[Path, typer.Argument(help="Photo (or scan) of a filled-in map sheet.")],
    *,
    json_out: Annotated[
        bool, typer.Option("--json", metavar="", help="Print the reading as one JSON object.")
    ] = False,
    corners: Annotated[
        str | None,
        typer.Option(metavar="X1,Y1,...,X4,Y4", help="Grid corners A1, A11, K11, K1 in photo px."),
    ] = None,
    side: Annotated[
        str | None, typer.Option(metavar="[A|B|C|D]", help="Printed side (default: detected).")
    ] = None,
    debug: Annotated[
        Path | None, typer.Option(metavar="DIR", help="Write intermediate images into this folder.")
    ] = None,
    each: Annotated[
        bool,
        typer.Option(
            "--each", metavar="", help="Read every sheet of a photo of several (a table), left to right."
        ),
    ] = False,
) -> None:
    """Read a photo into sheet notation (cells read without confidence are '?', and listed).

    Without --json the output is a .sheet file you can edit and score. Exit 3: unreadable photo or no
    sheet found (a photo of several sheets too, unless --each); 2: bad option or an unwritable --debug
    folder; 1: the model files do not match their manifest.

    With --each every sheet in the photo is read, left to right: one .sheet text each, headed by its
    "# photo.jpg#1" line, or with --json one object per line, each with "sheet" (1, 2...) and
    "sheets" (how many) added.
    """
    import json

    from rules.grid import PRINTED_SIDES
    from scanner.debug import png_writer
    from scanner.failure import Failure
    from scanner.nets import ModelError
    from scanner.pipeline import parse_corners, read_photo

    if each and corners is not None:
        raise _fail("--each finds every sheet itself; it does not take --corners", 2)
    try:
        given = parse_corners(corners) if corners is not None else None
    except ValueError as exc:
        raise _fail(str(exc), 2) from None
    if side is not None and side.upper() not in PRINTED_SIDES:
        raise _fail(f"--side must be A, B, C or D, not {side!r}", 2)
    if debug is not None:
        _output_dir(debug, "--debug")
    if each:
        _scan_each(photo, json_out, side.upper() if side else None, png_writer(debug) if debug else None)
        return
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
        raise _fail(f"{photo}: {result.message}{_each_hint(result)}", 3)
    if json_out:
        typer.echo(json.dumps(result.to_json(), ensure_ascii=False))
        return
    _print_reading(photo, result)


def _each_hint(failure: Failure) -> str:
    """What to add to a photo's failure: how to read a table photo's sheets one by one."""
    if failure.reason != "several_sheets":
        return ""
    return "; or read each with 'cartoscan scan PHOTO --each' or 'cartoscan batch --each'"


def _scan_each(photo: Path, json_out: bool, side: str | None, debug: Any) -> None:
    """scan --each: every sheet of the photo read and printed, left to right."""
    import json

    from scanner.failure import Failure
    from scanner.load import load_image
    from scanner.nets import ModelError
    from scanner.pipeline import read_sheets

    image = load_image(photo)
    if isinstance(image, Failure):
        raise _fail(f"{photo}: {image.message}", 3)
    try:
        readings = read_sheets(image, side=side, debug=debug)
    except ModelError as exc:
        raise _fail(str(exc), 1) from None
    if isinstance(readings, Failure):
        raise _fail(f"{photo}: {readings.message}", 3)
    for k, reading in enumerate(readings, 1):
        if json_out:
            obj = reading.to_json() | {"sheet": k, "sheets": len(readings)}
            typer.echo(json.dumps(obj, ensure_ascii=False))
        else:
            _print_reading(photo.with_name(f"{photo.name}#{k}"), reading)


def _print_reading(photo: Path, reading: Reading) -> None:
    from rich.console import Console
    from rich.text import Text

    console = Console(highlight=False, soft_wrap=True)
    lines = reading.sheet.to_text().splitlines()
    head, grid = lines[:-11], lines[-11:]
    console.print(
        f"# {_one_line(photo.name)}: orientation {reading.orientation}, "
        f"{len(reading.doubtful)} doubtful cell(s)",
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
    """One input could not become a sheet: a one-line message, the exit status it maps to and what a
    batch row adds (a refused reading's ``suspect`` findings)."""

    def __init__(self, message: str, status: int, detail: Mapping[str, Any] | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.detail = dict(detail or {})


def _load_sheet(
    source: str,
    allow_doubtful: bool,
    chosen: Sequence[ScoringCard],
    which: Season | None,
    fixes: Mapping[Cell, Terrain] | None = None,
    ask: Ask | None = None,
) -> tuple[Sheet, Verdict | None]:
    """A rules.Sheet from a .sheet file, '-' (stdin) or a photo, with the photo's
    :class:`rules.policy.Verdict` (None for a sheet file); raises _InputError.

    ``fixes`` ({cell: terrain}) settle cells by hand; ``ask(reading, uncertain, cards, season)`` may
    settle more (``--review``) and returns the uncertain sheet to decide on."""
    from rules import Sheet, SheetError

    if source == "-" or source.lower().endswith(".sheet"):
        try:
            sheet = Sheet.parse(_sheet_text(source))
            return (sheet.replace(fixes) if fixes else sheet), None
        except SheetError as exc:
            raise _InputError(f"{source}: {exc}", 2) from None
    from scanner.failure import Failure
    from scanner.nets import ModelError
    from scanner.pipeline import read_photo

    try:
        reading = read_photo(source)
    except ModelError as exc:  # the model files are checked against their manifest on load
        raise _InputError(str(exc), 1) from None
    if isinstance(reading, Failure):
        raise _InputError(f"{source}: {reading.message}{_each_hint(reading)}", 3)
    return _decide_reading(source, reading, allow_doubtful, chosen, which, fixes, ask)


def _decide_reading(
    source: str,
    reading: Reading,
    allow_doubtful: bool,
    chosen: Sequence[ScoringCard],
    which: Season | None,
    fixes: Mapping[Cell, Terrain] | None = None,
    ask: Ask | None = None,
    *,
    scan_args: str | None = None,
) -> tuple[Sheet, Verdict | None]:
    """The sheet to score from a photo's reading and the policy's verdict (see :func:`_load_sheet`);
    `source` names it in messages (``photo.jpg#2`` for one sheet of a table photo), `scan_args` the
    `cartoscan scan` arguments a refusal suggests (default: `source`)."""
    import shlex

    from rules import SheetError
    from rules.policy import decide
    from scanner.nets import ModelError

    try:
        uncertain = reading.uncertain.fix(fixes) if fixes else reading.uncertain
        if ask is not None:
            uncertain = ask(reading, uncertain, chosen, which)
        verdict = decide(uncertain, chosen, which, allow_doubtful=allow_doubtful)
    except SheetError as exc:  # the cards do not fit the season (checked while weighing unsure cells)
        raise _InputError(f"{source}: {exc}", 2) from None
    except ModelError as exc:  # the model files are checked against their manifest on load
        raise _InputError(str(exc), 1) from None
    if not verdict:
        quoted = scan_args if scan_args is not None else shlex.quote(source)
        fix = (
            f"fix them with --fix CELL=SYMBOL,... or --review, or run 'cartoscan scan {quoted} > map.sheet', "
            "fix the '?' cells and score map.sheet"
            if verdict.doubtful
            else f"check with 'cartoscan scan {quoted}'"
        )
        suspect = {"suspect": [problem.to_json() for problem in verdict.suspect]} if verdict.suspect else None
        raise _InputError(
            f"{source}: {verdict.stake}; {fix}, or pass --allow-doubtful to score the most likely reading",
            4,
            suspect,
        )
    assert verdict.sheet is not None  # a verdict that is not refused has its sheet
    return verdict.sheet, verdict


def _sheet_text(source: str) -> str:
    """The text of a .sheet file or of stdin ('-'), read no further than a sheet can be long; raises
    _InputError (exit 2) for a file that cannot be read, is too long or is not UTF-8."""
    import sys

    from rules.sheet import MAX_TEXT
    from scanner.failure import Failure
    from scanner.files import read_file

    limit = 4 * MAX_TEXT + 3  # bytes: four per character at most in UTF-8, and a byte-order mark
    if source == "-":
        stream = getattr(sys.stdin, "buffer", None)
        data = stream.read(limit + 1) if stream is not None else sys.stdin.read(MAX_TEXT + 1).encode()
    else:
        got = read_file(source, max_bytes=limit)
        if isinstance(got, Failure):
            why = "too long for a sheet file" if got.reason == "too_large" else "cannot read the sheet file"
            raise _InputError(f"{source}: {why} ({got.message})", 2)
        data = got
    if len(data) > limit:
        raise _InputError(f"{source}: more than {limit} bytes, too long for a sheet file", 2)
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise _InputError(f"{source}: not a UTF-8 text file", 2) from None


def _read_sheet(
    source: str,
    allow_doubtful: bool,
    chosen: Sequence[ScoringCard],
    which: Season | None,
    fixes: Mapping[Cell, Terrain] | None = None,
    ask: Ask | None = None,
) -> tuple[Sheet, Verdict | None]:
    """:func:`_load_sheet`, turning a failure into the CLI's one red line and exit status."""
    try:
        return _load_sheet(source, allow_doubtful, chosen, which, fixes, ask)
    except _InputError as exc:
        raise _fail(str(exc), exc.status) from None


def _verdict_note(verdict: Verdict | None) -> str | None:
    """The note for a photo scored although something is unsure (plain text), or None."""
    if verdict is None or not verdict.message():
        return None
    return str(verdict.message())


def _parse_cards_and_season(cards: str | None, season: str | None) -> tuple[list[ScoringCard], Season | None]:
    """The chosen cards and season from the options; raises typer.Exit(2) with one line."""
    from rules import SheetError
    from rules.cards import parse_card_list
    from rules.season import Season, score_cards, score_season
    from rules.sheet import Sheet

    if cards is None:
        raise _fail("give the scoring cards with --cards ID[,ID...] (see 'cartoscan cards')", 2)
    try:
        chosen, which = parse_card_list(cards), Season.parse(season) if season is not None else None
        # the cards checked together once, up front (a card twice, not four with a season), not
        # after a batch has read every photo
        blank = Sheet.blank("A")
        score_cards(blank, chosen)
        if which is not None:
            score_season(blank, chosen, which)
    except SheetError as exc:
        raise _fail(str(exc), 2) from None
    return chosen, which


def _parse_fixes(fix: str | None) -> dict[Cell, Terrain] | None:
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


def _review_prompt(
    reading: Reading, uncertain: UncertainSheet, chosen: Sequence[ScoringCard], which: Season | None
) -> UncertainSheet:
    """--review: while the policy refuses, ask what the first unsure cell holds and offer the cells
    drawn like it (the reader's look-alike groups) in one go; Enter takes the likeliest, q stops."""
    from rich.console import Console
    from rich.markup import escape

    from front.results import alike, alike_taking
    from rules import SheetError, Terrain, cell_label
    from rules.policy import decide
    from scanner.constants import TERRAIN_SYMBOLS

    console = Console(stderr=True, highlight=False, soft_wrap=True)
    while uncertain.alternatives:
        verdict = decide(uncertain, chosen, which)
        settled = verdict.spread is not None and verdict.spread.certain  # refused for a contradiction
        if verdict or uncertain.doubts or settled:  # or a whole-sheet doubt no cell can answer
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
            ask = f"[Y/n, or the cells that differ, e.g. {cell_label(peers[-1])}]"
            console.print(f"drawn alike and unsure too: {names}; the same for them? {escape(ask)}")
            try:
                taking = alike_taking(peers, input("> "))
            except EOFError:
                break
            except SheetError as exc:  # a mistyped label: this cell alone, the others asked again
                console.print(f"[red]{escape(str(exc))}[/red]")
                taking = ()
            fixes |= dict.fromkeys(taking, chosen_terrain)
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
    json_out: Annotated[bool, typer.Option("--json", help="Print one JSON object.", metavar="")] = False,
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
        _say("note", "yellow", note)
    try:
        if json_out:
            typer.echo(json.dumps(score_json(sheet, chosen, which, verdict), ensure_ascii=False))
            return
        result = score_cards(sheet, chosen)
        season_result = score_season(sheet, chosen, which) if which is not None else None
    except SheetError as exc:
        raise _fail(f"{source}: {exc}", 2) from None
    _print_score(source, result, season_result)


def _print_score(source: str, result: SheetScore, season_result: SeasonScore | None) -> None:
    from rich.console import Console
    from rich.table import Table
    from rich.text import Text

    from front.results import sheet_warnings
    from rules.season import EDICT_LETTERS

    console = Console(highlight=False)
    sheet = result.sheet
    for warning in sheet_warnings(sheet):
        _say("warning", "yellow", warning)
    scored = {letter: card.id for letter, (card, _) in season_result.edicts.items()} if season_result else {}
    title = f"{_one_line(source)}: side {sheet.side}" + (
        f", {season_result.season.value}" if season_result else ""
    )
    table = Table(title=Text(title), title_justify="left")
    if season_result:
        table.add_column("edict")
    table.add_column("card")
    table.add_column("points", justify="right")
    table.add_column("why")
    # cells are Text, never markup strings: names and details are data, and may hold '['
    for i, card in enumerate(result.cards):
        sc = result.scores[card.id]
        why = Text(sc.detail)
        if sc.choice:
            why.append(" choice:", "bold").append(f" {sc.choice}")
        row = [Text(card.name), Text(str(sc.points)), why]
        if season_result:
            letter = EDICT_LETTERS[i]
            row = [Text(letter), *row]
            if scored.get(letter) != card.id:
                row = [*row[:3], Text("(not scored this season)")]
                for cell in row:
                    cell.stylize("dim")
        table.add_row(*row)
    table.add_section()
    pad = [""] if season_result else []
    table.add_row(*pad, "coins", str(result.coins), f"{sheet.coins} unspent coin(s)")
    monsters = " ".join(_labels(result.monster_cells))  # in cell order (A2 before A10), not text order
    table.add_row(*pad, "monsters", str(result.monsters), f"empty spaces next to monsters: {monsters or '-'}")
    total = season_result.total if season_result else result.total
    table.add_row(*pad, Text("total", "bold"), Text(str(total), "bold"), "")
    console.print(table)


def _labels(cells: Iterable[Cell]) -> list[str]:
    from rules import cell_label

    return [cell_label(c) for c in sorted(cells)]


@app.command("cards")
def list_cards(
    *, json_out: Annotated[bool, typer.Option("--json", help="Print one JSON array.", metavar="")] = False
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
    console = Console(highlight=False)
    # The id is what --cards takes: never cut. The printed names in four languages need ~130 columns;
    # a narrower terminal gets the English name only (every language still works for --cards).
    languages = {"en": "English", "de": "Deutsch", "pl": "Polski", "ru": "Русский"}
    if console.width < 130:
        languages = {"en": "English"}
        title = "Scoring cards (German, Polish, Russian names: a wider terminal or --json)"
    else:
        title = "Scoring cards (names in any listed language work for --cards)"
    table = Table(title=title, title_justify="left")
    table.add_column("id", no_wrap=True, min_width=max(len(row["id"]) for row in rows))
    for name in (*languages.values(), "back", "solo", "game"):
        table.add_column(name, justify="right" if name == "solo" else "left")
    for row in rows:
        names = [row["names"].get(code, "") for code in languages]
        table.add_row(row["id"], *names, row["category"], str(row["solo_value"]), row["expansion"])
    console.print(table)


# --- batch (a tournament folder) ----------------------------------------------------------------------

_SHEET_SUFFIX = ".sheet"


def _batch_inputs(
    paths: list[Path], recursive: bool, outputs: tuple[Path, ...] = ()
) -> list[tuple[str, str]]:
    """Every input as ``(path, why_not)``: files as given, folders expanded to every entry they hold
    (sorted; subfolders with `recursive`). Nothing is skipped silently: an entry that cannot be an
    input (a subfolder without `recursive`) comes back with the reason, to be reported as a failed row.
    Anything else that is not a .sheet file is tried as a photo, so that a `.gif`, a file without an
    extension or a dangling link gets its own error line. The batch's own `outputs` (the CSV file, the
    review folder) are not inputs."""
    out: list[tuple[str, str]] = []
    own = {p.resolve() for p in outputs}

    def walk(folder: Path, seen: set[tuple[int, int]]) -> None:
        try:
            info = folder.stat()
            entries = sorted(folder.iterdir(), key=lambda p: p.name)
        except OSError as exc:
            out.append((str(folder), f"cannot list the folder ({exc.strerror or type(exc).__name__})"))
            return
        if (info.st_dev, info.st_ino) in seen:  # a link back up the tree
            out.append((str(folder), "a folder already read (a link loop)"))
            return
        seen = seen | {(info.st_dev, info.st_ino)}
        for entry in entries:
            if entry.resolve() in own:
                continue
            if entry.is_dir():
                if recursive:
                    walk(entry, seen)
                else:
                    out.append((str(entry), "a folder; pass --recursive to read folders inside folders"))
            else:
                out.append((str(entry), ""))

    for path in paths:
        if path.is_dir():
            walk(path, set())
        else:
            out.append((str(path), ""))
    return out


def _utf8(text: str) -> str:
    """`text` with the bytes of a file name that are not UTF-8 (held as surrogates) shown as ``\\xff``,
    so that it can be written as UTF-8 (JSON lines, CSV)."""
    return text.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")


_LIBRARY_FAULTS = (MemoryError, RecursionError, ArithmeticError, ValueError, OSError, RuntimeError)
"""What a library fault on one strange batch input may raise: that row fails (status 3), the rest go on."""


def _batch_row(
    source: str,
    why_not: str,
    card_ids: tuple[str, ...],
    season: str | None,
    allow_doubtful: bool,
    each: bool = False,
) -> list[tuple[dict[str, Any], str | None]]:
    """One batch input scored: its JSON rows (``ok``, ``status`` always) each with the note to print,
    if any.  One row, or with `each` one row per sheet of a photo holding several (``photo.jpg#1``...,
    left to right).

    A module-level function of plain arguments, so that a worker process can run it (``--jobs``)."""
    if _reads_each(source, why_not, each):
        pairs = _score_each(source, card_ids, season, allow_doubtful)
    else:
        pairs = [_score_one(source, why_not, card_ids, season, allow_doubtful)]
    for row, _ in pairs:
        row["input"] = _utf8(row["input"])
        if "error" in row:
            row["error"] = _utf8(row["error"])
    return pairs


def _reads_each(source: str, why_not: str, each: bool) -> bool:
    """Whether batch --each reads `source` sheet by sheet: a photo (not a .sheet, not stdin) it may read."""
    return each and not why_not and source != "-" and not source.lower().endswith(_SHEET_SUFFIX)


def _score_each(
    source: str, card_ids: tuple[str, ...], season: str | None, allow_doubtful: bool
) -> list[tuple[dict[str, Any], str | None]]:
    """batch --each on a photo: a row per sheet it holds (``input`` ``photo.jpg#k`` and ``sheet`` k
    when there are several; a photo of one sheet gives the row `score` would)."""
    import shlex

    from front.results import score_json
    from rules.cards import find_card
    from rules.season import Season
    from scanner.failure import Failure
    from scanner.nets import ModelError
    from scanner.pipeline import read_photo_sheets

    chosen = [find_card(card_id) for card_id in card_ids]
    which = Season.parse(season) if season is not None else None
    try:
        readings = read_photo_sheets(source)
    except ModelError as exc:
        return [({"input": source, "ok": False, "status": 1, "error": str(exc)}, None)]
    except _LIBRARY_FAULTS as exc:
        return [({"input": source, "ok": False, "status": 3,
                  "error": f"{source}: cannot be read ({type(exc).__name__})"}, None)]
    if isinstance(readings, Failure):
        return [({"input": source, "ok": False, "status": 3, "error": f"{source}: {readings.message}"}, None)]
    out: list[tuple[dict[str, Any], str | None]] = []
    several = len(readings) > 1
    for k, reading in enumerate(readings, 1):
        label = f"{source}#{k}" if several else source
        row: dict[str, Any] = {"input": label} | ({"sheet": k} if several else {})
        try:
            sheet, verdict = _decide_reading(
                label, reading, allow_doubtful, chosen, which,
                scan_args=shlex.quote(source) + (" --each" if several else ""),
            )
        except _InputError as exc:
            out.append((row | {"ok": False, "status": exc.status, "error": str(exc), **exc.detail}, None))
            continue
        note = _verdict_note(verdict)
        out.append((row | {"ok": True, "status": 0, **score_json(sheet, chosen, which, verdict)},
                    f"{label}: {note}" if note else None))
    return out


def _score_one(
    source: str, why_not: str, card_ids: tuple[str, ...], season: str | None, allow_doubtful: bool
) -> tuple[dict[str, Any], str | None]:
    from front.results import score_json
    from rules import SheetError
    from rules.cards import find_card
    from rules.season import Season

    chosen = [find_card(card_id) for card_id in card_ids]
    which = Season.parse(season) if season is not None else None
    row: dict[str, Any] = {"input": source}
    if why_not:
        return row | {"ok": False, "status": 2, "error": f"{source}: {why_not}"}, None
    try:
        sheet, verdict = _load_sheet(source, allow_doubtful, chosen, which)
        row |= {"ok": True, "status": 0, **score_json(sheet, chosen, which, verdict)}
        note = _verdict_note(verdict)
        return row, f"{source}: {note}" if note else None
    except _InputError as exc:
        return row | {"ok": False, "status": exc.status, "error": str(exc), **exc.detail}, None
    except SheetError as exc:
        return row | {"ok": False, "status": 2, "error": f"{source}: {exc}"}, None
    except _LIBRARY_FAULTS as exc:
        # a library fault on one strange input must not cost the rest of the batch its results
        error = f"{source}: cannot be read ({type(exc).__name__})"
        return row | {"ok": False, "status": 3, "error": error}, None


def _batch_worker_start() -> None:
    """A --jobs worker: one thread per library, the models loaded once for all its inputs."""
    import contextlib

    import cv2

    from scanner.nets import ModelError, default_models

    cv2.setNumThreads(1)
    with contextlib.suppress(ModelError):  # every photo row then reports it (exit 1)
        default_models()


def _batch_rows(
    items: list[tuple[str, str]],
    card_ids: tuple[str, ...],
    season: str | None,
    allow_doubtful: bool,
    jobs: int,
    each: bool = False,
) -> Iterator[list[tuple[dict[str, Any], str | None]]]:
    """The rows of each of `items` in input order, computed here (``jobs == 1``) or by `jobs` worker
    processes."""
    if jobs <= 1 or len(items) <= 1:
        for source, why_not in items:
            yield _batch_row(source, why_not, card_ids, season, allow_doubtful, each)
        return
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    # forkserver/spawn, not fork: the parent may hold onnxruntime's and OpenCV's threads
    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("forkserver" if "forkserver" in methods else "spawn")
    with ProcessPoolExecutor(max_workers=jobs, mp_context=context, initializer=_batch_worker_start) as pool:
        futures = [
            pool.submit(_batch_row, source, why_not, card_ids, season, allow_doubtful, each)
            for source, why_not in items
        ]
        try:
            for future in futures:
                yield future.result()
        finally:
            for future in futures:
                future.cancel()


class _CsvOut:
    """The --csv file, written as the batch goes: created whole (header) through a rename, so a link
    planted at the name is replaced and an older file never survives; then one flushed row per input,
    so an interrupted batch leaves every finished row."""

    def __init__(self, path: Path, header: list[str]) -> None:
        import csv
        import os

        from scanner.files import write_atomic

        write_atomic(path, b"")
        fd = os.open(path, os.O_WRONLY | os.O_APPEND | getattr(os, "O_NOFOLLOW", 0))
        self._handle = os.fdopen(fd, "w", newline="", encoding="utf-8")
        self._writer = csv.writer(self._handle)
        self.row(header)

    def row(self, values: list[Any]) -> None:
        self._writer.writerow(values)
        self._handle.flush()

    def close(self) -> None:
        self._handle.close()


def _csv_header(card_ids: list[str], season: bool) -> list[str]:
    tail = ["season", "season_total"] if season else []
    return ["input", "ok", "status", "side", *card_ids, "coins", "monsters", "total", *tail,
            "doubtful_cells", "doubt", "warnings", "error"]


def _csv_values(row: dict[str, Any], card_ids: list[str], season: bool) -> list[Any]:
    """A batch row as CSV cells: ``total`` is always the cards' sum plus coins and monsters;
    ``season_total`` the season's (its two edicts, coins, monsters)."""
    blank_tail = ["", ""] if season else []
    if not row["ok"]:
        return [row["input"], False, row["status"], "", *[""] * len(card_ids), "", "", "", *blank_tail,
                "", "", "", row["error"]]
    points = [row["cards"][card_id] for card_id in card_ids]
    total = sum(points) + row["coins"] + row["monsters"]
    tail = [row["season"]["name"], row["season"]["total"]] if season else []
    doubtful = row.get("doubtful") or {}
    doubt = "" if not doubtful else "certain" if doubtful.get("certain") else "allowed"
    return [row["input"], True, 0, row["side"], *points, row["coins"], row["monsters"], total, *tail,
            " ".join(doubtful.get("cells", [])), doubt, "; ".join(row.get("warnings", [])), ""]


def _copy_for_review(source: str, folder: Path, taken: set[str]) -> None:
    """Copy an input a person must look at into the --review-dir folder (a new name if it is taken)."""
    from scanner.failure import Failure
    from scanner.files import read_file, write_atomic

    if source == "-":
        return
    data = read_file(source)
    if isinstance(data, Failure):  # missing, a pipe, too big: its row says so
        return
    name = Path(source).name
    stem, suffix = Path(name).stem, Path(name).suffix
    n = 1
    while name in taken:
        n += 1
        name = f"{stem}_{n}{suffix}"
    taken.add(name)
    write_atomic(folder / name, data)


@app.command()
def batch(
    inputs: Annotated[list[Path], typer.Argument(help="Photos, .sheet files, or folders of them.")],
    *,
    cards: CardsOption = None,
    season: SeasonOption = None,
    csv: Annotated[
        Path | None, typer.Option(metavar="FILE", help="Also write one CSV row per input to this file.")
    ] = None,
    allow_doubtful: AllowDoubtfulOption = False,
    recursive: Annotated[
        bool, typer.Option("--recursive", "-r", help="Read folders inside folders too.", metavar="")
    ] = False,
    jobs: Annotated[
        int, typer.Option("--jobs", "-j", min=0, metavar="N", help="Worker processes (0: one per core).")
    ] = 1,
    review_dir: Annotated[
        Path | None,
        typer.Option(metavar="DIR", help="Copy every input that could not be scored into this folder."),
    ] = None,
    report_dir: Annotated[
        Path | None,
        typer.Option(metavar="DIR", help="Write an HTML report per input (with --each, per sheet) and "
                     "index.html ranking the players."),
    ] = None,
    each: Annotated[
        bool,
        typer.Option("--each", metavar="", help="A photo of several sheets (a table) gives a row per sheet, "
                     "input photo.jpg#1, #2... left to right."),
    ] = False,
) -> None:
    """Score many sheets: one JSON line per input on stdout, in input order, failures included.

    Every file in a folder is an input (not only photos and .sheet files, so none is skipped
    silently). Each line is the `score --json` object plus "input", "ok" and "status" (the exit status
    `score` would give); a failed input has "ok": false and "error". Exit 0 when every input scored;
    otherwise the most severe status of the failed inputs: 1 broken model files, 2 a malformed sheet
    file (or a subfolder without --recursive), 3 an unreadable photo or one with no sheet, 4 a photo a
    person must look at. Bad options are exit 2 before any input is read.

    Without --each a photo of several sheets fails (status 3); with it each sheet is a row of its own,
    "input" photo.jpg#1, #2... (left to right) and "sheet" its number, and --report-dir writes a report
    per sheet, photo#1.html, photo#2.html..., each showing its part of the photo; index.html ranks the
    sheets as players.
    """
    import json
    import os

    from rich.console import Console
    from rich.progress import Progress

    chosen, which = _parse_cards_and_season(cards, season)
    if csv is not None:
        _check_output_file(csv, "--csv")
    review = _output_dir(review_dir, "--review-dir") if review_dir is not None else None
    reports = _Reports(_output_dir(report_dir, "--report-dir"), chosen, which) if report_dir else None
    outputs = tuple(p for p in (csv, review_dir, report_dir) if p is not None)
    items = _batch_inputs(inputs, recursive, outputs)
    if not items:
        raise _fail("no files in the given paths", 2)
    card_ids = [card.id for card in chosen]
    workers = jobs or os.cpu_count() or 1
    try:
        out = _CsvOut(csv, _csv_header(card_ids, which is not None)) if csv is not None else None
    except OSError as exc:
        raise _fail(f"--csv {csv}: cannot write ({exc.strerror or type(exc).__name__})", 2) from None
    statuses: list[int] = []
    taken: set[str] = set()
    try:
        err = Console(stderr=True)
        with Progress(transient=True, console=err, disable=not err.is_terminal) as progress:
            task = progress.add_task("scoring", total=len(items))
            season_name = which.value if which else None
            rows = _batch_rows(items, tuple(card_ids), season_name, allow_doubtful, workers, each)
            for (source, why_not), pairs in zip(items, rows, strict=True):
                for row, note in pairs:
                    if note:
                        _say("note", "yellow", note, progress.console)
                    if out is not None:  # the file first: a row on stdout is a row in the file
                        out.row(_csv_values(row, card_ids, which is not None))
                    typer.echo(json.dumps(row, ensure_ascii=False))
                    statuses.append(row["status"])
                if reports is not None:
                    if _reads_each(source, why_not, each):
                        reports.add_sheets(source, [row for row, _ in pairs])
                    else:
                        reports.add(source, pairs[0][0])
                if review is not None and not all(row["ok"] for row, _ in pairs):
                    _copy_for_review(source, review, taken)  # the photo once, however many sheets failed
                progress.advance(task)
    finally:
        if out is not None:
            out.close()
        if reports is not None:
            reports.close()
    failed = [status for status in statuses if status]
    if failed:
        message = f'{len(failed)} of {len(statuses)} input(s) could not be scored (lines with "ok": false)'
        raise _fail(message, min(failed))


# --- check / game (rules.check: shapes, coins, heroes, seasons) -------------------------------------

EditionOption = Annotated[
    str | None, typer.Option("--edition", help="Cards played: base or heroes (default: from the side).")
]


def _check_one(source: str, before: Sheet | None, edition: str | None, season: Season | None) -> CheckResult:
    """rules.check on a .sheet file, '-' or a photo (its '?' cells and outlined pieces included);
    raises _InputError."""
    import sys

    from rules import SheetError
    from rules.check import check_sheet, check_text, pieces_from_labels

    try:
        if source == "-" or source.lower().endswith(".sheet"):
            try:
                text = sys.stdin.read() if source == "-" else Path(source).read_text(encoding="utf-8")
            except (OSError, UnicodeDecodeError) as exc:
                why = "no such file" if isinstance(exc, FileNotFoundError) else exc.__class__.__name__
                raise _InputError(f"{source}: cannot read the sheet file ({why})", 2) from None
            return check_text(text, before=before, edition=edition, season=season)
        reading = _photo_reading(source)
        outlines = None
        if {"horizontal", "vertical"} <= reading.outlines.keys():
            import numpy as np

            from rules.grid import SIZE
            from scanner.pieces import find_pieces

            printed = reading.sheet.printed
            drawable = np.ones((SIZE, SIZE), bool)
            for r, c in printed.mountains | printed.wasteland:
                drawable[r, c] = False
            labels = find_pieces(drawable, reading.outlines["horizontal"], reading.outlines["vertical"])
            outlines = pieces_from_labels(labels, reading.sheet)
        return check_sheet(reading.sheet, before=before, outlines=outlines, edition=edition, season=season)
    except SheetError as exc:
        raise _InputError(f"{source}: {exc}", 2) from None


def _photo_reading(source: str) -> Reading:
    """The scanner's reading of a photo (raises _InputError: 3 unreadable, 1 model files)."""
    from scanner.failure import Failure
    from scanner.nets import ModelError
    from scanner.pipeline import read_photo

    try:
        reading = read_photo(source)
    except ModelError as exc:
        raise _InputError(str(exc), 1) from None
    if isinstance(reading, Failure):
        raise _InputError(f"{source}: {reading.message}", 3)
    return reading


def _print_problems(source: str, problems: Sequence[CheckProblem]) -> None:
    from rich.console import Console
    from rich.markup import escape

    console = Console(highlight=False, soft_wrap=True)
    name = escape(_one_line(source))
    if not problems:
        console.print(f"{name}: [green]no problems[/green]")
    for problem in problems:
        console.print(f"{name}: [yellow]{problem.code.value}[/yellow] {escape(problem.message)}")


@app.command()
def check(
    source: Annotated[str, typer.Argument(metavar="INPUT", help="A .sheet file, '-' for stdin, or a photo.")],
    *,
    before: Annotated[
        str | None, typer.Option("--before", help="The same sheet one season earlier (.sheet or photo).")
    ] = None,
    season: SeasonOption = None,
    edition: EditionOption = None,
    json_out: Annotated[bool, typer.Option("--json", metavar="", help="Print one JSON object.")] = False,
) -> None:
    """Check a sheet against the rules, every problem at once: shapes, coins, heroes' stars, destroyed
    spaces, outlines (photos); with --before, what one season may change.

    Exit 0: no problems; 4: problems found; 2: bad option or malformed sheet; 3: unreadable photo.
    """
    import json

    from rules import SheetError
    from rules.season import Season

    try:
        which = Season.parse(season) if season is not None else None
    except SheetError as exc:
        raise _fail(str(exc), 2) from None
    if edition is not None and edition not in ("base", "heroes"):
        raise _fail(f"--edition must be base or heroes, not {edition!r}", 2)
    try:
        earlier = _load_sheet(before, True, [], None)[0] if before is not None else None
        result = _check_one(source, earlier, edition, which)
    except _InputError as exc:
        raise _fail(str(exc), exc.status) from None
    if json_out:
        typer.echo(json.dumps(result.to_json(), ensure_ascii=False))
    else:
        _print_problems(source, result.problems)
    if not result.ok:
        raise typer.Exit(4)


@app.command()
def game(
    sources: Annotated[
        list[str], typer.Argument(metavar="SPRING SUMMER FALL WINTER", help="The sheet after each season.")
    ],
    *,
    cards: CardsOption = None,
    solo: Annotated[bool, typer.Option("--solo", metavar="", help="Add the solo rating and title.")] = False,
    edition: EditionOption = None,
    json_out: Annotated[bool, typer.Option("--json", metavar="", help="Print one JSON object.")] = False,
    allow_doubtful: AllowDoubtfulOption = False,
) -> None:
    """Score a whole game from the sheet after each season (photos or .sheet files): each season, the
    total, and the problems within and between seasons.

    Exit 0: no problems; 4: problems found (the scores are still printed) or a photo too doubtful to
    score; 2: bad option, not four inputs, malformed sheet; 3: unreadable photo.
    """
    import json

    from rules import SheetError
    from rules.check import check_sheet
    from rules.season import Season, game_score

    if len(sources) != 4:
        raise _fail(f"a game needs four sheets (spring, summer, fall, winter), got {len(sources)}", 2)
    if edition is not None and edition not in ("base", "heroes"):
        raise _fail(f"--edition must be base or heroes, not {edition!r}", 2)
    chosen, _ = _parse_cards_and_season(cards, None)
    sheets = [_read_sheet(src, allow_doubtful, chosen, s)[0] for src, s in zip(sources, Season, strict=True)]
    try:
        result = game_score(sheets, chosen)
    except SheetError as exc:
        raise _fail(str(exc), 2) from None
    problems: list[dict[str, Any]] = []
    seen: set[tuple[str, tuple[Any, ...], str]] = set()
    for i, (sheet, which) in enumerate(zip(sheets, Season, strict=True)):
        found = check_sheet(sheet, before=sheets[i - 1] if i else None, edition=edition, season=which)
        for problem in found.problems:
            key = (problem.code.value, problem.cells, problem.message)
            if key not in seen:
                seen.add(key)
                problems.append({**problem.to_json(), "season": which.value})
    out: dict[str, Any] = {
        "seasons": [s.to_json() for s in result.seasons],
        "total": result.total,
        "monster_loss": result.monster_loss,
        "problems": problems,
    }
    if solo:
        out |= {"solo_rating": result.solo_rating, "title": result.title}
    if json_out:
        typer.echo(json.dumps(out, ensure_ascii=False))
    else:
        _print_game(out)
    if problems:
        raise typer.Exit(4)


def _print_game(out: dict[str, Any]) -> None:
    from rich.console import Console
    from rich.markup import escape
    from rich.table import Table

    console = Console(highlight=False, soft_wrap=True)
    table = Table(title="game", title_justify="left")
    for name in ("season", "edicts", "coins", "monsters", "total"):
        table.add_column(name, justify="left" if name in ("season", "edicts") else "right")
    for s in out["seasons"]:
        edicts = ", ".join(f"{card} {points}" for card, points in s["edicts"].items())
        table.add_row(s["name"], edicts, str(s["coins"]), str(s["monsters"]), str(s["total"]))
    table.add_section()
    table.add_row("[bold]game[/bold]", "", "", "", f"[bold]{out['total']}[/bold]")
    console.print(table)
    if "solo_rating" in out:
        console.print(f"solo rating {out['solo_rating']}: {escape(str(out['title'] or 'no title'))}")
    for p in out["problems"]:
        console.print(f"[yellow]{p['code']}[/yellow] ({p['season']}) {escape(p['message'])}")


# --- report / serve (front ends: the HTML report, the web page) -------------------------------------


def _reviewed(
    source: str, chosen: Sequence[ScoringCard], which: Season | None, fixes: Mapping[Cell, Terrain] | None
) -> dict[str, Any]:
    """Read one input (photo or .sheet) for a report, doubts kept: the review, the images and what the
    report shows; raises _InputError."""
    from front.results import uncertain_of
    from rules import Sheet, SheetError
    from scanner.nets import ModelError

    try:
        if source == "-" or source.lower().endswith(".sheet"):
            sheet = Sheet.parse(_sheet_text(source))
            return _reviewed_sheet(uncertain_of(sheet.replace(fixes) if fixes else sheet), chosen, which)
        from scanner.failure import Failure
        from scanner.load import load_photo
        from scanner.pipeline import read_photo

        reading = read_photo(source)  # the reading `score` makes of it
        if isinstance(reading, Failure):
            raise _InputError(f"{source}: {reading.message}", 3)
        shown = load_photo(source)  # only shown (at most 1200 px): the shrunk decode will do
        photo = None if isinstance(shown, Failure) else shown.image
        return _reviewed_reading(reading, photo, chosen, which, fixes)
    except SheetError as exc:
        raise _InputError(f"{source}: {exc}", 2) from None
    except ModelError as exc:
        raise _InputError(str(exc), 1) from None


def _reviewed_reading(
    reading: Reading,
    photo: Any,
    chosen: Sequence[ScoringCard],
    which: Season | None,
    fixes: Mapping[Cell, Terrain] | None,
) -> dict[str, Any]:
    """What a report shows of a photo's reading (`photo` the image shown with it, or None)."""
    uncertain = reading.uncertain.fix(fixes) if fixes else reading.uncertain
    return _reviewed_sheet(uncertain, chosen, which, photo, reading.canonical, reading.probabilities)


def _reviewed_sheet(
    uncertain: UncertainSheet,
    chosen: Sequence[ScoringCard],
    which: Season | None,
    photo: Any = None,
    canonical: Any = None,
    probabilities: Any = None,
) -> dict[str, Any]:
    from front.report import odds_of
    from front.results import review

    return {
        "review": review(uncertain, chosen, which),
        "photo": photo,
        "canonical": canonical,
        "odds": odds_of(probabilities, uncertain.alternatives),
    }


def _write_report(
    source: str,
    out: Path,
    png: Path | None,
    chosen: Sequence[ScoringCard],
    which: Season | None,
    fixes: Mapping[Cell, Terrain] | None,
) -> Review:
    """Write one input's HTML report (and annotated PNG); returns its review; raises _InputError."""
    got = _reviewed(source, chosen, which, fixes)
    return _write_review(got, Path(source).name, out, png, chosen, which)


def _write_review(
    got: dict[str, Any],
    title: str,
    out: Path,
    png: Path | None,
    chosen: Sequence[ScoringCard],
    which: Season | None,
) -> Review:
    """Write the HTML report (and annotated PNG) of what :func:`_reviewed` got, headed `title` (the
    input's name); returns its review; raises _InputError."""
    import cv2

    from front.overlay import draw_sheet
    from front.report import report_html
    from front.results import problems_of
    from scanner.files import write_atomic

    review: Review = got["review"]
    page = report_html(review, chosen, which, title=title, photo=got["photo"],
                       canonical=got["canonical"], odds=got["odds"], problems=problems_of(review.uncertain))

    try:
        if png is not None:
            if got["canonical"] is None:
                raise _InputError(f"{title}: --png needs a photo (a .sheet file has no image)", 2)
            drawn = draw_sheet(got["canonical"], review.uncertain.sheet, review.uncertain.alternatives)
            ok, encoded = cv2.imencode(".png", drawn)
            if not ok:
                raise OSError(f"cannot encode {png}")
            write_atomic(png, encoded.tobytes())
        write_atomic(out, page.encode("utf-8"))  # whole, through a rename: never through a planted link
    except OSError as exc:
        raise _InputError(f"cannot write the report: {exc}", 2) from None
    return review


class _Reports:
    """batch --report-dir: one HTML report per input as the batch goes (with --each, per sheet of a
    table photo), then index.html ranking them."""

    def __init__(self, folder: Path, chosen: Any, which: Any) -> None:
        self.folder, self.chosen, self.which = folder, chosen, which
        self.entries: list[dict[str, Any]] = []
        self.taken: set[str] = {"index"}

    def _free(self, stem: str) -> str:
        """A report name not yet given (``stem``, ``stem_2``...; case-blind for case-blind disks)."""
        name, n = stem, 1
        while name.lower() in self.taken:
            n += 1
            name = f"{stem}_{n}"
        return name

    def _unwritten(self, player: str, why: str) -> None:
        """An index entry without a report: the player listed, last, with why."""
        self.entries.append({"name": player, "report": "", "total": None, "monsters": None, "note": why})

    def _entry(self, player: str, name: str, got: dict[str, Any], ok: bool) -> dict[str, Any]:
        """The index entry of a written report."""
        self.taken.add(name.lower())
        review: Review = got["review"]
        part = review.shown.get("season", review.shown)  # the season's figures when there is one
        note = "" if ok else "needs a look: " + review.verdict.message()
        return {"name": player, "report": f"{name}.html", "total": part["total"],
                "monsters": part["monsters"], "note": note}

    def add(self, source: str, row: dict[str, Any]) -> None:
        stem = Path(source).stem if source != "-" else "stdin"
        name = self._free(stem)
        player = Path(source).name if source != "-" else "stdin"
        try:
            got = _reviewed(source, self.chosen, self.which, None)
            _write_review(got, player, self.folder / f"{name}.html", None, self.chosen, self.which)
        except _InputError as exc:
            self._unwritten(player, str(exc))
            return
        self.entries.append(self._entry(player, name, got, row["ok"]))

    def add_sheets(self, source: str, rows: Sequence[dict[str, Any]]) -> None:
        """--each on a photo: one report per sheet it holds, named as its rows (``table.jpg#2`` ->
        ``table#2.html``; a photo of one sheet ``table.html``), showing the part of the photo around
        that sheet; the photo read once, as its rows were (:func:`scanner.pipeline.read_photo_sheets`)."""
        from front.report import photo_part
        from scanner.failure import Failure
        from scanner.load import load_image
        from scanner.nets import ModelError
        from scanner.pipeline import read_sheets

        player, stem = Path(source).name, Path(source).stem
        image = load_image(source)
        try:
            readings = image if isinstance(image, Failure) else read_sheets(image)
        except ModelError as exc:
            readings = Failure("unreadable", str(exc))
        except _LIBRARY_FAULTS as exc:
            readings = Failure("unreadable", f"cannot be read ({type(exc).__name__})")
        if isinstance(readings, Failure):
            self._unwritten(player, f"{source}: {readings.message}")
            return
        assert not isinstance(image, Failure)  # read_sheets read it
        ok = {row.get("sheet", 1): bool(row["ok"]) for row in rows}
        several = len(readings) > 1
        for k, reading in enumerate(readings, 1):
            label = f"{player}#{k}" if several else player
            name = self._free(f"{stem}#{k}" if several else stem)
            got = _reviewed_reading(reading, photo_part(image, reading.corners) if several else image,
                                    self.chosen, self.which, None)
            try:
                _write_review(got, label, self.folder / f"{name}.html", None, self.chosen, self.which)
            except _InputError as exc:
                self._unwritten(label, str(exc))
                continue
            self.entries.append(self._entry(label, name, got, ok.get(k, False)))

    def close(self) -> None:
        from front.report import index_html

        try:
            (self.folder / "index.html").write_text(index_html(self.entries), encoding="utf-8")
        except OSError as exc:
            raise _fail(f"--report-dir: cannot write index.html ({exc.strerror or exc})", 2) from None


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
    _check_output_file(out, "--out")
    if png is not None:
        _check_output_file(png, "--png")
    try:
        review = _write_report(source, out, png, chosen, which, fixes)
    except _InputError as exc:
        raise _fail(str(exc), exc.status) from None
    from rich.console import Console
    from rich.markup import escape

    err = Console(stderr=True, highlight=False, soft_wrap=True)
    if review.provisional:
        err.print(f"[yellow]note:[/yellow] {escape(_one_line(source))}: {escape(review.verdict.message())}; "
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
    if host in ("127.0.0.1", "localhost", "::1"):
        where = f"http://localhost:{port}/ (this computer only; --host 0.0.0.0 opens it to the local network)"
    elif host in ("0.0.0.0", "::"):
        where = f"http://<this computer's address>:{port}/ from phones and laptops on the same network"
    else:
        where = f"http://{host}:{port}/"
    typer.echo(f"cartoscan: open {where}")
    try:
        uvicorn.run(create_app(), host=host, port=port, log_level="warning")
    except OSError as exc:
        raise _fail(f"cannot listen on {host}:{port}: {exc.strerror or exc}", 2) from None


# --- synth (synthetic photos with truth) -------------------------------------------------------------


@app.command()
def synth(
    *,
    out: Annotated[Path, typer.Option(metavar="DIR", help="Folder for <stem>.jpg / .sheet / .json.")],
    count: Annotated[int, typer.Option(min=1, metavar="N", help="How many samples.")] = 10,
    seed: Annotated[int, typer.Option(min=0, metavar="N", help="Seed of the first sample (then +1...).")] = 0,
    tier: Annotated[
        str, typer.Option(metavar="[scan|phone|webcam|hard]", help="Camera and paper quality.")
    ] = "phone",
    split: Annotated[str, typer.Option(
        metavar="[train|eval|params]",
        help="Drawing styles: as in training, held out, or a held-out hand with training icons.")] = "train",
    video: Annotated[bool, typer.Option(
        "--video", metavar="",
        help="Videos instead (<stem>.avi, MJPG, 720p): a moving camera, a hand, glare.")] = False,
    frames: Annotated[
        int, typer.Option(min=2, metavar="N", help="--video: frames per video (30 a second).")
    ] = 150,
    family: Annotated[str | None, typer.Option(
        metavar="[graphite|glyph|color|color_icon|marker|mixed]",
        help="--video: the player's drawing family (default: any).")] = None,
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
    source: Annotated[str, typer.Argument(
        metavar="SOURCE", help="Camera index (0 = the first camera) or a video file.")] = "0",
    *,
    cards: CardsOption = None,
    season: SeasonOption = None,
    json_out: Annotated[bool, typer.Option(
        "--json", metavar="",
        help="One JSON line per reading; {\"fps\", \"frames\"} at the end of a file.")] = False,
    window: Annotated[bool | None, typer.Option(
        "--window/--no-window", metavar="",
        help="Show the overlay in a window (default: when this OpenCV can).")] = None,
    allow_doubtful: AllowDoubtfulOption = False,
    frames: Annotated[
        int, typer.Option(min=0, metavar="N", help="Stop after this many frames (0: until the end).")
    ] = 0,
) -> None:
    """Follow a sheet in front of a camera (or in a video), read it when it holds still, vote over frames
    and score it with --cards.

    In the window: space captures the reading, r reads again from scratch, q quits. A window needs an
    OpenCV with a GUI (pip install opencv-python); the default install is headless. Exit 2: bad option;
    3: the camera or video cannot be opened, or no sheet was read in a video.
    """
    import json

    from rich.console import Console

    from front.live import KEYS, LiveError, Session, frames_of, has_window, open_source, run
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
                _print_live(err, event, chosen, which)
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


def _print_live(console: Console, event: Event, cards: Sequence[ScoringCard], season: Season | None) -> None:
    """One reading of the live camera for a person: what tells it from the one before (coins, stars,
    '?'), the grid, then the verdict with the score (or what stands in its way)."""
    from front.live import score_line
    from front.results import sheet_warnings
    from rules import cells_label
    from rules.policy import SHOWN_CELLS

    reading = event.reading
    if reading is None:  # only reading and captured events carry one
        return
    stars = f", stars {cells_label(reading.stars)}" if reading.stars else ""
    head = (f"frame {event.frame} ({event.ballots} read): side {reading.side}, {reading.coins} coin(s)"
            f"{f', {reading.spent} spent' if reading.spent else ''}{stars}, {len(reading.doubtful)} '?'")
    if event.kind == "captured":
        head = "[bold]captured[/bold] " + head
    console.print(head)
    for row in reading.sheet.rows:
        console.print("  " + " ".join(row), markup=False)
    verdict = event.verdict
    if verdict is not None:
        if verdict and verdict.sheet is not None:
            console.print(f"  {verdict.outcome.value}: {score_line(verdict, cards, season)}", markup=False)
            why = verdict.message(SHOWN_CELLS)  # settled, or allowed despite doubts (JSON: every cell)
            if why:
                console.print(f"  {why}", markup=False)
            for warning in sheet_warnings(verdict.sheet):  # as score says them (side C and D positions)
                console.print(f"  warning: {warning}", markup=False)
        else:
            console.print(f"  {verdict.outcome.value}: {verdict.said()}", markup=False)


def _quiet_on_closed_pipe() -> None:
    """Writing into a pipe whose reader has gone (``cartoscan batch ... | head``) ends the command the
    way it ends any Unix filter, by SIGPIPE, instead of a traceback or typer's exit 1 (which is the
    status of broken model files here). Only when stdout is a pipe: nothing else can close under us."""
    import os
    import signal
    import stat

    try:
        piped = stat.S_ISFIFO(os.fstat(1).st_mode)
    except OSError:
        return
    if piped and hasattr(signal, "SIGPIPE"):
        signal.signal(signal.SIGPIPE, signal.SIG_DFL)


def _app_for(args: Sequence[str]) -> typer.Typer:
    """The app with only the command the arguments name first, or the whole app when they name none.

    typer turns every command's signature into click options on each start (~10 ms CPU for the ten
    commands, a fortieth of reading a photo) though one command runs. ``cartoscan --help``,
    ``--version`` and a misspelt command (with its "did you mean") get the whole app; a named
    command parses, helps and fails the same either way, the app's settings and callback shared.
    """
    import copy

    from typer.main import get_command_name

    if not args:
        return app
    chosen = [c for c in app.registered_commands
              if args[0] == (c.name or get_command_name(c.callback.__name__ if c.callback else ""))]
    if not chosen:
        return app
    one = copy.copy(app)
    one.registered_commands = chosen
    return one


def main() -> None:
    """Run the command; usage errors (typer's own, too) are one red line and exit status 2."""
    import os
    import sys

    from typer.exceptions import TyperException

    # typer 0.29 (pyproject holds typer below it) validates options through pydantic, which would scan
    # every installed package's entry points for pydantic plugins on each start (~20-80 ms); should an
    # environment bring that typer anyway, the command uses no plugin
    os.environ.setdefault("PYDANTIC_DISABLE_PLUGINS", "__all__")
    _quiet_on_closed_pipe()
    try:
        code = _app_for(sys.argv[1:])(standalone_mode=False)
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
