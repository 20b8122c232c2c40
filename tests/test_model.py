"""Model.train / eval / predict with callbacks and metrics (MindSpore 2.10 ``train/model.py``).

The printed lines and checkpoint names were compared with MindSpore 2.10
running the same script (``model1`` experiment: the losses printed there are
0.5781376361846924, 0.4968557357788086, 0.26450273394584656, ...).
"""
import os
import re

import numpy as np
import pytest

import refms as ms
import refms.dataset as ds
from refms import Tensor, nn
from refms.train import (Accuracy, Callback, CheckpointConfig, Loss, LossMonitor, Model,
                         ModelCheckpoint, ProgressBar, TimeMonitor, Top1CategoricalAccuracy,
                         Top5CategoricalAccuracy, TopKCategoricalAccuracy)

RNG = np.random.RandomState(0)
DATA_X = RNG.randn(20, 4).astype(np.float32)
DATA_Y = (DATA_X[:, 0] > 0).astype(np.int32)


def make_model(metrics=None):
    net = nn.Dense(4, 2, weight_init="ones", bias_init="zeros")
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    opt = nn.Momentum(net.trainable_params(), 0.1, 0.9)
    return Model(net, loss, opt, metrics=metrics), net


def data(batch=4):
    return ds.NumpySlicesDataset({"x": DATA_X, "y": DATA_Y}, shuffle=False).batch(batch)


def test_loss_monitor_prints_mindspore_lines(capsys):
    model, _ = make_model()
    model.train(2, data(), callbacks=[LossMonitor(2)])
    lines = capsys.readouterr().out.splitlines()
    assert [line.split(", loss is")[0] for line in lines] == [
        "epoch: 1 step: 2", "epoch: 1 step: 4", "epoch: 2 step: 1", "epoch: 2 step: 3",
        "epoch: 2 step: 5"]
    losses = [float(line.split("loss is ")[1]) for line in lines]
    np.testing.assert_allclose(losses, [0.5781376361846924, 0.4968557357788086,
                                        0.26450273394584656, 0.08012867718935013,
                                        0.3255687952041626], rtol=2e-6)


def test_time_monitor_line(capsys):
    model, _ = make_model()
    model.train(1, data(), callbacks=TimeMonitor())
    line = capsys.readouterr().out.strip()
    assert re.fullmatch(r"Train epoch time: \d+\.\d{3} ms, per step time: \d+\.\d{3} ms", line)


def test_nan_loss_stops_training():
    net = nn.Dense(4, 2, weight_init="ones", bias_init="zeros")
    model = Model(net, nn.MSELoss(), nn.SGD(net.trainable_params(), 1e30))
    targets = ds.NumpySlicesDataset({"x": DATA_X * 1e20, "y": np.zeros((20, 2), np.float32)},
                                    shuffle=False).batch(4)
    with pytest.raises(ValueError, match="loss is NAN or INF"):
        with np.errstate(all="ignore"):
            model.train(3, targets, callbacks=LossMonitor())


def test_callbacks_are_called_in_order_and_can_stop():
    calls = []

    class Recorder(Callback):
        def on_train_begin(self, run_context):
            calls.append("begin")

        def on_train_epoch_begin(self, run_context):
            calls.append(f"epoch {run_context.original_args().cur_epoch_num}")

        def on_train_step_end(self, run_context):
            cb = run_context.original_args()
            calls.append(f"step {cb.cur_step_num}")
            assert cb.batch_num == 5 and cb.epoch_num == 3 and cb.net_outputs.shape == ()
            if cb.cur_step_num == 7:
                run_context.request_stop()

        def on_train_end(self, run_context):
            calls.append("end")

    model, _ = make_model()
    model.train(3, data(), callbacks=[Recorder()])
    assert calls == ["begin", "epoch 1", "step 1", "step 2", "step 3", "step 4", "step 5",
                     "epoch 2", "step 6", "step 7", "end"]


def test_1x_callback_method_names_still_work():
    seen = []

    class Old(Callback):
        def step_end(self, run_context):
            seen.append(run_context.original_args().cur_step_num)

    model, _ = make_model()
    model.train(1, data(10), callbacks=Old())
    assert seen == [1, 2]


def test_model_checkpoint_names_and_keep_max(tmp_path):
    model, _ = make_model()
    config = CheckpointConfig(save_checkpoint_steps=3, keep_checkpoint_max=2)
    checkpoint = ModelCheckpoint(prefix="net", directory=str(tmp_path), config=config)
    model.train(2, data(), callbacks=[checkpoint])
    assert sorted(os.listdir(tmp_path)) == ["net-2_4.ckpt", "net-2_5.ckpt"]
    assert checkpoint.latest_ckpt_file_name == str(tmp_path / "net-2_5.ckpt")
    saved = ms.load_checkpoint(str(tmp_path / "net-2_5.ckpt"))
    assert list(saved) == ["weight", "bias", "global_step", "learning_rate", "momentum",
                           "moments.weight", "moments.bias"]
    assert int(saved["global_step"].asnumpy()[0]) == 10
    again = ModelCheckpoint(prefix="net", directory=str(tmp_path), config=config)
    model.train(1, data(), callbacks=[again])
    assert "net_1-1_5.ckpt" in os.listdir(tmp_path)            # never overwrite another run


def test_checkpoint_config_checks_and_append_info(tmp_path):
    with pytest.raises(ValueError, match="can't be all None or 0"):
        CheckpointConfig(0, 0, 0, 0)
    with pytest.raises(ValueError, match="non-negative"):
        CheckpointConfig(save_checkpoint_steps=-1)
    config = CheckpointConfig(save_checkpoint_steps=5, append_info=["epoch_num", {"tag": 1}])
    model, _ = make_model()
    model.train(1, data(), callbacks=ModelCheckpoint("m", str(tmp_path), config))
    saved = ms.load_checkpoint(str(tmp_path / "m-1_5.ckpt"))
    assert int(saved["epoch_num"]) == 1 and int(saved["tag"]) == 1


def test_eval_and_predict():
    model, net = make_model(metrics={"acc": Accuracy(), "loss": Loss()})
    model.train(2, data())
    result = model.eval(data(5))
    assert list(result) == ["acc", "loss"]
    assert result["acc"] == 0.95 and isinstance(result["acc"], float)
    np.testing.assert_allclose(result["loss"], 0.14110665465705097, rtol=1e-5)
    assert not net.training
    prediction = model.predict(Tensor(DATA_X[:2]))
    np.testing.assert_allclose(prediction.asnumpy(), [[2.7341406, 8.03354],
                                                      [-1.075808, 4.4538302]], rtol=1e-5)


def test_metric_names_in_a_set():
    model, _ = make_model(metrics={"accuracy", "loss", "top_1_accuracy"})
    model.train(1, data())
    assert sorted(model.eval(data())) == ["accuracy", "loss", "top_1_accuracy"]


def test_model_argument_checks():
    net = nn.Dense(4, 2)
    with pytest.raises(ValueError, match="'optimizer' is None"):
        Model(net, nn.MSELoss(), amp_level="O2")
    with pytest.raises(ValueError, match="must not be None"):
        Model(net, metrics={"acc"})
    with pytest.raises(ValueError, match="kwargs"):
        Model(net, unknown=1)
    model, _ = make_model()
    with pytest.raises(ValueError, match="'metrics' can not be None"):
        model.eval(data())
    with pytest.raises(ValueError, match="initial_epoch"):
        model.train(1, data(), initial_epoch=1)


def test_training_is_reproducible_under_a_seed():
    """set_seed fixes the initial weights, the shuffle order and the dropout masks."""
    def run(seed):
        ms.set_seed(seed)
        net = nn.SequentialCell([nn.Dense(4, 8), nn.Dropout(p=0.5), nn.Dense(8, 2)])
        model = Model(net, nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean"),
                      nn.Adam(net.trainable_params(), 0.01))
        shuffled = ds.NumpySlicesDataset({"x": DATA_X, "y": DATA_Y}).batch(4)
        model.train(2, shuffled)
        return net[2].weight.asnumpy()

    np.testing.assert_array_equal(run(3), run(3))
    assert not np.array_equal(run(3), run(4))


def test_progress_bar_writes_to_its_stream_only(capsys):
    import io
    stream = io.StringIO()
    model, _ = make_model()
    model.train(2, data(), callbacks=ProgressBar(width=10, stream=stream, enabled=True))
    assert capsys.readouterr().out == ""
    text = stream.getvalue()
    assert "epoch 2/2 [##########] 5/5 loss" in text and text.endswith("\r\x1b[K")  # line erased


# -- metrics ------------------------------------------------------------------------------------

def test_accuracy_metric():
    metric = Accuracy()
    metric.update(Tensor(np.array([[0.2, 0.8], [0.9, 0.1], [0.4, 0.6]], np.float32)),
                  Tensor(np.array([1, 1, 1], np.int32)))
    assert metric.eval() == 2 / 3
    metric.update(np.array([[0.0, 1.0]]), np.array([[0, 1]]))          # one-hot labels
    assert metric.eval() == 3 / 4
    multilabel = Accuracy("multilabel")
    multilabel.update(np.array([[1, 0, 1], [1, 1, 0]]), np.array([[1, 0, 1], [0, 1, 0]]))
    assert multilabel.eval() == 0.5
    with pytest.raises(RuntimeError, match="number of samples is 0"):
        Accuracy().eval()
    with pytest.raises(ValueError, match="class number not match"):
        metric.update(np.ones((1, 3)), np.array([0]))


def test_topk_and_loss_metrics():
    y_pred = np.array([[0.1, 0.5, 0.2, 0.15, 0.05, 0.0], [0.3, 0.1, 0.2, 0.25, 0.1, 0.05]])
    y = np.array([2, 4])
    assert Top1CategoricalAccuracy()(y_pred, y) == 0.0
    assert TopKCategoricalAccuracy(2)(y_pred, y) == 0.5
    assert Top5CategoricalAccuracy()(y_pred, y) == 1.0
    loss = Loss()
    loss.update(Tensor(np.array(0.5, np.float32)))
    loss.update(Tensor(np.array([1.0, 2.0], np.float32)))
    assert loss.eval() == 1.0
    indexed = Accuracy().set_indexes([1, 2])
    indexed.update(None, np.array([[0.0, 1.0]]), np.array([1]))
    assert indexed.eval() == 1.0
