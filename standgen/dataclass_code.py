"""Dataclasses made at start-up without compiling their methods again in every process.

Python 3.11 writes each method of a dataclass (``__init__``, ``__repr__``,
``__eq__``, a frozen class's ``__setattr__``, ``__delattr__`` and ``__hash__``) as source
text and compile it (``dataclasses._create_fn``): standgen's 200 dataclasses are 1,200
compilations, 0.17 CPU s of every command's start-up (a third of importing
``standgen.build``). :func:`install` keeps the compiled code between processes, beside
standgen's own bytecode (``standgen/__pycache__``, or ``PYTHONPYCACHEPREFIX``'s folder;
nothing is written when bytecode is not, ``PYTHONDONTWRITEBYTECODE``), keyed by the
exact text: a method is the code ``compile`` makes of the same text, run the same way,
so each class is what it would have been. A file that cannot be read or written is
ignored; other Pythons (3.12 names a local differently, 3.13 compiles a class's methods
at once) are left alone.

The command line installs it before it imports a command's modules; it is off under
:func:`standgen.perf.straightforward` (each method compiled as Python does), and
``tests/test_dataclass_code.py`` compares every method of every dataclass of a build's
modules made both ways.
"""

from __future__ import annotations

import atexit
import dataclasses
import importlib.util
import marshal
import os
import sys
from pathlib import Path
from types import CodeType
from typing import Any

from standgen import perf

_MAX_ENTRIES = 5000  # more (old versions' methods piling up): keep only this process's


class _Codes:
    """The compiled methods: those read from the file and those this process used."""

    def __init__(self, path: Path | None) -> None:
        self.path = path
        self.loaded: dict[str, CodeType] | None = None
        self.used: dict[str, CodeType] = {}
        self.pid = os.getpid()

    def code(self, text: str) -> CodeType:
        if self.loaded is None:
            self.loaded = _read(self.path)
        found = self.used.get(text) or self.loaded.get(text)
        if found is None:
            # as exec(text) compiles it in dataclasses: no __future__ flags of this module
            found = compile(text, "<string>", "exec", dont_inherit=True)
        self.used[text] = found
        return found

    def save(self) -> None:
        """Write the file when this process compiled a method it did not hold (not in a
        forked worker, whose parent writes it)."""
        if self.path is None or self.loaded is None or os.getpid() != self.pid:
            return
        if all(text in self.loaded for text in self.used):
            return
        kept = {**self.loaded, **self.used}
        if len(kept) > _MAX_ENTRIES:
            kept = dict(self.used)
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            partial = self.path.with_name(f".{self.path.name}.{os.getpid()}")
            partial.write_bytes(importlib.util.MAGIC_NUMBER + marshal.dumps(kept))
            os.replace(partial, self.path)
        except (OSError, ValueError):
            pass  # a read-only install: the next process compiles them again


def _read(path: Path | None) -> dict[str, CodeType]:
    if path is None:
        return {}
    magic = importlib.util.MAGIC_NUMBER
    try:
        data = path.read_bytes()
        if not data.startswith(magic):
            return {}
        loaded = marshal.loads(data[len(magic):])
    except (OSError, ValueError, EOFError, TypeError):
        return {}
    if not isinstance(loaded, dict):
        return {}
    return {k: v for k, v in loaded.items() if isinstance(k, str) and isinstance(v, CodeType)}


def cache_path() -> Path | None:
    """Return the file of the compiled methods (beside standgen's bytecode), or None when
    Python writes no bytecode."""
    if sys.dont_write_bytecode:
        return None
    beside = Path(__file__).with_name("_dataclass_methods.py")
    return Path(importlib.util.cache_from_source(str(beside))).with_suffix(".marshal")


_MISSING = dataclasses.MISSING
_original: Any = None


def install(path: Path | None = None) -> bool:
    """Make dataclasses' methods from the kept code from now on (once per process);
    return whether it is in use. ``path``: the file (default :func:`cache_path`)."""
    global _original
    if _original is not None:
        return True
    original = getattr(dataclasses, "_create_fn", None)
    if (sys.version_info[:2] != (3, 11) or not perf.enabled() or original is None
            or "->_return_type" not in original.__code__.co_consts):
        return False
    codes = _Codes(path if path is not None else cache_path())
    _original = original

    def create_fn(name: str, args: list[str], body: list[str], *, globals: Any = None,
                  locals: Any = None, return_type: Any = _MISSING) -> Any:
        # dataclasses._create_fn of Python 3.11, the text compiled once per machine
        if not perf.enabled():
            return _original(name, args, body, globals=globals, locals=locals,
                             return_type=return_type)
        if locals is None:
            locals = {}
        return_annotation = ""
        if return_type is not _MISSING:
            locals["_return_type"] = return_type
            return_annotation = "->_return_type"
        lines = "\n".join(f"  {b}" for b in body)
        text = f" def {name}({','.join(args)}){return_annotation}:\n{lines}"
        text = f"def __create_fn__({', '.join(locals.keys())}):\n{text}\n return {name}"
        ns: dict[str, Any] = {}
        exec(codes.code(text), globals, ns)
        return ns["__create_fn__"](**locals)

    dataclasses._create_fn = create_fn  # type: ignore[attr-defined]
    atexit.register(codes.save)
    return True
