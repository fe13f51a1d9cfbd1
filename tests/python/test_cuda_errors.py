"""CuPy's CUDA error classes: `.status`, the constructor from a status, pickling, and the cudaError
constants of cuarray.cuda.runtime. Host-side (no GPU needed) but for the last test."""
import pickle

import pytest

import cuarray as cp

runtime = cp.cuda.runtime
driver = cp.cuda.driver


@pytest.mark.parametrize("cls", [runtime.CUDARuntimeError, driver.CUDADriverError])
@pytest.mark.parametrize("status", [1, 2, 101, 700])
def test_made_from_a_status_alone_like_cupys(cls, status):
    error = cls(status)
    assert isinstance(error, RuntimeError)
    assert error.status == status
    copy = pickle.loads(pickle.dumps(error))
    assert type(copy) is cls and copy.status == status and copy.args == error.args and str(copy) == str(error)


@pytest.mark.parametrize("status, name", [(1, "cudaErrorInvalidValue"), (2, "cudaErrorMemoryAllocation"),
                                          (101, "cudaErrorInvalidDevice"), (400, "cudaErrorInvalidResourceHandle")])
def test_runtime_error_is_named_by_its_status(status, name):
    assert str(runtime.CUDARuntimeError(status)).split(":")[0] == name


def test_a_message_of_ones_own_keeps_the_status():
    error = runtime.CUDARuntimeError(runtime.cudaErrorNotSupported, "managed memory is not supported here")
    assert str(error) == "managed memory is not supported here" and error.status == 801
    assert pickle.loads(pickle.dumps(error)).status == 801


def test_cuda_error_constants_follow_the_toolkit():
    assert runtime.cudaSuccess == 0 and runtime.cudaErrorNotReady == 600
    assert (runtime.errorInvalidValue, runtime.errorMemoryAllocation, runtime.errorPeerAccessAlreadyEnabled,
            runtime.errorContextIsDestroyed, runtime.errorInvalidResourceHandle) == (1, 2, 704, 709, 400)
    assert runtime.cudaErrorStreamCaptureInvalidated == 901 and runtime.cudaErrorUnknown == 999


def test_raw_runtime_calls_raise_with_the_runtimes_status():
    with pytest.raises(runtime.CUDARuntimeError, match="not a stream") as raised:
        runtime.streamDestroy(0x1234)
    assert raised.value.status == runtime.cudaErrorInvalidResourceHandle
    with pytest.raises(runtime.CUDARuntimeError, match="not an event") as raised:
        runtime.eventDestroy(0x1234)
    assert raised.value.status == runtime.cudaErrorInvalidResourceHandle
    with pytest.raises(runtime.CUDARuntimeError, match="not a pointer") as raised:
        runtime.free(0x1234)
    assert raised.value.status == runtime.cudaErrorInvalidValue


def test_no_device_or_driver_names_the_runtimes_status():
    try:
        runtime.getDeviceCount()
    except runtime.CUDARuntimeError as error:  # this machine has no usable GPU
        assert error.status in (runtime.cudaErrorInsufficientDriver, runtime.cudaErrorNoDevice), error
    else:
        pytest.skip("a GPU is present: the no-driver error cannot be raised here")
