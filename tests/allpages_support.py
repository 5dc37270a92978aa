"""For the sweep over every page: each game started and a few moves played over the API, and
the checks run inside the page.

The checks look for the kinds of defect a newcomer meets first, whatever page they are on: a
picture that did not load, a card with nothing in it, text drawn over other text, a page wider
than the phone, and words in the other language. The words are checked against the pages'
own catalogue: the web's labels and every game's, which the pages hand to
``Companion.addLabels`` (caught by an init script, so the test reads exactly what the pages
use, with no copy of them here).
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from cardpages_support import Site, get, post

REPO = Path(__file__).resolve().parent.parent
EXAMPLES = REPO / "docs" / "examples"

# Runs before the page's scripts: every label set a game's page adds is kept for the test.
CATCH_LABELS = """
(() => {
  const sets = [];
  const C = {};
  let add;
  Object.defineProperty(window, "__labelSets", { value: sets });
  Object.defineProperty(C, "addLabels", {
    configurable: true, enumerable: true,
    get() { return add; },
    set(fn) { add = function (byLang) { sets.push(byLang); return fn(byLang); }; }
  });
  window.Companion = C;
})();
"""

# Everything the sweep looks for on the page as it stands; returns one line per finding.
CHECK_PAGE = """
(catalogue) => {
  const found = [];
  const shown = (el) => el && el.checkVisibility && el.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true });
  const name = (el) => el.tagName.toLowerCase() + (el.id ? "#" + el.id : "") +
    (el.className && typeof el.className === "string" ? "." + el.className.trim().split(/\\s+/).join(".") : "");

  if (document.documentElement.scrollWidth > window.innerWidth) {
    const wide = Array.from(document.querySelectorAll("body *")).filter((el) => {
      const r = el.getBoundingClientRect();
      return shown(el) && r.right > window.innerWidth + 1;
    }).slice(0, 3).map(name);
    found.push("overflow: " + document.documentElement.scrollWidth + " > " + window.innerWidth + " " + wide.join(", "));
  }

  document.querySelectorAll("img").forEach((img) => {
    if (img.getAttribute("src") && img.complete && img.naturalWidth === 0) found.push("broken image: " + name(img) + " " + img.getAttribute("src"));
  });

  document.querySelectorAll(".card").forEach((card) => {
    if (!shown(card)) return;
    const clone = card.cloneNode(true);
    const heading = clone.querySelector("h1, h2, h3, summary");
    if (heading) heading.remove();
    const text = clone.textContent.trim();
    const other = card.querySelector("img, svg, canvas, input, select, textarea");
    if (!text && !other) found.push("empty card: " + name(card));
  });

  // a live badge still connecting once the page has settled: a stream that never runs
  const live = document.getElementById("live");
  if (live && shown(live) && live.dataset.state === "connecting") found.push("live badge never connected");

  // the text itself (one rectangle per line of each text node), not the boxes around it
  const texts = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const el = node.parentElement;
    if (!node.textContent.trim() || !el || el.closest("script, style, .sheet, .toast, option")) continue;
    if (!shown(el)) continue;
    const range = document.createRange();
    range.selectNodeContents(node);
    const group = el.closest(".card, .banner, .stage, header, nav") || document.body;
    Array.from(range.getClientRects()).forEach((r) => {
      if (r.width > 1 && r.height > 1) texts.push({ node, el, group, r });
    });
  }
  for (let i = 0; i < texts.length; i++) {
    for (let j = i + 1; j < texts.length; j++) {
      const a = texts[i], b = texts[j];
      if (a.node === b.node || a.group !== b.group) continue;
      const w = Math.min(a.r.right, b.r.right) - Math.max(a.r.left, b.r.left);
      const h = Math.min(a.r.bottom, b.r.bottom) - Math.max(a.r.top, b.r.top);
      if (w <= 0 || h <= 0) continue;
      const smaller = Math.min(a.r.width * a.r.height, b.r.width * b.r.height);
      if (w * h > 0.3 * smaller) {
        found.push("overlap: '" + a.node.textContent.trim().slice(0, 30) + "' (" + name(a.el) + ") and '" +
          b.node.textContent.trim().slice(0, 30) + "' (" + name(b.el) + ")");
      }
    }
  }

  // words of the other language: a whole visible text equal to a label of the other
  // language that this language words differently
  const lang = document.documentElement.lang;
  const mine = catalogue[lang], theirs = catalogue[lang === "de" ? "en" : "de"];
  const seen = new Set(texts.map((t) => t.node));
  seen.forEach((node) => {
    const text = node.textContent.trim().replace(/\\s+/g, " ");
    if (mine.exact.includes(text)) return;
    const hit = theirs.exact.includes(text) ? text
      : theirs.patterns.find((p) => new RegExp(p).test(text) && !mine.patterns.some((m) => new RegExp(m).test(text)));
    if (hit) found.push("other language: '" + text + "' in " + name(node.parentElement));
  });
  return found;
}
"""


def catalogue(js_sets: list[dict[str, dict[str, str]]]) -> dict[str, dict[str, list[str]]]:
    """Per language, the labels that the other language words differently: whole texts, and
    patterns for those with ``{placeholders}`` (at least a word of fixed text in them)."""
    from web.i18n import LABELS

    sets = [{"de": LABELS["de"], "en": LABELS["en"]}, *js_sets]
    out: dict[str, dict[str, list[str]]] = {"de": {"exact": [], "patterns": []},
                                             "en": {"exact": [], "patterns": []}}
    for labels in sets:
        de, en = labels.get("de", {}), labels.get("en", {})
        for key in set(de) & set(en):
            if de[key].strip() == en[key].strip():
                continue
            for lang, value in (("de", de[key]), ("en", en[key])):
                value = re.sub(r"\s+", " ", value.strip())
                if "{" not in value:
                    out[lang]["exact"].append(value)
                elif len(re.sub(r"\{\w+\}|\W", "", value)) >= 4:
                    parts = re.split(r"(\{\w+\})", value)
                    out[lang]["patterns"].append("^" + "".join(
                        ".+?" if re.fullmatch(r"\{\w+\}", p) else re.escape(p) for p in parts) + "$")
    return out


# Each game in the history list says how it stands (running, won, replaced…), and counts
# its events in the right number.
CHECK_HISTORY = """
() => Array.from(document.querySelectorAll("#game-list .game-item")).flatMap((item) => {
  const found = [];
  const title = item.querySelector("strong").textContent;
  if (!item.querySelector(".badges").textContent.trim()) found.push("history: no state for " + title);
  if (/(^|\\D)1 (events|Ereignisse)\\b/.test(item.textContent)) found.push("history: plural for one event in " + title);
  return found;
})
"""


# --- the five games, started and a few moves in ----------------------------------------------


def _example(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((EXAMPLES / name).read_text(encoding="utf-8"))
    return data


def _act(site: Site, body: dict[str, Any]) -> dict[str, Any]:
    status, reply = post(site.url, site.pin, body)
    assert status == 200, (body, reply)
    state: dict[str, Any] = reply["state"]
    return state


def _events(site: Site, events: list[dict[str, Any]]) -> None:
    for event in events:
        _act(site, {"action": "event", "event": event})


def _moerder(site: Site) -> None:
    _act(site, {"action": "new_game", "game": "moerder", "setup": {"players": ["Ana", "Ben", "Cem"]}})
    for cell, tile in (((0, 0), "M"), ((2, 3), "R"), ((4, 5), "E")):
        _act(site, {"action": "turn", "cell": list(cell), "tile": tile})
        _act(site, {"action": "next"})


def _kniffel(site: Site) -> None:
    _act(site, {"action": "new_game", "game": "kniffel", "setup": {"players": ["Ana", "Ben"]}})
    _act(site, {"action": "throw", "dice": "T O R E I C H"})
    _act(site, {"action": "enter", "box": "pair_of_words", "words": ["TOR", "EI"]})
    _act(site, {"action": "throw", "dice": "I C H E S A N"})


def _murdero(site: Site) -> None:
    game = _example("murdero-game.json")
    _act(site, {"action": "new_game", "game": "murdero", "setup": game["setup"]})
    _events(site, game["events"][:2])


def _serialkiller(site: Site) -> None:
    game = _example("serialkiller-game.json")
    _act(site, {"action": "new_game", "game": "serialkiller", "setup": game["setup"]})
    _events(site, game["events"][:12])


def _search(site: Site) -> None:
    view = _act(site, {"action": "new_game", "game": "search", "setup": {
        "players": ["Ana", "Ben"], "seed": 3, "starts": ["A1", "H11"]}})["view"]
    for _ in range(3):
        move = {"type": "move", "player": view["turn"], "room": view["legal"][0]["room"]}
        view = _act(site, {"action": "event", "event": move})["view"]


PLAY = {"moerder": _moerder, "kniffel": _kniffel, "murdero": _murdero,
        "serialkiller": _serialkiller, "search": _search}


def play_a_little(site: Site, game: str) -> int:
    """Start ``game`` over the table's first one and play a few moves, with the advisor
    switched on (a game without figures must show no card for them); its game id."""
    _act(site, {"action": "settings", "advisor": True})
    PLAY[game](site)
    state = get(site.url, "api/state")
    assert state["game"] == game and state["events"] > 0, state
    game_id: int = state["game_id"]
    return game_id
