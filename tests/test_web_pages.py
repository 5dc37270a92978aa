"""The pages' static parts: both languages complete, every label the scripts use exists,
the templates and scripts keep to the Content-Security-Policy (no inline script or style)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from web.i18n import LABELS, choose_language, translate

WEB = Path(__file__).resolve().parent.parent / "web"
SCRIPTS = sorted((WEB / "static" / "js").rglob("*.js"))
TEMPLATES = sorted((WEB / "templates").glob("*.html"))


def test_german_and_english_have_the_same_labels() -> None:
    assert set(LABELS["de"]) == set(LABELS["en"])
    for lang in LABELS:
        for key, text in LABELS[lang].items():
            assert text.strip(), (lang, key)
            # the same placeholders in both languages
            other = LABELS["en" if lang == "de" else "de"][key]
            assert set(re.findall(r"{(\w+)}", text)) == set(re.findall(r"{(\w+)}", other)), key


@pytest.mark.parametrize("path", SCRIPTS + TEMPLATES, ids=lambda p: p.name)
def test_every_label_used_exists(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    # whole keys only: C.t("camera." + status) builds its key at run time
    used = set(re.findall(r"""\bC\.t\(\s*["']([\w.]+)["']\s*[,)]""", text))
    used |= set(re.findall(r"""\bt\(\s*'([\w.]+)'\s*[,)]""", text))
    missing = sorted(k for k in used if k not in LABELS["en"])
    assert not missing, missing


@pytest.mark.parametrize("path", TEMPLATES, ids=lambda p: p.name)
def test_templates_have_no_inline_script_or_style(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    for tag in re.findall(r"<script\b[^>]*>", text):
        assert "src=" in tag or 'type="application/json"' in tag, tag
    assert " style=" not in text and "<style" not in text
    assert not re.search(r"\son[a-z]+=", text), "inline event handler"


def test_scripts_never_set_inline_style_attributes_or_eval() -> None:
    for path in SCRIPTS:
        text = path.read_text(encoding="utf-8")
        assert 'setAttribute("style"' not in text and "eval(" not in text, path.name
        assert "innerHTML" not in text, f"{path.name}: build DOM nodes, don't parse HTML"


def test_every_renderer_registers_under_its_file_name() -> None:
    games = sorted((WEB / "static" / "js" / "games").glob("*.js"))
    assert games
    for path in games:
        assert f"C.games.{path.stem} = " in path.read_text(encoding="utf-8"), path.name


def test_built_keys_exist() -> None:
    for status in ("ok", "lost", "none"):
        assert f"camera.{status}" in LABELS["en"]


def test_language_choice_order() -> None:
    assert choose_language("en", "de", ["de-DE"], "de") == "en"  # ?lang= first
    assert choose_language(None, "en", ["de-DE"], "de") == "en"  # then the remembered choice
    assert choose_language(None, None, ["fr-FR", "de-AT"], "en") == "de"  # then the browser
    assert choose_language("xx", None, ["fr"], "de") == "de"  # else the table's default
    assert translate("de", "turn.of", name="Ana") == "Ana ist dran"
    assert translate("en", "no.such.key") == "no.such.key"
