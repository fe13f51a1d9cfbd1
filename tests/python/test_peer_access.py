"""cuarray.cuda.runtime.deviceCanAccessPeer / deviceEnablePeerAccess (CuPy's signatures).

Negative ordinals and wrong argument types are refused before the driver is opened, so those tests
run on any machine; the rest need one GPU, and the peer tests two."""
import numpy as np
import pytest

import cuarray as cp
from cuarray.cuda import runtime

from helpers import gpu_unavailable_reason


def _device_count():
    return 0 if gpu_unavailable_reason() is not None else runtime.getDeviceCount()


needs_two_gpus = pytest.mark.skipif("_device_count() < 2", reason="peer access needs two or more GPUs")


@pytest.mark.parametrize("device, peer", [(-1, 0), (0, -1), (-3, -2)])
def test_can_access_peer_negative_ordinal(device, peer):
    with pytest.raises(runtime.CUDARuntimeError, match=r"invalid (peer )?device ordinal -\d"):
        runtime.deviceCanAccessPeer(device, peer)


def test_enable_peer_access_negative_ordinal():
    with pytest.raises(runtime.CUDARuntimeError, match="invalid peer device ordinal -1"):
        runtime.deviceEnablePeerAccess(-1)


@pytest.mark.parametrize("args", [(0.5, 0), (0, "1"), (None, 0)])
def test_can_access_peer_argument_types(args):
    with pytest.raises(TypeError):
        runtime.deviceCanAccessPeer(*args)


def test_enable_peer_access_argument_type():
    with pytest.raises(TypeError):
        runtime.deviceEnablePeerAccess(1.0)


@pytest.mark.gpu
def test_same_device_is_not_a_peer():
    for d in range(runtime.getDeviceCount()):
        assert runtime.deviceCanAccessPeer(d, d) == 0


@pytest.mark.gpu
def test_ordinal_past_the_device_count():
    n = runtime.getDeviceCount()
    with pytest.raises(runtime.CUDARuntimeError, match=rf"invalid peer device ordinal {n} \({n} device\(s\) present\)"):
        runtime.deviceCanAccessPeer(0, n)
    with pytest.raises(runtime.CUDARuntimeError, match=rf"invalid device ordinal {n}"):
        runtime.deviceCanAccessPeer(n, 0)
    with pytest.raises(runtime.CUDARuntimeError, match=rf"invalid peer device ordinal {n}"):
        runtime.deviceEnablePeerAccess(n)


@pytest.mark.gpu
def test_enable_peer_access_to_the_current_device():
    for d in range(runtime.getDeviceCount()):
        with cp.cuda.Device(d):
            with pytest.raises(runtime.CUDARuntimeError, match=f"from device {d} to itself"):
                runtime.deviceEnablePeerAccess(d)


@pytest.mark.gpu
@needs_two_gpus
def test_can_access_peer_returns_int():
    for device, peer in [(0, 1), (1, 0)]:
        answer = runtime.deviceCanAccessPeer(device, peer)
        assert type(answer) is int and answer in (0, 1)


def _enable(device, peer):
    """Enables access device -> peer; another test in this process may have done it already."""
    with cp.cuda.Device(device):
        try:
            runtime.deviceEnablePeerAccess(peer)
        except cp.cuda.driver.CUDADriverError as exc:
            assert "CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED" in str(exc)


@pytest.mark.gpu
@needs_two_gpus
@pytest.mark.parametrize("device, peer", [(0, 1), (1, 0)])
def test_enable_peer_access_then_copy(device, peer, rng):
    if not runtime.deviceCanAccessPeer(device, peer):
        pytest.skip(f"device {device} cannot access device {peer} (no NVLink/PCIe peer path)")
    current = runtime.getDevice()
    _enable(device, peer)
    with cp.cuda.Device(device), pytest.raises(cp.cuda.driver.CUDADriverError,
                                               match="cuCtxEnablePeerAccess failed: CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED"):
        runtime.deviceEnablePeerAccess(peer)
    assert runtime.getDevice() == current  # the calls leave the thread's current device alone
    host = rng.standard_normal((257, 33)).astype(np.float32)
    with cp.cuda.Device(peer):
        source = cp.asarray(host)
    with cp.cuda.Device(device):
        copied = cp.asarray(source)  # a cross-device copy, now over the peer path
        assert copied.device.id == device
        doubled = (copied * 2).get()
    np.testing.assert_array_equal(doubled, host * 2)
