"""pytest configuration of the cuarray suite.

- ``import cuarray`` happens here, unguarded: a broken build fails the whole run loudly instead of
  skipping it.
- Tests marked ``gpu`` are skipped, with the reason, when cuarray.cuda.runtime.getDeviceCount()
  raises CUDARuntimeError or reports no device.  Host-only tests (no marker) always run.
- Hypothesis: modest example counts and no deadline (the first call of a kernel compiles it).
"""
import os
import sys

import numpy as np
import pytest
from hypothesis import HealthCheck, settings

import cuarray  # noqa: F401  -- must import on any machine, GPU or not

# helpers.py, ufunc_domains.py, workers.py and seed_examples.py are imported by name from the test
# modules; make that work under any --import-mode.
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from helpers import gpu_unavailable_reason, rng  # noqa: E402,F401  (rng is a fixture)

settings.register_profile(
    "cuarray", max_examples=50, deadline=None, database=None, print_blob=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
settings.load_profile("cuarray")


def pytest_configure(config):
    config.addinivalue_line(
        "markers", "gpu: needs a usable CUDA GPU; skipped with a reason when none is present")
    config.addinivalue_line(
        "markers", "slow: large (multi-GB) inputs; runs in the GPU suite, deselect with -m 'not slow'")


def pytest_runtest_setup(item):
    if item.get_closest_marker("gpu") is not None:
        reason = gpu_unavailable_reason()
        if reason is not None:
            pytest.skip(reason)


def pytest_make_parametrize_id(config, val, argname):
    """Readable test ids: dtype names and Python type names instead of dtype0, dtype1, ..."""
    if isinstance(val, np.dtype):
        return val.name
    if isinstance(val, type):
        return val.__name__
    return None
