"""Inputs shared by the MindSpore recorder (record.py) and the refms tests.

Pure numpy: importable by both interpreters.  Every builder is deterministic.
"""
import numpy as np

MINDRECORD_SCHEMA = {"label": {"type": "int32"}, "img": {"type": "bytes"},
                     "a": {"type": "int64", "shape": [2, 3]},
                     "f": {"type": "float32", "shape": [-1]}, "name": {"type": "string"},
                     "x": {"type": "float64"}, "big": {"type": "int64"}}
SHARD_SCHEMA = {"label": {"type": "int64"}, "v": {"type": "float32", "shape": [3]}}


def mindrecord_rows(start, stop):
    """Rows whose blobs fill two 32 KB pages, ints of every compressed width, odd floats."""
    return [{"label": i - 3, "img": bytes([i % 256]) * (5000 + 37 * i),
             "a": np.array([[i * 1000 - 7, -i, 1 << (4 * i)], [-(1 << (3 * i)), 127 + i, 0]],
                           np.int64),
             "f": np.linspace(0, 1, 4, dtype=np.float32) * i, "name": f"n{i}" * (i + 1),
             "x": 0.1 * i, "big": 2 ** 40 + i} for i in range(start, stop)]


def shard_rows():
    return [{"label": i, "v": np.arange(3, dtype=np.float32) + i} for i in range(6)]


def write_mindrecords(FileWriter, folder):
    """The MindRecord files compared between MindSpore and refms (paths returned)."""
    import os
    two_calls = os.path.join(folder, "golden.mindrecord")
    writer = FileWriter(two_calls, shard_num=1, overwrite=True)
    writer.set_page_size(1 << 15)
    writer.set_header_size(1 << 14)
    writer.add_schema(MINDRECORD_SCHEMA, "golden")
    writer.write_raw_data(mindrecord_rows(0, 5))
    writer.write_raw_data(mindrecord_rows(5, 12))
    writer.commit()
    shards = os.path.join(folder, "shards.mindrecord")
    writer = FileWriter(shards, shard_num=3, overwrite=True)
    writer.set_page_size(1 << 15)
    writer.set_header_size(1 << 14)
    writer.add_schema(SHARD_SCHEMA, "shards")
    writer.add_index(["label"])
    writer.write_raw_data(shard_rows())
    writer.commit()
    return [two_calls] + [f"{shards}{i}" for i in range(3)]


def cifar_bytes(kind, rows, seed):
    """Records of a CIFAR binary batch: label byte(s) then 3·32·32 image bytes (CHW)."""
    rng = np.random.default_rng(seed)
    labels = rng.integers(0, 10 if kind == 10 else 100, (rows, 1 if kind == 10 else 2))
    if kind == 100:
        labels[:, 0] //= 5                               # coarse labels 0..19
    images = rng.integers(0, 256, (rows, 3 * 32 * 32))
    return np.concatenate([labels, images], axis=1).astype(np.uint8).tobytes()


CIFAR_ROWS = 10000          # MindSpore reads CIFAR files in blocks of 10000 records
CIFAR_PICKS = [0, 1, 2, 9999, 10000, 10001, 19999]


def write_cifar(folder):
    """A CIFAR-10 folder (one train batch and the test batch) and a CIFAR-100 test file
    (MindSpore wants a CIFAR-100 train.bin of 50000 records, too big to write in a test)."""
    import os
    ten = os.path.join(folder, "cifar10")
    hundred = os.path.join(folder, "cifar100")
    os.makedirs(ten, exist_ok=True)
    os.makedirs(hundred, exist_ok=True)
    with open(os.path.join(ten, "data_batch_1.bin"), "wb") as f:
        f.write(cifar_bytes(10, CIFAR_ROWS, 1))
    with open(os.path.join(ten, "test_batch.bin"), "wb") as f:
        f.write(cifar_bytes(10, CIFAR_ROWS, 9))
    with open(os.path.join(ten, "batches.meta.txt"), "w") as f:
        f.write("\n".join(f"class{i}" for i in range(10)))
    with open(os.path.join(hundred, "test.bin"), "wb") as f:
        f.write(cifar_bytes(100, CIFAR_ROWS, 12))
    return ten, hundred


def write_mnist(folder, write_idx):
    import os
    rng = np.random.default_rng(5)
    write_idx(os.path.join(folder, "train-images-idx3-ubyte"),
              rng.integers(0, 256, (4, 28, 28)).astype(np.uint8))
    write_idx(os.path.join(folder, "train-labels-idx1-ubyte"), np.array([3, 1, 4, 1], np.uint8))
    write_idx(os.path.join(folder, "t10k-images-idx3-ubyte"),
              rng.integers(0, 256, (2, 28, 28)).astype(np.uint8))
    write_idx(os.path.join(folder, "t10k-labels-idx1-ubyte"), np.array([5, 9], np.uint8))
    return folder


CSV_TEXT = "id,name,score\n1,ann,0.5\n2,\"bob, jr\",1.25\n3,cy,\n"
CSV_NO_HEADER = "7,ann,0.5\n-2,\"bob, b\",1\n0, cy ,3e2\n"
TEXT_LINES = ["hello world", "", "  leading space", "last line without newline"]


def write_text_files(folder):
    import os
    csv = os.path.join(folder, "a.csv")
    with open(csv, "w") as f:
        f.write(CSV_TEXT)
    with open(os.path.join(folder, "b.csv"), "w") as f:
        f.write(CSV_NO_HEADER)
    text1 = os.path.join(folder, "t1.txt")
    with open(text1, "w") as f:
        f.write("\n".join(TEXT_LINES[:2]) + "\n")
    text2 = os.path.join(folder, "t2.txt")
    with open(text2, "w") as f:
        f.write("\n".join(TEXT_LINES[2:]))
    return csv, text1, text2


def make_images(folder):
    """The checked-in ImageFolder tree (run once, by record.py, with Pillow)."""
    import os
    from PIL import Image
    rng = np.random.default_rng(21)
    for cls, count in (("cat", 3), ("dog", 2), ("emu", 1)):
        os.makedirs(os.path.join(folder, cls), exist_ok=True)
        for i in range(count):
            h, w = 12 + 3 * i, 17 + 2 * i
            smooth = np.cumsum(rng.integers(0, 40, (h, w, 3)), axis=1) % 256
            image = Image.fromarray(smooth.astype(np.uint8))
            image.save(os.path.join(folder, cls, f"{i}.png"))
            if i == 0:
                image.save(os.path.join(folder, cls, f"{i}.jpg"), quality=90)
    with open(os.path.join(folder, "dog", "notes.txt"), "w") as f:
        f.write("not an image\n")
