#!/usr/bin/python3
"""Check PNG files: a valid header, the expected size range (or exact dimensions), and not
blank (pixel standard deviation above a floor). Exit 0 ok, 1 failed, 77 skipped (no matplotlib).

  check_png.py FILE.png [--width W --height H] [--min-width W] [--min-height H]
"""
import argparse
import struct
import sys

try:
    import matplotlib.image as mpimg
except ImportError:
    print("check_png.py: matplotlib missing for %s: SKIP" % sys.executable)
    sys.exit(77)

ap = argparse.ArgumentParser()
ap.add_argument("files", nargs="+")
ap.add_argument("--width", type=int)
ap.add_argument("--height", type=int)
ap.add_argument("--min-width", type=int, default=400)
ap.add_argument("--min-height", type=int, default=300)
ap.add_argument("--min-bytes", type=int, default=10000)
args = ap.parse_args()
failed = False
for f in args.files:
    data = open(f, "rb").read()
    problems = []
    if data[:8] != b"\x89PNG\r\n\x1a\n" or data[12:16] != b"IHDR":
        problems.append("not a PNG")
    else:
        w, h = struct.unpack(">II", data[16:24])
        if args.width and (w, h) != (args.width, args.height):
            problems.append("dimensions %dx%d, expected %dx%d" % (w, h, args.width, args.height))
        if w < args.min_width or h < args.min_height:
            problems.append("dimensions %dx%d below %dx%d" % (w, h, args.min_width, args.min_height))
        if len(data) < args.min_bytes:
            problems.append("only %d bytes" % len(data))
        img = mpimg.imread(f)
        std = float(img[..., :3].std())
        # A blank page or chart is one colour: its pixel std is 0. Drawn charts are far above 0.02.
        if std < 0.02:
            problems.append("blank: pixel std %.4f" % std)
        # Not mostly one colour either: at least 2% of pixels differ from the most common one
        flat = (img[..., :3] * 255).astype("uint8").reshape(-1, 3)
        import numpy as np
        _, counts = np.unique(flat, axis=0, return_counts=True)
        if counts.max() > 0.98 * len(flat):
            problems.append("nearly blank: %.1f%% one colour" % (100.0 * counts.max() / len(flat)))
        print("%s: %dx%d, %d bytes, pixel std %.3f" % (f, w, h, len(data), std))
    if problems:
        failed = True
        print("%s: FAILED: %s" % (f, "; ".join(problems)))
sys.exit(1 if failed else 0)
