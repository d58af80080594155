"""The ``cartoscan`` command: thin typer commands over the library (see CONTRACT.md for exit codes)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

app = typer.Typer(no_args_is_help=True, add_completion=False, help="Score photos of Cartographers map sheets.")


# --- scan (photo -> sheet reading) ------------------------------------------------------------------

_TERRAIN_STYLE = {"F": "bold green", "V": "bold red", "P": "bold yellow", "W": "bold blue",
                  "M": "bold magenta", "H": "bold cyan", "X": "bold white on red",
                  "^": "bold white on grey37", "-": "grey50", ".": "grey62",
                  "?": "bold black on bright_yellow"}


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

    from scanner.classify import ModelError
    from scanner.debug import png_writer
    from scanner.failure import Failure
    from scanner.pipeline import parse_corners, read_photo

    try:
        given = parse_corners(corners) if corners is not None else None
    except ValueError as exc:
        raise _fail(str(exc), 2) from None
    if side is not None and side.upper() not in ("A", "B", "C", "D"):
        raise _fail(f"--side must be A, B, C or D, not {side!r}", 2)
    try:
        result = read_photo(photo, corners=given, side=side.upper() if side else None,
                            debug=png_writer(debug) if debug else None)
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
    console.print(f"# {photo.name}: orientation {reading.orientation}, "
                  f"{len(reading.doubtful)} doubtful cell(s)", markup=False)
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


def main() -> None:
    app()


if __name__ == "__main__":
    main()
