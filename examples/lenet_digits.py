"""Train the LeNet-5 of the MindSpore tutorials on scikit-learn's handwritten digits.

    python examples/lenet_digits.py [--mode pynative|graph] [--epochs 10] [--batch-size 32]

The data set is ``sklearn.datasets.load_digits`` (1,797 grey 8×8 images of the
digits 0–9, pixel values 0–16; scikit-learn is an optional dependency).
Images are scaled to [0, 1] and resized to LeNet's 32×32 input with bilinear
interpolation; a fixed split keeps 20% for testing.  The network is the
``LeNet5`` of seed 001 (two 5×5 valid convolutions with ReLU and 2×2 max
pooling, three dense layers), trained with ``Model`` and ``Adam`` (or
``--optimizer momentum``).  The
script prints the mean loss of every epoch, the time per epoch and the test
accuracy, and exits with status 1 if the accuracy is below ``--min-accuracy``.

The same script runs unchanged on MindSpore (``import mindspore as ms``
instead of refms; see ``python -m refms run``).
"""
import argparse
import os
import sys
import time

import numpy as np

import refms as ms
from refms import nn
import refms.dataset as ds
from refms.dataset import vision
from refms.train import Model, Callback

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lenet import LeNet5  # noqa: E402  (examples/lenet.py)


class EpochReport(Callback):
    """Prints one line per epoch: mean training loss and seconds taken."""

    def __init__(self):
        super().__init__()
        self.losses = []
        self.seconds = []
        self._start = 0.0
        self._epoch_losses = []

    def on_train_epoch_begin(self, run_context):
        self._start = time.time()
        self._epoch_losses = []

    def on_train_step_end(self, run_context):
        self._epoch_losses.append(float(run_context.original_args().net_outputs.asnumpy()))

    def on_train_epoch_end(self, run_context):
        cb = run_context.original_args()
        seconds = time.time() - self._start
        loss = float(np.mean(self._epoch_losses))
        self.losses.append(loss)
        self.seconds.append(seconds)
        print(f"epoch {cb.cur_epoch_num}/{cb.epoch_num}: loss {loss:.4f} ({seconds:.2f} s)",
              flush=True)


def load_digits_32(test_fraction=0.2, seed=0):
    """(train_x, train_y, test_x, test_y): float32 (N, 1, 32, 32) images in [0, 1], int32 labels."""
    try:
        from sklearn.datasets import load_digits
    except ImportError:
        sys.exit("This example needs scikit-learn (pip install scikit-learn) for its data set.")
    digits = load_digits()
    resize = vision.Resize((32, 32))
    images = np.stack([resize(img / 16.0) for img in digits.images.astype(np.float32)])
    images = images[:, None, :, :].astype(np.float32)
    labels = digits.target.astype(np.int32)
    order = np.random.default_rng(seed).permutation(len(labels))
    n_test = int(len(labels) * test_fraction)
    test, train = order[:n_test], order[n_test:]
    return images[train], labels[train], images[test], labels[test]


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--mode", choices=("pynative", "graph"), default="pynative")
    parser.add_argument("--epochs", type=int, default=15)
    parser.add_argument("--batch-size", type=int, default=32)
    parser.add_argument("--lr", type=float, default=0.003)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--optimizer", choices=("momentum", "adam"), default="adam")
    parser.add_argument("--min-accuracy", type=float, default=0.0)
    args = parser.parse_args(argv)

    ms.set_context(mode=ms.GRAPH_MODE if args.mode == "graph" else ms.PYNATIVE_MODE)
    ms.set_seed(args.seed)
    train_x, train_y, test_x, test_y = load_digits_32()
    train_set = ds.NumpySlicesDataset({"image": train_x, "label": train_y},
                                      shuffle=True).batch(args.batch_size)
    test_set = ds.NumpySlicesDataset({"image": test_x, "label": test_y},
                                     shuffle=False).batch(args.batch_size)

    net = LeNet5()
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    if args.optimizer == "adam":
        opt = nn.Adam(net.trainable_params(), learning_rate=args.lr)
    else:
        opt = nn.Momentum(net.trainable_params(), learning_rate=args.lr, momentum=0.9)
    model = Model(net, loss, opt, metrics={"accuracy"})
    report = EpochReport()
    print(f"LeNet-5 on sklearn digits: {len(train_y)} train / {len(test_y)} test images, "
          f"{args.mode} mode, {args.epochs} epochs of {train_set.get_dataset_size()} steps")
    model.train(args.epochs, train_set, callbacks=[report])
    accuracy = model.eval(test_set)["accuracy"]
    print(f"test accuracy: {accuracy:.4f}")
    print(f"seconds per epoch: {np.mean(report.seconds):.2f} (first {report.seconds[0]:.2f}); "
          f"training {len(train_y) / np.mean(report.seconds):.0f} images/s through the pipeline")
    return 0 if accuracy >= args.min_accuracy else 1


if __name__ == "__main__":
    sys.exit(main())
