"""Device queries under CuPy's names: cuarray.cuda.runtime's cudaDevAttr* constants, deviceGetAttribute,
getDeviceProperties, the PCI bus id both ways, driverGetVersion, and Device.attributes / pci_bus_id.

The constants are checked on any machine against the values CUDA documents; on a GPU every query
is checked against the device itself and, where CuPy is installed, against CuPy's answer."""
import re

import pytest

import cuarray as cp

runtime = cp.cuda.runtime

# A few of cudaDeviceAttr's values, as CUDA's documentation and every toolkit since 9.0 give them.
DOCUMENTED_IDS = {
    "cudaDevAttrMaxThreadsPerBlock": 1,
    "cudaDevAttrWarpSize": 10,
    "cudaDevAttrMultiProcessorCount": 16,
    "cudaDevAttrPciBusId": 33,
    "cudaDevAttrL2CacheSize": 38,
    "cudaDevAttrComputeCapabilityMajor": 75,
    "cudaDevAttrComputeCapabilityMinor": 76,
    "cudaDevAttrCooperativeLaunch": 95,
    "cudaDevAttrMaxSharedMemoryPerBlockOptin": 97,
    "cudaDevAttrReservedSharedMemoryPerBlock": 111,
}


# --- any machine ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("name, value", DOCUMENTED_IDS.items())
def test_attribute_constants_have_cudas_values(name, value):
    assert getattr(runtime, name) == value


def test_attribute_constants_cover_the_enum_without_placeholders():
    names = [n for n in dir(runtime) if n.startswith("cudaDevAttr")]
    assert len(names) > 100  # CUDA 13's cudaDeviceAttr has 123 named enumerators
    assert not [n for n in names if re.fullmatch(r"cudaDevAttrReserved\d+", n)]
    assert all(type(getattr(runtime, n)) is int for n in names)
    assert runtime.deviceAttributeComputeCapabilityMajor == 75
    assert runtime.deviceAttributeComputeCapabilityMinor == 76
    assert runtime.is_hip is False


# --- on a GPU --------------------------------------------------------------------------------------------

def _cupy():
    return pytest.importorskip("cupy", reason="CuPy is not installed: compared with the device's own answers only")


@pytest.mark.gpu
def test_device_properties_are_cupys_dict():
    for device in range(runtime.getDeviceCount()):
        props = runtime.getDeviceProperties(device)
        assert isinstance(props["name"], bytes) and props["name"].decode() == cp.cuda.Device(device).name
        assert props["totalGlobalMem"] == cp.cuda.Device(device).mem_info[1]
        assert f"{props['major']}{props['minor']}" == cp.cuda.Device(device).compute_capability
        assert props["multiProcessorCount"] == runtime.deviceGetAttribute(runtime.cudaDevAttrMultiProcessorCount, device)
        assert props["warpSize"] == 32
        assert len(props["maxThreadsDim"]) == 3 and props["maxThreadsDim"][0] == props["maxThreadsPerBlock"]
        assert len(props["maxGridSize"]) == 3 and props["maxGridSize"][0] == 2 ** 31 - 1
        assert isinstance(props["uuid"], bytes) and len(props["uuid"]) == 16
        assert props["name"].decode()  # what CuPy-era scripts print: props["name"].decode()
    if runtime.getDeviceCount() > 1:
        uuids = {runtime.getDeviceProperties(d)["uuid"] for d in range(runtime.getDeviceCount())}
        assert len(uuids) == runtime.getDeviceCount()


@pytest.mark.gpu
def test_device_properties_match_cupys():
    cupy = _cupy()
    ours, theirs = runtime.getDeviceProperties(0), cupy.cuda.runtime.getDeviceProperties(0)
    common = set(ours) & set(theirs)
    assert {"name", "totalGlobalMem", "major", "minor", "multiProcessorCount", "maxThreadsDim",
            "sharedMemPerBlock", "l2CacheSize", "pciBusID", "uuid"} <= common
    # CuPy reads the 16-byte UUID as a C string: it ends at the first zero byte. Ours is all 16.
    assert ours["uuid"].startswith(theirs["uuid"]) and len(ours["uuid"]) == 16
    assert len(theirs["uuid"]) == 16 or ours["uuid"][len(theirs["uuid"])] == 0
    common.discard("uuid")
    assert {k: ours[k] for k in common} == {k: theirs[k] for k in common}
    missing = set(theirs) - set(ours)
    assert not missing, f"CuPy's dict has keys ours lacks: {sorted(missing)}"


@pytest.mark.gpu
def test_attributes_dict_holds_every_answered_attribute():
    attributes = cp.cuda.Device(0).attributes
    assert attributes["MultiProcessorCount"] == runtime.getDeviceProperties(0)["multiProcessorCount"]
    assert attributes["ComputeCapabilityMajor"] == runtime.getDeviceProperties(0)["major"]
    assert len(attributes) > 80
    for key, value in attributes.items():
        assert runtime.deviceGetAttribute(getattr(runtime, "cudaDevAttr" + key), 0) == value, key


@pytest.mark.gpu
def test_every_attribute_matches_cupys():
    cupy = _cupy()
    for name in dir(runtime):
        if not name.startswith("cudaDevAttr") or not hasattr(cupy.cuda.runtime, name):
            continue
        value = getattr(runtime, name)
        assert value == getattr(cupy.cuda.runtime, name), name
        try:
            ours = runtime.deviceGetAttribute(value, 0)
        except runtime.CUDARuntimeError:  # an attribute the driver does not answer: nor for CuPy
            with pytest.raises(cupy.cuda.runtime.CUDARuntimeError):
                cupy.cuda.runtime.deviceGetAttribute(value, 0)
            continue
        assert ours == cupy.cuda.runtime.deviceGetAttribute(value, 0), name
    theirs = getattr(cupy.cuda.Device(0), "attributes", None)
    if theirs is not None:
        ours = cp.cuda.Device(0).attributes
        common = set(ours) & set(theirs)
        assert {k: ours[k] for k in common} == {k: theirs[k] for k in common}


@pytest.mark.gpu
def test_pci_bus_id_both_ways():
    ids = []
    for device in range(runtime.getDeviceCount()):
        bus_id = runtime.deviceGetPCIBusId(device)
        assert re.fullmatch(r"[0-9A-Fa-f]{4,8}:[0-9A-Fa-f]{2}:[0-9A-Fa-f]{2}\.[0-9A-Fa-f]", bus_id), bus_id
        assert cp.cuda.Device(device).pci_bus_id == bus_id
        assert runtime.deviceGetByPCIBusId(bus_id) == device
        ids.append(bus_id)
    assert len(set(ids)) == len(ids)
    cupy = pytest.importorskip("cupy")
    assert runtime.deviceGetPCIBusId(0) == cupy.cuda.runtime.deviceGetPCIBusId(0)


@pytest.mark.gpu
def test_driver_version():
    version = runtime.driverGetVersion()
    assert isinstance(version, int) and version >= 12000 and version % 10 == 0
    cupy = pytest.importorskip("cupy")
    assert version == cupy.cuda.runtime.driverGetVersion()


@pytest.mark.gpu
def test_bad_queries_raise_cuda_runtime_error():
    count = runtime.getDeviceCount()
    with pytest.raises(runtime.CUDARuntimeError, match="invalid device ordinal"):
        runtime.getDeviceProperties(count + 3)
    with pytest.raises(runtime.CUDARuntimeError, match="invalid device ordinal"):
        runtime.deviceGetAttribute(runtime.cudaDevAttrWarpSize, -1)
    with pytest.raises(runtime.CUDARuntimeError, match="device attribute 100000"):
        runtime.deviceGetAttribute(100000, 0)
    with pytest.raises(runtime.CUDARuntimeError, match="'0000:ff:1f.7'"):
        runtime.deviceGetByPCIBusId("0000:ff:1f.7")
    with pytest.raises(runtime.CUDARuntimeError, match="invalid device ordinal"):
        cp.cuda.Device(count + 3).attributes
    with pytest.raises(TypeError):
        runtime.deviceGetAttribute("WarpSize", 0)


def test_devices_order_by_id():  # no GPU needed: a Device is its id until used
    devices = [cp.cuda.Device(i) for i in (2, 0, 1)]
    assert sorted(devices) == [cp.cuda.Device(0), cp.cuda.Device(1), cp.cuda.Device(2)]
    assert cp.cuda.Device(0) <= cp.cuda.Device(0) and not cp.cuda.Device(0) < cp.cuda.Device(0)
    assert cp.cuda.Device(3) > cp.cuda.Device(1) and cp.cuda.Device(3) >= cp.cuda.Device(3)
    with pytest.raises(TypeError):
        cp.cuda.Device(0) < 1
