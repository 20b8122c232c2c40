"""refms.cuda.is_available() / why_unavailable(): never raise, never print, explain."""
import os
import subprocess
import sys

import pytest

import refms
from refms._cuda import build, loader


@pytest.fixture
def fresh_loader(monkeypatch):
    loader.reset()
    yield monkeypatch
    loader.reset()


def test_import_prints_nothing_and_loads_no_library():
    code = ("import sys, refms; "
            "assert not any('librefms_cuda' in m for m in open('/proc/self/maps').read().split()), 'loaded'; "
            "print(sorted(m for m in sys.modules if m.startswith('refms._cuda')))")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""
    assert result.stdout.strip() == "['refms._cuda', 'refms._cuda.loader', 'refms._cuda.prototypes']"


def test_missing_library_is_explained(fresh_loader, tmp_path):
    fresh_loader.setenv(loader.ENV_LIBRARY, str(tmp_path / "absent.so"))
    assert refms.cuda.is_available() is False
    reason = refms.cuda.why_unavailable()
    assert "was not built" in reason and "absent.so" in reason and "nvcc" in reason


def test_broken_library_is_explained(fresh_loader, tmp_path):
    bogus = tmp_path / "librefms_cuda.so.1"
    bogus.write_text("not an ELF file")
    fresh_loader.setenv(loader.ENV_LIBRARY, str(bogus))
    assert refms.cuda.is_available() is False
    assert "does not load" in refms.cuda.why_unavailable()


@pytest.mark.skipif(not os.path.exists(os.path.join(loader.HERE, loader.LIBRARY_NAME)),
                    reason="the CUDA library was not built (no nvcc at install time)")
def test_built_library_without_gpu_reports_the_cuda_error(fresh_loader):
    fresh_loader.delenv(loader.ENV_LIBRARY, raising=False)
    reason = refms.cuda.why_unavailable()
    if reason is None:
        pytest.skip("this machine has a GPU: nothing to explain")
    assert reason.startswith("CUDA error ")       # 35 (driver too old or absent) or 100 (no device)
    assert refms.cuda.is_available() is False


def test_shim_build_loads_as_a_device(fresh_loader):
    """The CPU shim build is a complete library: the loader accepts it as a device."""
    if build.find_cxx() is None:
        pytest.skip("no C++ compiler for the CPU shim build")
    fresh_loader.setenv(loader.ENV_LIBRARY, build.build_shim())
    assert refms.cuda.is_available(), refms.cuda.why_unavailable()


def test_gpu_target_without_the_library_raises_naming_why(fresh_loader, tmp_path):
    fresh_loader.setenv(loader.ENV_LIBRARY, str(tmp_path / "absent.so"))
    with pytest.raises(RuntimeError, match=r"Unsupported device target GPU: .*was not built"):
        refms.set_context(device_target="GPU")
    assert refms.get_context("device_target") == "CPU"
    with pytest.raises(RuntimeError, match=r"Unsupported device target GPU"):
        refms.set_device("GPU", 0)
    refms.set_device("CPU")
    assert refms.get_context("device_target") == "CPU"


def test_set_device_checks_the_id():
    with pytest.raises(ValueError, match="device_id"):
        refms.set_device("CPU", -1)
