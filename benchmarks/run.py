"""Run the benchmarks: python -m benchmarks.run [--out FILE.json] [--only NAME...] [--quick] [--libraries NAME...]

Progress goes to stderr; the comparison table is the last thing printed on stdout.
"""
from __future__ import annotations

import argparse
import subprocess
import sys
import time

from . import (cold_start, copy_reference, creation, dask_scaling, distributed, einsum, elementwise, fft,
               histograms, indexing, linalg_products, interop, random, random_composites, user_kernels,
               linalg_solvers, manipulation, manipulation_copy, numpy_functions, overhead, reduction, scan, select, sets,
               sort, transfer)
from .harness import GPU_LIBRARIES, LIBRARIES, Session, load_libraries
from .report import format_table, write_json
from .results import finalize

# The copy reference always runs first: every bandwidth share is a share of it.
BENCHMARKS = [*copy_reference.CASES, *overhead.CASES, *elementwise.CASES, *creation.CASES,
              *transfer.CASES, *reduction.CASES, *scan.CASES, *select.CASES, *indexing.CASES, *sort.CASES, *sets.CASES,
              *histograms.CASES, *manipulation.CASES, *manipulation_copy.CASES, *linalg_products.CASES,
              *linalg_solvers.CASES, *einsum.CASES, *fft.CASES,
              *user_kernels.CASES, *numpy_functions.CASES, *interop.CASES, *random.CASES, *random_composites.CASES,
              *cold_start.CASES, *distributed.CASES, *dask_scaling.CASES]

# Targets were set on an H200 with CuPy 14.2; elsewhere the verdicts are only indicative.
REFERENCE_GPU = "H200"


def device_name(session: Session) -> str:
    for name in GPU_LIBRARIES:
        library = session.libraries.get(name)
        if library is None:
            continue
        try:
            raw = library.xp.cuda.runtime.getDeviceProperties(0)["name"]
            return raw.decode() if isinstance(raw, bytes) else str(raw)
        except Exception:  # not available in this library: try the next source
            continue
    try:
        return subprocess.run(["nvidia-smi", "--query-gpu=name", "--format=csv,noheader"],
                              capture_output=True, text=True, timeout=30).stdout.splitlines()[0]
    except Exception:
        return "unknown"


def selected(only: list[str] | None) -> list:
    if not only:
        return BENCHMARKS
    wanted = [name.lower() for name in only]
    return [case for case in BENCHMARKS
            if case in copy_reference.CASES or any(w in case.name.lower() for w in wanted)]


def run_case(case, session: Session) -> list:
    started = time.perf_counter()
    print(f"running {case.name} ...", end=" ", file=sys.stderr, flush=True)
    results = case.run(session)
    print(f"{time.perf_counter() - started:.1f} s", file=sys.stderr, flush=True)
    return results


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", help="write every result to this JSON file")
    parser.add_argument("--only", nargs="+", metavar="NAME",
                        help="run only benchmarks whose name contains one of these words")
    parser.add_argument("--quick", action="store_true", help="fewer repeats, same sizes")
    parser.add_argument("--libraries", nargs="+", choices=LIBRARIES, default=list(LIBRARIES),
                        help="the libraries to time (default: all); see benchmarks.compare for two builds")
    args = parser.parse_args(argv)

    libraries, missing = load_libraries(args.libraries)
    for name, why in missing.items():
        print(f"{name} not used: {why}", file=sys.stderr)
    session = Session(libraries, quick=args.quick)
    device = device_name(session)
    binding = REFERENCE_GPU in device

    cases = selected(args.only)
    measured = [(case, run_case(case, session)) for case in cases]
    copy_gbps = copy_reference.reference_gbps(
        [r for case, results in measured if case in copy_reference.CASES for r in results])
    for case, results in measured:
        finalize(results, case.bytes_moved, case.target,
                 copy_gbps if case.in_device_memory else None,
                 getattr(case, "flops", None), getattr(case, "peak_tflops", None))

    print(f"device: {device}; copy reference: "
          + (f"{copy_gbps:.0f} GB/s" if copy_gbps else "not measured"))
    if not binding:
        print(f"targets were set on an {REFERENCE_GPU}: verdicts in parentheses are indicative")
    print(format_table([(case.name, case.target.describe() if case.target else "", results)
                        for case, results in measured], binding))
    if args.out:
        run_info = {
            "device": device,
            "targets_binding": binding,
            "copy_reference_gbps": copy_gbps,
            "quick": args.quick,
            "libraries": {name: getattr(lib.xp, "__version__", "?")
                          for name, lib in libraries.items()},
            "missing_libraries": missing,
        }
        write_json(args.out, run_info, [r for _, results in measured for r in results])
    return 0


if __name__ == "__main__":
    sys.exit(main())
