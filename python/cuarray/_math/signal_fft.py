"""The FFT method of convolve and correlate, by overlap-save: out[i] = sum_j a[i - left + j] v[j]
for i < length, as the circular convolutions of overlapping blocks of `a` with v reversed.

Block r holds a[r * step + x - left] for x < block (zero outside a), step = block - m + 1; the
last step outputs of its circular convolution with w = v[::-1] (zero-padded to block) are linear,
and are out[r * step : (r + 1) * step]. One gather writes the blocks, ONE batched transform runs
over them (rfft for real results, fft for complex; cuFFT through cuarray.fft's C++ transforms),
the product kernel multiplies by w's spectrum (broadcast over the rows), folds in the inverse's
1/block and raises a device flag where a product is not finite, ONE batched inverse follows, and
one gather copies the linear part of every row into the result. One block of the next fast length
at or above length + m - 1 is the classic whole-array transform; block_length picks whichever
block length the cost model prefers. _math/signal.py decides when to use the FFT at all."""
import functools
import math
from typing import NamedTuple

from .. import _core
from .._creation.creation import empty, zeros
from .._kernels.user_kernels import ElementwiseKernel

_fft = _core.fft

# The blocks come from a in one pass: row r, column x of the blocks is a[r * step + x - shift],
# zero outside a (also w's zero padding: one row, shift 0).
_GATHER_BLOCKS = ElementwiseKernel(
    "raw T a, int64 n, int64 block, int64 step, int64 shift", "T blocks",
    "const long long k = (long long)(i / block) * step + (long long)(i % block) - shift;\n"
    "blocks = (k >= 0 && k < n) ? a[k] : T(0);",
    "cuarray_overlap_save_blocks")

# The spectra's product, with the inverse transform's 1/block folded in (the inverse then runs
# with norm="forward", which does not scale). The flag is raised where the unscaled product is not
# finite: a non-finite input or an overflow in the forward transforms; and since the inverse's
# outputs are bounded by max |x y| (up to a factor sqrt 2 in each component), a finite product
# leaves them finite. All threads that raise it store the same value.
_PRODUCT = ElementwiseKernel(
    "T x, T y, float64 scale, raw bool nonfinite", "T z",
    "const T p = x * y;\n"
    "if (!isfinite(p)) nonfinite[0] = true;\n"
    "z = p * scale;",
    "cuarray_spectrum_product")

# The linear part of each row: out[i] = rows[i / step, skip + i % step].
_GATHER_OUTPUT = ElementwiseKernel(
    "raw T rows, int64 block, int64 step, int64 skip", "T out",
    "out = rows[(long long)(i / step) * block + skip + (long long)(i % step)];",
    "cuarray_overlap_save_output")


def fast_length(target):
    """The smallest 2,3,5,7-smooth integer >= target (>= 1)."""
    best = 1 << max(target - 1, 0).bit_length()  # a power of two always qualifies
    odd7 = 1
    while odd7 < best:
        odd5 = odd7
        while odd5 < best:
            odd3 = odd5
            while odd3 < best:
                # the smallest power-of-two multiple of odd3 that reaches target
                quotient = -(-target // odd3)
                best = min(best, odd3 << (quotient - 1).bit_length())
                odd3 *= 3
            odd5 *= 5
        odd7 *= 7
    return best


class BlockPlan(NamedTuple):
    """The blocking of `length` outputs of an m-tap correlation with offset `shift` (= left)."""
    block: int  # the transform length
    step: int   # outputs per block: block - m + 1
    count: int  # blocks
    shift: int  # block r starts at a[r * step - shift]
    skip: int   # the first linear output of a row: m - 1

    @classmethod
    def of(cls, length, m, left, block):
        step = block - m + 1
        return cls(block, step, -(-length // step), left, m - 1)


# --- the cost model -----------------------------------------------------------------------------------
# Seconds for `length` outputs in blocks of B, the same model as _signal's direct one:
#   launches: the blocks' and w's gathers, w's transform, the forward and inverse transforms
#             (some of cuFFT's take two kernels), the flag's fill, the product, the output
#             gather, the guard: about 10 of ~3 us;
#   memory:   count * B points, each moved by the gather (1 write + its read), the product (read,
#             write), the output gather (read, write) and each transform pass (read, write) of the
#             two transforms: (6 + 4 passes) itemsize bytes a point at ~3.5 TB/s (H100/H200).
# A transform of up to 2^14 points runs in about 2 passes (near bandwidth, batched); longer ones
# take more, fitted to the one measurement of a long one (H200: a float64 rfft of L = 1003520 took
# ~39 us, ~9 passes of 16 bytes a point): 2 + 7/6 passes per doubling beyond 2^14.
_LAUNCH_SECONDS = 3e-6
_LAUNCHES = 10
_BYTES_PER_SECOND = 3.5e12
_SHORT_TRANSFORM = 1 << 14


def transform_passes(block):
    return 2 + max(0.0, math.log2(block / _SHORT_TRANSFORM)) * 7 / 6


def blocks_seconds(length, m, block, itemsize):
    points = BlockPlan.of(length, m, 0, block).count * block
    return _LAUNCHES * _LAUNCH_SECONDS + points * itemsize * (6 + 4 * transform_passes(block)) / _BYTES_PER_SECOND


@functools.lru_cache(maxsize=256)
def block_length(length, m, itemsize):
    """The block length of least modelled cost: one block of the next fast length at or above
    length + m - 1 (the whole-array transform), or a shorter 2^k or 3 * 2^k of more than m points
    (each block then yields block - m + 1 outputs)."""
    whole = fast_length(length + m - 1)
    candidates = [whole]
    for base in (1, 3):
        size = base
        while size < whole:
            if size > m:
                candidates.append(size)
            size *= 2
    return min(candidates, key=lambda block: (blocks_seconds(length, m, block, itemsize), block))


def correlate(a, v, left, length, dtype, block=None):
    """(out, nonfinite): out[i] = sum_j a[i - left + j] v[j] for i < length, and a device bool of
    shape (1,), true where a spectral product was not finite (the result then holds garbage). a and
    v are 1-D of `dtype` (float32, float64, complex64 or complex128), len(a) >= len(v); `block`
    forces a block length (> len(v) - 1; tests and benchmarks), else block_length chooses."""
    n, m = a.shape[0], v.shape[0]
    if block is None:
        block = block_length(length, m, dtype.itemsize)
    plan = BlockPlan.of(length, m, left, block)
    blocks = empty((plan.count, plan.block), dtype)
    _GATHER_BLOCKS(a, n, plan.block, plan.step, plan.shift, blocks)
    forward = _fft.fftn if dtype.kind == "c" else _fft.rfftn
    spectra = forward(blocks, [plan.block], [1], "backward")
    window = empty((plan.block,), dtype)  # w = v reversed, zero-padded to the block: one gather
    _GATHER_BLOCKS(v[::-1], m, plan.block, plan.block, 0, window)
    kernel = forward(window, [plan.block], [0], "backward")
    nonfinite = zeros((1,), bool)
    _PRODUCT(spectra, kernel, 1.0 / plan.block, nonfinite, spectra)
    if dtype.kind == "c":
        rows = _fft.ifftn(spectra, [plan.block], [1], "forward")
    else:  # the product is ours: the complex-to-real transform may destroy it instead of a copy
        rows = _fft.irfftn(spectra, [plan.block], [1], "forward", True)
    out = empty((length,), dtype)
    _GATHER_OUTPUT(rows, plan.block, plan.step, plan.skip, out)
    return out, nonfinite
