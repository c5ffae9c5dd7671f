"""scipy.ndimage's own tests with cascade in ndimage's place: the installed test files are
executed while `scipy.ndimage` names a module that hands out cascade's eight functions and
scipy's everything else, so the tests (and the arguments of their parametrize decorators) call
cascade. Nothing of scipy's is copied here."""

import importlib
import importlib.util
import os
import sys
import types

import scipy
import scipy.ndimage
import scipy.ndimage.tests

import cascade

ROUTED = ("gaussian_filter", "gaussian_filter1d", "gaussian_laplace", "gaussian_gradient_magnitude", "spline_filter",
          "spline_filter1d", "uniform_filter", "uniform_filter1d")
CASCADE_FUNCTIONS = {getattr(cascade, name) for name in ROUTED}


class Shim(types.ModuleType):
    """scipy.ndimage, but for the eight names, which are cascade's."""

    def __init__(self, real):
        super().__init__(real.__name__, real.__doc__)
        self.__path__ = list(real.__path__)
        self.__file__ = real.__file__
        self.__package__ = real.__package__
        self._real = real

    def __getattr__(self, name):
        if name in ROUTED:
            return getattr(cascade, name)
        return getattr(self._real, name)


def tests_dir():
    return os.path.dirname(scipy.ndimage.tests.__file__)


def load(stem):
    """The names of scipy's tests/<stem>.py, executed with scipy.ndimage as the shim."""
    real = scipy.ndimage
    shim = Shim(real)
    path = os.path.join(tests_dir(), stem + ".py")
    name = f"scipy.ndimage.tests.{stem}_under_cascade"
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    module.__package__ = "scipy.ndimage.tests"
    sys.modules["scipy.ndimage"], scipy.ndimage = shim, shim
    try:
        spec.loader.exec_module(module)
    finally:
        sys.modules["scipy.ndimage"], scipy.ndimage = real, real
    return {k: v for k, v in vars(module).items() if not k.startswith("__")}


def uses_cascade(item):
    """Whether a collected scipy test calls one of the routed functions (by name in its source,
    or as a parameter)."""
    import inspect

    function = getattr(item, "function", None)
    try:
        source = inspect.getsource(function) if function is not None else ""
    except (OSError, TypeError):
        source = ""
    if any(name in source for name in ROUTED):
        return True
    params = getattr(getattr(item, "callspec", None), "params", {})
    return any(callable(v) and v in CASCADE_FUNCTIONS for v in params.values() if _hashable(v))


def _hashable(v):
    try:
        hash(v)
        return True
    except TypeError:
        return False
