"""Standard modules a short command imports but does not use, imported on first use instead.

On Python 3.11, `dataclasses` imports `inspect` at its top, and `inspect` brings `ast`, `dis`,
`tokenize` and `linecache`: about 7 ms, more than half of a bare Python start. `dataclasses`
reads it once, for `inspect.signature` when a class has no docstring, and every record of
judge has one. So a command that answers and exits (`judge rule`, `search`, `check`…) first
binds `inspect` to a placeholder module (`defer`). The placeholder runs the real module's
code, in itself, the first time a name is read from it (PEP 562's module `__getattr__`):
from then on it *is* the module, the only one, as if imported the usual way. A program that
does use `inspect` gets the whole module, and pays for the import then.

From Python 3.12, `dataclasses` reads `inspect.get_annotations` for every class: there is
nothing to gain, and `DEFERRED_BY_SHORT_COMMANDS` is empty. Only documented import behaviour
is relied on: a module found in `sys.modules` is returned as it is, and a module's
`__getattr__` is called for a name it does not have. Not for long-running processes
(`judge serve`): they import `inspect` through their libraries anyway.
"""

from __future__ import annotations

import _thread
import sys

TYPE_CHECKING = False  # mypy reads this block as true
if TYPE_CHECKING:
    from importlib.machinery import ModuleSpec

# What a short command defers: `inspect`, where dataclasses leaves it unread (3.11).
DEFERRED_BY_SHORT_COMMANDS: tuple[str, ...] = ("inspect",) if sys.version_info < (3, 12) else ()

_lock = _thread.RLock()


def defer(name: str) -> None:
    """Bind the top-level module `name` to a placeholder that imports it on first use;
    nothing happens if it is already imported, or not found (its import then fails as usual)."""
    if "." in name:
        raise ValueError(f"only top-level modules can be deferred: {name}")
    if name in sys.modules:
        return
    spec = _find_spec(name)
    if spec is None or spec.loader is None or not hasattr(spec.loader, "exec_module"):
        return
    placeholder = type(sys)(name, f"{name}, imported on first use (judge.deferred)")
    loading = False

    def load(attribute: str) -> object:
        nonlocal loading
        with _lock:  # another thread waits for the module to be whole; this one may read it half-made
            if placeholder.__dict__.get("__getattr__") is load and not loading:
                loading = True
                placeholder.__file__ = spec.origin
                placeholder.__cached__ = spec.cached  # type: ignore[attr-defined]
                placeholder.__package__ = spec.parent
                try:
                    spec.loader.exec_module(placeholder)  # type: ignore[union-attr]
                except BaseException:
                    sys.modules.pop(name, None)  # as a failed import: the next one starts again
                    raise
                finally:
                    if placeholder.__dict__.get("__getattr__") is load:  # the module may have its own
                        del placeholder.__dict__["__getattr__"]
        try:
            return placeholder.__dict__[attribute]
        except KeyError:
            raise AttributeError(f"module {name!r} has no attribute {attribute!r}") from None

    placeholder.__spec__ = spec
    placeholder.__loader__ = spec.loader
    placeholder.__dict__["__getattr__"] = load
    sys.modules[name] = placeholder


def _find_spec(name: str) -> ModuleSpec | None:
    """Where the import system would find `name`: the first of `sys.meta_path`'s finders that
    knows it (asked as the import statement asks them; `importlib` costs a start 0.5 ms)."""
    for finder in sys.meta_path:
        find = getattr(finder, "find_spec", None)
        spec = None if find is None else find(name, None)
        if spec is not None:
            return spec  # type: ignore[no-any-return]
    return None


def is_deferred(name: str) -> bool:
    """Whether `name` is still a placeholder: nothing has read a name from it yet."""
    module = sys.modules.get(name)
    getattr_ = None if module is None else module.__dict__.get("__getattr__")
    return getattr(getattr_, "__qualname__", "") == "defer.<locals>.load"
