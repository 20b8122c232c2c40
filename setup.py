"""Build script for refms: a pure-Python package with optional Cython kernels and an
optional CUDA library.

The project's metadata is in ``pyproject.toml``; this file only declares the
extensions of ``refms/_fast``, the CUDA library of ``refms/_cuda``, and how to build them.

The extensions are optional, as PyYAML's libyaml binding is: when Cython,
numpy's or scipy's build files or a C compiler are missing, or the build
fails, a warning is printed and refms installs as pure Python.  The kernel
dispatcher then runs the numpy reference kernels and
``refms.kernels.why_fast_unavailable()`` says why.

``REFMS_STRICT_BUILD=1`` makes a failed build fatal, so CI cannot pass with
the fast kernels silently missing.

The CUDA library (``refms/_cuda/librefms_cuda.so.1``, loaded with ctypes at run time)
is built by nvcc when one is found (``$CUDA_HOME/bin/nvcc`` or nvcc on PATH); without
nvcc refms installs and imports exactly as without it, and
``refms.cuda.why_unavailable()`` says why.  ``REFMS_CUDA=0`` skips the build;
``REFMS_CUDA=1`` makes a missing nvcc or a failed build fatal.  A failed build is
otherwise a warning.

Development: ``python setup.py build_ext --inplace`` puts the compiled
modules and the CUDA library beside their sources.
"""
import importlib.util
import os
import runpy
import sys
import tempfile

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

STRICT = os.environ.get("REFMS_STRICT_BUILD", "").strip() == "1"
CUDA = os.environ.get("REFMS_CUDA", "").strip()          # "0": skip, "1": must build, "": if nvcc

# The twins are found from refms/_fast/*.pyx by one helper, loaded by path so that
# building never imports refms (which needs numpy and the rest at run time).
_HERE = os.path.dirname(os.path.abspath(__file__))
_twins = runpy.run_path(os.path.join(_HERE, "refms", "_fast", "twins.py"))
EXTENSIONS = [Extension(f"refms._fast.{name}", [f"refms/_fast/{name}.pyx"])
              for name in _twins["twin_modules"]()]

#: Optional compiler flags, each used when the compiler accepts it (tried on a small C file):
#: optimisation level, OpenMP (compile and link flag) for the ``prange`` and ``omp simd``
#: loops, and the instruction set of the building machine (AVX2/AVX-512 SIMD loops: the
#: float32 exp of the softmax twins runs 10x faster than with the x86-64 baseline's SSE2).
#: ``REFMS_PORTABLE_BUILD=1`` leaves ``-march=native`` out, for binaries built to be copied
#: to other machines.
OPTIONAL_FLAGS = (("-O3", False), ("-fopenmp", True))
if os.environ.get("REFMS_PORTABLE_BUILD", "").strip() != "1":
    OPTIONAL_FLAGS += (("-march=native", False),)
OPENMP_PROBE = "#include <omp.h>\nint main(void) { return omp_get_max_threads() > 0 ? 0 : 1; }\n"


class optional_build_ext(build_ext):
    """build_ext that turns any failure into a warning unless REFMS_STRICT_BUILD=1."""

    def finalize_options(self):
        super().finalize_options()
        if self.parallel is None:                  # compile the twins side by side
            self.parallel = os.cpu_count() or 1

    def run(self):
        self.building_in_place = self.inplace    # setuptools clears it while building
        try:
            self.extensions = prepare(self.extensions)
        except Exception as exc:          # noqa: BLE001 - any failure means "no fast kernels"
            self.give_up(exc, self.extensions)
            self.extensions = []
        else:
            super().run()
        self.build_cuda()

    def build_cuda(self):
        """Compile refms/_cuda/csrc/*.cu into librefms_cuda.so.1 with nvcc, when nvcc is found."""
        if CUDA == "0":
            return
        cuda_build = _cuda_build_module()
        nvcc = cuda_build.find_nvcc()
        if nvcc is None:
            if CUDA == "1":
                raise RuntimeError("REFMS_CUDA=1 but nvcc was not found (set CUDA_HOME or put "
                                   "nvcc on PATH)")
            return                         # no CUDA toolkit: the package is pure CPU, silently
        if self.building_in_place:
            package_dir = self.get_finalized_command("build_py").get_package_dir("refms._cuda")
        else:
            package_dir = os.path.join(self.build_lib, "refms", "_cuda")
        target = os.path.join(package_dir, cuda_build.LIBRARY_NAME)
        inputs = cuda_build.sources() + cuda_build.headers()
        if os.path.exists(target) and all(os.path.getmtime(target) >= os.path.getmtime(src)
                                          for src in inputs):
            return
        try:
            cuda_build.build_library(target, nvcc)
        except Exception as exc:           # noqa: BLE001 - a failed CUDA build is optional
            if CUDA == "1":
                raise
            sys.stderr.write(f"\nWARNING: could not build the refms CUDA library ({exc}).\n"
                             f"refms is installed without GPU support. Set REFMS_CUDA=1 to make "
                             f"this an error, REFMS_CUDA=0 to skip the attempt.\n\n")

    def build_extensions(self):
        """Add the optional flags this compiler accepts, and record them in each extension."""
        accepted = [flag for flag, link in OPTIONAL_FLAGS if self.compiler_accepts(flag, link)]
        for ext in self.extensions:
            for flag, link in OPTIONAL_FLAGS:
                if flag in accepted:
                    ext.extra_compile_args.append(flag)
                    if link:
                        ext.extra_link_args.append(flag)
            ext.define_macros.append(("REFMS_CFLAGS", '"%s"' % " ".join(accepted)))
        super().build_extensions()

    def compiler_accepts(self, flag, link):
        """True when this compiler compiles (and, for ``link``, links) a small program with ``flag``."""
        with tempfile.TemporaryDirectory() as tmp:
            source = os.path.join(tmp, "probe.c")
            with open(source, "w") as f:
                f.write(OPENMP_PROBE if flag == "-fopenmp" else "int main(void) { return 0; }\n")
            try:
                objects = self.compiler.compile([source], output_dir=tmp, extra_postargs=[flag])
                if link:
                    self.compiler.link_executable(objects, os.path.join(tmp, "probe"),
                                                  extra_postargs=[flag])
            except Exception:       # noqa: BLE001 - CompileError, LinkError: the flag is not usable
                return False
        return True

    def build_extension(self, ext):
        try:
            super().build_extension(ext)
        except Exception as exc:          # noqa: BLE001 - compiler missing, compile or link error
            self.give_up(exc, [ext])

    def give_up(self, exc, extensions):
        if STRICT:
            raise exc
        for ext in extensions:
            self.remove_older_build(ext)
        names = ", ".join(ext.name for ext in extensions)
        sys.stderr.write(
            f"\nWARNING: could not build {names} ({type(exc).__name__}: {exc}).\n"
            f"refms is installed without its optional Cython kernels and will use the numpy\n"
            f"reference kernels. Set REFMS_STRICT_BUILD=1 to make this an error.\n\n")

    def remove_older_build(self, ext):
        """Delete an earlier build of ``ext``, so that it is not installed or imported as current."""
        filename = self.get_ext_filename(ext.name)
        paths = [os.path.join(self.build_lib, filename)]
        if self.building_in_place:
            package_dir = self.get_finalized_command("build_py").get_package_dir("refms._fast")
            paths.append(os.path.join(package_dir, os.path.basename(filename)))
        for path in paths:
            if os.path.exists(path):
                os.remove(path)


def _cuda_build_module():
    """refms/_cuda/build.py, loaded by path (importing refms itself needs numpy)."""
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "refms", "_cuda", "build.py")
    spec = importlib.util.spec_from_file_location("refms_cuda_build", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def prepare(extensions):
    """Cythonize the .pyx sources and add numpy's headers.

    Without Cython, each ``.pyx`` source is replaced by the ``.c`` file
    Cython generated from it (an sdist may carry them); that works if the
    file exists.  The ``cimport scipy.linalg.cython_blas`` is resolved from
    the installed scipy on ``sys.path``.
    """
    import numpy
    try:
        from Cython.Build import cythonize
    except ImportError:
        cythonize = None
    if cythonize is not None:
        # Keep setuptools' Extension objects (build_ext annotated them); take the new sources.
        for ext, cythonized in zip(extensions, cythonize(extensions, quiet=True)):
            ext.sources = cythonized.sources
    else:
        for ext in extensions:
            ext.sources = [os.path.splitext(src)[0] + ".c" if src.endswith(".pyx") else src
                           for src in ext.sources]
        missing = [src for ext in extensions for src in ext.sources if not os.path.exists(src)]
        if missing:
            raise RuntimeError(f"Cython is not installed and the generated sources {missing} "
                               f"are absent")
    for ext in extensions:
        ext.include_dirs.append(numpy.get_include())
        ext.optional = not STRICT      # setuptools then skips a missing one when copying in place
    return extensions


setup(ext_modules=EXTENSIONS, cmdclass={"build_ext": optional_build_ext})
