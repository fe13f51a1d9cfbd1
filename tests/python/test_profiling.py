"""cuarray.cuda.is_available, get_local_runtime_version, nvtx (markers and ranges) and profiler
(start/stop, profile()). NVTX needs no GPU and no profiler: with none attached each call returns at
once, so the host tests check the calls and their argument rules; the profiler needs a device."""
import threading

import numpy as np
import pytest

import cuarray as cp

nvtx = cp.cuda.nvtx


def test_is_available_never_raises_and_agrees_with_the_device_count():
    available = cp.cuda.is_available()
    assert type(available) is bool
    try:
        count = cp.cuda.runtime.getDeviceCount()
    except cp.cuda.runtime.CUDARuntimeError:
        count = 0
    assert available == (count > 0)


def test_local_runtime_version_is_the_toolkits():
    version = cp.cuda.get_local_runtime_version()
    assert version == cp.cuda.runtime.runtimeGetVersion()
    assert version >= 12000 and version % 10 == 0


def test_nvtx_markers_and_nested_ranges():
    assert nvtx.available is True
    nvtx.Mark("mark")
    nvtx.Mark("palette", id_color=3)
    nvtx.Mark("wraps", id_color=13)  # the palette repeats, as CuPy's
    nvtx.MarkC("argb", 0xFF123456)
    nvtx.RangePush("outer")
    for i in range(3):
        nvtx.RangePushC(f"iter {i}", 0xFF00FF00)
        nvtx.RangePop()
    nvtx.RangePush("inner", id_color=1)
    nvtx.RangePop()
    nvtx.RangePop()
    range_id = nvtx.RangeStart("across threads", 0xFFFF0000)
    assert isinstance(range_id, int)
    worker = threading.Thread(target=nvtx.RangeEnd, args=(range_id,))
    worker.start()
    worker.join()
    nvtx.RangeEnd(nvtx.RangeStart("no color"))


def test_nvtx_argument_rules():
    with pytest.raises(TypeError):
        nvtx.MarkC("negative color", -1)  # an ARGB color is a uint32
    with pytest.raises(TypeError):
        nvtx.MarkC("too wide", 1 << 32)
    with pytest.raises(TypeError):
        nvtx.Mark(b"bytes message")
    with pytest.raises(TypeError):
        nvtx.RangePush(None)


@pytest.mark.gpu
def test_profiler_start_stop_and_profile(rng):
    host = rng.standard_normal(1000)
    with cp.cuda.profile():
        y = cp.asarray(host) * 2.0
    cp.cuda.profiler.start()
    z = y + 1.0
    cp.cuda.profiler.stop()
    np.testing.assert_array_equal(z.get(), host * 2.0 + 1.0)
    with pytest.raises(ZeroDivisionError):
        with cp.cuda.profile():
            1 / 0
    cp.cuda.profiler.start()  # the failed block stopped the capture: it starts again
    cp.cuda.profiler.stop()
