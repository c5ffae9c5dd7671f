"""Runs the scipy.ndimage tests that exercise the eight functions cascade replaces, with
cascade's functions in their place (scipy_shim.py), and marks the documented differences as
expected failures, each with its numerical reason (docs/python.md, "scipy's own tests")."""

import os
import sys

import pytest

sys.path.insert(0, os.path.dirname(__file__))

import scipy_shim  # noqa: E402

# Test (node id relative to this folder, a prefix matches parametrized cases) → why cascade's
# result differs from what the test asserts.
EXPECTED_FAILURES = {
    "test_scipy_filters.py::TestNdimageFilters::test_gauss03":
        "float32 data is filtered in float32 arithmetic, where scipy sums in float64: the 10^4 outputs "
        "of ~5e3 each sum to 1.8 (4e-8 relative) from the input's sum, the test allows 1.5",
}


def _reason(nodeid):
    local = nodeid.split("scipy_suite/")[-1]
    for prefix, reason in EXPECTED_FAILURES.items():
        if local == prefix or local.startswith(prefix + "[") or local.startswith(prefix + "::"):
            return reason
    return None


def pytest_collection_modifyitems(config, items):
    kept, dropped = [], []
    for item in items:
        if "scipy_suite" not in item.nodeid:
            kept.append(item)
            continue
        (kept if scipy_shim.uses_cascade(item) else dropped).append(item)
        reason = _reason(item.nodeid)
        if reason:
            item.add_marker(pytest.mark.xfail(reason=reason, strict=True))
    if dropped:
        config.hook.pytest_deselected(items=dropped)
    items[:] = kept
