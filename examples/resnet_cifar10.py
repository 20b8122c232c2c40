"""Train a small ResNet on CIFAR-10-format data through the dataset pipeline.

    python examples/resnet_cifar10.py [--data DIR] [--samples 1024] [--epochs 2]

Without ``--data`` the script writes a synthetic data set in the real CIFAR-10
binary format (``data_batch_1.bin``, ``test_batch.bin``: 10000 records each of a
label byte and a 3×32×32 CHW image, as MindSpore also requires): each class is
a coloured pattern with noise, so the network can learn it.  With ``--data``
it reads a real CIFAR-10 binary folder.  The input pipeline is the model-zoo
one: Cifar10Dataset → RandomCrop(32, padding 4) → RandomHorizontalFlip →
Rescale(1/255) → Normalize → HWC2CHW, labels TypeCast to int32, batch(64).
The network is a ResNet with one basic block per stage (8, 16, 32
channels; small, so that it trains on a laptop CPU in minutes).  The script prints the pipeline's images/s alone, then the loss,
training images/s per epoch and the test accuracy.
"""
import argparse
import os
import sys
import tempfile
import time

import numpy as np

import refms as ms
from refms import nn
import refms.dataset as ds
from refms.dataset import transforms, vision
from refms.train import Model, Callback

RECORDS = 10000


def synthetic_cifar10(folder, seed=0):
    """Write data_batch_1.bin and test_batch.bin: class k is a pattern of colour and stripes."""
    rng = np.random.default_rng(seed)
    palette = rng.integers(40, 216, (10, 3))
    y, x = np.mgrid[0:32, 0:32]
    for name in ("data_batch_1.bin", "test_batch.bin"):
        labels = rng.integers(0, 10, RECORDS)
        stripes = np.stack([np.sin((x * np.cos(k) + y * np.sin(k)) * (0.4 + 0.05 * k))
                            for k in range(10)])                      # (10, 32, 32)
        images = palette[labels][:, :, None, None] * (0.75 + 0.25 * stripes[labels][:, None])
        images = images + rng.normal(0, 20, images.shape)
        records = np.concatenate([labels[:, None], np.clip(images, 0, 255).reshape(RECORDS, -1)],
                                 axis=1).astype(np.uint8)
        records.tofile(os.path.join(folder, name))


def pipeline(folder, usage, samples, batch_size, training):
    data = ds.Cifar10Dataset(folder, usage=usage, num_samples=samples, shuffle=training)
    ops = [vision.RandomCrop(32, padding=4), vision.RandomHorizontalFlip()] if training else []
    ops += [vision.Rescale(1.0 / 255, 0.0),
            vision.Normalize([0.4914, 0.4822, 0.4465], [0.247, 0.243, 0.261]), vision.HWC2CHW()]
    data = data.map(ops, "image", num_parallel_workers=2)
    data = data.map(transforms.TypeCast(ms.int32), "label")
    return data.batch(batch_size, drop_remainder=training)


class BasicBlock(nn.Cell):
    def __init__(self, cin, cout, stride):
        super().__init__()
        self.conv1 = nn.Conv2d(cin, cout, 3, stride, pad_mode="same")
        self.bn1 = nn.BatchNorm2d(cout)
        self.conv2 = nn.Conv2d(cout, cout, 3, 1, pad_mode="same")
        self.bn2 = nn.BatchNorm2d(cout)
        self.relu = nn.ReLU()
        self.down = None
        if stride != 1 or cin != cout:
            self.down = nn.SequentialCell([nn.Conv2d(cin, cout, 1, stride), nn.BatchNorm2d(cout)])

    def construct(self, x):
        out = self.relu(self.bn1(self.conv1(x)))
        out = self.bn2(self.conv2(out))
        shortcut = x if self.down is None else self.down(x)
        return self.relu(out + shortcut)


class SmallResNet(nn.Cell):
    def __init__(self, num_classes=10):
        super().__init__()
        self.stem = nn.SequentialCell([nn.Conv2d(3, 8, 3, pad_mode="same"), nn.BatchNorm2d(8),
                                       nn.ReLU()])
        self.stages = nn.SequentialCell([BasicBlock(8, 8, 1), BasicBlock(8, 16, 2),
                                         BasicBlock(16, 32, 2)])
        self.pool = nn.AdaptiveAvgPool2d(1)
        self.flatten = nn.Flatten()
        self.fc = nn.Dense(32, num_classes)

    def construct(self, x):
        return self.fc(self.flatten(self.pool(self.stages(self.stem(x)))))


class Throughput(Callback):
    def __init__(self, batch_size):
        super().__init__()
        self.batch_size, self.rates, self.losses = batch_size, [], []

    def on_train_epoch_begin(self, run_context):
        self.start, self.steps, self.epoch_losses = time.time(), 0, []

    def on_train_step_end(self, run_context):
        self.steps += 1
        self.epoch_losses.append(float(run_context.original_args().net_outputs.asnumpy()))

    def on_train_epoch_end(self, run_context):
        seconds = time.time() - self.start
        self.rates.append(self.steps * self.batch_size / seconds)
        self.losses.append(float(np.mean(self.epoch_losses)))
        print(f"epoch {run_context.original_args().cur_epoch_num}: loss {self.losses[-1]:.4f}, "
              f"{self.rates[-1]:.1f} images/s ({seconds:.1f} s)", flush=True)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--data", help="a CIFAR-10 binary folder (default: synthetic)")
    parser.add_argument("--samples", type=int, default=512)
    parser.add_argument("--test-samples", type=int, default=256)
    parser.add_argument("--epochs", type=int, default=2)
    parser.add_argument("--batch-size", type=int, default=64)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    ms.set_seed(args.seed)
    folder = args.data
    if folder is None:
        folder = tempfile.mkdtemp(prefix="cifar10_synthetic_")
        synthetic_cifar10(folder)
    train = pipeline(folder, "train", args.samples, args.batch_size, True)
    start = time.time()
    images = sum(batch[0].shape[0] for batch in train.create_tuple_iterator(output_numpy=True,
                                                                           num_epochs=1))
    print(f"pipeline alone: {images / (time.time() - start):.1f} images/s "
          f"({images} images, 2 map workers)")
    net = SmallResNet()
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    opt = nn.Momentum(net.trainable_params(), learning_rate=0.05, momentum=0.9)
    model = Model(net, loss, opt, metrics={"accuracy"})
    report = Throughput(args.batch_size)
    model.train(args.epochs, train, callbacks=[report])
    test = pipeline(folder, "test", args.test_samples, args.batch_size, False)
    accuracy = model.eval(test)["accuracy"]
    print(f"test accuracy: {accuracy:.4f}; training {np.mean(report.rates):.1f} images/s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
