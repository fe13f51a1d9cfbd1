"""A NumPy model of cuarray.random's Feistel permutation (src/kernels/feistel_bijection.cuh), written
independently of the CUDA source: Philox4x32-10 (Salmon et al., SC'11), the balanced Feistel network
over 2w bits whose round r is F_r(R) = Philox(counter (c, r * 2**32 + R), key = seed)[0] masked to w
bits, and cycle-walking into [0, n). The host tests check it against the Random123 known answers and
for bijectivity; the GPU tests check the device against it bit for bit.
"""
import numpy as np

_MASK32 = np.uint64(0xFFFFFFFF)
_M0, _M1 = np.uint64(0xD2511F53), np.uint64(0xCD9E8D57)
_W0, _W1 = np.uint64(0x9E3779B9), np.uint64(0xBB67AE85)
FEISTEL_ROUNDS = 6


def philox4x32_10(counter, key):
    """Philox4x32-10 of counter words (c0, c1, c2, c3) and key words (k0, k1); each word an int or
    an array (broadcast). Returns the four output words as uint32 arrays."""
    c0, c1, c2, c3 = (np.asarray(c, dtype=np.uint64) for c in counter)
    k0, k1 = (np.asarray(k, dtype=np.uint64) for k in key)
    for _ in range(10):
        p0, p1 = c0 * _M0, c2 * _M1  # 32 x 32 -> 64 bits: exact in uint64
        c0, c1, c2, c3 = (p1 >> np.uint64(32)) ^ c1 ^ k0, p1 & _MASK32, (p0 >> np.uint64(32)) ^ c3 ^ k1, p0 & _MASK32
        k0, k1 = (k0 + _W0) & _MASK32, (k1 + _W1) & _MASK32
    return tuple(c.astype(np.uint32) for c in (c0, c1, c2, c3))


def half_bits(n):
    """w: the smallest w >= 1 with 4**w >= n."""
    bits = (n - 1).bit_length() if n > 0 else 0
    return 1 if bits < 2 else (bits + 1) // 2


def feistel_encrypt(x, key, counter, w):
    """One pass of the network over [0, 4**w): x a uint64 array."""
    x = np.asarray(x, dtype=np.uint64)
    mask = np.uint64((1 << w) - 1)
    left, right = x >> np.uint64(w), x & mask
    counter_words = (counter & 0xFFFFFFFF, counter >> 32)
    key_words = (key & 0xFFFFFFFF, key >> 32)
    for r in range(FEISTEL_ROUNDS):
        f = philox4x32_10((*counter_words, right, r), key_words)[0].astype(np.uint64)
        left, right = right, left ^ (f & mask)
    return (left << np.uint64(w)) | right


def cycle_walk(x, n, step):
    """Applies step to every value of x until it is below n (x: uint64 array)."""
    x = step(x)
    out = x >= np.uint64(n)
    while out.any():
        x[out] = step(x[out])
        out[out] = x[out] >= np.uint64(n)
    return x


def permutation_prefix(key, counter, n, k):
    """pi(0), ..., pi(k - 1) as int64: what Generator::permutation_prefix(n, k) returns when the
    stream is (key, counter) before the call."""
    w = half_bits(n)
    return cycle_walk(np.arange(k, dtype=np.uint64), n, lambda v: feistel_encrypt(v, key, counter, w)).astype(np.int64)
