"""The docs cannot rot: every command shown in README.md and docs/ still parses, the quick ones
and every Python example still run, and every sub-command's help carries an example that
parses.

A command is a line of a ```sh block (backslash continuations joined, `# comments` dropped),
split at `|`, `&&`, `;` and `&`. `bgboard ...` is parsed by bgboard's own parser; `python
benchmarks/X.py ...` by the script's own argparse parser (the script is run up to its
parse_args); `pip install` may only name extras pyproject.toml declares; `make -C DIR T` only
targets DIR/Makefile has; any other word that names a file of this repository (deploy/...,
firmware_bridge/...) must exist. Synopses with placeholders belong in ```text blocks.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import re
import runpy
import shlex
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from bgboard.controller.cli import build_parser

ROOT = Path(__file__).resolve().parents[1]
PAGES = ["README.md", "docs/setup-pi.md", "docs/playing.md", "docs/recording.md",
         "docs/vision.md", "docs/engine.md", "docs/firmware.md", "docs/development.md",
         "docs/tournaments.md"]
LOGS = ["docs/vision-log.md"]  # linked from docs/vision.md, not the README; commands checked alike
OPERATORS = {"|", "||", "&&", ";", "&"}
REDIRECTS = {">", ">>", "<", ">&", "2>"}
REPO_DIRS = ("benchmarks/", "deploy/", "docs/", "firmware_bridge/", "hardware/", "tests/",
             "vision/", "controller/", "engine/", "calibration/")
QUICK = {"moves", "show", "render"}  # sub-commands run for real: pure engine, under a second


class Parsed(Exception):
    """Raised instead of returning from parse_args: the dry run stops there."""


def shell_lines(page: str) -> list[str]:
    """Every command line of the page's ```sh blocks, continuations joined."""
    text = (ROOT / page).read_text()
    blocks = re.findall(r"^```sh\n(.*?)^```", text, flags=re.S | re.M)
    return [line for block in blocks for line in block.replace("\\\n", " ").splitlines()
            if line.strip() and not line.lstrip().startswith("#")]


def segments(line: str) -> list[list[str]]:
    """The simple commands of a shell line, as argument lists, without redirections."""
    lexer = shlex.shlex(line, posix=True, punctuation_chars=True)
    lexer.whitespace_split = True
    found, current, skip = [], [], False
    for token in lexer:
        if skip:
            skip = False
        elif token in OPERATORS:
            found.append(current)
            current = []
        elif token in REDIRECTS:
            skip = True
        else:
            current.append(token)
    found.append(current)
    return [words for words in (strip_prefix(w) for w in found) if words]


def strip_prefix(words: list[str]) -> list[str]:
    """The command without `sudo` and leading VAR=value settings."""
    while words and (words[0] == "sudo" or re.fullmatch(r"[A-Z_]+=\S*", words[0])):
        words = words[1:]
    return words


def documented() -> list[tuple[str, str]]:
    """(page, line) for every command line of every page."""
    return [(page, line) for page in PAGES + LOGS for line in shell_lines(page)]


def parse_bgboard(args: list[str]) -> argparse.Namespace:
    """bgboard's parser on `args`; a usage error fails with argparse's own message."""
    stderr = io.StringIO()
    try:
        with contextlib.redirect_stderr(stderr), contextlib.redirect_stdout(io.StringIO()):
            return build_parser().parse_args(args)
    except SystemExit as exc:
        pytest.fail(f"bgboard {' '.join(args)}: {stderr.getvalue().strip() or exc}")


def parse_script(script: Path, args: list[str], monkeypatch) -> None:
    """Run the script until its argparse parser has parsed `args`, then stop.

    A script whose imports are missing here (PyTorch for the training scripts) is checked
    against the options it declares instead."""
    assert script.is_file(), f"{script} does not exist"
    real_parse = argparse.ArgumentParser.parse_args

    def parse_and_stop(parser, argv=None, namespace=None):
        real_parse(parser, args, namespace)
        raise Parsed

    monkeypatch.setattr(argparse.ArgumentParser, "parse_args", parse_and_stop)
    monkeypatch.setattr(sys, "argv", [str(script), *args])
    monkeypatch.syspath_prepend(str(script.parent))
    stderr = io.StringIO()
    try:
        with contextlib.redirect_stderr(stderr):
            runpy.run_path(str(script), run_name="__main__")
    except Parsed:
        return
    except ModuleNotFoundError as exc:
        declared = set(re.findall(r'add_argument\(\s*"(--[\w-]+)"', script.read_text()))
        options = {a.split("=")[0] for a in args if a.startswith("--")}
        assert options <= declared, f"{script.name} ({exc.name} missing): {options - declared}"
        return
    except SystemExit as exc:
        pytest.fail(f"{script.name} {' '.join(args)}: {stderr.getvalue().strip() or exc}")
    pytest.fail(f"{script.name} never parsed its arguments")


def check_pip(words: list[str]) -> None:
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"][
        "optional-dependencies"]
    for word in words[2:]:
        for named in re.findall(r"\[([\w,]+)\]", word):
            assert set(named.split(",")) <= set(extras), f"pip install {word}: unknown extra"


def check_make(words: list[str]) -> None:
    folder = ROOT / words[words.index("-C") + 1]
    makefile = (folder / "Makefile").read_text()
    for target in (w for w in words[words.index("-C") + 2:] if "=" not in w):
        assert re.search(rf"^{target}:", makefile, re.M), f"{folder}/Makefile has no {target}"


def check_files(words: list[str]) -> None:
    for word in words:
        if word.startswith(REPO_DIRS):
            assert (ROOT / word.split(":")[0]).exists(), f"{word} is not in the repository"


@pytest.mark.parametrize(("page", "line"), documented())
def test_documented_command_parses(page: str, line: str, monkeypatch) -> None:
    for words in segments(line):
        program = Path(words[0]).name
        if program == "bgboard":
            parse_bgboard(words[1:])
        elif program.startswith("python") and words[1].startswith("benchmarks/"):
            parse_script(ROOT / words[1], words[2:], monkeypatch)
        elif program == "pip" and words[1] == "install":
            check_pip(words)
        elif program == "make" and "-C" in words:
            check_make(words)
        else:
            check_files(words)


def quick_lines() -> list[tuple[str, str]]:
    """The documented lines whose bgboard commands are all quick engine commands."""
    chosen = []
    for page, line in documented():
        commands = [w for w in segments(line) if w[0] == "bgboard"]
        if commands and all(w[1] in QUICK for w in commands):
            chosen.append((page, line))
    return chosen


@pytest.mark.parametrize(("page", "line"), quick_lines())
def test_quick_documented_command_runs(page: str, line: str, tmp_path: Path) -> None:
    bin_dir = Path(sys.executable).parent
    result = subprocess.run(["bash", "-c", f"set -o pipefail; {line}"], cwd=tmp_path,
                            capture_output=True, text=True, timeout=60,
                            env={"PATH": f"{bin_dir}:/usr/bin:/bin"})
    assert result.returncode == 0, f"{line}\n{result.stderr}"
    assert result.stdout or any(tmp_path.iterdir()), f"{line} printed and wrote nothing"


def python_blocks() -> list[tuple[str, str]]:
    """(page, code) for every ```python block of every page."""
    return [(page, code) for page in PAGES + LOGS
            for code in re.findall(r"^```python\n(.*?)^```", (ROOT / page).read_text(),
                                   flags=re.S | re.M)]


@pytest.mark.parametrize(("page", "code"), python_blocks())
def test_documented_python_runs(page: str, code: str, tmp_path: Path) -> None:
    result = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True,
                            text=True, timeout=120)
    assert result.returncode == 0, f"{page}:\n{code}\n{result.stderr}"


def parsers(parser: argparse.ArgumentParser, prefix: str = "bgboard"):
    """(command words, parser) for every sub-command at any depth."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                yield f"{prefix} {name}", sub
                yield from parsers(sub, f"{prefix} {name}")


@pytest.mark.parametrize(("command", "parser"), list(parsers(build_parser())))
def test_every_help_has_an_example_that_parses(command: str, parser) -> None:
    help_text = parser.format_help()
    example = re.search(r"^example:\n  (.+)$", help_text, re.M)
    assert example, f"{command} --help has no example"
    words = shlex.split(example.group(1))
    assert " ".join(words).startswith(command)
    parse_bgboard(words[1:])


def test_main_help_says_what_bgboard_does() -> None:
    help_text = build_parser().format_help()
    assert "turns a real backgammon board into a smart one" in " ".join(help_text.split())
    assert "controller/commands" not in help_text
    assert "  bgboard demo\n" in help_text


def test_readme_is_short_and_keeps_the_two_setup_commands() -> None:
    readme = (ROOT / "README.md").read_text()
    assert len(readme.splitlines()) < 200
    setup = re.findall(r"^```sh\n(python3 -m venv .*)\n```", readme, re.M)
    assert setup == [
        "python3 -m venv .venv && . .venv/bin/activate && pip install . && bgboard demo",
        "python3 -m venv .venv && . .venv/bin/activate && pip install -e '.[test]' "
        "&& ruff check . && pytest"]
    assert setup[1] in (ROOT / ".ci/run").read_text()


def test_every_page_exists_and_is_linked_from_the_readme() -> None:
    readme = (ROOT / "README.md").read_text()
    for page in PAGES[1:]:
        assert (ROOT / page).is_file(), page
        assert f"({page})" in readme, f"README.md does not link {page}"


def test_segments_split_a_shell_line() -> None:
    line = ("printf 'start 31\\n' | GPIOZERO_PIN_FACTORY=mock bgboard moves --batch - "
            "> out.jsonl && sudo cp deploy/play.toml /etc/bgboard/ &  # comment")
    assert segments(line) == [["printf", "start 31\\n"], ["bgboard", "moves", "--batch", "-"],
                              ["cp", "deploy/play.toml", "/etc/bgboard/"]]
