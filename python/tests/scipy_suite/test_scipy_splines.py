"""scipy's tests/test_splines.py, run on cascade's functions (conftest.py selects and marks them)."""
from scipy_shim import load

globals().update(load("test_splines"))
