"""scipy's tests/test_interpolation.py, run on cascade's functions (conftest.py selects and marks them)."""
from scipy_shim import load

globals().update(load("test_interpolation"))
