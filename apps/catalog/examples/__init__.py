"""The worked examples of the rules pages, computed by the engine when a page renders.

Each example also carries what our text says about it (`claim`); tests/catalog compares every claim
with what the engine computes, so a change of rules in the engine fails a test instead of leaving the
page's words wrong.
"""

from __future__ import annotations

import importlib
from typing import Any

from apps.engine.game import is_available

#: slug -> "module:function" building that game's examples. Imported on first use, like the engine's
#: own registry, so a game whose engine is still being written does not break the other pages.
_BUILDERS: dict[str, str] = {
    "tile-rummy": "apps.catalog.examples.house:house_examples",
    "tile-rummy-rearrange": "apps.catalog.examples.rearrange:rearrange_examples",
}


def examples_for(slug: str) -> Any:
    """The examples of a game's rules page, or None while its engine (or its examples) are not there yet."""
    builder = _BUILDERS.get(slug)
    if builder is None or not is_available(slug):
        return None
    module_name, _, function = builder.partition(":")
    return getattr(importlib.import_module(module_name), function)()
