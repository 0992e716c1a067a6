"""What the benchmark needs on the machine, installed when missing: wrk and hey (Debian), gunicorn,
granian and pyinstrument (the `bench` extra), as scripts/test installs chromium."""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
MODULES = ("checkout", "gunicorn", "granian", "pyinstrument", "flask", "requests", "psycopg")
PROGRAMS = ("wrk", "hey")


def ensure() -> None:
    if any(importlib.util.find_spec(name) is None for name in MODULES):
        print("== installing the service with its bench extra (gunicorn, pyinstrument)", file=sys.stderr)
        subprocess.run(
            [
                sys.executable,
                "-m",
                "pip",
                "install",
                "--quiet",
                "--root-user-action=ignore",
                "--disable-pip-version-check",
                "-e",
                f"{REPO}[bench]",
            ],
            check=True,
        )
        importlib.invalidate_caches()
    missing = [program for program in PROGRAMS if shutil.which(program) is None]
    if missing:
        print(f"== installing Debian's {' and '.join(missing)}", file=sys.stderr)
        env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
        subprocess.run(["apt-get", "update", "-qq"], check=True, env=env)
        subprocess.run(["apt-get", "install", "-y", "-qq", *missing], check=True, env=env, stdout=subprocess.DEVNULL)
