#!/usr/bin/python3
"""Workload B1 (examples/bench/b1.toml) in vectorized numpy: what a user would write instead.

German 75L AP vs AF 8 at 6 hexes: Modified TH# 10, DRM +1 (Case I), then 0 and -1 for
Acquisition on later shots; Original 2 is a Critical Hit (TK# 26, kills unless TK DR 12),
otherwise TK# 9 (kill on TK DR < 9, dud on 12); B# 12 (Original 12 malfunctions); ROF 2 (the
phase goes on while the colored die <= 2, no kill and no malfunction).

One symbol 0..35 per DR (colored = s // 6, white = s % 6), uint8 throughout, only the trials
still firing are carried to the next shot. Prints P(kill), shots per trial and shots/s.
Usage: baseline_numpy.py [trials] [seed]
"""
import sys
import time

import numpy as np

DRM_BY_SHOT = (1, 0, -1)  # shot 1, shot 2, shots 3+
MODIFIED_TH = 10
FINAL_TK = 9
CH_TK = 26


def run_chunk(rng, n):
    """Returns (kills, shots) of n trials."""
    kills = 0
    shots = 0
    active = n
    shot = 0
    while active > 0:
        th = rng.integers(0, 36, size=active, dtype=np.uint8)
        colored = th // 6
        original = colored + th % 6 + 2
        drm = DRM_BY_SHOT[min(shot, 2)]
        hit = (original + drm) <= MODIFIED_TH
        critical = original == 2
        tk = rng.integers(0, 36, size=active, dtype=np.uint8)  # rolled for every lane, used on hits
        tk_dr = tk // 6 + tk % 6 + 2
        kill = hit & (tk_dr != 12) & (tk_dr < np.where(critical, CH_TK, FINAL_TK))
        shots += active
        kills += int(np.count_nonzero(kill))
        go_on = (colored <= 1) & ~kill & (original != 12)
        active = int(np.count_nonzero(go_on))
        shot += 1
    return kills, shots


def main():
    trials = int(sys.argv[1]) if len(sys.argv) > 1 else 50_000_000
    seed = int(sys.argv[2]) if len(sys.argv) > 2 else 1
    rng = np.random.Generator(np.random.PCG64(seed))
    chunk = 1 << 22
    kills = shots = 0
    start = time.perf_counter()
    done = 0
    while done < trials:
        n = min(chunk, trials - done)
        k, s = run_chunk(rng, n)
        kills += k
        shots += s
        done += n
    elapsed = time.perf_counter() - start
    print(f"numpy {np.__version__}: {trials} trials, P(kill) = {kills / trials:.6f}, "
          f"shots/trial = {shots / trials:.6f}, {elapsed:.3f} s, shots/s = {shots / elapsed:.4g}")


if __name__ == "__main__":
    main()
