"""Record MindSpore 2.10's dataset outputs for the refms tests (run with MindSpore's Python).

    GLOG_v=3 /path/to/mindspore-python tests/dataset_golden/record.py [section ...]

Sections write next to this file: ``mindrecord`` (MindSpore-written MindRecord
files: one checked in, the others' sha256 and index rows; what MindDataset
reads), and the others listed in SECTIONS.  Each runs MindSpore on inputs from
inputs.py or built here with fixed seeds.
"""
import hashlib
import json
import os
import shutil
import sqlite3
import sys
import tempfile

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import inputs  # noqa: E402


def sha256(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def index_rows(path):
    connection = sqlite3.connect(path + ".db")
    sql = connection.execute("SELECT sql FROM sqlite_master WHERE name='INDEXES'").fetchone()[0]
    rows = connection.execute("SELECT * FROM INDEXES ORDER BY ROW_ID").fetchall()
    names = connection.execute("SELECT NAME FROM SHARD_NAME").fetchall()
    connection.close()
    return {"sql": sql, "rows": rows, "names": names}


def record_mindrecord():
    import mindspore.dataset as ds
    from mindspore.mindrecord import FileWriter
    folder = tempfile.mkdtemp()
    try:
        paths = inputs.write_mindrecords(FileWriter, folder)
        out = {"files": [os.path.basename(p) for p in paths],
               "sha256": [sha256(p) for p in paths],
               "index": [index_rows(p) for p in paths]}
        target = os.path.join(HERE, "mindrecord")
        os.makedirs(target, exist_ok=True)
        for suffix in ("", ".db"):
            shutil.copy(paths[0] + suffix, os.path.join(target, "golden.mindrecord" + suffix))
            os.chmod(os.path.join(target, "golden.mindrecord" + suffix), 0o644)
        data = ds.MindDataset(paths[0], shuffle=False)
        arrays = {"columns": np.array(data.get_col_names())}
        for i, row in enumerate(data.create_dict_iterator(output_numpy=True)):
            for name, value in row.items():
                arrays[f"{i}/{name}"] = value
        shards = ds.MindDataset(paths[1], shuffle=False)
        arrays["shard_labels"] = np.array([int(r[0]) for r in shards.create_tuple_iterator(
            columns=["label"], output_numpy=True)])
        one = ds.MindDataset([paths[2]], shuffle=False, columns_list=["v", "label"])
        arrays["one_shard_columns"] = np.array(one.get_col_names())
        arrays["one_shard_labels"] = np.array([int(r[1]) for r in one.create_tuple_iterator(
            output_numpy=True)])
        np.savez_compressed(os.path.join(target, "read.npz"), **arrays)
        with open(os.path.join(target, "written.json"), "w") as f:
            json.dump(out, f, indent=1)
    finally:
        shutil.rmtree(folder)


def record_mindrecord_more():
    """open_for_append and Dataset.save: sha256 and index rows of what MindSpore wrote, and
    the rows MindSpore reads back from a 3-file save (its file of each row is random)."""
    import mindspore.dataset as ds
    from mindspore.mindrecord import FileWriter
    folder = tempfile.mkdtemp()
    out = {"append": {}, "save": {}}
    try:
        for path in inputs.append_mindrecords(FileWriter, folder):
            out["append"][os.path.basename(path)] = {"sha256": sha256(path),
                                                     "index": index_rows(path)}
        for name, data in inputs.save_pipelines(ds).items():
            path = os.path.join(folder, name + ".mindrecord")
            data.save(path)
            out["save"][name] = {"sha256": sha256(path), "index": index_rows(path)}
        shards = os.path.join(folder, "save_sharded.mindrecord")
        inputs.save_pipelines(ds)["save_columns"].save(shards, num_files=3)
        read = ds.MindDataset(shards + "0", shuffle=False)
        out["save_sharded_labels"] = sorted(int(r["label"]) for r in
                                            read.create_dict_iterator(output_numpy=True))
    finally:
        shutil.rmtree(folder)
    with open(os.path.join(HERE, "mindrecord", "more.json"), "w") as f:
        json.dump(out, f, indent=1)


def rows_of(data, prefix, arrays):
    """Store every row of ``data`` (shuffle off) as arrays named prefix/row/column."""
    arrays[f"{prefix}/columns"] = np.array(data.get_col_names())
    arrays[f"{prefix}/size"] = np.array(data.get_dataset_size())
    count = 0
    for i, row in enumerate(data.create_dict_iterator(output_numpy=True)):
        for name, value in row.items():
            if isinstance(value, dict):                  # a dict-valued column: key by key
                for key, item in value.items():
                    arrays[f"{prefix}/{i}/{name}.{key}"] = item
                arrays[f"{prefix}/{i}/{name}.keys"] = np.array(list(value))
            else:
                arrays[f"{prefix}/{i}/{name}"] = value
        count += 1
    arrays[f"{prefix}/types"] = np.array([str(t) for t in data.output_types()])
    arrays[f"{prefix}/rows"] = np.array(count)


def record_sources():
    import mindspore.dataset as ds
    sys.path.insert(0, os.path.join(HERE, "..", ".."))
    from refms.dataset.mnist import write_idx         # a pure-numpy IDX writer
    folder = tempfile.mkdtemp()
    arrays = {}
    try:
        ten, hundred = inputs.write_cifar(folder)
        picks = inputs.CIFAR_PICKS
        for usage in ("train", "test"):
            rows_of(ds.Cifar10Dataset(ten, usage=usage, sampler=ds.SubsetSampler(picks[:4])),
                    f"cifar10_{usage}", arrays)
        rows_of(ds.Cifar10Dataset(ten, usage="all", sampler=ds.SubsetSampler(picks)),
                "cifar10_all", arrays)
        rows_of(ds.Cifar100Dataset(hundred, usage="test", sampler=ds.SubsetSampler(picks[:4])),
                "cifar100_test", arrays)
        arrays["cifar10_all_size"] = np.array(ds.Cifar10Dataset(ten).get_dataset_size())
        mnist = inputs.write_mnist(os.path.join(folder, "mnist") + os.sep, write_idx) \
            if os.makedirs(os.path.join(folder, "mnist")) is None else None
        for usage in ("train", "test", "all"):
            rows_of(ds.MnistDataset(mnist, usage=usage, shuffle=False), f"mnist_{usage}", arrays)
        csv, text1, text2 = inputs.write_text_files(folder)
        rows_of(ds.CSVDataset(csv, shuffle=False), "csv_default", arrays)
        rows_of(ds.CSVDataset(os.path.join(folder, "b.csv"), column_defaults=[0, "", 0.0],
                              column_names=["a", "b", "c"],
                              shuffle=False), "csv_typed", arrays)
        rows_of(ds.TextFileDataset([text1, text2], shuffle=False), "text", arrays)
        images = os.path.join(HERE, "images")
        rows_of(ds.ImageFolderDataset(images, shuffle=False), "folder_raw", arrays)
        rows_of(ds.ImageFolderDataset(images, shuffle=False, decode=True,
                                      extensions=[".png", ".jpg"]), "folder_decoded",
                arrays)
        rows_of(ds.ImageFolderDataset(images, shuffle=False, extensions=[".png"],
                                      class_indexing={"dog": 0, "cat": 5, "emu": 1}),
                "folder_png", arrays)
        rows_of(ds.ImageFolderDataset(images, sampler=ds.PKSampler(2), extensions=[".png"]),
                "sampler_pk", arrays)
        rows_of(ds.ImageFolderDataset(images, sampler=ds.PKSampler(4), extensions=[".png"]),
                "sampler_pk_repeat", arrays)
        for shard in range(3):
            rows_of(ds.MnistDataset(mnist, usage="all", num_shards=3, shard_id=shard,
                                    shuffle=False), f"sampler_shard{shard}", arrays)
        rows_of(ds.MnistDataset(mnist, sampler=ds.SequentialSampler(1, 3)), "sampler_sequential",
                arrays)
        rows_of(ds.MnistDataset(mnist, sampler=ds.SubsetSampler([5, 0, 2])), "sampler_subset",
                arrays)
        rows_of(ds.MnistDataset(mnist, sampler=[4, 1]), "sampler_list", arrays)
        rows_of(ds.MnistDataset(mnist, num_samples=4, shuffle=False), "sampler_num_samples",
                arrays)
        arrays["folder_class_indexing"] = np.array(json.dumps(
            ds.ImageFolderDataset(images).get_class_indexing()))
    finally:
        shutil.rmtree(folder)
    np.savez_compressed(os.path.join(HERE, "sources.npz"), **arrays)


def record_vision():
    import mindspore.dataset.vision as vision
    from mindspore.dataset.vision import Inter, Border
    arrays = {}
    images = inputs.vision_inputs()
    enums = {"LINEAR": Inter.LINEAR, "NEAREST": Inter.NEAREST, "BICUBIC": Inter.BICUBIC,
             "AREA": Inter.AREA, "BILINEAR": Inter.BILINEAR, "EDGE": Border.EDGE,
             "REFLECT": Border.REFLECT, "SYMMETRIC": Border.SYMMETRIC, "CONSTANT": Border.CONSTANT,
             "DROP": vision.SliceMode.DROP}
    for name, (cls, args, kwargs), source in inputs.vision_cases():
        kwargs = {k: enums.get(v, v) if isinstance(v, str) else v for k, v in kwargs.items()}
        if cls == "ConvertColor":
            args = [getattr(vision.ConvertMode, "COLOR_" + args[0])]
        try:
            out = getattr(vision, cls)(*args, **kwargs)(images[source])
            arrays[name] = np.asarray(out)
        except Exception as e:                       # recorded: refms must fail too
            arrays[name + "/error"] = np.array(f"{type(e).__name__}: {e}".splitlines()[0])
            print("error", name, arrays[name + "/error"])
    # RandomColorAdjust's four adjustments in each of the 24 orders, and what
    # RandomColorAdjust itself returns for a few seeds (one of the 24)
    import itertools
    import mindspore.dataset as ds
    ops = {"brightness": vision.AdjustBrightness, "contrast": vision.AdjustContrast,
           "saturation": vision.AdjustSaturation, "hue": vision.AdjustHue}
    image = images["rgb_wide"]
    for order in itertools.permutations(inputs.COLOR_FACTORS):
        out = image
        for name in order:
            out = ops[name](inputs.COLOR_FACTORS[name])(out)
        arrays["color_order/" + ",".join(order)] = out
    pinned = {k: (v, v) for k, v in inputs.COLOR_FACTORS.items()}
    for seed in range(6):
        ds.config.set_seed(seed)
        arrays[f"color_random/{seed}"] = vision.RandomColorAdjust(**pinned)(image)
    # Decode of the checked-in files
    for path in ("cat/0.jpg", "cat/0.png"):
        with open(os.path.join(HERE, "images", path), "rb") as f:
            data = np.frombuffer(f.read(), np.uint8)
        arrays["decode/" + path] = vision.Decode()(data)
    np.savez_compressed(os.path.join(HERE, "vision.npz"), **arrays)


def _store(arrays, name, call):
    try:
        out = call()
    except Exception as e:                           # recorded: refms must fail the same way
        arrays[name + "/error"] = np.array(f"{type(e).__name__}: {e}".splitlines()[0])
        print("error", name, arrays[name + "/error"])
        return
    if isinstance(out, tuple):
        for i, value in enumerate(out):
            arrays[f"{name}/{i}"] = np.asarray(value)
    else:
        arrays[name] = np.asarray(out)


def record_transforms():
    import mindspore as ms
    import mindspore.dataset.transforms as T
    from mindspore.dataset.transforms import Relational
    x = np.array([1.7, -2.3, 0.5, 3.0], np.float32)
    ints = np.array([3, 1, 4, 1, 5], np.int32)
    arrays = {}
    cases = {
        "typecast_int32": lambda: T.TypeCast(ms.int32)(x),
        "typecast_uint8": lambda: T.TypeCast(ms.uint8)(np.array([1.7, 300.2, 255.9], np.float32)),
        "typecast_float16": lambda: T.TypeCast(ms.float16)(x),
        "onehot": lambda: T.OneHot(6)(ints),
        "onehot_scalar": lambda: T.OneHot(4)(np.array(2, np.int64)),
        "onehot_smooth": lambda: T.OneHot(4, 0.2)(np.array([2, 0], np.int32)),
        "fill": lambda: T.Fill(7)(ints),
        "fill_float": lambda: T.Fill(2.5)(x),
        "duplicate": lambda: T.Duplicate()(ints),
        "concatenate": lambda: T.Concatenate(0, np.array([9, 8], np.int32),
                                             np.array([7], np.int32))(ints),
        "mask_eq": lambda: T.Mask(Relational.EQ, 1)(ints),
        "mask_gt_int": lambda: T.Mask(Relational.GT, 2, ms.int32)(ints),
        "mask_le": lambda: T.Mask(Relational.LE, 1.0)(x),
        "slice_range": lambda: T.Slice(slice(1, 4))(ints),
        "slice_index": lambda: T.Slice(2)(ints),
        "slice_list": lambda: T.Slice([0, 2, 4])(ints),
        "slice_2d": lambda: T.Slice(slice(0, 1), slice(1, 3))(ints.reshape(1, 5)),
        "pad_end": lambda: T.PadEnd([7], 0)(ints),
        "pad_end_2d": lambda: T.PadEnd([2, 4], -1)(np.array([[1, 2, 3]], np.int32)),
        "pad_end_cut": lambda: T.PadEnd([3])(ints),
        "pad_end_str": lambda: T.PadEnd([3], "x")(np.array(["a", "b"])),
        "compose": lambda: T.Compose([T.Fill(2), T.TypeCast(ms.float32)])(ints),
        "random_apply_p1": lambda: T.RandomApply([T.Fill(3)], prob=1.0)(ints),
        "random_choice_one": lambda: T.RandomChoice([T.Fill(4)])(ints),
        "typecast_bad": lambda: T.TypeCast(ms.int32)(np.array(["a"])),
        "onehot_bad": lambda: T.OneHot(3)(np.array([0.5], np.float32)),
    }
    for name, call in cases.items():
        _store(arrays, name, call)
    np.savez_compressed(os.path.join(HERE, "transforms.npz"), **arrays)


def record_text():
    import mindspore as ms
    import mindspore.dataset.text as text
    arrays = {}
    folder = tempfile.mkdtemp()
    try:
        path = os.path.join(folder, "vocab.txt")
        with open(path, "w") as f:
            f.write(inputs.VOCAB_FILE_TEXT)
        words = np.array(["home", "world", "zzz", "is"])
        vocab = text.Vocab.from_list(inputs.VOCAB_WORDS, ["<pad>", "<unk>"], True)
        arrays["vocab_list"] = np.array(json.dumps(vocab.vocab()))
        _store(arrays, "vocab_duplicate", lambda: text.Vocab.from_list(["a", "a"]))
        _store(arrays, "lookup_list", lambda: text.Lookup(vocab, "<unk>")(words))
        _store(arrays, "lookup_scalar", lambda: text.Lookup(vocab, "<unk>", ms.int64)(
            np.array("behind")))
        _store(arrays, "lookup_missing", lambda: text.Lookup(vocab)(words))
        back = text.Vocab.from_list(["a", "b"], ["<s>"], False)
        arrays["vocab_back"] = np.array(json.dumps(back.vocab()))
        arrays["tokens_to_ids"] = np.array(vocab.tokens_to_ids(["the", "nope"]))
        arrays["ids_to_tokens"] = np.array(vocab.ids_to_tokens([2, 0, 99]))
        from_file = text.Vocab.from_file(path, ",", None, ["<unk>"], True)
        arrays["vocab_file"] = np.array(json.dumps(from_file.vocab()))
        small = text.Vocab.from_file(path, ",", 2)
        arrays["vocab_file_small"] = np.array(json.dumps(small.vocab()))
        _store(arrays, "whitespace", lambda: text.WhitespaceTokenizer()(inputs.SENTENCE))
        _store(arrays, "whitespace_offsets",
               lambda: text.WhitespaceTokenizer(True)(inputs.SENTENCE))
        _store(arrays, "python_tokenizer",
               lambda: text.PythonTokenizer(lambda s: s.split("o"))(np.array(inputs.SENTENCE)))
        tokens = np.array(["a", "b", "c", "d"])
        _store(arrays, "ngram_2", lambda: text.Ngram(2)(tokens))
        _store(arrays, "ngram_pad", lambda: text.Ngram([2, 3], ("_", 1), ("-", 2), "+")(tokens))
        _store(arrays, "ngram_long", lambda: text.Ngram(5)(tokens))
        _store(arrays, "sliding_window", lambda: text.SlidingWindow(2)(np.array([1, 2, 3, 4])))
        _store(arrays, "sliding_window_2d",
               lambda: text.SlidingWindow(2, 1)(np.arange(6).reshape(2, 3)))
        _store(arrays, "to_number_int", lambda: text.ToNumber(ms.int32)(np.array(["1", "-23"])))
        _store(arrays, "to_number_float",
               lambda: text.ToNumber(ms.float32)(np.array(["1.5", "2e3", "-0.25"])))
        _store(arrays, "to_number_bad", lambda: text.ToNumber(ms.int32)(np.array(["1.5"])))
        _store(arrays, "to_number_range", lambda: text.ToNumber(ms.int8)(np.array(["300"])))
        _store(arrays, "truncate", lambda: text.Truncate(3)(np.array([1, 2, 3, 4, 5])))
        _store(arrays, "truncate_str", lambda: text.Truncate(2)(np.array(["a", "b", "c"])))
        _store(arrays, "truncate_2d", lambda: text.Truncate(2)(np.arange(6).reshape(2, 3)))
    finally:
        shutil.rmtree(folder)
    np.savez_compressed(os.path.join(HERE, "text.npz"), **arrays)


def record_audio():
    import mindspore.dataset.audio as audio
    wave = inputs.audio_wave()
    arrays = {"wave": wave}
    cases = {
        "spectrogram": lambda: audio.Spectrogram(n_fft=32)(wave),
        "spectrogram_opts": lambda: audio.Spectrogram(n_fft=32, win_length=24, hop_length=10,
                                                      pad=3, power=1.0, normalized=True,
                                                      center=False)(wave),
        "spectrogram_hamming": lambda: audio.Spectrogram(
            n_fft=20, window=audio.WindowType.HAMMING, pad_mode=audio.BorderType.CONSTANT)(wave),
        "mel": lambda: audio.MelSpectrogram(sample_rate=16000, n_fft=64, n_mels=10)(wave),
        "mel_slaney": lambda: audio.MelSpectrogram(
            sample_rate=16000, n_fft=64, n_mels=8, f_min=100.0, f_max=6000.0, power=1.0,
            norm=audio.NormType.SLANEY, mel_scale=audio.MelType.SLANEY)(wave),
        "db_power": lambda: audio.AmplitudeToDB()(audio.Spectrogram(n_fft=32)(wave)),
        "db_magnitude": lambda: audio.AmplitudeToDB(audio.ScaleType.MAGNITUDE, 2.0, 1e-5, 30.0)(
            audio.Spectrogram(n_fft=32, power=1.0)(wave)),
        "resample_down": lambda: audio.Resample(16000, 8000)(wave),
        "resample_up": lambda: audio.Resample(16000, 24000)(wave),
        "resample_kaiser": lambda: audio.Resample(
            16000, 12000, audio.ResampleMethod.KAISER_WINDOW, 8, 0.95, 10.0)(wave),
        "resample_2d": lambda: audio.Resample(16000, 8000)(np.stack([wave, wave[::-1]])),
    }
    for name, call in cases.items():
        _store(arrays, name, call)
    np.savez_compressed(os.path.join(HERE, "audio.npz"), **arrays)


def record_pipeline():
    import mindspore.dataset as ds
    arrays = {}
    for name, build in inputs.pipeline_cases(ds).items():
        try:
            data = build()
            rows_of(data, name, arrays)
        except Exception as e:
            arrays[name + "/error"] = np.array(f"{type(e).__name__}: {e}".splitlines()[0])
            print("error", name, arrays[name + "/error"])
    np.savez_compressed(os.path.join(HERE, "pipeline.npz"), **arrays)


SECTIONS = {"pipeline": record_pipeline, "mindrecord": record_mindrecord,
            "mindrecord_more": record_mindrecord_more, "sources": record_sources,
            "vision": record_vision,
            "transforms": record_transforms, "text": record_text, "audio": record_audio}

if __name__ == "__main__":
    for name in sys.argv[1:] or list(SECTIONS):
        SECTIONS[name]()
        print("recorded", name)
