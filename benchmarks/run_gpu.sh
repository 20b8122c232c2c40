#!/usr/bin/env bash
# On a GPU machine, in one call: build refms with its CUDA library (a failed build is fatal),
# say whether the library sees the GPU, run every test marked `gpu` (the kernels against the
# reference kernels on the device, async errors, memory, LeNet/MLP training on the GPU equal
# to the CPU) and the GPU benchmark (GEMM ours vs cuBLAS, ResNet-block convolution forward and
# backward, LeNet-5 / MLP training step GPU vs CPU with the host-fallback count).
#
#   bash benchmarks/run_gpu.sh            (from the repository root or anywhere)
#
# The GPU machines have no package registry: refms is installed without build isolation
# and without dependencies (numpy, scipy, Cython, setuptools and pytest are already there).
# PYTHON picks the interpreter (default python3).  Without a usable GPU every step still
# runs -- the gpu tests skip, naming why, and the benchmark says why it cannot run -- and
# the script exits with status 3; a failed test or benchmark gives a non-zero status too.
set -uo pipefail
cd "$(dirname "$0")/.."
PYTHON=${PYTHON:-python3}
export REFMS_CUDA=1

echo "== machine"
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader 2>/dev/null \
    || echo "nvidia-smi: not available"
nvcc --version 2>/dev/null | tail -n 1 || echo "nvcc: not on PATH"
"$PYTHON" -c "import sys, setuptools, numpy; print('Python', sys.version.split()[0], '| setuptools',
setuptools.__version__, '(pyproject.toml needs >= 77) | numpy', numpy.__version__)"
echo "load: $(uptime)"

echo "== build and install (nvcc for sm_90 + compute_90 PTX; the Cython kernels)"
start=$(date +%s)
if ! "$PYTHON" -m pip install --quiet --no-build-isolation --no-deps -e .; then
    # An older setuptools than pyproject.toml names cannot install; the in-place build
    # needs none of that, and PYTHONPATH then finds the package.
    echo "pip install -e . failed; building in place instead"
    if ! "$PYTHON" setup.py -q build_ext --inplace; then
        echo "the build failed (REFMS_CUDA=1 makes a failed CUDA build fatal)"
        exit 1
    fi
    export PYTHONPATH="$PWD${PYTHONPATH:+:$PYTHONPATH}"
fi
echo "build and install: $(( $(date +%s) - start )) s"

echo "== registers of the tiled GEMM (ptxas, sm_90)"
nvcc -O3 -std=c++17 -gencode arch=compute_90,code=sm_90 -I refms/_cuda/csrc --resource-usage \
    -c refms/_cuda/csrc/gemm.cu -o "${TMPDIR:-/tmp}/refms-gemm-$$.o" 2>&1 \
    | grep -E "Compiling entry|Used|spill" | sed -e 's/ptxas info *: //'
rm -f "${TMPDIR:-/tmp}/refms-gemm-$$.o"

echo "== the library"
"$PYTHON" - <<'EOF'
import sys
import refms
from refms import kernels
from refms._cuda import backend
print("refms.cuda.is_available():", refms.cuda.is_available())
if not refms.cuda.is_available():
    print("why:", refms.cuda.why_unavailable())
    sys.exit(3)
table = backend.make_backend().kernels
names = kernels.kernel_names()
print(f"gpu backend: {sum(name in table for name in names)} of {len(names)} contract kernels")
print("GEMM by default:", refms.cuda.gemm_implementation())
EOF
gpu=$?

echo "== tests marked gpu"
"$PYTHON" -m pytest -q -rs -m gpu -p no:cacheprovider tests/
tests=$?

echo "== benchmarks/bench_gpu.py"
"$PYTHON" benchmarks/bench_gpu.py
bench=$?

echo "== summary: library $([ $gpu = 0 ] && echo 'sees the GPU' || echo 'has no usable GPU'), "\
"gpu tests exit $tests, benchmark exit $bench"
if [ $tests != 0 ] && [ $tests != 5 ]; then exit $tests; fi     # 5: no test collected
if [ $bench != 0 ]; then exit $bench; fi
[ $gpu = 0 ] || exit 3
