"""The shape of the page's translation tables and analysis board (issue 39 item 1), read from
the files: each language is one file, ``static/i18n/<code>.js``, listed once in ``i18n.js``,
with no key English lacks and the same ``{placeholders}`` as English (Punjabi with every key
English has); the board is modules that name no game, each game's drawing found by the
game's name; every module is served, from nested folders too, as JavaScript. (The size of
every module is checked by tests/test_architecture.py.)"""

from __future__ import annotations

import json
import re

import pytest
from fastapi.testclient import TestClient
from playwright.sync_api import BrowserContext

from hukum.games import GAMES
from hukum.server.app import STATIC

I18N = STATIC / "i18n"
BOARD = STATIC / "board"

#: The modules these tests keep in shape: the translations and the analysis board.
MODULES = sorted(
    [STATIC / "i18n.js", STATIC / "board.js", *I18N.rglob("*.js"), *BOARD.rglob("*.js")]
)

#: A line of a language's table: one key and its string, as JSON reads them.
ENTRY = re.compile(r'^  ("(?:[^"\\]|\\.)+"): ("(?:[^"\\]|\\.)*"),$')
PLACEHOLDER = re.compile(r"\{(\w+)\}")

#: What the board asks of a game's drawing (board/games/<game>.js).
DRAWING = (
    "teams",
    "handClass",
    "sort",
    "cardFace",
    "seatTags",
    "playedMove",
    "playFace",
    "isTrump",
    "moveHTML",
    "moveWords",
    "factsHTML",
    "resultText",
    "noAnalysis",
)


def codes() -> list[str]:
    """The languages ``i18n.js`` loads, in its order."""
    found = re.search(r"^const CODES = (\[.*\]);$", (STATIC / "i18n.js").read_text(), re.M)
    assert found, "i18n.js lists its languages in one line: const CODES = [...];"
    listed: list[str] = json.loads(found.group(1))
    return listed


def table(code: str) -> tuple[str, dict[str, str]]:
    """A language's own name and its strings, read from its file; every line of the table
    must be one entry (or blank, or a ``//`` comment heading a group of keys), so that
    nothing in it goes unread here."""
    text = (I18N / f"{code}.js").read_text(encoding="utf-8")
    name = re.search(r'^export const name = ("[^"]+");$', text, re.M)
    assert name, f"{code}.js names its language"
    body = text.split("export const strings = {\n", 1)[1].split("\n};\n", 1)
    assert len(body) == 2 and not body[1].strip(), f"{code}.js ends with its table"
    strings: dict[str, str] = {}
    for line in body[0].splitlines():
        if not line.strip() or line.lstrip().startswith("//"):
            continue
        entry = ENTRY.match(line)
        assert entry, f"{code}.js: not one key and its string: {line!r}"
        key, value = json.loads(entry.group(1)), json.loads(entry.group(2))
        assert key not in strings, f"{code}.js: {key} twice"
        strings[key] = value
    return json.loads(name.group(1)), strings


def test_each_language_is_one_file_listed_once() -> None:
    listed = codes()
    assert listed[0] == "en"  # the reference, which the others fall back to
    assert len(set(listed)) == len(listed)
    assert sorted(listed) == sorted(p.stem for p in I18N.glob("*.js"))
    names = [table(code)[0] for code in listed]
    assert names[:3] == ["English", "हिन्दी", "ਪੰਜਾਬੀ"] and len(set(names)) == len(names)


def mismatches(english: dict[str, str], strings: dict[str, str]) -> list[str]:
    """What is wrong with a translation: keys English lacks (the page never asks for them)
    and strings whose placeholders differ from English's."""
    wrong = [f"{key}: not in English" for key in sorted(set(strings) - set(english))]
    for key, text in strings.items():
        ours = sorted(set(PLACEHOLDER.findall(text)))
        if key in english and ours != sorted(set(PLACEHOLDER.findall(english[key]))):
            wrong.append(f"{key}: {text!r} for {english[key]!r}")
    return wrong


@pytest.mark.parametrize("code", [c for c in codes() if c != "en"])
def test_a_translation_has_english_keys_and_placeholders(code: str) -> None:
    assert mismatches(table("en")[1], table(code)[1]) == []


#: The translations that have every English key (the others fall back to English for a few).
COMPLETE = ["pa"]


@pytest.mark.parametrize("code", COMPLETE)
def test_a_complete_translation_has_every_english_key(code: str) -> None:
    assert code in codes()
    assert sorted(set(table("en")[1]) - set(table(code)[1])) == []


def test_a_wrong_key_or_placeholder_is_caught() -> None:
    english = {"board.unknown": "This room has no deal {n}.", "app.title": "Hukum"}
    assert mismatches(english, {"board.unknown": "बाज़ी {n} नहीं", "app.title": "हुकुम"}) == []
    assert mismatches(english, {"board.unknown": "बाज़ी {name} नहीं"}) == [
        "board.unknown: 'बाज़ी {name} नहीं' for 'This room has no deal {n}.'"
    ]
    assert mismatches(english, {"board.unkown": "बाज़ी {n} नहीं"}) == ["board.unkown: not in English"]


def test_the_board_names_no_game_and_each_game_has_its_drawing() -> None:
    board = [STATIC / "board.js", *BOARD.rglob("*.js")]
    names = "|".join(re.escape(name) for name in GAMES)
    for path in board:
        text = path.read_text(encoding="utf-8")
        assert not re.search(rf"""["'`]({names})["'`]""", text), path.relative_to(STATIC)
    drawings = BOARD / "games"
    assert sorted(p.stem for p in drawings.glob("*.js")) == sorted(GAMES)
    for game in GAMES:
        text = (drawings / f"{game}.js").read_text(encoding="utf-8")
        exported = set(re.findall(r"^export (?:const|function) (\w+)", text, re.M))
        assert exported == set(DRAWING), game


def test_every_relative_import_of_the_board_and_i18n_is_there() -> None:
    for path in MODULES:
        for target in re.findall(
            r'^(?:import|export) .* from "(\.[^"]+)";$', path.read_text(), re.M
        ):
            assert (path.parent / target).resolve().is_file(), (path.relative_to(STATIC), target)


def test_the_modules_are_served_as_javascript_from_nested_folders(client: TestClient) -> None:
    nested = [p for p in MODULES if p.parent != STATIC]
    assert {p.parent for p in nested} == {I18N, BOARD, BOARD / "games"}
    for path in MODULES:
        r = client.get("/static/" + path.relative_to(STATIC).as_posix())
        assert r.status_code == 200, path
        mime = r.headers["content-type"].split(";")[0]
        assert mime in {"text/javascript", "application/javascript"}, (path, mime)
        assert r.content == path.read_bytes()
    assert client.get("/static/board/games/").status_code == 404  # no listing of a folder


def test_the_page_loads_every_language_and_fills_placeholders(
    context: BrowserContext, server: str
) -> None:
    """i18n.js as the page imports it: every language with its own name, the chosen one
    kept, placeholders filled, an unknown key shown as itself."""
    page = context.new_page()
    page.goto(server + "/")
    found = page.evaluate(
        """async () => {
          const i18n = await import("/static/i18n.js");
          const before = i18n.getLang();
          i18n.setLang("hi");
          const hi = [i18n.getLang(), i18n.t("board.unknown", {n: 7}), i18n.t("no.such.key")];
          i18n.setLang("xx");
          const kept = i18n.getLang();
          i18n.setLang(before);
          const has = [i18n.has("board.unknown"), i18n.has("toString")];
          const en = i18n.t("board.badnumber", {text: "abc"});
          return {langs: i18n.LANGS, hi, kept, has, en};
        }"""
    )
    assert found["langs"] == {code: table(code)[0] for code in codes()}
    assert found["hi"] == ["hi", "इस कमरे में बाज़ी 7 नहीं है।", "no.such.key"]
    assert found["kept"] == "hi"
    assert found["has"] == [True, False]
    assert found["en"] == "There is no deal “abc”: deals are numbered 1, 2, 3 and so on."
