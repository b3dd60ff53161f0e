"""Speed of the scoring engine, per game form (default rules of each form).

    python bench/scoring_bench.py [seconds-per-figure]

Prints, for each form: hands scored per second (`form.score` on entries a table would key)
and whole games simulated per second (hands played by the engine's players until
`game_over`), single-threaded.
"""
from __future__ import annotations

import os
import platform
import random
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from hub.scoring import FORMS  # noqa: E402


def rate(work, seconds: float) -> float:
    n, start = 0, time.perf_counter()
    while (elapsed := time.perf_counter() - start) < seconds:
        work()
        n += 1
    return n / elapsed


def main(seconds: float = 1.0):
    print(f"python {platform.python_version()}, {os.cpu_count()} cores, {seconds:g} s a figure")
    print(f"{'form':<24} {'variant':<14} {'hands scored/s':>15} {'games/s':>9} {'hands/game':>11}")
    for name, form in FORMS.items():
        rules = form.rules()
        rng = random.Random(1)
        samples = [form.play_hand(rules, rng).values for _ in range(200)]
        i = iter(range(10**12))
        scored = rate(lambda: form.score(rules, samples[next(i) % len(samples)]), seconds)
        hands = []

        def game():
            totals, n = dict.fromkeys(rules.seats, 0), 0
            while True:
                n += 1
                for s, p in form.play_hand(rules, rng).outcome.points.items():
                    totals[s] += p
                if form.game_over(rules, totals, n):
                    hands.append(n)
                    return
        games = rate(game, seconds)
        print(f"{name:<24} {rules.variant:<14} {scored:>15,.0f} {games:>9,.1f} "
              f"{sum(hands) / len(hands):>11.1f}")


if __name__ == "__main__":
    main(float(sys.argv[1]) if len(sys.argv) > 1 else 1.0)
