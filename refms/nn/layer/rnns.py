"""``nn.RNN``, ``nn.LSTM``, ``nn.GRU``: stacked, optionally bidirectional recurrent layers.

A layer runs one of the step functions of :mod:`refms.nn.layer.rnn_cells` over
the time axis, for each of ``num_layers`` layers and ``num_directions`` (1,
or 2 when ``bidirectional``) directions, as MindSpore 2.10
``nn/layer/rnns.py`` does::

    for layer l:   out_f, h_f = scan(step, input_l, h₀[2l])             (forward in time)
                   out_b, h_b = scan(step, reverse(input_l), h₀[2l+1])  (bidirectional only)
                   output_l = concat(out_f, reverse(out_b), axis=2)
                   input_(l+1) = dropout(output_l)          (training, all but the last layer)

``x`` is (seq_len, batch, input_size), or (batch, seq_len, input_size) with
``batch_first``; ``hx`` is (num_directions·num_layers, batch, hidden) — a pair
(h, c) for LSTM — and zeros when omitted.  The outputs are the last layer's
``output`` (seq_len, batch, num_directions·hidden) and the final state of
every layer and direction, shaped like ``hx``.

``seq_length`` (batch,) gives each sequence's real length in a padded batch.
Then every step t updates only the rows with t < seq_length (the others keep
their state, ``Select``), the output of a finished row is 0, and the
backward direction reads each row's first ``seq_length`` steps reversed
(``ReverseSequence``), so padding never reaches a state.

Parameters, named and shaped as MindSpore's so checkpoints map one to one
(k = 1, 4, 3 gates for RNN, LSTM, GRU; in = input_size for layer 0, else
num_directions·hidden; suffix ``_reverse`` for the backward direction)::

    weight_ih_l{l}[_reverse] (k·hidden, in)     weight_hh_l{l}[_reverse] (k·hidden, hidden)
    bias_ih_l{l}[_reverse]   (k·hidden,)        bias_hh_l{l}[_reverse]   (k·hidden,)

all drawn from U(±1/√hidden) with ``np.random.uniform`` in the order layer,
direction, (w_ih, w_hh, b_ih, b_hh), as MindSpore draws them, and kept in the
ParameterTuples ``w_ih_list``, ``w_hh_list``, ``b_ih_list``, ``b_hh_list``.
"""
import math

import numpy as np

from ... import dtype as mstype
from ...ops import functional as F
from ...parameter import Parameter, ParameterTuple
from ..._tensor import Tensor
from ..cell import Cell
from ._checks import check_positive_int, check_bool
from .dropout import Dropout
from .rnn_cells import (rnn_tanh_cell, rnn_relu_cell, lstm_cell, gru_cell, check_is_tensor,
                        check_is_tuple_of_two, check_input_dtype)

__all__ = ["RNN", "LSTM", "GRU"]

#: Without ``hx``, MindSpore 2.10 does not check the dtype of ``x``: float64 runs in float64.
FLOAT_DTYPES = (mstype.float16, mstype.float32, mstype.float64)

#: mode -> (step function, number of gate blocks in the weights)
MODES = {
    "RNN_TANH": (rnn_tanh_cell, 1),
    "RNN_RELU": (rnn_relu_cell, 1),
    "LSTM": (lstm_cell, 4),
    "GRU": (gru_cell, 3),
}


class _DynamicRNNBase(Cell):
    """One direction of one layer: the step function scanned over the time axis 0."""

    def __init__(self, mode):
        super().__init__()
        self.step = MODES[mode][0]
        self.is_lstm = mode == "LSTM"

    def recurrent(self, x, h, w_ih, w_hh, b_ih, b_hh):
        """outputs[t] = h_t (h of (h, c) for LSTM) for every step; returns (outputs, last state)."""
        outputs = []
        for t in range(x.shape[0]):
            h = self.step(x[t], h, w_ih, w_hh, b_ih, b_hh)
            outputs.append(h[0] if self.is_lstm else h)
        return F.stack(outputs, 0), h

    def variable_recurrent(self, x, h, seq_length, w_ih, w_hh, b_ih, b_hh):
        """As :meth:`recurrent`, but row b changes state only while t < seq_length[b] and outputs
        zeros after that."""
        first = h[0] if self.is_lstm else h
        batch, hidden = first.shape
        zero_output = F.zeros_like(first)
        lengths = F.reshape(seq_length, (batch, 1))
        outputs = []
        for t in range(x.shape[0]):
            new = self.step(x[t], h, w_ih, w_hh, b_ih, b_hh)
            valid = F.broadcast_to(F.greater(lengths, t), (batch, hidden))
            if self.is_lstm:
                h = (F.select(valid, new[0], h[0]), F.select(valid, new[1], h[1]))
                outputs.append(F.select(valid, new[0], zero_output))
            else:
                h = F.select(valid, new, h)
                outputs.append(F.select(valid, new, zero_output))
        return F.stack(outputs, 0), h

    def construct(self, x, h, seq_length, w_ih, w_hh, b_ih, b_hh):
        if w_ih.dtype != x.dtype:                # float16 inputs run with float16 weights
            w_ih, w_hh = F.cast(w_ih, x.dtype), F.cast(w_hh, x.dtype)
            if b_ih is not None:
                b_ih, b_hh = F.cast(b_ih, x.dtype), F.cast(b_hh, x.dtype)
        if seq_length is None:
            return self.recurrent(x, h, w_ih, w_hh, b_ih, b_hh)
        return self.variable_recurrent(x, h, seq_length, w_ih, w_hh, b_ih, b_hh)


# MindSpore's CPU/GPU recurrences, under their names (the layers print them as children).
class _DynamicRNNTanh(_DynamicRNNBase):
    def __init__(self):
        super().__init__("RNN_TANH")


class _DynamicRNNRelu(_DynamicRNNBase):
    def __init__(self):
        super().__init__("RNN_RELU")


class _DynamicLSTMCPUGPU(_DynamicRNNBase):
    def __init__(self):
        super().__init__("LSTM")


class _DynamicGRUCPUGPU(_DynamicRNNBase):
    def __init__(self):
        super().__init__("GRU")


_RECURRENCES = {"RNN_TANH": _DynamicRNNTanh, "RNN_RELU": _DynamicRNNRelu,
                "LSTM": _DynamicLSTMCPUGPU, "GRU": _DynamicGRUCPUGPU}


def _check_is_float(value, name, cls_name):
    if not isinstance(value, float):
        raise TypeError(f"For '{cls_name}', the '{name}' must be float, but got "
                        f"{type(value).__name__}.")


class _RNNBase(Cell):
    """The layers' shared body (MindSpore's ``_RNNBase``)."""

    def __init__(self, mode, input_size, hidden_size, num_layers=1, has_bias=True,
                 batch_first=False, dropout=0., bidirectional=False, dtype=mstype.float32):
        super().__init__()
        name = self.cls_name
        check_positive_int(hidden_size, "hidden_size", name)
        check_positive_int(input_size, "input_size", name)
        check_positive_int(num_layers, "num_layers", name)
        _check_is_float(dropout, "dropout", name)
        check_bool(has_bias, "has_bias", name)
        check_bool(batch_first, "batch_first", name)
        check_bool(bidirectional, "bidirectional", name)
        if not 0 <= dropout < 1:
            raise ValueError(f"For '{name}', the 'dropout' must be a number in range [0, 1) "
                             f"representing the probability of an element being zeroed, but got "
                             f"{dropout}.")
        gate_size = MODES[mode][1] * hidden_size
        self.rnn = _RECURRENCES[mode]()
        self.hidden_size = hidden_size
        self.batch_first = batch_first
        self.num_layers = num_layers
        self.dropout = dropout
        self.dropout_op = Dropout(p=float(dropout))
        self.bidirectional = bidirectional
        self.has_bias = has_bias
        self.is_lstm = mode == "LSTM"
        num_directions = 2 if bidirectional else 1
        stdv = 1 / math.sqrt(hidden_size)

        def uniform(shape, param_name):
            values = np.random.uniform(-stdv, stdv, shape).astype(np.float32)
            return Parameter(Tensor(values, dtype), name=param_name)

        w_ih, w_hh, b_ih, b_hh = [], [], [], []
        for layer in range(num_layers):
            for direction in range(num_directions):
                layer_input_size = input_size if layer == 0 else hidden_size * num_directions
                suffix = f"l{layer}" + ("_reverse" if direction == 1 else "")
                w_ih.append(uniform((gate_size, layer_input_size), "weight_ih_" + suffix))
                w_hh.append(uniform((gate_size, hidden_size), "weight_hh_" + suffix))
                if has_bias:
                    b_ih.append(uniform((gate_size,), "bias_ih_" + suffix))
                    b_hh.append(uniform((gate_size,), "bias_hh_" + suffix))
        self.w_ih_list = ParameterTuple(w_ih)
        self.w_hh_list = ParameterTuple(w_hh)
        self.b_ih_list = ParameterTuple(b_ih)
        self.b_hh_list = ParameterTuple(b_hh)

    def _weights(self, index):
        """(w_ih, w_hh, b_ih, b_hh) of the ``index``-th (layer, direction); biases None without."""
        if self.has_bias:
            return (self.w_ih_list[index], self.w_hh_list[index], self.b_ih_list[index],
                    self.b_hh_list[index])
        return self.w_ih_list[index], self.w_hh_list[index], None, None

    def _initial_state(self, h, index):
        if self.is_lstm:
            return h[0][index], h[1][index]
        return h[index]

    def _reverse(self, x, seq_length):
        """The time axis reversed: all of it, or each row's first seq_length steps."""
        if seq_length is None:
            return F.reverse(x, (0,))
        return F.reverse_sequence(x, seq_length, 0, 1)

    def _stacked(self, x, h, seq_length):
        """Every layer and direction in turn; returns (last layer's output, final states)."""
        num_directions = 2 if self.bidirectional else 1
        layer_input = x
        output = x
        h_n = []
        c_n = []
        for layer in range(self.num_layers):
            index = layer * num_directions
            output, state = self.rnn(layer_input, self._initial_state(h, index), seq_length,
                                     *self._weights(index))
            states = [state]
            if self.bidirectional:
                reversed_input = self._reverse(layer_input, seq_length)
                output_b, state_b = self.rnn(reversed_input, self._initial_state(h, index + 1),
                                             seq_length, *self._weights(index + 1))
                output = F.concat((output, self._reverse(output_b, seq_length)), 2)
                states.append(state_b)
            for state_i in states:
                h_n.append(state_i[0] if self.is_lstm else state_i)
                if self.is_lstm:
                    c_n.append(state_i[1])
            last = layer == self.num_layers - 1
            layer_input = self.dropout_op(output) if (self.dropout != 0 and not last) else output
        if self.is_lstm:
            return output, (F.stack(h_n, 0), F.stack(c_n, 0))
        return output, F.stack(h_n, 0)

    def _check_inputs(self, x, hx, seq_length):
        name = self.cls_name
        check_is_tensor("x", x, name)
        if hx is not None:
            if self.is_lstm:
                check_is_tuple_of_two("hx", hx, name)
                check_is_tensor("hx[0]", hx[0], name)
                check_is_tensor("hx[1]", hx[1], name)
                dtypes = (("x", x.dtype), ("hx[0]", hx[0].dtype), ("hx[1]", hx[1].dtype))
            else:
                check_is_tensor("h", hx, name)
                dtypes = (("x", x.dtype), ("hx", hx.dtype))
            for arg, dtype in dtypes:
                check_input_dtype(arg, dtype, name)
            for arg, dtype in dtypes[1:]:
                if dtype != x.dtype:
                    raise TypeError(f"For '{name}', the type of '{arg}' should be same as 'x', "
                                    f"but got 'x' with type {x.dtype} and '{arg}' with type "
                                    f"{dtype}.")
        elif x.dtype not in FLOAT_DTYPES:         # MindSpore checks x only together with hx;
            raise TypeError(f"For '{name}', the dtype of 'x' should be a float type, but got "
                            f"{x.dtype}.")      # an int x fails in its first Tanh/Sigmoid kernel
        if len(x.shape) != 3:
            raise ValueError(f"For '{name}', the input 'x' must be 3-D (seq_len, batch_size, "
                             f"input_size), but got shape {tuple(x.shape)}.")
        if seq_length is not None:
            check_is_tensor("seq_length", seq_length, name)
            if seq_length.dtype not in (mstype.int32, mstype.int64):
                raise TypeError(f"For '{name}', the type of 'seq_length' should be in "
                                f"[mindspore.int32, mindspore.int64], but got "
                                f"{seq_length.dtype!r}.")
            batch = x.shape[0] if self.batch_first else x.shape[1]
            if tuple(seq_length.shape) != (batch,):
                raise ValueError(f"For '{name}' batch size of x and seq_length must be equal, "
                                 f"but got {batch} of x and {tuple(seq_length.shape)} of "
                                 f"seq_length.")

    def construct(self, x, hx=None, seq_length=None):
        self._check_inputs(x, hx, seq_length)
        x_dtype = x.dtype
        num_directions = 2 if self.bidirectional else 1
        batch = x.shape[0] if self.batch_first else x.shape[1]
        if hx is None:
            zeros = F.zeros((self.num_layers * num_directions, batch, self.hidden_size), x_dtype)
            hx = (zeros, zeros) if self.is_lstm else zeros
        if self.batch_first:
            x = F.transpose(x, (1, 0, 2))
        output, h_n = self._stacked(x, hx, seq_length)
        if self.batch_first:
            output = F.transpose(output, (1, 0, 2))
        return output, h_n


class RNN(_RNNBase):
    """RNN(input_size, hidden_size, num_layers=1, nonlinearity='tanh', has_bias=True,
    batch_first=False, dropout=0.0, bidirectional=False, dtype=float32)

    Stacked Elman RNN, h_t = act(x_t·W_ihᵀ + b_ih + h_(t−1)·W_hhᵀ + b_hh), act = tanh or ReLU;
    ``(output, h_n) = rnn(x, hx=None, seq_length=None)``.
    """

    def __init__(self, *args, **kwargs):
        mode = "RNN_TANH"
        if "nonlinearity" in kwargs:
            nonlinearity = kwargs.pop("nonlinearity")
            if nonlinearity == "relu":
                mode = "RNN_RELU"
            elif nonlinearity != "tanh":
                raise ValueError(f"For '{type(self).__name__}', the 'nonlinearity' must be in "
                                 f"['tanh', 'relu'], but got {nonlinearity}.")
        super().__init__(mode, *args, **kwargs)


class GRU(_RNNBase):
    """GRU(input_size, hidden_size, num_layers=1, has_bias=True, batch_first=False, dropout=0.0,
    bidirectional=False, dtype=float32)

    Stacked GRU (gates r, z, n; see :func:`~refms.nn.layer.rnn_cells.gru_cell`);
    ``(output, h_n) = gru(x, hx=None, seq_length=None)``.
    """

    def __init__(self, *args, **kwargs):
        super().__init__("GRU", *args, **kwargs)


class LSTM(_RNNBase):
    """LSTM(input_size, hidden_size, num_layers=1, has_bias=True, batch_first=False, dropout=0.0,
    bidirectional=False, dtype=float32)

    Stacked LSTM (gates i, f, g, o; see :func:`~refms.nn.layer.rnn_cells.lstm_cell`);
    ``(output, (h_n, c_n)) = lstm(x, hx=None, seq_length=None)`` with ``hx = (h_0, c_0)``.
    """

    def __init__(self, *args, **kwargs):
        super().__init__("LSTM", *args, **kwargs)
