"""The README's and getting-started's samples, run as written against a live `checkout serve`: each marked
block (`<!-- sample: NAME -->` before a fenced block) runs in bash, and its answer must carry every field
the doc shows for it (a `# {…}` comment in the block, or the block marked `<!-- answer: NAME -->`)."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest
import requests

from tests import processes
from tests.docs.live import serve_with_worker

ROOT = Path(__file__).resolve().parents[2]
BLOCK = re.compile(r"<!-- (sample|answer): ([\w.-]+) -->\n```(\w+)\n(.*?)\n```", re.S)
# A field the doc shows with its whole value: a string without the ellipsis, or a number.
SHOWN = re.compile(r'"(\w+)": ("[^"…]*"|-?\d+(?:\.\d+)?)(?=\s*[,}])')
DOC_BASE = "http://127.0.0.1:8000"


def blocks(doc: str) -> list[tuple[str, str, str, str]]:
    """(kind, name, language, text) of every marked block, in the doc's order."""
    text = (ROOT / doc).read_text(encoding="utf-8")
    return [(kind, name, language, body) for kind, name, language, body in BLOCK.findall(text)]


def runnable(text: str) -> str:
    """The block without its placeholder lines (`export APP_ID=app_…`: the test sets those itself)."""
    return "\n".join(line for line in text.splitlines() if not (line.startswith("export ") and "…" in line))


def shown(text: str) -> str:
    """The answer a block shows: its comment lines, without the `#`."""
    return " ".join(line[1:] for line in text.splitlines() if line.startswith("#"))


def answers(stdout: str) -> list[dict]:
    """Every JSON object printed, in order."""
    decoder, found, at = json.JSONDecoder(), [], 0
    while (start := stdout.find("{", at)) != -1:
        value, at = decoder.raw_decode(stdout, start)
        found.append(value)
    return found


def fields(value, into: dict | None = None) -> dict:
    """Every key of a JSON object and its nested objects, with its value (the outer one first)."""
    into = {} if into is None else into
    for key, item in value.items():
        into.setdefault(key, item)
        if isinstance(item, dict):
            fields(item, into)
    return into


def check(name: str, expected: str, answer: dict, base: str) -> None:
    pairs = SHOWN.findall(expected.replace(DOC_BASE, base))
    assert pairs, f"{name}: the doc shows no field to compare"
    got = fields(answer)
    # Every field the doc names is there, those it shows only in part ("2026…") too.
    missing = set(re.findall(r'"(\w+)": ', expected)) - set(got)
    assert not missing, f"{name}: the answer has no {sorted(missing)}: {answer}"
    for key, text in pairs:
        assert key in got, f"{name}: the answer has no {key!r}: {answer}"
        assert got[key] == json.loads(text), f"{name}: {key} is {got[key]!r}, the doc shows {text}: {answer}"


def text_of(marked: list[tuple[str, str, str, str]], sample: str) -> str:
    return next(text for kind, name, _, text in marked if (kind, name) == ("sample", sample))


def delivered_to_the_inbox(base: str, env: dict, timeout: float = 30) -> bool:
    """The trade's callback, sent by the worker, was answered by the sandbox inbox."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        answer = requests.get(f"{base}/sandbox/deliveries", auth=(env["APP_ID"], env["SECURITY_KEY"]), timeout=10)
        for delivery in answer.json()["deliveries"]:
            if delivery["subject"] == env["TRADE_NO"] and delivery["status"] == "delivered":
                return delivery["target"] == f"{base}/sandbox/inbox/{env['APP_ID']}"
        time.sleep(0.2)  # the worker's next round
    return False


@pytest.mark.parametrize(
    "doc, names",
    [
        ("README.md", ["merchant", "first-payin", "sandbox-pay"]),
        (
            "docs/getting-started.md",
            [
                "merchant",
                "first-payin",
                "sandbox-pay",
                "trade-query",
                "fund",
                "sign.py",
                "quote",
                "payout",
                "payout-status",
            ],
        ),
    ],
)
def test_the_docs_samples_answer_what_they_show(tmp_path, doc, names):
    marked = blocks(doc)
    assert [name for kind, name, _, _ in marked if kind == "sample"] == names
    process, port, env = serve_with_worker(tmp_path)
    base = f"http://127.0.0.1:{port}"
    # The README's commands name the environment its first command made (`.venv/bin/checkout`), the guide's
    # that environment active (`checkout`, `python3`): both are this interpreter here.
    scripts = tmp_path / ".venv" / "bin"
    scripts.mkdir(parents=True)
    for command, run in (("python3", ""), ("checkout", " -m checkout")):
        (scripts / command).write_text(f'#!/bin/sh\nexec "{sys.executable}"{run} "$@"\n', encoding="utf-8")
        (scripts / command).chmod(0o755)
    env = {**env, "PATH": f"{scripts}:{env['PATH']}"}
    expected_answers = {name: text for kind, name, _, text in marked if kind == "answer"}
    try:
        for kind, name, language, text in marked:
            if kind == "answer":
                continue
            if language == "python":
                (tmp_path / name).write_text(text + "\n", encoding="utf-8")
                continue
            script = "set -euo pipefail\n" + runnable(text).replace(DOC_BASE, base)
            done = subprocess.run(
                ["bash", "-c", script], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120, check=False
            )
            assert done.returncode == 0, f"{name}: {done.stderr}"
            printed = answers(done.stdout)
            assert printed, f"{name} printed no answer: {done.stdout!r} {done.stderr!r}"
            answer = printed[-1]
            check(name, expected_answers.get(name) or shown(text), answer, base)
            if name == "merchant":
                env.update(APP_ID=answer["app_id"], SECURITY_KEY=answer["security_key"], APP_KEY=answer["app_key"])
            elif name == "first-payin":
                env["TRADE_NO"] = answer["trade_no"]
            elif name == "sandbox-pay" and "/sandbox/inbox/" in text_of(marked, "first-payin"):
                assert delivered_to_the_inbox(base, env), "the paid trade's callback never reached the sandbox inbox"
    finally:
        processes.stop(process)
