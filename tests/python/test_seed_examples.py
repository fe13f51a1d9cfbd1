"""The seed usage examples (tests/python/seed_examples.py, a verbatim copy of
shared/acceptance/seed_examples.py) run unchanged as tests."""
import pytest

from seed_examples import (ex_arange_reshape_sum, ex_conversions, ex_device_context,
                           ex_inplace_chain, ex_speed_compare)

pytestmark = pytest.mark.gpu


@pytest.mark.parametrize("example", [ex_speed_compare, ex_arange_reshape_sum, ex_conversions,
                                     ex_inplace_chain, ex_device_context],
                         ids=lambda f: f.__name__)
def test_seed_example(example):
    note = example()
    assert note is None or not str(note).startswith("skipped"), note
