"""Compare cuarray's times of two builds: python -m benchmarks.compare --base A.json [A2.json] --new B.json [B2.json]

Each file is the --out of one `benchmarks.run` (run the builds alternately in one session on one
machine, e.g. base, new, base, new: scripts/bench-compare does). A case's time in a build is the
fastest of its runs; the noise of a case is the largest spread between runs of one build (at
least 3%). A case is flagged when the new build is slower than the base by more than its noise.
Prints one row per case, slowest ratio first; exits 1 when a case is flagged.
"""
from __future__ import annotations

import argparse
import json
import sys

MIN_NOISE = 0.03


def cuarray_times(path: str) -> dict[str, float]:
    with open(path) as f:
        results = json.load(f)["results"]
    return {r["benchmark"]: r["ms"] for r in results if r["library"] == "cuarray" and r["ms"]}


def spread(times: list[float]) -> float:
    return max(times) / min(times) - 1 if len(times) > 1 else 0.0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", nargs="+", required=True, help="runs of the base build")
    parser.add_argument("--new", nargs="+", required=True, help="runs of the new build")
    args = parser.parse_args(argv)
    base = [cuarray_times(p) for p in args.base]
    new = [cuarray_times(p) for p in args.new]
    rows = []
    for case in base[0]:
        b = [run[case] for run in base if case in run]
        n = [run[case] for run in new if case in run]
        if not n:
            continue
        noise = max(MIN_NOISE, spread(b), spread(n))
        ratio = min(n) / min(b)
        rows.append((ratio, case, min(b), min(n), noise, ratio > 1 + noise))
    rows.sort(reverse=True)
    print(f"{'case':58} {'base ms':>10} {'new ms':>10} {'new/base':>9} {'noise':>7}")
    for ratio, case, b, n, noise, slower in rows:
        print(f"{case[:58]:58} {b:10.4g} {n:10.4g} {ratio:9.3f} {noise:7.1%}{'  SLOWER' if slower else ''}")
    flagged = sum(1 for row in rows if row[-1])
    print(f"{len(rows)} cases; {flagged} slower than the base by more than noise")
    return 1 if flagged else 0


if __name__ == "__main__":
    sys.exit(main())
