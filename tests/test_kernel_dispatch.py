"""The kernel dispatcher (refms/kernels/__init__.py): choosing, reporting, and never breaking import.

Spec (the dispatcher's docstring):

* ``REFMS_KERNELS=reference|fast|auto`` (default auto) is read on the first
  kernel call, not at import; :func:`set_implementation` switches at run
  time and returns the previous mode; a bad mode is a ValueError.
* :func:`which` says which implementation of a kernel runs now.
* Optional native code never breaks import: ``import refms`` does not import
  ``refms._fast``; when it cannot be imported the reason is remembered and
  :func:`why_fast_unavailable` returns it, :func:`fast_available` never raises.
"""
import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

from refms import kernels

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


@pytest.fixture
def restore_mode():
    """Put the dispatch mode back as it was after the test."""
    previous = kernels.implementation()
    yield
    kernels.set_implementation(previous)


def run_python(code, **env):
    """Run ``code`` in a fresh interpreter with refms importable; return the finished process."""
    environment = dict(os.environ)
    environment.pop("REFMS_KERNELS", None)
    environment.update(env)
    environment["PYTHONPATH"] = os.pathsep.join(
        [ROOT] + [p for p in environment.get("PYTHONPATH", "").split(os.pathsep) if p])
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code)], cwd=ROOT,
                          env=environment, capture_output=True, text=True, timeout=120)


def needs_fast():
    if not kernels.fast_available():
        pytest.skip(f"fast kernels are not built: {kernels.why_fast_unavailable()}")


# --------------------------------------------------------------------------- set_implementation

def test_reference_mode_runs_every_reference(restore_mode):
    kernels.set_implementation("reference")
    for name in kernels.kernel_names():
        assert kernels.which(name) == "reference"
        assert kernels.call(name) is kernels.reference_kernel(name)


@pytest.mark.parametrize("mode", ["fast", "auto"])
def test_fast_and_auto_run_each_twin_that_is_built(mode, restore_mode):
    kernels.set_implementation(mode)
    for name in kernels.kernel_names():
        twin = kernels.fast_kernel(name)
        expected = "reference" if twin is None else "fast"
        assert kernels.which(name) == expected, name
        assert kernels.call(name) is (twin or kernels.reference_kernel(name))


def test_fast_mode_picks_the_cython_twins(restore_mode):
    needs_fast()
    kernels.set_implementation("fast")
    for name in ("matmul", "batch_matmul", "reduce_sum", "reduce_mean", "reduce_max",
                 "reduce_min"):
        assert kernels.which(name) == "fast", name


def test_switching_back_and_forth(restore_mode):
    needs_fast()
    kernels.set_implementation("reference")
    assert kernels.which("reduce_sum") == "reference"
    kernels.set_implementation("fast")
    assert kernels.which("reduce_sum") == "fast"
    kernels.set_implementation("reference")
    assert kernels.which("reduce_sum") == "reference"


def test_set_implementation_returns_previous_mode(restore_mode):
    kernels.set_implementation("reference")
    assert kernels.set_implementation("fast") == "reference"
    assert kernels.set_implementation("auto") == "fast"
    assert kernels.implementation() == "auto"


def test_bad_mode_is_rejected_and_changes_nothing(restore_mode):
    kernels.set_implementation("reference")
    with pytest.raises(ValueError, match="reference"):
        kernels.set_implementation("gpu")
    assert kernels.implementation() == "reference"


def test_call_follows_the_mode(restore_mode):
    """``kernels.call(name)`` resolves under the mode in force, also after a switch."""
    kernels.set_implementation("reference")
    assert kernels.call("reduce_sum") is kernels.reference_kernel("reduce_sum")
    kernels.set_implementation("auto")
    expected = kernels.fast_kernel("reduce_sum") or kernels.reference_kernel("reduce_sum")
    assert kernels.call("reduce_sum") is expected


def test_unknown_kernel_is_a_key_error():
    with pytest.raises(KeyError, match="no kernel named"):
        kernels.call("no_such_kernel")


def test_both_modes_compute_the_same(restore_mode):
    x = np.random.default_rng(0).standard_normal((6, 5))
    kernels.set_implementation("reference")
    expected = kernels.call("reduce_sum")(x, (0,), False)
    kernels.set_implementation("auto")
    np.testing.assert_allclose(kernels.call("reduce_sum")(x, (0,), False), expected, rtol=1e-12)


# --------------------------------------------------------------------------- availability

def test_why_fast_unavailable_is_none_when_built():
    needs_fast()
    assert kernels.fast_available() is True
    assert kernels.why_fast_unavailable() is None


def test_availability_answers_are_consistent():
    available = kernels.fast_available()
    reason = kernels.why_fast_unavailable()
    assert isinstance(available, bool)
    assert (reason is None) == available
    assert isinstance(reason, (str, type(None)))


def test_missing_extension_is_remembered_and_explained():
    """With refms._fast unimportable, refms still works and says why no twin runs."""
    result = run_python("""
        import sys
        sys.modules["refms._fast"] = None        # any import of it now raises ImportError
        import numpy as np
        import refms.kernels as k
        assert k.fast_available() is False
        reason = k.why_fast_unavailable()
        assert "refms._fast" in reason, reason
        assert k.which("matmul") == "reference"
        a = np.eye(3, dtype=np.float32)
        assert (k.call("matmul")(a, a, False, False) == a).all()
        print("ok")
    """)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "ok"


# --------------------------------------------------------------------------- REFMS_KERNELS

def test_environment_selects_reference():
    result = run_python("""
        import refms.kernels as k
        print(k.implementation(), k.which("matmul"), k.which("reduce_sum"))
    """, REFMS_KERNELS="reference")
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["reference", "reference", "reference"]


@pytest.mark.parametrize("value", ["fast", "auto", ""])
def test_environment_selects_fast(value):
    needs_fast()
    result = run_python("""
        import refms.kernels as k
        print(k.which("matmul"), k.which("reduce_sum"))
    """, REFMS_KERNELS=value)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["fast", "fast"]


def test_default_is_auto():
    result = run_python("""
        import refms.kernels as k
        print(k.implementation())
    """)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "auto"


def test_bad_environment_value_fails_on_first_use_not_on_import():
    result = run_python("""
        import refms
        import refms.kernels as k
        try:
            k.call("matmul")
        except ValueError as exc:
            print("ValueError", exc)
    """, REFMS_KERNELS="cuda")
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("ValueError") and "REFMS_KERNELS" in result.stdout


# --------------------------------------------------------------------------- import is lazy

def test_import_refms_does_not_import_fast_and_prints_nothing():
    result = run_python("""
        import sys
        import refms
        import refms.kernels
        assert "refms._fast" not in sys.modules, "refms._fast imported eagerly"
        assert refms.kernels._STATE["mode"] is None, "a backend was chosen at import"
    """)
    assert result.returncode == 0, result.stderr
    assert result.stdout == "" and result.stderr == ""


def test_first_kernel_call_loads_fast():
    needs_fast()
    result = run_python("""
        import sys
        import refms.kernels as k
        k.call("reduce_sum")
        print("refms._fast" in sys.modules)
    """)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "True"
