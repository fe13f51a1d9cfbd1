"""CuPy's test conditions: installed, numpy_satisfies, with_requires (skip unless packages at
given versions are installed), multi_gpu (skip unless enough GPUs) and the slow mark."""
import importlib.metadata


def installed(*specifiers):
    """Whether every requirement ('numpy>=2.0', 'scipy') is installed at a version it allows."""
    from packaging.requirements import Requirement
    for specifier in specifiers:
        requirement = Requirement(specifier)
        try:
            version = importlib.metadata.version(requirement.name)
        except importlib.metadata.PackageNotFoundError:
            return False
        if not requirement.specifier.contains(version, prereleases=True):
            return False
    return True


def numpy_satisfies(version_range):
    """Whether NumPy's version is in version_range ('>=2.0,<3')."""
    return installed(f"numpy{version_range}")


def with_requires(*requirements):
    """Skips the test (or class) unless every requirement is installed."""
    import pytest
    return pytest.mark.skipif(not installed(*requirements),
                              reason=f"requires: {', '.join(requirements)}")


def _device_count():
    import cuarray
    try:
        return cuarray.cuda.runtime.getDeviceCount()
    except cuarray.cuda.runtime.CUDARuntimeError:
        return 0


def multi_gpu(gpu_num):
    """Skips the test (or class) unless this machine has gpu_num GPUs."""
    import pytest
    return pytest.mark.skipif(_device_count() < gpu_num, reason=f"{gpu_num} GPUs required")
