"""Result records, targets, and the ratios derived once every library has run a case."""
from __future__ import annotations

from dataclasses import dataclass

# Two libraries at the memory-bandwidth limit differ by run-to-run noise of about 1%, so
# "no slower than CuPy" allows this much before it fails.
NO_SLOWER_TOLERANCE = 0.02


@dataclass
class Result:
    """One (benchmark, library) measurement. Speed-ups are other library's time / this time."""

    benchmark: str
    library: str
    ms: float | None = None
    gbps: float | None = None
    copy_share: float | None = None
    tflops: float | None = None       # products: TFLOP/s (TOP/s for integers)
    peak_share: float | None = None   # tflops as a share of the GPU's peak for the dtype
    speedup_vs_cupy: float | None = None
    speedup_vs_numpy: float | None = None
    target: str | None = None
    passed: bool | None = None
    error: str | None = None


def format_ms(ms: float) -> str:
    if ms < 1:
        return f"{ms * 1e3:.3g} µs"
    if ms < 1e3:
        return f"{ms:.3g} ms"
    return f"{ms / 1e3:.3g} s"


@dataclass(frozen=True)
class Target:
    """What cuarray must reach on the reference GPU; every condition given must hold."""

    max_ms: float | None = None
    min_gbps: float | None = None
    min_copy_share: float | None = None
    not_slower_than_cupy: bool = False
    # cuarray's time at most this share of CuPy's, judged as stated: a speed-up an issue asks
    # for is not loosened by the tie tolerance above.
    max_share_of_cupy: float | None = None

    def describe(self) -> str:
        parts = []
        if self.max_ms is not None:
            parts.append(f"≤ {format_ms(self.max_ms)}")
        if self.min_gbps is not None:
            parts.append(f"≥ {self.min_gbps:g} GB/s")
        if self.min_copy_share is not None:
            parts.append(f"≥ {self.min_copy_share:.0%} copy")
        if self.not_slower_than_cupy:
            parts.append("≤ CuPy")
        if self.max_share_of_cupy is not None:
            parts.append(f"≤ {self.max_share_of_cupy:g}x CuPy")
        return ", ".join(parts)

    def verdict(self, result: Result, cupy: Result | None) -> bool | None:
        """True or False; None when a condition cannot be judged (no copy reference, no CuPy)."""
        if result.ms is None:
            return False
        checks = []
        if self.max_ms is not None:
            checks.append(result.ms <= self.max_ms)
        if self.min_gbps is not None:
            checks.append(result.gbps is not None and result.gbps >= self.min_gbps)
        if self.min_copy_share is not None:
            checks.append(None if result.copy_share is None
                          else result.copy_share >= self.min_copy_share)
        if self.not_slower_than_cupy:
            checks.append(None if cupy is None or cupy.ms is None
                          else result.ms <= cupy.ms * (1 + NO_SLOWER_TOLERANCE))
        if self.max_share_of_cupy is not None:
            checks.append(None if cupy is None or cupy.ms is None
                          else result.ms <= cupy.ms * self.max_share_of_cupy)
        if False in checks:
            return False
        return None if None in checks else True


def _speedup(reference: Result | None, result: Result) -> float | None:
    if reference is None or reference.ms is None or reference is result:
        return None
    return reference.ms / result.ms


def finalize(results: list[Result], bytes_moved: int | None, target: Target | None,
             copy_gbps: float | None, flops: float | None = None, peak_tflops: float | None = None) -> None:
    """Fill in bandwidth, copy share, the rate of a product, speed-ups and cuarray's verdict, in place."""
    by_library = {r.library: r for r in results}
    for result in results:
        if result.ms is None:
            continue
        if bytes_moved:
            result.gbps = bytes_moved / result.ms / 1e6
            if copy_gbps:
                result.copy_share = result.gbps / copy_gbps
        if flops:
            result.tflops = flops / result.ms / 1e9
            if peak_tflops:
                result.peak_share = result.tflops / peak_tflops
        result.speedup_vs_cupy = _speedup(by_library.get("cupy"), result)
        result.speedup_vs_numpy = _speedup(by_library.get("numpy"), result)
    cuarray = by_library.get("cuarray")
    if target is not None and cuarray is not None:
        cuarray.target = target.describe()
        cuarray.passed = target.verdict(cuarray, by_library.get("cupy"))
