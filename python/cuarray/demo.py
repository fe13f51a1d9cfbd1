"""cuarray next to NumPy on a few everyday workloads.

    python -m cuarray.demo [--plot FILE.png] [--quick]

Each time is the median of a few runs after a warm-up run, with the GPU drained before and
after, so it is the time a user waits for a finished result. The exit status is 1 when cuarray
and NumPy disagree, or when no GPU can be used.
"""
import argparse
import statistics
import sys
import time

import numpy as np

import cuarray as cp


def in_place_chain(xp, x):
    x *= 5
    x *= x
    x += x
    return x


WORKLOADS = [
    ("ones(x.shape)", lambda xp, x: xp.ones(x.shape)),
    ("5*x", lambda xp, x: 5 * x),
    ("x*x", lambda xp, x: x * x),
    ("x*=5; x*=x; x+=x", in_place_chain),
    ("x.sum()", lambda xp, x: x.sum()),
]
PLOTTED = [w for w in WORKLOADS if w[0] in ("5*x", "x*x")]


def gpu_sync():
    cp.cuda.Stream.null.synchronize()


def median_ms(xp, workload, host, repeats):
    """Median time of workload(xp, x) and its last result; a fresh copy of host for every run
    (in-place workloads overwrite it), made outside the timed region."""
    sync = gpu_sync if xp is cp else (lambda: None)
    times = []
    for _ in range(repeats + 1):  # the first run compiles kernels and touches fresh memory
        x = xp.asarray(host) if xp is cp else host.copy()
        sync()
        start = time.perf_counter()
        out = workload(xp, x)
        sync()
        times.append((time.perf_counter() - start) * 1e3)
    return statistics.median(times[1:]), out


def compare(shape, repeats):
    host = np.random.default_rng(0).random(shape)
    print(f"x: random float64, shape {shape}")
    print(f"{'workload':<20}{'NumPy':>12}{'cuarray':>12}{'speed-up':>10}  agree")
    all_agree = True
    for name, workload in WORKLOADS:
        numpy_ms, expected = median_ms(np, workload, host, repeats)
        gpu_ms, got = median_ms(cp, workload, host, repeats)
        agree = bool(np.allclose(cp.asnumpy(got), expected, rtol=1e-9))
        all_agree &= agree
        print(f"{name:<20}{numpy_ms:>9.2f} ms{gpu_ms:>9.2f} ms{numpy_ms / gpu_ms:>9.1f}x  "
              f"{'yes' if agree else 'NO'}")
    return all_agree


def plot_speedups(path, largest):
    try:
        import matplotlib
        matplotlib.use("Agg")  # write a file; no display needed
        import matplotlib.pyplot as plt
    except ImportError:
        print("no plot: matplotlib is not installed (pip install matplotlib)")
        return
    sizes = [10**k for k in range(3, largest + 1)]
    fig, ax = plt.subplots()
    for name, workload in PLOTTED:
        speedups = []
        for size in sizes:
            host = np.random.default_rng(0).random(size)
            numpy_ms, _ = median_ms(np, workload, host, repeats=5)
            gpu_ms, _ = median_ms(cp, workload, host, repeats=5)
            speedups.append(numpy_ms / gpu_ms)
        ax.loglog(sizes, speedups, marker="o", label=name)
    ax.axhline(1, color="grey", linewidth=0.8)
    ax.set(xlabel="elements (float64)", ylabel="speed-up over NumPy", title="cuarray vs NumPy")
    ax.legend()
    fig.savefig(path, dpi=120)
    print(f"plot saved to {path}")


def main(argv=None):
    parser = argparse.ArgumentParser(description="Compare cuarray with NumPy.")
    parser.add_argument("--plot", metavar="FILE.png", help="save speed-up vs array size")
    parser.add_argument("--quick", action="store_true", help="10x smaller arrays, fewer runs")
    args = parser.parse_args(argv)
    try:
        cp.asarray(np.zeros(1))
        gpu_sync()
    except cp.cuda.runtime.CUDARuntimeError as exc:
        print(f"cuarray demo: no usable CUDA GPU found ({exc})")
        return 1
    agree = compare((10 if args.quick else 100, 1000, 1000), repeats=2 if args.quick else 3)
    if args.plot:
        plot_speedups(args.plot, largest=7 if args.quick else 8)
    return 0 if agree else 1


if __name__ == "__main__":
    sys.exit(main())
