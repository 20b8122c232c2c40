"""The training/evaluation progress bar never shares a line with other output.

A small terminal emulator (carriage return, ``ESC[K``, newline) renders what the
terminal would show when the bar, ``LossMonitor`` and the script's own prints
all go to one terminal; every printed line must appear whole, on its own line,
and the bar must be gone at the end.  Off a terminal the bar writes nothing.
"""
import io
import sys

import numpy as np
import pytest

import refms.dataset as ds
from refms import nn
from refms.train import LossMonitor, Model, ProgressBar
from refms.train.callback import Callback
from refms.train.callback.progress import CLEAR_LINE


class Terminal(io.StringIO):
    def isatty(self):
        return True


def render(text):
    """The lines a terminal shows for ``text`` (``\\r``, ``ESC[K`` and ``\\n`` understood)."""
    lines, line, col, i = [], [], 0, 0
    while i < len(text):
        if text.startswith("\x1b[K", i):
            del line[col:]
            i += 3
            continue
        ch = text[i]
        if ch == "\r":
            col = 0
        elif ch == "\n":
            lines.append("".join(line))
            line, col = [], 0
        else:
            if col < len(line):
                line[col] = ch
            else:
                line.append(ch)
            col += 1
        i += 1
    return lines, "".join(line)


class Chatty(Callback):
    """Prints in the middle of the run, as example scripts do."""

    def on_train_step_end(self, run_context):
        cb = run_context.original_args()
        if cb.cur_step_num % 2 == 0:
            print(f"my own print at step {cb.cur_step_num}", end="")
            print(" (two writes)")

    def on_eval_step_end(self, run_context):
        print(f"eval print {run_context.original_args().cur_step_num}")


def model_and_data():
    rng = np.random.default_rng(0)
    x = rng.standard_normal((20, 4)).astype(np.float32)
    y = (x[:, 0] > 0).astype(np.int32)
    net = nn.Dense(4, 2)
    model = Model(net, nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean"),
                  nn.Momentum(net.trainable_params(), 0.1, 0.9), metrics={"acc"})
    return model, ds.NumpySlicesDataset({"x": x, "y": y}, shuffle=False).batch(4)


@pytest.fixture
def terminal():
    """stdout and stderr both on one terminal.  Set inside the test, not in the fixture's setup:
    pytest's own capture takes sys.stdout back when the test body starts."""
    screen = Terminal()
    saved = sys.stdout, sys.stderr

    class On:
        def __enter__(self):
            sys.stdout = sys.stderr = screen
            return screen

        def __exit__(self, *err):
            sys.stdout, sys.stderr = saved

    return On()


def test_train_bar_and_prints_never_share_a_line(terminal):
    model, data = model_and_data()
    with terminal as screen:
        model.train(2, data, callbacks=[LossMonitor(1), Chatty(), ProgressBar(stream=screen)])
        print("after training")
        given_back = sys.stdout is screen and sys.stderr is screen
    assert given_back
    lines, last = render(screen.getvalue())
    assert last == ""                                          # the bar's line is erased
    monitor = [line for line in lines if line.startswith("epoch: ")]
    own = [line for line in lines if line.startswith("my own print")]
    assert len(monitor) == 10 and all(", loss is " in line and "[" not in line for line in monitor)
    assert own == [f"my own print at step {k} (two writes)" for k in (2, 4, 6, 8, 10)]
    assert lines == [line for line in lines if line in monitor or line in own] + ["after training"]
    assert "epoch 2/2 [" in screen.getvalue()                   # the bar was drawn


def test_eval_bar_and_prints_never_share_a_line(terminal):
    model, data = model_and_data()
    with terminal as screen:
        model.eval(data, callbacks=[Chatty(), ProgressBar(stream=screen)])
    lines, last = render(screen.getvalue())
    assert last == ""
    assert lines == [f"eval print {k}" for k in range(1, 6)]
    assert "eval [####################] 5/5" in screen.getvalue()


def test_streams_are_given_back_when_training_raises(terminal):
    model, data = model_and_data()

    class Boom(Callback):
        def on_train_step_end(self, run_context):
            if run_context.original_args().cur_step_num == 3:
                raise RuntimeError("boom")

    with terminal as screen:
        with pytest.raises(RuntimeError, match="boom"):
            model.train(1, data, callbacks=[ProgressBar(stream=screen), Boom()])
        given_back = sys.stdout is screen and sys.stderr is screen
    assert given_back
    assert "epoch 1/1 [" in screen.getvalue() and render(screen.getvalue())[1] == ""


def test_no_bar_off_a_terminal(monkeypatch):
    monkeypatch.delenv("REFMS_PROGRESS", raising=False)
    plain = io.StringIO()
    model, data = model_and_data()
    model.train(1, data, callbacks=[ProgressBar(stream=plain)])
    assert plain.getvalue() == ""
    assert CLEAR_LINE not in plain.getvalue()
