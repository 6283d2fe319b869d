"""Standard modules a short command imports but does not use, imported on first use instead.

`dataclasses` imports `inspect` at its top, and `inspect` brings `ast`, `dis`, `tokenize` and
`linecache`: about 7 ms, more than half of a bare Python start. `dataclasses` reads it once,
for `inspect.signature` when a class has no docstring, and every record of judge has one.
So a command that answers and exits (`judge rule`, `search`, `check`…) first binds `inspect`
to a placeholder module (`defer`). The placeholder imports the real module the first time a
name is read from it, through PEP 562's module `__getattr__`, then steps aside. A program that
does use `inspect` still gets the whole module, and pays for the import then.

Only documented import behaviour is relied on: a module found in `sys.modules` is returned
as it is (its `__spec__` is `None`, so nothing waits for it to finish initialising), and a
module's `__getattr__` is called for a name it does not have. Not for long-running processes
(`judge serve`): they import `inspect` through their libraries anyway.
"""

from __future__ import annotations

import _thread
import sys
import types

_lock = _thread.allocate_lock()


def defer(name: str) -> None:
    """Bind the top-level module `name` to a placeholder that imports it on first use;
    nothing happens if it is already imported."""
    if "." in name:
        raise ValueError(f"only top-level modules can be deferred: {name}")
    if name in sys.modules:
        return
    placeholder = types.ModuleType(name, f"{name}, imported on first use (judge.deferred)")

    def load(attribute: str) -> object:
        with _lock:
            if sys.modules.get(name) is placeholder:
                del sys.modules[name]  # so that the import statement really imports
                try:
                    __import__(name)
                except BaseException:
                    sys.modules.setdefault(name, placeholder)
                    raise
                real = sys.modules[name]
                # Whoever bound the placeholder meanwhile (`import inspect` in dataclasses)
                # now reads the real module's names from it.
                del placeholder.__dict__["__getattr__"]
                placeholder.__dict__.update(real.__dict__)
        return getattr(sys.modules[name], attribute)

    placeholder.__dict__["__getattr__"] = load
    sys.modules[name] = placeholder


def is_deferred(name: str) -> bool:
    """Whether `name` is still a placeholder: nothing has read a name from it yet."""
    module = sys.modules.get(name)
    return module is not None and "__getattr__" in module.__dict__ and module.__spec__ is None
