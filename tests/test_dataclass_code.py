"""Dataclasses made from kept code (:mod:`standgen.dataclass_code`) are the classes Python
makes: every generated method of every dataclass a command imports, compiled as Python
does, compiled once and kept, and read back from the file, is the same code with the same
annotations and defaults."""

from __future__ import annotations

import dataclasses
import importlib.util
import json
import marshal
import subprocess
import sys
from pathlib import Path

import pytest

from standgen import dataclass_code, perf

PROJECT = Path(__file__).resolve().parent.parent

# every module a command imports, then each dataclass method's code, annotations and
# defaults (the objects' addresses left out); "plain" runs without the kept code
_DUMP = r"""
import dataclasses, hashlib, json, marshal, re, sys
from pathlib import Path
if sys.argv[1] != "plain":
    from standgen import dataclass_code
    assert dataclass_code.install(Path(sys.argv[1]))
import standgen.build, standgen.cli, standgen.watch, standgen.venue  # noqa: F401
# and the modules a command imports only where it uses them (the pairing engines, TRF)
import standgen.commands.check, standgen.commands.export, standgen.commands.import_trf  # noqa
import standgen.commands.new, standgen.pairing.dutch, standgen.trf  # noqa: F401
seen = {}
for name, module in sorted(sys.modules.items()):
    if not name.startswith("standgen"):
        continue
    for cls in vars(module).values():
        if not (isinstance(cls, type) and dataclasses.is_dataclass(cls)):
            continue
        for attr, fn in sorted(vars(cls).items()):
            code = getattr(fn, "__code__", None)
            if code is None or code.co_filename != "<string>":
                continue
            seen[f"{cls.__module__}.{cls.__qualname__}.{attr}"] = [
                hashlib.sha256(marshal.dumps(code)).hexdigest(),
                re.sub(" at 0x[0-9a-f]+", "", repr((fn.__annotations__, fn.__defaults__))),
                fn.__qualname__]
print(json.dumps(seen, sort_keys=True))
"""


def _methods(mode: str) -> dict[str, list[str]]:
    done = subprocess.run([sys.executable, "-c", _DUMP, mode], cwd=PROJECT, check=True,
                          capture_output=True, text=True)
    found: dict[str, list[str]] = json.loads(done.stdout)
    return found


@pytest.mark.skipif(sys.version_info[:2] != (3, 11), reason="Python 3.11's dataclasses")
def test_kept_code_makes_the_same_methods(tmp_path: Path) -> None:
    kept = tmp_path / "methods.marshal"
    plain = _methods("plain")
    assert len(plain) > 1000  # __init__, __repr__, __eq__ ... of about 200 classes
    assert _methods(str(kept)) == plain  # compiled, then written
    assert kept.stat().st_size > 0
    written = kept.stat().st_mtime_ns
    assert _methods(str(kept)) == plain  # read back: nothing new to write
    assert kept.stat().st_mtime_ns == written


def test_compiled_as_dataclasses_compiles(tmp_path: Path) -> None:
    """No ``from __future__`` flag of the module leaks into the methods' code."""
    codes = dataclass_code._Codes(tmp_path / "m")
    text = "def __create_fn__(x):\n def f(self, a:x)->x:\n  return a\n return f"
    assert codes.code(text) == compile(text, "<string>", "exec", dont_inherit=True)
    namespace: dict[str, object] = {}
    exec(codes.code(text), {}, namespace)
    made = namespace["__create_fn__"](int)  # type: ignore[operator]
    assert made.__annotations__ == {"a": int, "return": int}


@pytest.mark.parametrize("content", [b"", b"junk", b"\x00" * 40, None])
def test_a_bad_or_missing_file_is_ignored(tmp_path: Path, content: bytes | None) -> None:
    path = tmp_path / "m"
    if content is not None:
        path.write_bytes(content)
    assert dataclass_code._read(path) == {}
    path.write_bytes(importlib.util.MAGIC_NUMBER + marshal.dumps([1, 2]))
    assert dataclass_code._read(path) == {}


def test_an_unwritable_folder_does_not_fail(tmp_path: Path) -> None:
    blocked = tmp_path / "file"
    blocked.write_text("not a folder")
    codes = dataclass_code._Codes(blocked / "m")
    codes.code("x = 1")
    codes.save()  # nothing raised, nothing written
    assert not (blocked / "m").exists()


def test_off_when_optimisations_are_off(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(dataclass_code, "_original", None)  # as in a new process
    before = dataclasses._create_fn  # type: ignore[attr-defined]
    with perf.straightforward():
        assert not dataclass_code.install(Path("unused"))
    assert dataclasses._create_fn is before  # type: ignore[attr-defined]


def test_no_file_without_bytecode(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "dont_write_bytecode", True)
    assert dataclass_code.cache_path() is None
    monkeypatch.setattr(sys, "dont_write_bytecode", False)
    found = dataclass_code.cache_path()
    assert found is not None and found.suffix == ".marshal"
