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


def append_mindrecords(FileWriter, folder):
    """Files written in two sessions (open_for_append) and a schema with no scalar field."""
    import os
    appended = os.path.join(folder, "appended.mindrecord")
    writer = FileWriter(appended, shard_num=1, overwrite=True)
    writer.set_page_size(1 << 15)
    writer.set_header_size(1 << 14)
    writer.add_schema(MINDRECORD_SCHEMA, "appended")
    writer.write_raw_data(mindrecord_rows(0, 4))
    writer.commit()
    writer = FileWriter.open_for_append(appended)
    writer.write_raw_data(mindrecord_rows(4, 9))
    writer.write_raw_data(mindrecord_rows(9, 12))
    writer.commit()
    blobs = os.path.join(folder, "blob_only.mindrecord")
    writer = FileWriter(blobs, shard_num=2, overwrite=True)
    writer.set_header_size(1 << 14)
    writer.set_page_size(1 << 15)
    writer.add_schema({"v": {"type": "float32", "shape": [3]}}, "blob only")
    writer.write_raw_data([{"v": np.full(3, i, np.float32)} for i in range(6)])
    writer.commit()
    writer = FileWriter.open_for_append(blobs + "1")
    writer.write_raw_data([{"v": np.full(3, -i, np.float32)} for i in range(1, 4)])
    writer.commit()
    return [appended, blobs + "0", blobs + "1"]


def save_pipelines(ds):
    """Pipelines that ``Dataset.save`` writes (name → dataset), built alike in both libraries."""
    n = 9
    rng = np.random.default_rng(12)
    columns = {"image": rng.integers(0, 256, (n, 4, 5, 3)).astype(np.uint8),
               "label": np.arange(n, dtype=np.int32) - 2,
               "score": (np.arange(n) / 3.0).astype(np.float32),
               "weight": np.linspace(-1, 1, n),
               "word": np.array([f"w{i}" * (i + 1) for i in range(n)]),
               "big": np.arange(n, dtype=np.uint32) * 400000000,
               "flag": np.arange(n) % 3 == 0,
               "half": np.arange(n * 2, dtype=np.float16).reshape(n, 2),
               "ids": (np.arange(n * 3, dtype=np.int64).reshape(n, 3) - 4) * 100000}

    def table():
        return ds.NumpySlicesDataset(columns, shuffle=False)

    def scaled(image):
        return (image[:3, :3] * 0.5).astype(np.float32)

    return {
        "save_columns": table(),
        "save_mapped_batched": table().project(["image", "label"]).map(
            scaled, ["image"]).batch(4),
        "save_no_scalars": table().project(["image", "half"]),
        "save_renamed": table().project(["label", "score"]).rename(["label", "score"],
                                                                   ["y.0", "x-1"]),
    }


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


def vision_image(h=23, w=31, seed=3):
    """A smooth-ish RGB uint8 image (odd sizes catch off-by-one crops and resizes)."""
    rng = np.random.default_rng(seed)
    y, x = np.mgrid[0:h, 0:w]
    base = np.stack([x * 255 / (w - 1), y * 255 / (h - 1), (x + y) * 127 / (h + w)], axis=-1)
    return np.clip(base + rng.integers(-20, 21, (h, w, 3)), 0, 255).astype(np.uint8)


def vision_cases():
    """(name, op spec, input name) triples: op spec = (class name, args, kwargs) in vision.

    Every op is deterministic as written (random ops pinned by their ranges or prob=1).
    """
    cases = []
    for size in ((12, 16), (40, 50), (23, 31), 10, (7, 45)):
        for inter in ("LINEAR", "NEAREST", "BICUBIC", "AREA"):
            cases.append((f"resize_{size}_{inter}", ("Resize", [size], {"interpolation": inter}),
                          "rgb"))
    cases += [
        ("resize_float", ("Resize", [(12, 16)], {}), "rgb_float"),
        ("resize_gray", ("Resize", [(12, 16)], {}), "gray"),
        ("center_crop_even", ("CenterCrop", [(10, 12)], {}), "rgb"),
        ("center_crop_odd", ("CenterCrop", [(9, 13)], {}), "rgb"),
        ("center_crop_int", ("CenterCrop", [8], {}), "rgb"),
        ("center_crop_bigger", ("CenterCrop", [(30, 40)], {}), "rgb"),
        ("rescale", ("Rescale", [1.0 / 255, -0.5], {}), "rgb"),
        ("normalize", ("Normalize", [[121.0, 115.0, 100.0], [70.0, 68.0, 71.0]], {}), "rgb"),
        ("normalize_chw", ("Normalize", [[0.5, 0.4, 0.3], [0.2, 0.25, 0.3]], {"is_hwc": False}),
         "chw_float"),
        ("hwc2chw", ("HWC2CHW", [], {}), "rgb"),
        ("pad_const", ("Pad", [[1, 2, 3, 4]], {"fill_value": 7}), "rgb"),
        ("pad_edge", ("Pad", [2], {"padding_mode": "EDGE"}), "rgb"),
        ("pad_reflect", ("Pad", [[2, 3]], {"padding_mode": "REFLECT"}), "rgb"),
        ("pad_symmetric", ("Pad", [[2, 3]], {"padding_mode": "SYMMETRIC"}), "rgb"),
        ("hflip", ("HorizontalFlip", [], {}), "rgb"),
        ("vflip", ("VerticalFlip", [], {}), "rgb"),
        ("random_hflip_p1", ("RandomHorizontalFlip", [1.0], {}), "rgb"),
        ("random_vflip_p1", ("RandomVerticalFlip", [1.0], {}), "rgb"),
        ("equalize", ("Equalize", [], {}), "rgb"),
        ("invert", ("Invert", [], {}), "rgb"),
        ("autocontrast", ("AutoContrast", [], {}), "rgb"),
        ("autocontrast_cutoff", ("AutoContrast", [10.0], {}), "rgb"),
        ("rotate_30", ("Rotate", [30.0], {}), "rgb"),
        ("rotate_expand", ("Rotate", [30.0], {"expand": True}), "rgb"),
        ("random_rotation_pinned", ("RandomRotation", [(45.0, 45.0)], {}), "rgb"),
        ("random_rotation_bilinear", ("RandomRotation", [(20.0, 20.0)],
                                      {"resample": "BILINEAR", "fill_value": 9}), "rgb"),
        ("random_affine_rotate", ("RandomAffine", [(30.0, 30.0)], {}), "rgb"),
        ("random_affine_scale", ("RandomAffine", [(0.0, 0.0)], {"scale": (1.3, 1.3)}), "rgb"),
        ("random_affine_shear", ("RandomAffine", [(0.0, 0.0)], {"shear": (10.0, 10.0, 0.0, 0.0)}),
         "rgb"),
        ("random_resized_crop_full", ("RandomResizedCrop", [(12, 16)],
                                      {"scale": (1.0, 1.0), "ratio": (31 / 23, 31 / 23)}), "rgb"),
        ("random_color_brightness", ("RandomColorAdjust", [],
                                     {"brightness": (1.4, 1.4)}), "rgb"),
        ("random_color_contrast", ("RandomColorAdjust", [], {"contrast": (0.6, 0.6)}), "rgb"),
        ("random_color_saturation", ("RandomColorAdjust", [], {"saturation": (1.5, 1.5)}), "rgb"),
        ("random_color_hue", ("RandomColorAdjust", [], {"hue": (0.1, 0.1)}), "rgb"),
        ("random_color_hue_wide", ("RandomColorAdjust", [], {"hue": (-0.3, -0.3)}), "rgb_wide"),
        # the hue path: 8-bit HSV both ways; rows of 75 pixels run OpenCV's vector loop
        # (two blocks of 32) and its scalar tail (11 pixels)
        ("adjust_hue_0", ("AdjustHue", [0.0], {}), "rgb_wide"),
        ("adjust_hue_0.1", ("AdjustHue", [0.1], {}), "rgb_wide"),
        ("adjust_hue_-0.1", ("AdjustHue", [-0.1], {}), "rgb_wide"),
        ("adjust_hue_0.37", ("AdjustHue", [0.37], {}), "rgb_wide"),
        ("adjust_hue_0.5", ("AdjustHue", [0.5], {}), "rgb_wide"),
        ("adjust_hue_-0.5", ("AdjustHue", [-0.5], {}), "rgb_wide"),
        ("adjust_hue_narrow", ("AdjustHue", [0.25], {}), "rgb"),
        ("adjust_hue_too_large", ("AdjustHue", [0.6], {}), "rgb"),
        ("adjust_hue_gray", ("AdjustHue", [0.1], {}), "gray"),
        ("adjust_brightness", ("AdjustBrightness", [1.3], {}), "rgb_wide"),
        ("adjust_contrast", ("AdjustContrast", [0.7], {}), "rgb_wide"),
        ("adjust_saturation", ("AdjustSaturation", [1.6], {}), "rgb_wide"),
        ("adjust_brightness_negative", ("AdjustBrightness", [-1.0], {}), "rgb"),
        ("to_tensor", ("ToTensor", [], {}), "rgb"),
        ("grayscale", ("Grayscale", [], {}), "rgb"),
        ("convert_color", ("ConvertColor", ["RGB2GRAY"], {}), "rgb"),
        ("random_crop_full", ("RandomCrop", [(23, 31)], {}), "rgb"),
        ("random_crop_padded_full", ("RandomCrop", [(27, 35)], {"padding": 2}), "rgb"),
        # enhancement by blending, the degree pinned by a range of one value
        ("random_color_1.5", ("RandomColor", [(1.5, 1.5)], {}), "rgb"),
        ("random_color_0.3", ("RandomColor", [(0.3, 0.3)], {}), "rgb_wide"),
        ("random_color_2.6", ("RandomColor", [(2.6, 2.6)], {}), "rgb_wide"),
        ("random_color_grey", ("RandomColor", [(0.0, 0.0)], {}), "rgb"),
        ("random_color_identity", ("RandomColor", [(1.0, 1.0)], {}), "rgb"),
        ("random_color_gray_input", ("RandomColor", [(0.5, 0.5)], {}), "gray"),
        ("random_sharpness_0", ("RandomSharpness", [(0.0, 0.0)], {}), "rgb"),
        ("random_sharpness_0.3", ("RandomSharpness", [(0.3, 0.3)], {}), "rgb_wide"),
        ("random_sharpness_1.7", ("RandomSharpness", [(1.7, 1.7)], {}), "gray"),
        ("random_sharpness_1.9", ("RandomSharpness", [(1.9, 1.9)], {}), "rgb"),
        # patches: padded to a multiple, or the rest dropped
        ("slice_patches_pad", ("SlicePatches", [2, 3], {}), "rgb"),
        ("slice_patches_drop", ("SlicePatches", [2, 3], {"slice_mode": "DROP"}), "rgb"),
        ("slice_patches_fill", ("SlicePatches", [4, 2], {"fill_value": 9}), "gray"),
        ("slice_patches_one", ("SlicePatches", [], {}), "rgb_wide"),
    ]
    return cases


# RandomColorAdjust with all four factors pinned: MindSpore applies the four in a random
# order (a shuffle per call), so record.py records every order, chained from the Adjust* ops
COLOR_FACTORS = {"brightness": 1.1, "contrast": 0.9, "saturation": 1.2, "hue": 0.2}


def vision_inputs():
    rgb = vision_image()
    return {"rgb": rgb, "rgb_wide": vision_image(5, 75, seed=8),
            "rgb_float": rgb.astype(np.float32) / 7.0,
            "gray": rgb[..., :1].copy(), "chw_float": (rgb.transpose(2, 0, 1) / 255.0)
            .astype(np.float32)}


VOCAB_WORDS = ["home", "is", "behind", "the", "world", "ahead"]
VOCAB_FILE_TEXT = "hello,1\nworld,2\nhome 3\nis\n\nbehind,9\n"
SENTENCE = "welcome  to\tthe world  of home"


def audio_wave(n=400, seed=4):
    rng = np.random.default_rng(seed)
    t = np.arange(n) / 16000.0
    return (np.sin(2 * np.pi * 440 * t) + 0.3 * np.sin(2 * np.pi * 3000 * t)
            + 0.05 * rng.standard_normal(n)).astype(np.float32)


def pipeline_cases(ds):
    """Pipelines built the same way with ``ds`` = mindspore.dataset or refms.dataset."""
    def numbers(n=7):
        return ds.NumpySlicesDataset({"x": np.arange(n, dtype=np.int32),
                                      "y": (np.arange(n) * 10).astype(np.float32)},
                                     shuffle=False)

    def ragged():
        def gen():
            for i in range(7):
                yield np.arange(i % 4 + 1, dtype=np.int32), np.array(i, np.int32)
        return ds.GeneratorDataset(gen, ["seq", "id"], shuffle=False)

    def add_batch_num(x, y, info):              # x, y: lists of the batch's row values
        # numpy-typed constants: numpy 1.x and 2.x then agree on the result dtypes
        return ([a + np.int32(100 * info.get_batch_num()) for a in x],
                [b * np.float32(0) + np.float32(info.get_epoch_num()) for b in y])

    def split_to_three(x, y, info):
        return x, y, [a * np.int32(2) for a in x]

    def dicts():
        def gen():
            for i in range(3):
                yield ({"k": np.array(i, np.int64), "v": np.array([i, -i], np.int32)},
                       np.array(i * 10, np.int64))
        return ds.GeneratorDataset(gen, ["d", "x"], shuffle=False)

    cases = {
        "dict_column": lambda: dicts(),
        "dict_column_batch": lambda: dicts().batch(2),
        "zip": lambda: numbers(7).zip(ds.NumpySlicesDataset({"z": np.arange(5, dtype=np.int64)},
                                                            shuffle=False)),
        "zip_fn": lambda: ds.zip((numbers(3), ds.NumpySlicesDataset(
            {"z": np.arange(4, dtype=np.int64)}, shuffle=False))),
        "concat": lambda: numbers(3) + numbers(2),
        "concat_method": lambda: numbers(2).concat([numbers(3), numbers(1)]),
        "split_frac_0": lambda: numbers(5).split([0.5, 0.5], randomize=False)[0],
        "split_frac_1": lambda: numbers(5).split([0.5, 0.5], randomize=False)[1],
        "split_int_1": lambda: numbers(5).split([2, 3], randomize=False)[1],
        "split_three_2": lambda: numbers(10).split([0.34, 0.33, 0.33], randomize=False)[2],
        "take_skip": lambda: numbers(7).skip(2).take(3),
        "repeat_batch": lambda: numbers(3).repeat(3).batch(4),
        "batch_drop": lambda: numbers(7).batch(3, drop_remainder=True),
        "batch_map": lambda: numbers(7).batch(3, per_batch_map=add_batch_num,
                                              input_columns=["x", "y"]),
        "batch_map_out": lambda: numbers(4).batch(2, per_batch_map=split_to_three,
                                                  input_columns=["x", "y"],
                                                  output_columns=["a", "b", "c"]),
        "padded_batch": lambda: ragged().padded_batch(3, pad_info={"seq": ([5], -1)}),
        "padded_batch_none": lambda: ragged().padded_batch(2, pad_info={"seq": (None, 0)}),
        "padded_batch_all": lambda: ragged().padded_batch(4, pad_info={}),
        "bucket": lambda: ragged().bucket_batch_by_length(["seq"], [2, 3], [2, 3, 1]),
        "bucket_pad_boundary": lambda: ragged().bucket_batch_by_length(
            ["seq"], [2, 4], [2, 2, 2], pad_info={"seq": (None, 9)},
            pad_to_bucket_boundary=True, drop_remainder=True),
        "map_multi": lambda: numbers(3).map(lambda x, y: (x + y, x - y, x * np.int32(2)),
                                            input_columns=["x", "y"],
                                            output_columns=["s", "d", "t"]),
        "map_merge": lambda: numbers(3).map(lambda x, y: x + y, input_columns=["x", "y"],
                                            output_columns=["s"]),
        "project_rename": lambda: numbers(3).project(["y", "x"]).rename(["y"], ["why"]),
        "map_mismatch": lambda: numbers(3).map(lambda x: (x, x), input_columns=["x"]),
        "batch_map_rows": lambda: numbers(4).batch(2, per_batch_map=lambda x, y, info: (x[:1], y),
                                                   input_columns=["x", "y"]),
    }
    return cases
