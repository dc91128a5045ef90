"""What the README tells a newcomer works as written: the ``hukum`` command, which lives in
``.venv`` and not on the PATH, runs after the README's activation line, or by its path."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")


def _setup_section() -> str:
    start = README.index("## Set-up: two commands")
    return README[start : README.index("\n## ", start + 1)]


def test_the_readme_says_how_to_reach_the_hukum_command() -> None:
    section = _setup_section()
    assert "not on your `PATH`" in section
    assert "`.venv/bin/hukum" in section
    assert "Ctrl+C" in section  # make run keeps its terminal: how to stop it


def test_the_activation_line_puts_hukum_on_the_path() -> None:
    block = re.search(r"```sh\n(source [^\n]*)", _setup_section())
    assert block is not None, "the set-up section shows the activation line"
    activate = block.group(1).split("#")[0].strip()
    venv = Path(sys.executable).parent.parent  # the environment these tests run in
    line = activate.replace(".venv", str(venv))
    bare = {k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "PYTHONPATH")}
    bare["PATH"] = "/usr/bin:/bin"
    done = subprocess.run(
        ["bash", "-c", f"{line} && hukum --version"],
        capture_output=True,
        text=True,
        env=bare,
        cwd=ROOT,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("hukum ")


def test_the_set_up_says_what_each_command_installs() -> None:
    """Every extra of pyproject.toml is named in the set-up, beside the commands that add it
    (issue 40: make run installs only what serving needs)."""
    section = _setup_section()
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    for extra in pyproject["project"]["optional-dependencies"]:
        assert f"`{extra}`" in section, extra
    assert "| `make run`, `make cluster` | nothing |" in section
