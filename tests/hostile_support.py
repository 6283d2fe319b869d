"""The installed `judge` command run as a user runs it (the hostile suites' helpers): in a
subprocess, with a timeout, and what a French refusal looks like."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

SCRIPT = Path(sys.executable).with_name("judge")
COMMAND = [str(SCRIPT)] if SCRIPT.is_file() else [sys.executable, "-m", "judge"]
RULES = Path(__import__("judge.resources", fromlist=["rules_dir"]).rules_dir())
MANA_BURN = json.dumps({"active": "A", "phase": "précombat_main", "mana_pools": {"A": 3},
                        "questions": [{"ask": "mana_burn", "player": "A"}]})


def judge(*args: str | bytes, cwd: Path | None = None, stdin: bytes | None = None, timeout: float = 300,
          env: dict[str, str] | None = None, stdout: int | None = subprocess.PIPE) -> subprocess.CompletedProcess[bytes]:
    environment = dict(os.environ)
    environment.pop("JUDGE_CONFIG", None)
    environment.update(env or {})
    return subprocess.run([*COMMAND, *args], cwd=cwd, input=stdin, stdout=stdout, stderr=subprocess.PIPE,
                          timeout=timeout, env=environment, check=False)


def refused(result: subprocess.CompletedProcess[bytes], *words: str) -> str:
    """Exit 2, one French message on stderr naming the problem, no traceback."""
    err = result.stderr.decode("utf-8", "replace")
    assert result.returncode == 2, (result.returncode, err[-2000:])
    assert "Traceback" not in err and err.startswith(("judge : ", "configuration lue")), err[-2000:]
    for word in words:
        assert word in err, (word, err[-2000:])
    assert not re.search(r"\b(?:Errno|No such file|Is a directory|No space left|Permission denied|codec)\b", err), err
    return err
