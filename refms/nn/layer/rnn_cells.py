"""``nn.RNNCell``, ``nn.LSTMCell``, ``nn.GRUCell``: one time step of a recurrent network.

Each cell is a function of the input ``x`` (batch, input_size) and the state
``h`` (batch, hidden_size), with weights ``W_ih`` (k·hidden, input),
``W_hh`` (k·hidden, hidden) and biases ``b_ih``, ``b_hh`` (k·hidden,), where
k is the number of gates stacked in one matrix (1, 4, 3):

* Elman RNN (k = 1):  h' = act(x·W_ihᵀ + b_ih + h·W_hhᵀ + b_hh), act = tanh or ReLU.
* LSTM (k = 4, gates in the order i, f, g, o — Hochreiter & Schmidhuber 1997)::

      i, f, g, o = split(x·W_ihᵀ + h·W_hhᵀ + b_ih + b_hh, 4)
      c' = σ(f) ⊙ c + σ(i) ⊙ tanh(g);   h' = σ(o) ⊙ tanh(c')

* GRU (k = 3, gates r, z, n — Cho et al. 2014; the reset gate multiplies the
  hidden projection *after* its bias, as cuDNN and MindSpore do)::

      r = σ(x_r + h_r);  z = σ(x_z + h_z);  n = tanh(x_n + r ⊙ h_n)
      h' = n + z ⊙ (h − n)          (= (1 − z) ⊙ n + z ⊙ h)

The step functions are compositions of registered primitives (``MatMul``,
``Split``, ``Sigmoid``, ``Tanh``, ``ReLU``), not a fused primitive with its own
bprop: their gradients, GRAPH_MODE compilation and dtype rules are those of
the primitives, so a learner can follow the backward pass op by op.  (MindSpore's
CPU LSTM without ``seq_length`` calls a fused oneDNN kernel instead; the
arithmetic is the same, the rounding differs in the last float32 bits.)

Initialisation as MindSpore 2.10 ``nn/layer/rnn_cells.py``: every parameter
is first filled from ``np.random.randn`` and then reset to
``Uniform(1/√hidden_size)``, one initializer per parameter in the order
``weight_ih, weight_hh, bias_ih, bias_hh`` — so a seeded refms cell starts
from MindSpore's values.
"""
import math

import numpy as np

from ... import dtype as mstype
from ...initializer import initializer, Uniform
from ...ops import functional as F
from ...ops.prims.activation import ReLU, Sigmoid, Tanh
from ...ops.prims.join import Split
from ...ops.prims.matmul import MatMul
from ...parameter import Parameter
from ..._tensor import Tensor
from ..cell import Cell
from ._checks import check_positive_int, check_bool

__all__ = ["RNNCell", "LSTMCell", "GRUCell", "rnn_tanh_cell", "rnn_relu_cell", "lstm_cell",
           "gru_cell", "INPUT_DTYPES"]

#: The input dtypes MindSpore 2.10's recurrent cells and layers accept (others: TypeError).
#: refms's own float64 gradient checks widen it for the duration of a test.
INPUT_DTYPES = (mstype.float32, mstype.float16)

_MATMUL_T = MatMul(transpose_b=True)          # a · bᵀ: the weights are (out, in)
_SIGMOID = Sigmoid()
_TANH = Tanh()
_RELU = ReLU()
_SPLIT4 = Split(1, 4)
_SPLIT3 = Split(1, 3)


def _projections(x, h, w_ih, w_hh, b_ih, b_hh):
    """(x·W_ihᵀ + b_ih, h·W_hhᵀ + b_hh); without biases when ``b_ih`` is None."""
    gi = _MATMUL_T(x, w_ih)
    gh = _MATMUL_T(h, w_hh)
    if b_ih is not None:
        gi = gi + b_ih
        gh = gh + b_hh
    return gi, gh


def rnn_tanh_cell(x, h, w_ih, w_hh, b_ih, b_hh):
    """h' = tanh(x·W_ihᵀ + b_ih + h·W_hhᵀ + b_hh)."""
    gi, gh = _projections(x, h, w_ih, w_hh, b_ih, b_hh)
    return _TANH(gi + gh)


def rnn_relu_cell(x, h, w_ih, w_hh, b_ih, b_hh):
    """h' = relu(x·W_ihᵀ + b_ih + h·W_hhᵀ + b_hh)."""
    gi, gh = _projections(x, h, w_ih, w_hh, b_ih, b_hh)
    return _RELU(gi + gh)


def lstm_cell(x, state, w_ih, w_hh, b_ih, b_hh):
    """(h', c') = (σ(o) ⊙ tanh(c'), σ(f) ⊙ c + σ(i) ⊙ tanh(g)) with (i, f, g, o) the four gate
    blocks of x·W_ihᵀ + h·W_hhᵀ + b_ih + b_hh; ``state`` is (h, c)."""
    h, c = state
    gi, gh = _projections(x, h, w_ih, w_hh, b_ih, b_hh)
    in_gate, forget_gate, cell_gate, out_gate = _SPLIT4(gi + gh)
    in_gate = _SIGMOID(in_gate)
    forget_gate = _SIGMOID(forget_gate)
    cell_gate = _TANH(cell_gate)
    out_gate = _SIGMOID(out_gate)
    c_new = forget_gate * c + in_gate * cell_gate
    h_new = out_gate * _TANH(c_new)
    return h_new, c_new


def gru_cell(x, h, w_ih, w_hh, b_ih, b_hh):
    """h' = n + z ⊙ (h − n), n = tanh(x_n + r ⊙ h_n), r = σ(x_r + h_r), z = σ(x_z + h_z),
    with (x_r, x_z, x_n) the blocks of x·W_ihᵀ + b_ih and (h_r, h_z, h_n) those of
    h·W_hhᵀ + b_hh."""
    gi, gh = _projections(x, h, w_ih, w_hh, b_ih, b_hh)
    x_r, x_z, x_n = _SPLIT3(gi)
    h_r, h_z, h_n = _SPLIT3(gh)
    reset_gate = _SIGMOID(x_r + h_r)
    update_gate = _SIGMOID(x_z + h_z)
    new_gate = _TANH(x_n + reset_gate * h_n)
    return new_gate + update_gate * (h - new_gate)


# -- input checks (MindSpore's wording) --------------------------------------------------

def check_is_tensor(name, value, cls_name):
    """None passes (an absent optional input); anything else must be a Tensor."""
    if value is not None and not isinstance(value, Tensor):
        raise TypeError(f"For '{cls_name}', the '{name}' must be 'Tensor', but got "
                        f"'{type(value).__name__}'")


def check_is_tuple_of_two(name, value, cls_name):
    if not isinstance(value, tuple):
        raise TypeError(f"For '{cls_name}', the '{name}' must be 'Tuple', but got "
                        f"'{type(value).__name__}'")
    if len(value) != 2:
        raise TypeError(f"For '{cls_name}', the length of '{name}' must be '2', but got "
                        f"'{len(value)}'")


def check_input_dtype(name, dtype, cls_name):
    if dtype not in INPUT_DTYPES:
        allowed = ", ".join(repr(d) for d in INPUT_DTYPES)
        raise TypeError(f"For '{cls_name}', the '{name}' should be one of [{allowed}], but got "
                        f"'{dtype!r}'.")


class RNNCellBase(Cell):
    """The weights of one recurrent step with ``num_chunks`` gates (MindSpore's ``RNNCellBase``)."""

    def __init__(self, input_size, hidden_size, has_bias, num_chunks, dtype=mstype.float32):
        super().__init__()
        check_bool(has_bias, "has_bias", self.cls_name)
        check_positive_int(hidden_size, "hidden_size", self.cls_name)
        check_positive_int(input_size, "input_size", self.cls_name)
        self.input_size = input_size
        self.hidden_size = hidden_size
        self.has_bias = has_bias
        gates = num_chunks * hidden_size
        shapes = [("weight_ih", (gates, input_size)), ("weight_hh", (gates, hidden_size))]
        if has_bias:
            shapes += [("bias_ih", (gates,)), ("bias_hh", (gates,))]
        for name, shape in shapes:          # the placeholder draws MindSpore makes (then resets)
            setattr(self, name, Parameter(Tensor(np.random.randn(*shape), dtype), name=name))
        if not has_bias:
            self.bias_ih = None
            self.bias_hh = None
        self.reset_parameters(dtype)

    def reset_parameters(self, dtype=mstype.float32):
        """Every parameter ← U(±1/√hidden_size)."""
        stdv = 1 / math.sqrt(self.hidden_size)
        for weight in self.get_parameters():
            weight.set_data(initializer(Uniform(stdv), weight.shape, dtype))


class RNNCell(RNNCellBase):
    """RNNCell(input_size, hidden_size, has_bias=True, nonlinearity='tanh', dtype=float32)

    h' = act(x·W_ihᵀ + b_ih + h·W_hhᵀ + b_hh), act = tanh or ReLU; inputs ``(x, hx)``.
    """
    _non_linearity = ("tanh", "relu")

    def __init__(self, input_size, hidden_size, has_bias=True, nonlinearity="tanh",
                 dtype=mstype.float32):
        super().__init__(input_size, hidden_size, has_bias, num_chunks=1, dtype=dtype)
        if not isinstance(nonlinearity, str):
            raise TypeError(f"For '{self.cls_name}', the 'nonlinearity' must be str, but got "
                            f"{type(nonlinearity).__name__}.")
        if nonlinearity not in self._non_linearity:
            raise ValueError(f"For '{self.cls_name}', the 'nonlinearity' must be str and must be "
                             f"in ['tanh', 'relu'], but got '{nonlinearity}'.")
        self.nonlinearity = nonlinearity

    def construct(self, x, hx):
        check_is_tensor("x", x, self.cls_name)
        check_is_tensor("hx", hx, self.cls_name)
        check_input_dtype("x", x.dtype, self.cls_name)
        check_input_dtype("hx", hx.dtype, self.cls_name)
        if self.nonlinearity == "tanh":
            return rnn_tanh_cell(x, hx, self.weight_ih, self.weight_hh, self.bias_ih, self.bias_hh)
        return rnn_relu_cell(x, hx, self.weight_ih, self.weight_hh, self.bias_ih, self.bias_hh)


class LSTMCell(RNNCellBase):
    """LSTMCell(input_size, hidden_size, has_bias=True, dtype=float32)

    (h', c') = LSTM step of ``x`` from ``hx = (h, c)``; gates i, f, g, o stacked in the weights.
    The 1.x signature (a whole LSTM layer: ``batch_size``, ``dropout``, ``bidirectional``)
    raises ``ValueError`` pointing at ``nn.LSTM``, as in MindSpore.
    """

    def __init__(self, input_size, hidden_size, has_bias=True, dtype=mstype.float32, **kwargs):
        for old in ("batch_size", "dropout", "bidirectional"):
            if old in kwargs:
                raise ValueError("The arguments of `nn.LSTMCell` from old MindSpore version(<1.6) "
                                 "are detected, if you still need use single LSTM layer, please "
                                 "use `nn.LSTM` instead.")
        if kwargs:
            raise TypeError(f"LSTMCell got an unexpected keyword argument "
                            f"'{next(iter(kwargs))}'")
        super().__init__(input_size, hidden_size, has_bias, num_chunks=4, dtype=dtype)

    def construct(self, x, hx):
        check_is_tensor("x", x, self.cls_name)
        check_is_tuple_of_two("hx", hx, self.cls_name)
        check_is_tensor("hx[0]", hx[0], self.cls_name)
        check_is_tensor("hx[1]", hx[1], self.cls_name)
        check_input_dtype("x", x.dtype, self.cls_name)
        check_input_dtype("hx[0]", hx[0].dtype, self.cls_name)
        check_input_dtype("hx[1]", hx[1].dtype, self.cls_name)
        return lstm_cell(x, hx, self.weight_ih, self.weight_hh, self.bias_ih, self.bias_hh)


class GRUCell(RNNCellBase):
    """GRUCell(input_size, hidden_size, has_bias=True, dtype=float32)

    h' = GRU step of ``x`` from ``hx``; gates r, z, n stacked in the weights.
    """

    def __init__(self, input_size, hidden_size, has_bias=True, dtype=mstype.float32):
        super().__init__(input_size, hidden_size, has_bias, num_chunks=3, dtype=dtype)

    def construct(self, x, hx):
        check_is_tensor("x", x, self.cls_name)
        check_is_tensor("hx", hx, self.cls_name)
        check_input_dtype("x", x.dtype, self.cls_name)
        check_input_dtype("hx", hx.dtype, self.cls_name)
        return gru_cell(x, hx, self.weight_ih, self.weight_hh, self.bias_ih, self.bias_hh)
