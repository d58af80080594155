"""The one exception family of :mod:`rules`."""

from __future__ import annotations


class SheetError(ValueError):
    """A map sheet (or a request about one) breaks the notation or the rules.

    The message is one readable line naming the line and/or cell at fault, so the
    command line can print it as is.
    """
