"""The ``cartoscan`` command: thin typer commands over the library (see CONTRACT.md for exit codes)."""

from __future__ import annotations

import typer

app = typer.Typer(no_args_is_help=True, add_completion=False, help="Score photos of Cartographers map sheets.")


def main() -> None:
    app()


if __name__ == "__main__":
    main()
