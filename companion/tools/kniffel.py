"""``companion kniffel``: best entries for a roll, check an entry, re-roll advice.

Dice positions in JSON are 0-based (the order of ``--dice``); the readable output counts from 1.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from typing import Any

from companion.errors import InputError
from companion.games.base import Refused
from companion.games.kniffel.advice import advise
from companion.games.kniffel.dice import DEFAULT_DICE, Roll
from companion.games.kniffel.lexicon import Lexicon
from companion.games.kniffel.pad import BOXES, Box, parse_boxes
from companion.games.kniffel.solver import Entry, best_boxes, check_entry, rank
from companion.inputs import excerpt, read_text
from companion.tools import kniffel_pad
from companion.wordlist import load_lexicon

EXIT_REFUSED = 1
EXIT_USAGE = 2
MAX_WORD_CHARS = 64
MAX_SAMPLES = 2000  # --samples: draws per sampled keep set


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "kniffel", help="Wort-Kniffel: best entries, check an entry, re-roll advice",
        description="Wort-Kniffel tools. Dice: seven tokens like 'T2 O3 R2 E1 I1 C4 H3'; "
        "* is the diamond; a letter without a value takes the default set's value.",
    )
    sub = parser.add_subparsers(dest="kniffel_command", metavar="TOOL")

    best = sub.add_parser("best", help="the best score of every box for a roll")
    src = best.add_mutually_exclusive_group(required=True)
    src.add_argument("--dice", help="the roll, e.g. 'T2 O3 R2 E1 I1 C4 H3'")
    src.add_argument("--batch", metavar="FILE", help="one roll a line; JSON Lines out, in order")
    _word_list_args(best, "--words")
    _pad_args(best)
    best.add_argument("--json", action="store_true", help="JSON output")
    best.set_defaults(func=_best)

    check = sub.add_parser("check", help="score one entry, or say why it is not allowed")
    check.add_argument("--dice", required=True)
    check.add_argument("--box", required=True, help="box key: " + ", ".join(b.value for b in BOXES))
    check.add_argument("--words", default="", help="the words laid, comma or space separated")
    check.add_argument("--table-ok", action="store_true",
                       help="the table accepts words the list does not know")
    _word_list_args(check, "--dictionary")
    check.add_argument("--json", action="store_true")
    check.set_defaults(func=_check)

    adv = sub.add_parser("advise", help="which dice to keep for the next throw")
    adv.add_argument("--dice", required=True)
    adv.add_argument("--rolls-left", type=int, required=True, choices=(1, 2))
    _word_list_args(adv, "--words")
    _pad_args(adv)
    adv.add_argument("--seed", type=int, default=1, help="seed of the sampling (default 1)")
    adv.add_argument("--samples", type=int, default=12,
                     help="draws per sampled keep set (default 12; the best six get 64 more)")
    adv.add_argument("--json", action="store_true")
    adv.set_defaults(func=_advise)

    words = sub.add_parser("words", help="which words a referee accepts, and why not")
    words.add_argument("--check", required=True, metavar="FILE",
                       help="one word a line ('-' for stdin); one JSON line out per word")
    words.add_argument("--json", action="store_true", help="JSON Lines (the default text is "
                       "one 'word: allowed' or 'word: refused (why)' line per word)")
    words.add_argument("--no-cache", action="store_true",
                       help="do not read or write the index cache")
    words.set_defaults(func=_words, word_list=None)

    kniffel_pad.register(sub)

    parser.set_defaults(func=None)


def _word_list_args(p: argparse.ArgumentParser, flag: str) -> None:
    p.add_argument(flag, dest="word_list", metavar="FILE",
                   help="plain word list (one word a line, used as given) instead of the "
                   "German default")
    p.add_argument("--no-cache", action="store_true", help="do not read or write the index cache")


def _pad_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--open", dest="open_boxes", metavar="BOXES",
                   help="comma-separated open boxes (default: all)")
    p.add_argument("--upper", type=int, default=0,
                   help="the player's upper total so far (for the bonus)")


def _lexicon(args: argparse.Namespace) -> Lexicon:
    cache = not args.no_cache
    if args.word_list:
        return load_lexicon(args.word_list, plain_list=True, cache=cache)
    return load_lexicon(cache=cache)


def _open(args: argparse.Namespace) -> frozenset[Box]:
    return frozenset(BOXES) if not args.open_boxes else parse_boxes(args.open_boxes)


def _best(args: argparse.Namespace) -> int:
    open_boxes = _open(args)
    if args.batch is None:
        roll = Roll.parse(args.dice)
        lexicon = _lexicon(args)
        result = _best_json(roll, lexicon, open_boxes, args.upper)
        if args.json:
            print(json.dumps(result, ensure_ascii=False))
        else:
            _print_best(roll, result)
        return 0
    lines = read_text(args.batch).splitlines()
    lexicon = _lexicon(args)
    failed: list[str] = []
    for n, line in enumerate(lines, start=1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        try:
            out = _best_json(Roll.parse(line), lexicon, open_boxes, args.upper)
        except ValueError as exc:
            out = {"line": n, "roll": excerpt(line.strip()), "error": excerpt(str(exc), 120)}
            failed.append(f"line {n}: {excerpt(str(exc), 120)}")
        print(json.dumps(out, ensure_ascii=False))
    if failed:
        more = f" (and {len(failed) - 1} more)" if len(failed) > 1 else ""
        print(f"companion: error: {args.batch}: {failed[0]}{more}", file=sys.stderr)
        return EXIT_USAGE
    return 0


def _best_json(
    roll: Roll, lexicon: Lexicon, open_boxes: frozenset[Box], upper: int
) -> dict[str, Any]:
    entries = best_boxes(roll, lexicon, open_boxes)
    boxes = {b.value: {**entries[b].view(), "open": b in open_boxes} for b in BOXES}
    ranking = [
        {"box": r.entry.box.value, "score": r.entry.score, "value": r.value,
         "bonus_secured": r.bonus_secured, "par_delta": r.par_delta}
        for r in rank(entries.values(), upper)
    ]
    return {"roll": str(roll), "boxes": boxes, "ranking": ranking}


def _print_best(roll: Roll, result: dict[str, Any]) -> None:
    print(f"roll: {roll}")
    print(f"{'box':<14} {'score':>5}  words")
    for b in BOXES:
        box = result["boxes"][b.value]
        if not box["open"]:
            print(f"{b.value:<14} {'-':>5}  (filled)")
            continue
        score = "-" if box["score"] is None else str(box["score"])
        words = "  ".join(
            f"{w.upper()} ({' '.join(str(p + 1) for p in dice)})"
            for w, dice in zip(box["words"], box["dice"])
        )
        if box["joker"]:
            words += f"  [diamond = {box['joker']}]"
        print(f"{b.value:<14} {score:>5}  {words}")
    if result["ranking"]:
        order = ", ".join(
            f"{r['box']} {r['value']}" + (" (secures the bonus)" if r["bonus_secured"] else "")
            for r in result["ranking"][:5]
        )
        print(f"best entries: {order}")
    else:
        print("nothing fits: strike a box with a zero")


def _check(args: argparse.Namespace) -> int:
    roll = Roll.parse(args.dice)
    box = Box.parse(args.box)
    words = [w for w in args.words.replace(",", " ").split() if w]
    lexicon = _lexicon(args)
    try:
        entry = check_entry(roll, box, words, lexicon, args.table_ok)
    except Refused as exc:
        if exc.code == "cannot_spell":
            raise InputError(exc.reason) from None
        if args.json:
            print(json.dumps({"roll": str(roll), "box": box.value, "allowed": False,
                              "code": exc.code, "reason": exc.reason}, ensure_ascii=False))
        else:
            print(f"not allowed: {exc.reason}")
        return EXIT_REFUSED
    if args.json:
        print(json.dumps({"roll": str(roll), "box": box.value, "allowed": True, **entry.view()},
                         ensure_ascii=False))
    else:
        print(f"{box.value}: {entry.score} points{_laid(roll, entry)}")
    return 0


def _words(args: argparse.Namespace) -> int:
    """Read the whole file first: a bad file is refused before any verdict is printed."""
    words = [w.strip() for w in read_text(args.check).splitlines() if w.strip()]
    for n, word in enumerate(words, start=1):
        if len(word) > MAX_WORD_CHARS or not word.isalpha():
            raise InputError(f"{args.check}: word {n}: not one word ({excerpt(word)!r})")
    lexicon = _lexicon(args)
    for word in words:
        why = None if word in lexicon else lexicon.refused.get(word.lower(), "not in list")
        if args.json:
            print(json.dumps({"word": word, "allowed": why is None, "why": why},
                             ensure_ascii=False))
        else:
            print(f"{word}: " + ("allowed" if why is None else f"refused ({why})"))
    return 0


def _laid(roll: Roll, entry: Entry) -> str:
    if not entry.plays:
        return ""
    parts = []
    for p in entry.plays:
        dice = " ".join(str(roll.faces[i]) for i in p.dice)
        joker = f", diamond = {p.joker}" if p.joker else ""
        parts.append(f"{p.word.upper()}: {dice}{joker}")
    return " (" + "; ".join(parts) + ")"


def _advise(args: argparse.Namespace) -> int:
    roll = Roll.parse(args.dice)
    open_boxes = _open(args)
    if not 2 <= args.samples <= MAX_SAMPLES:  # 10000 took 22 s, and memory grows with it
        raise InputError(f"--samples must be 2-{MAX_SAMPLES}")
    lexicon = _lexicon(args)
    advice = advise(roll, lexicon, DEFAULT_DICE, args.rolls_left, random.Random(args.seed),
                    open_boxes, args.upper, samples=args.samples)
    stand = next(o for o in advice.options if len(o.keep) == len(roll))
    if args.json:
        def opt(o: Any) -> dict[str, Any]:
            return {"keep": list(o.keep), "keep_dice": [str(roll.faces[i]) for i in o.keep],
                    "expected": round(o.expected, 3), "stderr": round(o.stderr, 3),
                    "exact": o.exact, "outcomes": o.outcomes}
        print(json.dumps({"roll": str(roll), "rolls_left": args.rolls_left,
                          "best": opt(advice.best), "stand": opt(stand),
                          "options": [opt(o) for o in advice.options[:10]],
                          "rolls_weighed": advice.evaluations}, ensure_ascii=False))
        return 0
    b = advice.best
    if len(b.keep) == len(roll):
        print(f"keep all seven: the roll is worth {b.expected:.0f} now; "
              "no re-roll is expected to beat it")
    else:
        kept = " ".join(f"{roll.faces[i]}" for i in b.keep) or "nothing"
        where = " ".join(str(i + 1) for i in b.keep)
        how = "exact" if b.exact else f"± {b.stderr:.2f}, sampled {b.outcomes} throws"
        print(f"keep {kept}" + (f" (positions {where})" if where else "")
              + f", re-roll {len(roll) - len(b.keep)}: expected best entry {b.expected:.2f} "
              f"({how}); standing now: {stand.expected:.0f}")
    return 0
