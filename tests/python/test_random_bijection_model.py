"""The host model of choice's Feistel permutation (feistel_model.py), with no GPU: its Philox is
Philox4x32-10 by the Random123 known answers, the network is a bijection of [0, 4**w), and the
cycle-walked map is a bijection of [0, n) for every n up to 5000 (exhaustively, several keys).
The GPU suite checks the device against this model bit for bit (test_random_composites.py)."""
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import feistel_model as fm

# Random123's kat_vectors for philox4x32_10: (counter words, key words) -> output words
KNOWN_ANSWERS = [
    ((0, 0, 0, 0), (0, 0), (0x6627E8D5, 0xE169C58D, 0xBC57AC4C, 0x9B00DBD8)),
    ((0xFFFFFFFF,) * 4, (0xFFFFFFFF,) * 2, (0x408F276D, 0x41C83B0E, 0xA20BC7C6, 0x6D5451FD)),
    ((0x243F6A88, 0x85A308D3, 0x13198A2E, 0x03707344), (0xA4093822, 0x299F31D0),
     (0xD16CFE09, 0x94FDCCEB, 0x5001E420, 0x24126EA1)),
]

KEYS = [(0, 0), (1234, 7), (0xFFFFFFFFFFFFFFFF, 0xFFFFFFFFFFFFFFFF), (0x9E3779B97F4A7C15, 3)]


@pytest.mark.parametrize("counter, key, expected", KNOWN_ANSWERS)
def test_philox_known_answers(counter, key, expected):
    assert tuple(int(w) for w in fm.philox4x32_10(counter, key)) == expected


def test_philox_vectorises_over_counters():
    words = fm.philox4x32_10((np.array([0, 0xFFFFFFFF]),) * 4, (np.array([0, 0xFFFFFFFF]),) * 2)
    assert [int(words[0][0]), int(words[0][1])] == [0x6627E8D5, 0x408F276D]


@pytest.mark.parametrize("n, w", [(0, 1), (1, 1), (2, 1), (4, 1), (5, 2), (16, 2), (17, 3), (10**7, 12),
                                  (2**24, 12), (2**24 + 1, 13), (2**63, 32)])
def test_half_bits(n, w):
    assert fm.half_bits(n) == w
    assert 4**w >= n and (w == 1 or 4 ** (w - 1) < n)


@pytest.mark.parametrize("key, counter", KEYS)
def test_every_population_up_to_5000_is_permuted(key, counter):
    for w in range(1, fm.half_bits(5000) + 1):
        domain = 4**w
        table = fm.feistel_encrypt(np.arange(domain, dtype=np.uint64), key, counter, w)
        np.testing.assert_array_equal(np.sort(table), np.arange(domain))  # the network is a bijection
        for n in range(max(1, 4 ** (w - 1) + 1) if w > 1 else 1, min(domain, 5000) + 1):
            pi = fm.cycle_walk(np.arange(n, dtype=np.uint64), n, lambda v: table[v.astype(np.int64)])
            np.testing.assert_array_equal(np.sort(pi), np.arange(n), err_msg=f"n={n}")


@pytest.mark.parametrize("n", [1, 2, 3, 17, 1000, 4096, 4097, 70_000])
def test_prefix_is_the_walk_of_the_network(n):
    key, counter = 99, 12
    full = fm.permutation_prefix(key, counter, n, n)
    np.testing.assert_array_equal(np.sort(full), np.arange(n))
    np.testing.assert_array_equal(fm.permutation_prefix(key, counter, n, n // 3), full[: n // 3])
    assert full.dtype == np.int64


def test_keys_and_counters_give_different_permutations():
    n = 1000
    base = fm.permutation_prefix(1, 0, n, n)
    assert not np.array_equal(base, fm.permutation_prefix(2, 0, n, n))
    assert not np.array_equal(base, fm.permutation_prefix(1, 1, n, n))
    assert not np.array_equal(base, np.arange(n))


def test_positions_of_a_large_prefix_are_uniform():
    # the model's sample of 20000 of 10**7 spreads evenly over 100 bins (the law the GPU test asks too)
    out = fm.permutation_prefix(5, 1, 10**7, 20_000)
    assert np.unique(out).size == out.size and out.min() >= 0 and out.max() < 10**7
    counts = np.bincount(out * 100 // 10**7, minlength=100)
    stat = ((counts - 200.0) ** 2 / 200.0).sum()
    assert stat < 180  # chi-square, 99 degrees of freedom: p ~ 1e-6


@given(key=st.integers(0, 2**64 - 1), counter=st.integers(0, 2**64 - 1), n=st.integers(1, 20_000),
       share=st.floats(0, 1))
def test_any_key_permutes_and_prefixes_agree(key, counter, n, share):
    full = fm.permutation_prefix(key, counter, n, n)
    np.testing.assert_array_equal(np.sort(full), np.arange(n))
    k = int(share * n)
    np.testing.assert_array_equal(fm.permutation_prefix(key, counter, n, k), full[:k])
