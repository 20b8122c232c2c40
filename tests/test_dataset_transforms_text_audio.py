"""General transforms, text and audio operations against MindSpore 2.10, eagerly on one sample.

Recorded by tests/dataset_golden/record.py (sections transforms, text, audio); the
inputs are rebuilt here exactly as the recorder built them.  Where MindSpore
raised, refms must raise the same exception type.
"""
import builtins
import json
import os
import sys

import numpy as np
import pytest

import refms as ms
import refms.dataset as ds
from refms.dataset import audio, text
from refms.dataset import transforms as T
from refms.dataset.transforms import Relational

GOLDEN = os.path.join(os.path.dirname(__file__), "dataset_golden")
sys.path.insert(0, GOLDEN)
import inputs  # noqa: E402


def check(recorded, name, call, rtol=0.0):
    if name + "/error" in recorded.files:
        kind = str(recorded[name + "/error"]).split(":")[0]
        with pytest.raises(getattr(builtins, kind)):
            call()
        return
    out = call()
    outs = out if isinstance(out, tuple) else (out,)
    wants = [recorded[f"{name}/{i}"] for i in range(len(outs))] if isinstance(out, tuple) \
        else [recorded[name]]
    for got, want in zip(outs, wants):
        got = np.asarray(got)
        assert got.shape == want.shape and got.dtype == want.dtype, (name, got.dtype, want.dtype)
        if rtol:
            np.testing.assert_allclose(got, want, rtol=0, atol=rtol * np.abs(want).max())
        else:
            np.testing.assert_array_equal(got, want)


X = np.array([1.7, -2.3, 0.5, 3.0], np.float32)
INTS = np.array([3, 1, 4, 1, 5], np.int32)
TRANSFORM_CASES = {
    "typecast_int32": lambda: T.TypeCast(ms.int32)(X),
    "typecast_uint8": lambda: T.TypeCast(ms.uint8)(np.array([1.7, 300.2, 255.9], np.float32)),
    "typecast_float16": lambda: T.TypeCast(ms.float16)(X),
    "onehot": lambda: T.OneHot(6)(INTS),
    "onehot_scalar": lambda: T.OneHot(4)(np.array(2, np.int64)),
    "fill": lambda: T.Fill(7)(INTS),
    "fill_float": lambda: T.Fill(2.5)(X),
    "duplicate": lambda: T.Duplicate()(INTS),
    "concatenate": lambda: T.Concatenate(0, np.array([9, 8], np.int32),
                                         np.array([7], np.int32))(INTS),
    "mask_eq": lambda: T.Mask(Relational.EQ, 1)(INTS),
    "mask_gt_int": lambda: T.Mask(Relational.GT, 2, ms.int32)(INTS),
    "mask_le": lambda: T.Mask(Relational.LE, 1.0)(X),
    "slice_range": lambda: T.Slice(slice(1, 4))(INTS),
    "slice_index": lambda: T.Slice(2)(INTS),
    "slice_list": lambda: T.Slice([0, 2, 4])(INTS),
    "slice_2d": lambda: T.Slice(slice(0, 1), slice(1, 3))(INTS.reshape(1, 5)),
    "pad_end": lambda: T.PadEnd([7], 0)(INTS),
    "pad_end_2d": lambda: T.PadEnd([2, 4], -1)(np.array([[1, 2, 3]], np.int32)),
    "pad_end_cut": lambda: T.PadEnd([3])(INTS),
    "pad_end_str": lambda: T.PadEnd([3], "x")(np.array(["a", "b"])),
    "compose": lambda: T.Compose([T.Fill(2), T.TypeCast(ms.float32)])(INTS),
    "random_apply_p1": lambda: T.RandomApply([T.Fill(3)], prob=1.0)(INTS),
    "random_choice_one": lambda: T.RandomChoice([T.Fill(4)])(INTS),
    "typecast_bad": lambda: T.TypeCast(ms.int32)(np.array(["a"])),
    "onehot_bad": lambda: T.OneHot(3)(np.array([0.5], np.float32)),
}


@pytest.mark.parametrize("name", list(TRANSFORM_CASES))
def test_transforms_match_mindspore(name):
    check(np.load(os.path.join(GOLDEN, "transforms.npz")), name, TRANSFORM_CASES[name])


def test_onehot_smoothing_follows_the_formula_where_mindspore_drops_rows():
    """MindSpore 2.10's smoothed OneHot of a 1-D label keeps the hot entry only in the last
    row (recorded: [[.05 .05 .05 .05], [.85 .05 .05 .05]] for labels [2, 0]) — a bug; refms
    gives every row 1 − s + s/n on its label, and agrees with MindSpore's last row and dtype."""
    want = np.load(os.path.join(GOLDEN, "transforms.npz"))["onehot_smooth"]
    got = T.OneHot(4, 0.2)(np.array([2, 0], np.int32))
    assert got.dtype == want.dtype and got.shape == want.shape
    np.testing.assert_array_equal(got[-1], want[-1])
    np.testing.assert_allclose(got[0], [0.05, 0.05, 0.85, 0.05])


@pytest.fixture(scope="module")
def vocab_path(tmp_path_factory):
    path = tmp_path_factory.mktemp("text") / "vocab.txt"
    path.write_text(inputs.VOCAB_FILE_TEXT)
    return str(path)


def test_text_matches_mindspore(vocab_path):
    recorded = np.load(os.path.join(GOLDEN, "text.npz"))
    words = np.array(["home", "world", "zzz", "is"])
    vocab = text.Vocab.from_list(inputs.VOCAB_WORDS, ["<pad>", "<unk>"], True)
    assert vocab.vocab() == json.loads(str(recorded["vocab_list"]))
    check(recorded, "vocab_duplicate", lambda: text.Vocab.from_list(["a", "a"]))
    check(recorded, "lookup_list", lambda: text.Lookup(vocab, "<unk>")(words))
    check(recorded, "lookup_scalar", lambda: text.Lookup(vocab, "<unk>", ms.int64)(
        np.array("behind")))
    check(recorded, "lookup_missing", lambda: text.Lookup(vocab)(words))
    back = text.Vocab.from_list(["a", "b"], ["<s>"], False)
    assert back.vocab() == json.loads(str(recorded["vocab_back"]))
    assert vocab.tokens_to_ids(["the", "nope"]) == recorded["tokens_to_ids"].tolist()
    assert vocab.ids_to_tokens([2, 0, 99]) == recorded["ids_to_tokens"].tolist()
    assert text.Vocab.from_file(vocab_path, ",", None, ["<unk>"], True).vocab() == \
        json.loads(str(recorded["vocab_file"]))
    assert text.Vocab.from_file(vocab_path, ",", 2).vocab() == \
        json.loads(str(recorded["vocab_file_small"]))
    tokens = np.array(["a", "b", "c", "d"])
    cases = {
        "whitespace": lambda: text.WhitespaceTokenizer()(inputs.SENTENCE),
        "whitespace_offsets": lambda: text.WhitespaceTokenizer(True)(inputs.SENTENCE),
        "python_tokenizer": lambda: text.PythonTokenizer(lambda s: s.split("o"))(
            np.array(inputs.SENTENCE)),
        "ngram_2": lambda: text.Ngram(2)(tokens),
        "ngram_pad": lambda: text.Ngram([2, 3], ("_", 1), ("-", 2), "+")(tokens),
        "ngram_long": lambda: text.Ngram(5)(tokens),
        "sliding_window": lambda: text.SlidingWindow(2)(np.array([1, 2, 3, 4])),
        "sliding_window_2d": lambda: text.SlidingWindow(2, 1)(np.arange(6).reshape(2, 3)),
        "to_number_int": lambda: text.ToNumber(ms.int32)(np.array(["1", "-23"])),
        "to_number_float": lambda: text.ToNumber(ms.float32)(np.array(["1.5", "2e3", "-0.25"])),
        "to_number_bad": lambda: text.ToNumber(ms.int32)(np.array(["1.5"])),
        "to_number_range": lambda: text.ToNumber(ms.int8)(np.array(["300"])),
        "truncate": lambda: text.Truncate(3)(np.array([1, 2, 3, 4, 5])),
        "truncate_str": lambda: text.Truncate(2)(np.array(["a", "b", "c"])),
        "truncate_2d": lambda: text.Truncate(2)(np.arange(6).reshape(2, 3)),
    }
    for name, call in cases.items():
        check(recorded, name, call)


def test_audio_matches_mindspore():
    recorded = np.load(os.path.join(GOLDEN, "audio.npz"))
    wave = inputs.audio_wave()
    np.testing.assert_array_equal(wave, recorded["wave"])
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
        check(recorded, name, call, rtol=2e-6)      # float32 results, float64 arithmetic here


def test_text_pipeline_in_map():
    vocab = text.Vocab.from_list(["a", "b", "c"], ["<unk>"])
    data = ds.NumpySlicesDataset({"line": np.array(["a b", "c  zz a"])}, shuffle=False)
    data = data.map([text.WhitespaceTokenizer(), text.Lookup(vocab, "<unk>"),
                     T.PadEnd([4], 0)], "line")
    assert [r[0].tolist() for r in data.create_tuple_iterator(output_numpy=True)] == \
        [[1, 2, 0, 0], [3, 0, 1, 0]]
