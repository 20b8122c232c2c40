"""Images per second through an image pipeline: refms.dataset against torchvision's DataLoader.

    PYTHONPATH=. /path/to/torch-python benchmarks/bench_dataset.py [--workers 2] [--rounds 5]
    PYTHONPATH=. python benchmarks/bench_dataset.py --only refms
    /path/to/mindspore-python benchmarks/bench_dataset.py --only mindspore

The pipeline is the ImageNet-style training input: a folder of JPEG files
(written once, synthetic, 200×250 pixels, 4 classes) → ImageFolderDataset →
Decode → RandomResizedCrop(112) → Normalize → HWC2CHW → batch(64).  torchvision
runs the same work as ``datasets.ImageFolder`` (Pillow decode) +
``RandomResizedCrop(112)`` + ``ToTensor`` + ``Normalize`` + ``DataLoader(batch_size=64,
shuffle=True, num_workers=W)``; refms runs with ``num_parallel_workers=W`` on the
source and the ``map``.  Both run in this one process, one full epoch each per
round, the order alternating from round to round so that a change in machine
load hits both alike; each row reports the median images/s over the rounds and
the ratio refms / torchvision.  The script times; it asserts nothing.

``W = 0`` is torchvision's "load in the main process" and refms's single worker.
"""
import argparse
import os
import statistics
import sys
import tempfile
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))


def write_images(folder, count, seed=0):
    from PIL import Image
    rng = np.random.default_rng(seed)
    y, x = np.mgrid[0:200, 0:250]
    for i in range(count):
        cls = os.path.join(folder, f"class{i % 4}")
        os.makedirs(cls, exist_ok=True)
        base = np.stack([x, y, (x + y) // 2], -1) + rng.integers(0, 60, (200, 250, 3))
        Image.fromarray((base % 256).astype(np.uint8)).save(os.path.join(cls, f"{i}.jpg"),
                                                            quality=90)


MEAN = [0.485 * 255, 0.456 * 255, 0.406 * 255]
STD = [0.229 * 255, 0.224 * 255, 0.225 * 255]


def dataset_epoch(ds, vision, folder, workers):
    """One epoch of the pipeline on refms (or MindSpore): the number of images seen."""
    workers = max(workers, 1)
    data = ds.ImageFolderDataset(folder, shuffle=True, num_parallel_workers=workers)
    data = data.map([vision.Decode(), vision.RandomResizedCrop(112),
                     vision.Normalize(MEAN, STD), vision.HWC2CHW()], ["image"],
                    num_parallel_workers=workers)
    images = 0
    for image, _label in data.batch(64).create_tuple_iterator(output_numpy=True, num_epochs=1):
        images += image.shape[0]
    return images


def import_torchvision():
    """torch and torchvision, or None (with the reason printed) when they cannot be imported.

    A CUDA build of torchvision beside a CPU-only torch cannot load its compiled
    operators, and torchvision's import then fails registering ``nms``; the
    data-loading parts used here do not need them, so the two operator schemas
    are declared (never run) to let the import finish.
    """
    try:
        import torch
    except ImportError as e:
        print(f"torchvision: not importable ({e})")
        return None
    try:
        import torchvision
    except RuntimeError:
        library = torch.library.Library("torchvision", "FRAGMENT")
        library.define("nms(Tensor dets, Tensor scores, float iou_threshold) -> Tensor")
        library.define("qnms(Tensor dets, Tensor scores, float iou_threshold) -> Tensor")
        import_torchvision.library = library           # keep the declarations alive
        for name in [m for m in sys.modules if m.startswith("torchvision")]:
            del sys.modules[name]
        import torchvision
    except ImportError as e:
        print(f"torchvision: not importable ({e})")
        return None
    return torch, torchvision


def torchvision_loader(torch, torchvision, folder, workers):
    from torchvision import datasets, transforms
    tf = transforms.Compose([transforms.RandomResizedCrop(112), transforms.ToTensor(),
                             transforms.Normalize([m / 255 for m in MEAN],
                                                  [s / 255 for s in STD])])
    return torch.utils.data.DataLoader(datasets.ImageFolder(folder, tf), batch_size=64,
                                       shuffle=True, num_workers=workers,
                                       persistent_workers=False)


def torchvision_epoch(loader):
    images = 0
    for image, _label in loader:
        images += image.shape[0]
    return images


def timed(run):
    start = time.perf_counter()
    images = run()
    return images / (time.perf_counter() - start)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--only", choices=("refms", "mindspore", "torchvision"),
                        help="time one framework alone (default: refms and torchvision)")
    parser.add_argument("--images", type=int, default=512)
    parser.add_argument("--workers", type=int, nargs="+", default=[2])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--threads", type=int, default=1,
                        help="torch intra-op threads in the main process (default 1)")
    parser.add_argument("--folder", help="reuse a folder of images (else a temporary one)")
    args = parser.parse_args()
    folder = args.folder or tempfile.mkdtemp(prefix="bench_dataset_")
    os.makedirs(folder, exist_ok=True)
    if not os.listdir(folder):
        write_images(folder, args.images)
    count = sum(len(files) for _, _, files in os.walk(folder))

    runners = {}
    if args.only == "mindspore":
        import mindspore.dataset as ms_ds
        import mindspore.dataset.vision as ms_vision
        runners["mindspore"] = lambda w: lambda: dataset_epoch(ms_ds, ms_vision, folder, w)
    if args.only in (None, "refms"):
        sys.path.insert(0, os.path.dirname(HERE))
        import refms.dataset as ds
        from refms.dataset import vision
        ds.config.set_seed(0)
        runners["refms"] = lambda w: lambda: dataset_epoch(ds, vision, folder, w)
    if args.only in (None, "torchvision"):
        found = import_torchvision()
        if found is not None:
            torch, torchvision = found
            torch.set_num_threads(args.threads)
            torch.manual_seed(0)
            runners["torchvision"] = lambda w: lambda: torchvision_epoch(
                torchvision_loader(torch, torchvision, folder, w))

    names = list(runners)
    print(f"ImageFolder({count} JPEG 200x250) -> Decode -> RandomResizedCrop(112) -> Normalize "
          f"-> HWC2CHW -> batch(64); median of {args.rounds} interleaved epochs; "
          f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    header = f"{'workers':>8}" + "".join(f" {name + ' img/s':>18}" for name in names)
    if names == ["refms", "torchvision"]:
        header += f" {'refms/torchvision':>18}"
    print(header)
    for workers in args.workers:
        rates = {name: [] for name in names}
        for name in names:                            # warm-up: imports, file cache, forks
            runners[name](workers)()
        for round_number in range(args.rounds):
            order = names if round_number % 2 == 0 else names[::-1]
            for name in order:
                rates[name].append(timed(runners[name](workers)))
        medians = {name: statistics.median(rates[name]) for name in names}
        line = f"{workers:>8}" + "".join(f" {medians[name]:>18.1f}" for name in names)
        if names == ["refms", "torchvision"]:
            line += f" {medians['refms'] / medians['torchvision']:>17.2f}x"
        print(line)
    print(f"load average after: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
