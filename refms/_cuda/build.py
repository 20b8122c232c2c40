"""Compile the CUDA library (nvcc) and its CPU shim build (a C++20 compiler).

One module, imported by nobody at run time: ``setup.py`` loads it by file path to build
``refms/_cuda/librefms_cuda.so.1`` with nvcc, and the tests call ``build_shim`` to
compile the same ``csrc/*.cu`` sources as C++ against ``csrc/shim.h`` (see that header).

Both builds compile one object per ``.cu`` file, in parallel, then link one shared
library exporting the C ABI of ``csrc/refms_cuda.h``.
"""
import concurrent.futures
import hashlib
import os
import shutil
import subprocess
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
CSRC = os.path.join(HERE, "csrc")
LIBRARY_NAME = "librefms_cuda.so.1"
SHIM_LIBRARY_NAME = "librefms_cuda_shim.so"

#: sm_90 machine code for H100/H200 plus compute_90 PTX, which newer GPUs JIT-compile.
#: (A PTX newer than the driver cannot be JIT-compiled: keep the PTX at compute_90.)
NVCC_FLAGS = ["-O3", "-std=c++17", "-Xcompiler", "-fPIC,-fvisibility=hidden",
              "-gencode", "arch=compute_90,code=sm_90",
              "-gencode", "arch=compute_90,code=compute_90",
              "-diag-suppress", "186"]        # "pointless comparison of unsigned with zero"
SHIM_FLAGS = ["-std=c++20", "-O1", "-fPIC", "-pthread", "-fvisibility=hidden",
              "-DREFMS_CUDA_SHIM", "-x", "c++"]


def sources():
    """The kernel sources, one family per file."""
    return sorted(os.path.join(CSRC, name) for name in os.listdir(CSRC) if name.endswith(".cu"))


def headers():
    return sorted(os.path.join(CSRC, name) for name in os.listdir(CSRC)
                  if name.endswith((".h", ".cuh")))


def find_nvcc():
    """Path of nvcc: ``$CUDA_HOME/bin/nvcc``, else nvcc on PATH, else None."""
    cuda_home = os.environ.get("CUDA_HOME") or os.environ.get("CUDA_PATH")
    if cuda_home:
        candidate = os.path.join(cuda_home, "bin", "nvcc")
        if os.path.isfile(candidate) and os.access(candidate, os.X_OK):
            return candidate
    return shutil.which("nvcc")


def find_cxx():
    """A C++ compiler for the shim build: ``$CXX``, else g++ or clang++ on PATH."""
    for name in (os.environ.get("CXX"), "g++", "clang++"):
        if name and shutil.which(name):
            return shutil.which(name)
    return None


def _run(command):
    result = subprocess.run(command, capture_output=True, text=True)
    if result.returncode != 0:
        raise RuntimeError(f"{' '.join(command)} failed:\n{result.stdout}{result.stderr}")


def _compile_all(compile_one, objects):
    workers = max(1, min(len(objects), os.cpu_count() or 1))
    with concurrent.futures.ThreadPoolExecutor(workers) as pool:
        list(pool.map(compile_one, objects))


def build_library(output, nvcc=None, workdir=None):
    """Compile every ``csrc/*.cu`` with nvcc and link ``output`` (a shared library)."""
    nvcc = nvcc or find_nvcc()
    if nvcc is None:
        raise RuntimeError("nvcc not found (set CUDA_HOME or put nvcc on PATH)")
    workdir = workdir or tempfile.mkdtemp(prefix="refms-cuda-build-")
    pairs = [(src, os.path.join(workdir, os.path.basename(src) + ".o")) for src in sources()]
    _compile_all(lambda p: _run([nvcc, *NVCC_FLAGS, "-I", CSRC, "-c", p[0], "-o", p[1]]), pairs)
    os.makedirs(os.path.dirname(os.path.abspath(output)), exist_ok=True)
    partial = output + ".partial"
    _run([nvcc, "-shared", "-o", partial, *[obj for _, obj in pairs]])
    os.replace(partial, output)
    return output


def _fingerprint(flags):
    digest = hashlib.sha256(" ".join(flags).encode())
    for path in sources() + headers():
        with open(path, "rb") as f:
            digest.update(os.path.basename(path).encode() + f.read())
    return digest.hexdigest()[:16]


def build_shim(cache_dir=None, cxx=None):
    """Compile the CPU shim build once per source version; returns the library's path.

    The result is cached in ``cache_dir`` (default: the temp directory) under a name
    derived from the sources and flags, so a test session rebuilds only after an edit.
    """
    cxx = cxx or find_cxx()
    if cxx is None:
        raise RuntimeError("no C++ compiler found (g++ or clang++; or set CXX)")
    cache_dir = cache_dir or os.path.join(tempfile.gettempdir(), "refms-cuda-shim")
    target_dir = os.path.join(cache_dir, _fingerprint([cxx] + SHIM_FLAGS))
    output = os.path.join(target_dir, SHIM_LIBRARY_NAME)
    if os.path.exists(output):
        return output
    workdir = tempfile.mkdtemp(prefix="build-", dir=_makedirs(cache_dir))
    pairs = [(src, os.path.join(workdir, os.path.basename(src) + ".o")) for src in sources()]
    _compile_all(lambda p: _run([cxx, *SHIM_FLAGS, "-I", CSRC, "-c", p[0], "-o", p[1]]), pairs)
    partial = os.path.join(workdir, SHIM_LIBRARY_NAME)
    _run([cxx, "-shared", "-pthread", "-o", partial, *[obj for _, obj in pairs]])
    _makedirs(target_dir)
    os.replace(partial, output)               # atomic: a concurrent session sees all or nothing
    shutil.rmtree(workdir, ignore_errors=True)
    return output


def _makedirs(path):
    os.makedirs(path, exist_ok=True)
    return path


if __name__ == "__main__":       # python refms/_cuda/build.py [shim]: build by hand
    import sys
    if sys.argv[1:] == ["shim"]:
        print(build_shim())
    else:
        print(build_library(os.path.join(HERE, LIBRARY_NAME)))
