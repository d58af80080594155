"""pytest's doctest collection (``--doctest-modules`` over the packages) imports every module; the
modules of an optional extra are left out when the extra is not installed, so that the tests run on
the default install plus ``dev``."""

from __future__ import annotations

import importlib.util

_EXTRAS = {
    "torch": ["models/net.py", "models/train.py"],  # the train extra
    "starlette": ["front/web.py"],  # the web extra
}

collect_ignore = [path for module, paths in _EXTRAS.items() if importlib.util.find_spec(module) is None
                  for path in paths]
