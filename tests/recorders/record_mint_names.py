"""Record the public names of MindSpore 2.10's ``mindspore.mint`` and its submodules.

    /work/msenv/bin/python tests/recorders/record_mint_names.py

Writes ``tests/recorders/mint_names.json``: per module (``mint``, ``mint.nn``,
``mint.nn.functional``, ``mint.optim``, ``mint.special``, ``mint.linalg``) the sorted
public names a user reaches (``dir``), without modules, the names ``mint``'s own
imports leave behind (``mindspore``, ``ops``, ``constexpr``...) and
``mint.distributed`` (a communication API).  ``tests/test_mint.py`` checks refms's
``mint`` against it and ``docs`` reports the coverage.
"""
import json
import os
import types

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "mint_names.json")
MODULES = ("mint", "mint.nn", "mint.nn.functional", "mint.optim", "mint.special", "mint.linalg")
#: Names in each module's ``dir`` that are imports of its implementation, not its API (the
#: ``*_ext``/``*_op`` kernels, ``inplace_*`` helpers, and what a module imports from another).
COMMON = {"absolute_import"}
NOT_API = {
    "mint": COMMON | {"constexpr", "jit_forbidden_register", "jit_view_unsupported",
                      "mindspore", "ops", "Tensor", "equal_ext_op", "flatten_ext",
                      "softmax_ext", "squeeze_impl", "npu_gelu", "cdist_", "conv_tbc",
                      "batch_norm_elemt", "batch_norm_gather_stats_with_counts",
                      "batch_norm_stats", "item", "functional"},
    "mint.nn": COMMON | {"Cell", "cross_entropy", "kl_div_ext", "mse_loss_ext", "nllloss",
                         "upsample_bilinear2d_op", "upsample_nearest2d_op"},
    "mint.nn.functional": COMMON | {"adaptive_avg_pool3d_ext", "broadcast_to", "clamp",
                                    "elu_ext", "hardtanh_op", "inplace_elu", "inplace_silu",
                                    "norm_ext", "silu_func", "threshold_op"},
    "mint.optim": COMMON,
    "mint.special": COMMON | {"round_op"},
    "mint.linalg": COMMON,
}


def main():
    import importlib
    import mindspore
    names = {}
    for module_name in MODULES:
        module = importlib.import_module("mindspore." + module_name)
        public = []
        for name in dir(module):
            if name.startswith("_") or isinstance(getattr(module, name), types.ModuleType):
                continue
            if name in NOT_API[module_name]:
                continue
            public.append(name)
        names[module_name] = sorted(public)
    with open(OUT, "w", encoding="utf-8") as f:
        json.dump({"mindspore": mindspore.__version__,
                   "not_api": {k: sorted(v) for k, v in NOT_API.items()}, "names": names}, f, indent=1, sort_keys=True)
        f.write("\n")
    print({k: len(v) for k, v in names.items()})


if __name__ == "__main__":
    main()
