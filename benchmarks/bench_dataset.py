"""Images per second through an image pipeline: refms.dataset, and MindSpore / torchvision.

    python benchmarks/bench_dataset.py [--images 256] [--workers 1 2] [--epochs 2]
    /path/to/mindspore-python benchmarks/bench_dataset.py --framework mindspore

The pipeline is the ImageNet-style training input: a folder of JPEG files
(written once, synthetic, 200×250 pixels, 4 classes) → ImageFolderDataset →
Decode → RandomResizedCrop(112) → Normalize → HWC2CHW → batch(64).  Each row
of the table is the best of ``--epochs`` full passes with one worker count.
With ``--framework torchvision`` (when torch and torchvision import) the same
pipeline runs as torchvision's ImageFolder + DataLoader (RandomResizedCrop,
ToTensor, Normalize; ``num_workers`` = the worker count).  The script times;
it asserts nothing.
"""
import argparse
import os
import sys
import tempfile
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))


def write_images(folder, count, seed=0):
    from PIL import Image
    rng = np.random.default_rng(seed)
    for i in range(count):
        cls = os.path.join(folder, f"class{i % 4}")
        os.makedirs(cls, exist_ok=True)
        y, x = np.mgrid[0:200, 0:250]
        base = np.stack([x, y, (x + y) // 2], -1) + rng.integers(0, 60, (200, 250, 3))
        Image.fromarray((base % 256).astype(np.uint8)).save(os.path.join(cls, f"{i}.jpg"),
                                                            quality=90)


def mean_std():
    return [0.485 * 255, 0.456 * 255, 0.406 * 255], [0.229 * 255, 0.224 * 255, 0.225 * 255]


def pipeline(ds, vision, folder, workers):
    mean, std = mean_std()
    data = ds.ImageFolderDataset(folder, shuffle=True, num_parallel_workers=workers)
    data = data.map([vision.Decode(), vision.RandomResizedCrop(112),
                     vision.Normalize(mean, std), vision.HWC2CHW()], ["image"],
                    num_parallel_workers=workers)
    return data.batch(64)


def time_dataset(data, epochs):
    best, images = float("inf"), 0
    iterator = data.create_tuple_iterator(output_numpy=True, num_epochs=epochs)
    for _ in range(epochs):
        start, images = time.perf_counter(), 0
        for image, _label in iterator:
            images += image.shape[0]
        best = min(best, time.perf_counter() - start)
    return images / best, images


def time_torchvision(folder, workers, epochs):
    import torch
    from torchvision import datasets, transforms
    mean, std = mean_std()
    tf = transforms.Compose([transforms.RandomResizedCrop(112), transforms.ToTensor(),
                             transforms.Normalize([m / 255 for m in mean],
                                                  [s / 255 for s in std])])
    loader = torch.utils.data.DataLoader(datasets.ImageFolder(folder, tf), batch_size=64,
                                         shuffle=True, num_workers=workers if workers > 1 else 0)
    best, images = float("inf"), 0
    for _ in range(epochs):
        start, images = time.perf_counter(), 0
        for image, _label in loader:
            images += image.shape[0]
        best = min(best, time.perf_counter() - start)
    return images / best, images


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--framework", choices=("refms", "mindspore", "torchvision"),
                        default="refms")
    parser.add_argument("--images", type=int, default=256)
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--epochs", type=int, default=2)
    parser.add_argument("--folder", help="reuse a folder of images (else a temporary one)")
    args = parser.parse_args()
    folder = args.folder or tempfile.mkdtemp(prefix="bench_dataset_")
    if not os.listdir(folder):
        write_images(folder, args.images)
    if args.framework == "mindspore":
        import mindspore.dataset as ds
        import mindspore.dataset.vision as vision
    elif args.framework == "refms":
        sys.path.insert(0, os.path.dirname(HERE))
        import refms.dataset as ds
        from refms.dataset import vision
    print(f"{args.framework}: ImageFolder({args.images} JPEG 200x250) -> Decode -> "
          f"RandomResizedCrop(112) -> Normalize -> HWC2CHW -> batch(64), best of {args.epochs}")
    print(f"{'workers':>8} {'images/s':>10}")
    for workers in args.workers:
        if args.framework == "torchvision":
            rate, _ = time_torchvision(folder, workers, args.epochs)
        else:
            ds.config.set_seed(0)
            rate, _ = time_dataset(pipeline(ds, vision, folder, workers), args.epochs)
        print(f"{workers:>8} {rate:>10.1f}")


if __name__ == "__main__":
    main()
