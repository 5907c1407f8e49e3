"""The keys of ``[options]`` in event.toml: the one way a format declares an option.

Every format's options, and the options every format has, are :class:`Option` values. A
format's own rules package (``standgen.diplomacy``) declares its options with them too,
from below the formats that list them, and reads an event's value with
:func:`option_value`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from standgen.model import EventConfig


@dataclass(frozen=True)
class Option:
    """A key of ``[options]`` in event.toml that this format understands."""

    key: str
    type: type | tuple[type, ...]
    default: Any
    doc: str
    # a number's lowest and highest value, checked when event.toml is loaded
    # (standgen.load.values.number_problem; the ranges are in docs/data-contract.md)
    bounds: tuple[float, float] | None = None


def option_value(options: Sequence[Option], config: EventConfig, key: str) -> Any:
    """Return the event's value of option ``key``, or its default in ``options``."""
    if key in config.options:
        return config.options[key]
    for option in options:
        if option.key == key:
            return option.default
    raise KeyError(key)
