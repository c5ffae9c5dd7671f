"""scipy's tests/test_filters.py, run on cascade's functions (conftest.py selects and marks them)."""
from scipy_shim import load

globals().update(load("test_filters"))
