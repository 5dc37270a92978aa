"""``companion vision``: read a photo of the grid, and teach the reader a real tile set.

    companion vision read-grid IMAGE [--reference IMAGE] [--profile FILE] [--json]
                               [--debug-out PNG]
    companion vision teach PHOTO --letters ROWS [--reference IMAGE] [-o FILE]
    companion vision teach PHOTO --dice --letters "T O R E I C H" [-o FILE]
    companion vision read-letter ...   (from vision.letters_cli, when present)
    companion vision read-dice PHOTO [--set FILE] [--debug-out PNG] [--json]   (vision.dice_cli)
    companion vision read-pad PHOTO [--text] [--sums] [--debug-out PNG] [--json]   (vision.pad_cli)

An unreadable file or a photo without a grid is a one-line error and exit code 2.
"""

from __future__ import annotations

import argparse
import importlib
import json
import time
from typing import Any

from companion.inputs import check_file, check_folder, check_image, check_image_out
from vision import VisionError, on_one_core

DEFAULT_PROFILE = "vision-profile.npz"


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "vision", help="read the tile grid from a photo; teach a real tile set",
        description="Camera tools: read the 6x6 grid from a photo, teach the real tiles.")
    sub = parser.add_subparsers(dest="vision_command", metavar="COMMAND")

    rg = sub.add_parser(
        "read-grid", help="read the 6x6 tile grid in a photo",
        description="Find the 6x6 grid in IMAGE and read every tile: a letter (M Ö R D E), "
        "X for the victim, '.' face down, '?' unsure.")
    rg.add_argument("image", metavar="IMAGE", help="photo of the table (JPEG, PNG…)")
    rg.add_argument("--reference", metavar="IMAGE",
                    help="photo of the same tiles all face down (teaches the back)")
    rg.add_argument("--profile", metavar="FILE", help="profile written by 'vision teach'")
    rg.add_argument("--json", action="store_true", help="print JSON (grid, cells, corners, ms)")
    rg.add_argument("--debug-out", metavar="PNG", help="write the photo with lattice and readings")
    rg.set_defaults(func=_read_grid)

    te = sub.add_parser(
        "teach", help="learn the real tiles (or dice) from a photo with its letters given",
        description="Learn the real letter shapes, the back and the victim from PHOTO, whose "
        "tiles are given row by row in the board notation (M Ö R D E, X victim, '.' face "
        "down), e.g. 'MÖRDER/EDRÖMX/....../....../....../......'. Writes a profile that "
        "read-grid --profile and the table use from then on. With --dice: the table's letter "
        "dice laid in a row, their letters given left to right (* the diamond), e.g. "
        "'T O R E I C H'; the profile is for read-dice --profile and [vision] dice_profile.")
    te.add_argument("photo", metavar="PHOTO")
    te.add_argument("--letters", required=True, metavar="ROWS",
                    help="what the photo shows: the board notation, or with --dice the dice "
                    "left to right")
    te.add_argument("--dice", action="store_true",
                    help="the photo shows letter dice in a row (Wort-Kniffel), not the grid")
    te.add_argument("--reference", metavar="IMAGE",
                    help="photo of the tiles all face down (a better back)")
    te.add_argument("-o", "--output", metavar="FILE",
                    help=f"profile to write (default {DEFAULT_PROFILE}, with --dice "
                    "dice-profile.npz)")
    te.set_defaults(func=_teach)

    for name in ("vision.letters_cli", "vision.dice_cli", "vision.pad_cli"):
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name != name:
                raise
        else:
            module.add_commands(sub)


def _read_grid(args: argparse.Namespace) -> int:
    from vision.observation import Profile, read_grid
    from vision.tiles import TileReader

    if args.debug_out:
        check_image_out(args.debug_out)  # before the slow part, so a typo costs nothing
    image = _load_image(args.image)
    reference = _load_image(args.reference) if args.reference else None
    on_one_core()
    t0 = time.perf_counter()
    if args.profile:
        check_file(args.profile)
        tiles = Profile.load(args.profile).tile_reader()
    else:
        from vision.letters import LetterReader

        tiles = TileReader(LetterReader.load())
    load_ms = (time.perf_counter() - t0) * 1000  # once a process: the table pays it at start
    obs, grid = read_grid(image, tiles, reference=reference)
    if args.debug_out:
        _debug_image(image, grid, obs, args.debug_out)
    if args.json:
        print(json.dumps(obs.to_json() | {"load_ms": round(load_ms, 1)}, ensure_ascii=False))
    else:
        for row in obs.grid.split("/"):
            print(row)
        unsure = len(obs.unsure)
        print(f"({unsure} unsure, {obs.ms:.0f} ms)" if unsure else f"({obs.ms:.0f} ms)")
    return 0


def _debug_image(image: Any, grid: Any, obs: Any, path: str) -> None:
    import cv2
    import numpy as np

    from vision.grid import project
    from vision.tiles import CellState

    out = image.copy()
    thick = max(1, image.shape[1] // 640)
    for k in range(7):
        for a, b in (((k - 0.0, 0.0), (k - 0.0, 6.0)), ((0.0, k - 0.0), (6.0, k - 0.0))):
            p = project(grid.homography, np.array([a, b], float)).astype(np.int32)
            cv2.line(out, tuple(p[0]), tuple(p[1]), (255, 200, 0), thick, cv2.LINE_AA)
    colours = {CellState.HIDDEN: (160, 160, 160), CellState.LETTER: (0, 200, 0),
               CellState.VICTIM: (0, 0, 255), CellState.UNSURE: (0, 200, 255)}
    for i, cell in enumerate(obs.cells):
        q = grid.cell_quad(i // 6, i % 6).astype(np.int32)
        cv2.polylines(out, [q], True, colours[cell.state], thick, cv2.LINE_AA)
        c = q.mean(axis=0).astype(int)
        label = cell.char if cell.char != "Ö" else "OE"
        if cell.state is CellState.LETTER:
            label += f"{cell.rotation}"
        scale = 0.5 * thick
        cv2.putText(out, label, (int(c[0]) - 12 * thick, int(c[1]) + 5 * thick),
                    cv2.FONT_HERSHEY_SIMPLEX, scale, (0, 0, 0), 3 * thick, cv2.LINE_AA)
        cv2.putText(out, label, (int(c[0]) - 12 * thick, int(c[1]) + 5 * thick),
                    cv2.FONT_HERSHEY_SIMPLEX, scale, colours[cell.state], thick, cv2.LINE_AA)
    cv2.polylines(out, [np.asarray(obs.corners, np.int32)], True, (255, 0, 255), thick + 1)
    if not cv2.imwrite(str(check_image_out(path)), out):
        raise OSError(f"{path}: cannot write the debug image (use .png or .jpg)")


def _load_image(path: str) -> Any:
    """A photo, refused by its header if its pixels would not fit in the Pi's memory."""
    from vision.photo import load_image

    check_image(path)
    return load_image(path)


def _teach(args: argparse.Namespace) -> int:
    if args.output is not None:  # only the default profile's own folder is made
        check_folder(args.output)
    if args.dice:
        if args.reference:
            raise VisionError("--reference is for the tile grid, not for dice")
        from vision.dice_cli import run_teach_dice

        return run_teach_dice(args)
    if args.output is None:
        args.output = DEFAULT_PROFILE
    from companion.games.moerder.board import Board
    from vision.grid import locate
    from vision.letters import LetterReader
    from vision.observation import Profile, crops_of
    from vision.tiles import FaceModel

    board = Board.parse(args.letters)
    photo = _load_image(args.photo)
    reference = _load_image(args.reference) if args.reference else None
    grid = locate(photo)
    crops = crops_of(photo, grid)
    base = LetterReader.load()
    examples = []
    counts: dict[str, int] = {}
    back_crops = []
    victim = None
    for crop, tile in zip(crops, board.cells, strict=True):
        if tile is None:
            back_crops.append(crop)
        elif tile.is_letter:
            # the rotation of the given letter, as the reader sees it in this crop
            turn = base.read(crop, alphabet=tile.value).rotation
            examples.append((crop, f"{tile.value}@{turn}"))
            counts[tile.value] = counts.get(tile.value, 0) + 1
        else:
            victim = FaceModel.learn([crop])
    if reference is not None:
        back_crops = crops_of(reference, locate(reference))
    back = FaceModel.learn(back_crops) if back_crops else None
    letters = base.taught(examples) if examples else None
    Profile(letters, back, victim).save(args.output)
    taught = ", ".join(f"{k} {v}" for k, v in sorted(counts.items())) or "no letters"
    print(f"taught {taught}; back from {len(back_crops)} tiles; "
          f"victim {'yes' if victim is not None else 'no'} -> {args.output}")
    return 0


__all__ = ["register"]
