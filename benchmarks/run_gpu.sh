#!/usr/bin/env bash
# On a GPU machine, in one call: build refms with its CUDA library (a failed build is fatal),
# check that the library sees the GPU, run every test marked `gpu` (the kernels against the
# reference kernels on the device, async errors, memory, training on the GPU) and the GPU
# benchmark.  The GPU machines have no package registry: install without build isolation.
#
#   bash benchmarks/run_gpu.sh            (from the repository root or anywhere)
set -euo pipefail
cd "$(dirname "$0")/.."
export REFMS_CUDA=1
python3 -m pip install --quiet --no-build-isolation --no-deps -e .
python3 -c "import refms; assert refms.cuda.is_available(), refms.cuda.why_unavailable(); \
print('GEMM:', refms.cuda.gemm_implementation())"
python3 -m pytest -q -rs -m gpu tests/
python3 benchmarks/bench_gpu.py
