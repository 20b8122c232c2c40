"""Where refms differs from MindSpore 2.10 on the recorded differential cases, and why.

Read by ``tests/test_differential.py``: a difference not matched here fails the
test, and so does an entry that no longer matches any difference.  Keys are
case labels (``fnmatch`` patterns); values are ``(aspect, explanation)`` with
aspect one of ``forward``, ``dtype``, ``grad``, ``exception`` (or a tuple of them); the explanation
says what MindSpore does and why refms does otherwise.
"""

DIFFERENCES = {
    "edge:overload-var-kw": (
        "exception", "Tensor.var(dim=0, correction=1): MindSpore 2.10 has no CPU kernel for the "
                     "PyTorch-style overload ('The kernel Var unregistered', RuntimeError); refms "
                     "computes Σ (x − mean)² / (N − correction)."),
    "bad:Tensor.[rt][ey][sp]*_as(*)": (
        "exception", "Tensor.reshape_as / Tensor.type_as of None or a list: MindSpore 2.10 fails "
                     "reading 'other.shape' / 'other.dtype' (AttributeError); refms raises "
                     "TypeError naming the method and 'other', as for every other non-Tensor input."),
    # --- MindSpore bugs refms does not reproduce ------------------------------------------------
    "ops.any#2": (
        "forward", "ops.any of an int32 tensor over axis -3 with keep_dims: MindSpore 2.10's CPU "
                   "kernel returns True where both entries are 0 (and False where both are "
                   "nonzero); refms returns the logical or (the #0 and #1 cases agree)."),
    "ops.einsum#[012]": (
        "exception", "MindSpore 2.10 has no CPU kernel for ops.einsum (RuntimeError); refms "
                     "computes the contraction (mint.einsum)."),
    "ops.take#[012]": (
        "exception", "MindSpore 2.10 has no CPU kernel for Take ('The kernel Take unregistered', "
                     "RuntimeError); refms gathers from the flattened input (mint.take)."),
    "bad:add*mm(list)": (
        "exception", "a list as 'input' of ops.addmm / ops.addbmm: MindSpore 2.10 converts it and "
                     "fails on its shape (ValueError); refms rejects it as not a Tensor "
                     "(TypeError naming the op)."),
    "nn.Momentum#[12]": (
        "forward", "use_nesterov=True: MindSpore 2.10's CPU ApplyMomentum kernel ignores the flag "
                   "and applies plain momentum; refms applies the documented Nesterov update "
                   "(refms/nn/optim/momentum.py)."),
    "ops.strided_slice#[02]": (
        "exception", "MindSpore 2.10's StridedSliceGrad fails on these strides ('6 input memory out "
                     "of bounds', RuntimeError); refms returns the gradient (checked against "
                     "central differences in the op table)."),
    "nn.LayerNorm#[12]": (
        "exception", "begin_norm_axis=-2 on a rank-3 input: MindSpore 2.10 checks the axis against "
                     "[-1, rank) and raises RuntimeError although -2 is a valid axis; refms "
                     "normalises over the last two axes."),
    "edge:cumsum-empty": (
        "exception", "cumsum of an empty tensor: MindSpore 2.10's CPU kernel fails to launch "
                     "(RuntimeError); refms returns the empty result."),
    "edge:amax-empty": (
        ("forward", "dtype"), "amax of an empty tensor: MindSpore 2.10 returns uninitialised memory; refms "
                   "raises ValueError ('cannot reduce over an empty dimension'), as MindSpore's "
                   "own ops.max does."),
    "edge:topk-nan": (
        "forward", "topk over NaN: MindSpore 2.10's CPU kernel picks NaN or not depending on its "
                   "position (recorded: [3, nan, 1, 2] gives [3, 2] but [2, 1, nan, inf] gives "
                   "[nan, inf]); refms sorts NaN as the largest value, as numpy does."),
    "bad:linspace(None)": (
        "exception", "ops.linspace(None, ...): MindSpore 2.10 raises RuntimeError (and ValueError "
                     "for a list); refms raises TypeError naming 'start', the type the argument "
                     "check of every other op raises."),
    "bad:linspace(list)": (
        "exception", "ops.linspace([1.0, 2.0], ...): MindSpore 2.10 raises ValueError; refms raises "
                     "TypeError ('start' must be a number or a 0-d Tensor)."),
    "Tensor.clone#*": (
        "exception", "Tensor.clone: MindSpore 2.10 supports it on Ascend only (its CPU raises "
                     "RuntimeError 'The kernel Clone unregistered'); refms returns the copy the "
                     "documentation describes (gradient flowing through)."),
    "Tensor.repeat#*": (
        "exception", "Tensor.repeat(*repeats): MindSpore 2.10 supports it on Ascend only (its CPU "
                     "raises RuntimeError \"'repeat' is not supported on this device\"); refms "
                     "tiles as the documentation describes (ops.tile)."),
    "Tensor.select#*": (
        "exception", "the gradient of Tensor.select(dim, index): MindSpore 2.10's CPU raises "
                     "RuntimeError (\"For 'InplaceCopy, an unexpected kernel has been "
                     "launched\"); refms's is GetItem's (dout placed at the selected slice)."),
    # --- mindspore.mint and the in-place Tensor methods (refms/mint, refms/_tensor_inplace.py) ---
    "mint.kthvalue#*": (
        "exception", "MindSpore 2.10 raises ValueError ('should not come here for kthvalue "
                     "py_method') on CPU; refms returns the k-th smallest values and their "
                     "indices (tests/test_mint.py checks them against numpy)."),
    "mint.select#*": (
        "exception", "the gradient of mint.select: MindSpore 2.10's CPU backend raises "
                     "RuntimeError (an InplaceCopy of mismatched sizes); refms returns the "
                     "gradient (central differences in tests/test_mint.py)."),
    "mint.nn.functional.softplus#*": (
        "exception", "the gradient of mint.nn.functional.softplus: MindSpore 2.10's CPU backend "
                     "raises RuntimeError; refms returns it (ops.softplus's gradient)."),
    "bad:Tensor.sub_(list)": (
        "exception", "x.sub_([1.0, 2.0]): MindSpore 2.10 converts the list and raises ValueError "
                     "(shapes do not broadcast); refms raises TypeError (a list is not a Tensor), "
                     "as its Sub does for every non-Tensor argument."),
}

#: Shared APIs without recorded random cases, and why.
NOT_COVERED = {
    "Tensor.data_ptr": "a memory address, different in every process: "
                       "tests/test_tensor_methods.py checks it is the values' address",
    "roll": "MindSpore 2.10 has no CPU kernel for Roll ('The kernel Roll unregistered'), so "
            "there is nothing to record; refms's ops.roll is mint.roll",
    "Tensor.has_init": "lazy initialisation: covered by tests/test_initializer.py",
    "Tensor.init": "lazy initialisation: covered by tests/test_initializer.py",
    "Tensor.init_data": "lazy initialisation: covered by tests/test_initializer.py",
    "Tensor.register_hook": "a backward hook: covered by tests/test_autodiff.py",
    "nn.Cell": "the base class of every layer case",
    "nn.CellList": "a container: covered by tests/test_cell.py",
    "nn.SequentialCell": "a container: covered by tests/test_cell.py",
    "nn.LossBase": "the base class of the loss cases",
    "nn.Loss": "a metric averaging loss values: covered by tests/test_model.py",
    "nn.Metric": "the base class of the metric cases",
    "nn.Optimizer": "the base class of the optimizer cases",
    "nn.TrainOneStepCell": "a training wrapper: covered by tests/test_amp.py, test_backend_lenet.py",
    "nn.TrainOneStepWithLossScaleCell": "a training wrapper: covered by tests/test_wrap.py",
    "nn.WithLossCell": "a wrapper: covered by tests/test_amp.py",
    "nn.WithEvalCell": "a wrapper: covered by tests/test_wrap.py",
    "nn.WithGradCell": "a wrapper: covered by tests/test_wrap.py",
    "nn.DistributedGradReducer": "identity on one device: covered by tests/test_mindspore_paths.py",
    "nn.DynamicLossScaleUpdateCell": "loss-scale state: covered by tests/test_wrap.py",
    "nn.FixedLossScaleUpdateCell": "loss-scale state: covered by tests/test_wrap.py",
    "nn.GraphCell": "runs an exported MindIR file: covered by the MindIR export/load tests",
    "nn.Lamb": "no CPU kernel in MindSpore 2.10: tests/test_optimizers_more.py checks the paper",
    "dot": "covered by tests/test_api_ops.py (recorded, with gradients)",
    "gcd": "covered by tests/test_mint_gaps.py (recorded on MindSpore 2.10) and op-table rows "
           "that MindSpore 2.10 passes too",
    "Tensor.set_": "replaces a tensor's storage: covered by tests/test_api_gaps.py (recorded)",
    "Tensor.requires_grad_": "a Parameter's flag: covered by tests/test_api_gaps.py (recorded)",
    "Tensor.to_": "moves a tensor between devices (MindSpore 2.10's CPU build has no 'Free' "
                  "kernel for it): covered by tests/test_api_gaps.py",
}
#: The in-place methods MindSpore 2.10 has no CPU kernel for (differential_cases.py,
#: NO_CPU_KERNEL_IN_MINDSPORE): tests/test_tensor_inplace.py checks them by their definitions.
for _api in ("Tensor.addmm_", "Tensor.clamp_", "Tensor.erfinv_", "Tensor.fill_", "Tensor.floor_",
             "Tensor.log_", "Tensor.masked_fill_", "Tensor.normal_", "Tensor.sigmoid_",
             "Tensor.sign_", "Tensor.tanh_", "Tensor.uniform_", "Tensor.zero_",
             # probed on 2.10 CPU: "The kernel InplaceIndexAddExt unregistered" (and likewise
             # InplaceIndexCopy, InplaceIndexFillScalar, InplaceIndexPut, InplaceScatterSrc,
             # InplaceScatterAdd, InplaceMaskedScatter), put_ "no branch to go function
             # tensor_put_", fill_diagonal_ ValueError "should not come here", random_
             # "Create kernelmod for op InplaceRandom failed", exponential_ "Not implement",
             # bernoulli_ "not supported on this device"
             "Tensor.index_add_", "Tensor.index_copy_", "Tensor.index_fill_",
             "Tensor.index_put_", "Tensor.put_", "Tensor.scatter_", "Tensor.scatter_add_",
             "Tensor.masked_scatter_", "Tensor.fill_diagonal_", "Tensor.random_",
             "Tensor.exponential_", "Tensor.bernoulli_"):
    NOT_COVERED[_api] = "no CPU kernel in MindSpore 2.10: covered by tests/test_tensor_inplace.py"
