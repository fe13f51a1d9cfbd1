"""Launch batching (docs/launch-batching.md): small launches are held and submitted together as one
CUDA graph; every result must equal immediate submission's, whatever mix of batch sizes, streams,
events, copies, large launches and shared memory comes between."""
import gc
import subprocess
import sys

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cuarray as cp

from helpers import assert_allclose_np, assert_array_equal_np, random_array, run_in_threads, subprocess_env

pytestmark = pytest.mark.gpu


def held():
    return cp._core.held_launches(cp.cuda.Device().id)


@pytest.fixture(autouse=True)
def batching_on():
    gc.collect()  # arrays whose address earlier tests read keep holding off while they live
    was = cp.cuda.launch_batching()
    cp.cuda.set_launch_batching(True)
    yield
    cp.cuda.set_launch_batching(was)


def test_small_launches_are_held_until_a_result_is_read(rng):
    host = random_array((1000,), np.float32, rng)
    a = cp.asarray(host)
    b = a * 2
    c = b + a
    assert held() == 2
    assert_allclose_np(c, host * 2 + host)
    assert held() == 0


@pytest.mark.parametrize("n", [1, 2, 3, 31, 32, 33, 64, 65, 100])
def test_dependent_chain_across_batch_boundaries(n, rng):
    host = random_array((257,), np.float64, rng)
    x, ref = cp.asarray(host), host.copy()
    for i in range(n):
        x = x * 0.5 + i
        ref = ref * 0.5 + i
    assert_allclose_np(x, ref)


def test_every_graph_size_twice_with_new_data(rng):
    # Each batch size instantiates a graph once and later only updates its nodes: run each size
    # twice, the second time with other inputs, other kernels and other outputs.
    for size in range(2, 34):
        for dtype in (np.float32, np.int64):
            host = random_array((300,), dtype, rng)
            x, ref = cp.asarray(host), host.copy()
            for i in range(size):
                if i % 3 == 0:
                    x, ref = x + 3, ref + 3
                elif i % 3 == 1:
                    x, ref = x * 2, ref * 2
                else:
                    x, ref = cp.maximum(x, 5), np.maximum(ref, 5)
            assert held() <= 32
            assert_array_equal_np(x, ref)


def test_large_launch_after_held_small_ones(rng):
    small_host = random_array((100,), np.float32, rng)
    big_host = random_array((3_000_000,), np.float32, rng)
    small, big = cp.asarray(small_host), cp.asarray(big_host)
    s = small + 1
    big2 = big * 3  # far more threads than a held launch: submitted at once, after the held one
    assert held() == 0
    t = s * 2 + big2[:100]
    assert_allclose_np(t, (small_host + 1) * 2 + big_host[:100] * 3)


def test_in_place_updates_keep_program_order(rng):
    host = random_array((500,), np.int32, rng, low=-100, high=100)
    a = cp.asarray(host)
    ref = host.copy()
    for i in range(50):
        a += i
        a[::3] *= 2
        ref += i
        ref[::3] *= 2
    assert_array_equal_np(a, ref)


def test_streams_and_events_order_held_launches(rng):
    host = random_array((4096,), np.float32, rng)
    s1 = cp.cuda.Stream(non_blocking=True)
    s2 = cp.cuda.Stream(non_blocking=True)
    with s1:
        a = cp.asarray(host)
        for _ in range(5):
            a = a * 1.5 + 1
        done = cp.cuda.Event()
        done.record(s1)
    s2.wait_event(done)
    with s2:
        b = a - 1
        out = cp.asnumpy(b)
    ref = host.copy()
    for _ in range(5):
        ref = ref * np.float32(1.5) + np.float32(1)
    np.testing.assert_allclose(out, ref - 1, rtol=1e-6)


def test_switching_streams_submits_the_held_ones_first(rng):
    # The legacy null stream waits for blocking streams' earlier work: that holds only if work
    # held for a blocking stream is submitted before the null stream's next launch.
    host = random_array((2048,), np.float64, rng)
    blocking = cp.cuda.Stream()
    a = cp.asarray(host)
    with blocking:
        for _ in range(10):
            a = a + 1
    b = a * 2  # null stream
    assert_allclose_np(b, (host + 10) * 2)


def test_stream_synchronize_and_query_submit(rng):
    host = random_array((1000,), np.float32, rng)
    s = cp.cuda.Stream(non_blocking=True)
    with s:
        a = cp.asarray(host) + 1
        assert held() == 1
        s.synchronize()
        assert held() == 0
        b = a * 3
        assert held() == 1
        while not s.done:
            pass
        assert held() == 0
        assert_allclose_np(b, (host + 1) * 3)


def test_timing_events_see_the_held_work():
    a = cp.ones(1000, dtype=cp.float32)
    start, end = cp.cuda.Event(), cp.cuda.Event()
    start.record()
    for _ in range(40):
        a = a + 1
    end.record()
    end.synchronize()
    assert cp.cuda.get_elapsed_time(start, end) >= 0
    assert float(a[0]) == 41.0


def test_memory_pool_release_submits_first(rng):
    host = random_array((1000,), np.float32, rng)
    pool = cp.cuda.get_default_memory_pool()
    a = cp.asarray(host)
    for _ in range(3):
        tmp = a * 2
        a = tmp + 1
        del tmp
    assert held() > 0
    pool.free_all_blocks()  # frees cached blocks that held launches read: they must run first
    assert held() == 0
    assert_allclose_np(a, ((host * 2 + 1) * 2 + 1) * 2 + 1)


def test_zero_fill_and_device_copies_follow_held_launches(rng):
    host = random_array((1000,), np.float32, rng)
    a = cp.asarray(host)
    b = a + 1              # held
    z = cp.zeros(1000, dtype=cp.float32)  # a memset: after b's launch
    z += b                 # held
    c = z.copy()           # a device copy, after both
    assert_allclose_np(c, host + 1)


def test_reading_an_address_turns_holding_off_while_the_memory_lives():
    a = cp.ones(1000, dtype=cp.float32)  # a fill kernel: held
    cp.cuda.flush_launches()
    assert held() == 0
    b = a + 1
    assert held() == 1
    ptr = b.data.ptr       # other code may now enqueue work on b: b's producer is submitted
    assert ptr != 0 and held() == 0
    c = a + 2
    assert held() == 0     # nothing is held while b's memory is shared
    del b, c
    gc.collect()
    d = a + 3
    assert held() == 1
    assert float(d[0]) == 4.0


def test_cuda_array_interface_shares_memory():
    a = cp.zeros(10, dtype=cp.float32)
    iface = a.__cuda_array_interface__
    assert iface["data"][0] != 0
    a += 1
    assert held() == 0


def test_torch_alias_sees_every_cuarray_write(rng):
    torch = pytest.importorskip("torch")
    host = random_array((4096,), np.float32, rng)
    x = cp.asarray(host)
    t = torch.as_tensor(x, device="cuda")  # zero-copy through __cuda_array_interface__
    assert t.data_ptr() == x.data.ptr
    totals = []
    for i in range(40):
        x += 1          # small cuarray launches on the legacy null stream ...
        totals.append(t.sum())  # ... then torch reads the same memory on the same stream
    got = torch.stack(totals).cpu().numpy()
    ref = np.array([(host + i + 1).sum(dtype=np.float64) for i in range(40)])
    np.testing.assert_allclose(got, ref, rtol=1e-4)


def test_threads_sharing_the_null_stream(rng):
    hosts = [random_array((777,), np.float32, rng) for _ in range(8)]
    results = [None] * 8

    def work(k):
        x = cp.asarray(hosts[k])
        for i in range(50):
            x = x + (k + 1)
        results[k] = cp.asnumpy(x)

    run_in_threads(work, 8)
    for k in range(8):
        np.testing.assert_allclose(results[k], hosts[k] + 50 * (k + 1), rtol=1e-6)


def test_turning_batching_off_submits_what_is_held():
    a = cp.ones(100, dtype=cp.float64)
    b = a + 1
    assert held() == 2
    cp.cuda.set_launch_batching(False)
    assert held() == 0 and not cp.cuda.launch_batching()
    c = b * 2
    assert held() == 0
    assert float(c[5]) == 4.0


def test_environment_turns_batching_off():
    code = "import cuarray as cp; a = cp.ones(10) + 1; print(cp.cuda.launch_batching(), cp._core.held_launches(0))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300,
                         env=subprocess_env(CUARRAY_LAUNCH_BATCHING="0"), check=True).stdout
    assert out.split() == ["False", "0"]


# ---- property: random programs of small and large operations, stream switches, events, memsets,
# copies, shared addresses and reads give NumPy's results (int64, so equality is exact) ----------

N_SMALL, N_BIG, SLOTS = 300, 400_000, 4
BINARY = {"add": np.add, "subtract": np.subtract, "multiply": np.multiply, "maximum": np.maximum,
          "bitwise_xor": np.bitwise_xor}

step = st.one_of(
    st.tuples(st.just("binary"), st.sampled_from(sorted(BINARY)), st.integers(0, SLOTS - 1),
              st.integers(0, SLOTS - 1), st.integers(0, SLOTS - 1)),
    st.tuples(st.just("inplace"), st.integers(0, SLOTS - 1), st.integers(-5, 5)),
    st.tuples(st.just("strided_assign"), st.integers(0, SLOTS - 1), st.integers(0, SLOTS - 1)),
    st.tuples(st.just("reduce_into"), st.integers(0, SLOTS - 1), st.integers(0, SLOTS - 1)),
    st.tuples(st.just("big"), st.integers(0, SLOTS - 1)),
    st.tuples(st.just("zeros"), st.integers(0, SLOTS - 1)),
    st.tuples(st.just("copy"), st.integers(0, SLOTS - 1), st.integers(0, SLOTS - 1)),
    st.tuples(st.just("stream"), st.integers(0, 2)),
    st.tuples(st.just("share"), st.integers(0, SLOTS - 1)),
    st.tuples(st.just("unshare")),
    st.tuples(st.just("flush")),
    st.tuples(st.just("read"), st.integers(0, SLOTS - 1)),
)


@settings(max_examples=60)
@given(program=st.lists(step, min_size=1, max_size=60), seed=st.integers(0, 2**32 - 1))
def test_random_programs_match_numpy(program, seed):
    gen = np.random.default_rng(seed)
    model = [gen.integers(-50, 50, N_SMALL) for _ in range(SLOTS)]
    big_model = gen.integers(-50, 50, N_BIG)
    streams = [cp.cuda.Stream.null, cp.cuda.Stream(), cp.cuda.Stream(non_blocking=True)]
    current = 0
    shared = []
    with streams[current]:
        arrays = [cp.asarray(m) for m in model]
        big = cp.asarray(big_model)
    for op, *args in program:
        with streams[current]:
            if op == "binary":
                name, i, j, k = args
                arrays[k] = getattr(cp, name)(arrays[i], arrays[j])
                model[k] = BINARY[name](model[i], model[j])
            elif op == "inplace":
                i, v = args
                arrays[i] += v
                model[i] += v
            elif op == "strided_assign":
                i, j = args
                arrays[i][::3] = arrays[j][1::3]
                model[i][::3] = model[j][1::3].copy()
            elif op == "reduce_into":
                i, k = args
                arrays[k] = arrays[k] + arrays[i][:7].sum()
                model[k] = model[k] + model[i][:7].sum()
            elif op == "big":  # a launch too large to hold, between held ones
                (i,) = args
                big += arrays[i][5]
                big_model += model[i][5]
                arrays[i] = arrays[i] - big[:N_SMALL]
                model[i] = model[i] - big_model[:N_SMALL]
            elif op == "zeros":
                (k,) = args
                arrays[k] = cp.zeros(N_SMALL, dtype=np.int64)
                model[k] = np.zeros(N_SMALL, dtype=np.int64)
            elif op == "copy":
                i, k = args
                arrays[k] = arrays[i].copy()
                model[k] = model[i].copy()
            elif op == "stream":  # hand over to another stream through an event, as CUDA requires
                event = cp.cuda.Event()
                event.record(streams[current])
                current = args[0]
                streams[current].wait_event(event)
            elif op == "share":
                shared.append(arrays[args[0]])
                assert shared[-1].data.ptr != 0
            elif op == "unshare":
                shared.clear()
            elif op == "flush":
                cp.cuda.flush_launches()
            elif op == "read":
                (i,) = args
                np.testing.assert_array_equal(cp.asnumpy(arrays[i]), model[i])
    with streams[current]:
        for a, m in zip(arrays, model):
            np.testing.assert_array_equal(cp.asnumpy(a), m)
        np.testing.assert_array_equal(cp.asnumpy(big), big_model)
