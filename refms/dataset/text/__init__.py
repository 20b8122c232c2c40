"""``refms.dataset.text``: vocabularies and token operations (mirrors ``mindspore.dataset.text``).

============================================  ==================================================
``Vocab.from_list(words, specials, first)``   ids in list order; special tokens before (or after)
``Vocab.from_file(path, delimiter, size)``    one word per line: the text before ``delimiter``
``Lookup(vocab, unknown_token, dtype)``       tokens → ids (unknown tokens → the unknown token's id)
``WhitespaceTokenizer(with_offsets)``         split on runs of whitespace (byte offsets optional)
``UnicodeCharTokenizer(with_offsets)``        one token per character (UTF-8 byte offsets optional)
``PythonTokenizer(fn)``                       ``fn(str) → list of str``
``Ngram(n, left_pad, right_pad, separator)``  n-grams joined by ``separator``
``SlidingWindow(width, axis)``                all windows of ``width`` along a 1-D input
``ToNumber(dtype)``                           strings → numbers (leading number parsed, as C++ stoi)
``Truncate(max_seq_len)``                     cut the last axis
============================================  ==================================================
"""
import re

import numpy as np

from ...dtype import Type

__all__ = ["Vocab", "Lookup", "WhitespaceTokenizer", "UnicodeCharTokenizer", "PythonTokenizer",
           "Ngram", "SlidingWindow", "ToNumber", "Truncate"]


class Vocab:
    """A word → id table."""

    def __init__(self, words):
        self._ids = {}
        for word in words:
            self._ids.setdefault(word, len(self._ids))

    @classmethod
    def _build(cls, words, special_tokens, special_first):
        specials = list(special_tokens or [])
        words = [w for w in words if w not in specials]
        return cls(specials + words if special_first else words + specials)

    @classmethod
    def from_list(cls, word_list, special_tokens=None, special_first=True):
        seen = set()
        for word in word_list:
            if word in seen:
                raise ValueError(f"word_list contains duplicate word: {word}.")
            seen.add(word)
        return cls._build(list(word_list), special_tokens, special_first)

    @classmethod
    def from_file(cls, file_path, delimiter="", vocab_size=None, special_tokens=None,
                  special_first=True):
        words = []
        with open(file_path, encoding="utf-8") as f:
            for line in f:
                line = line.rstrip("\r\n")
                word = line.split(delimiter, 1)[0] if delimiter else line
                if word in words:
                    raise RuntimeError(f"Vocab.from_file: duplicate word '{word}' in {file_path}.")
                words.append(word)
                if vocab_size is not None and len(words) >= vocab_size:
                    break
        return cls._build(words, special_tokens, special_first)

    @classmethod
    def from_dict(cls, word_dict):
        vocab = cls([])
        vocab._ids = dict(word_dict)
        return vocab

    def vocab(self):
        return dict(self._ids)

    def tokens_to_ids(self, tokens):
        if isinstance(tokens, str):
            return self._ids.get(tokens, -1)
        return [self._ids.get(t, -1) for t in tokens]

    def ids_to_tokens(self, ids):
        words = {i: w for w, i in self._ids.items()}
        if isinstance(ids, (int, np.integer)):
            return words.get(int(ids), "")
        return [words.get(int(i), "") for i in ids]


def _strings(x, op):
    if isinstance(x, str):
        x = np.array(x)
    x = np.asarray(x)
    if x.dtype.kind == "S":
        x = x.astype(str)
    if x.dtype.kind != "U":
        raise RuntimeError(f"{op}: the input must be a string array, but got dtype {x.dtype}.")
    return x


class Lookup:
    def __init__(self, vocab, unknown_token=None, data_type=None):
        self.vocab, self.unknown_token = vocab, unknown_token
        self.np_type = np.dtype(np.int32) if data_type is None else (
            np.dtype(data_type.np_type) if isinstance(data_type, Type) else np.dtype(data_type))
        if unknown_token is not None and unknown_token not in vocab.vocab():
            raise ValueError(f"For 'Lookup', the 'unknown_token' {unknown_token!r} is not in the "
                             f"vocab.")

    def __call__(self, tokens):
        tokens = _strings(tokens, "Lookup")
        table = self.vocab.vocab()
        out = np.empty(tokens.shape, self.np_type)
        for index, token in np.ndenumerate(tokens):
            token = str(token)
            if token in table:
                out[index] = table[token]
            elif self.unknown_token is not None:
                out[index] = table[self.unknown_token]
            else:
                raise RuntimeError(f"Lookup: the token '{token}' is not in the vocab and no "
                                   f"'unknown_token' was given.")
        return out


class WhitespaceTokenizer:
    def __init__(self, with_offsets=False):
        self.with_offsets = with_offsets

    def __call__(self, text):
        text = str(_strings(text, "WhitespaceTokenizer"))
        tokens, starts, ends = [], [], []
        for match in re.finditer(r"\S+", text):
            tokens.append(match.group())
            starts.append(len(text[:match.start()].encode("utf-8")))
            ends.append(len(text[:match.end()].encode("utf-8")))
        out = np.array(tokens if tokens else [""])
        if self.with_offsets:
            return out, np.array(starts, np.uint32), np.array(ends, np.uint32)
        return out


class UnicodeCharTokenizer:
    """Split one string into its characters; with offsets, each character's UTF-8 byte range."""

    def __init__(self, with_offsets=False):
        if not isinstance(with_offsets, bool):
            raise TypeError(f"For 'UnicodeCharTokenizer', the 'with_offsets' must be a bool, but "
                            f"got {type(with_offsets).__name__}.")
        self.with_offsets = with_offsets

    def __call__(self, text):
        text = _strings(text, "UnicodeCharTokenizer")
        if text.ndim != 0:
            raise RuntimeError(f"UnicodeCharTokenizer: the input must be one string (a scalar), "
                               f"but got shape {text.shape}.")
        characters = list(str(text))
        ends = np.cumsum([len(c.encode("utf-8")) for c in characters], dtype=np.int64)
        starts = ends - [len(c.encode("utf-8")) for c in characters]
        out = np.array(characters if characters else [""])
        if self.with_offsets:
            return out, starts.astype(np.uint32), ends.astype(np.uint32)
        return out


class PythonTokenizer:
    def __init__(self, tokenizer):
        if not callable(tokenizer):
            raise TypeError("For 'PythonTokenizer', the 'tokenizer' must be callable.")
        self.tokenizer = tokenizer

    def __call__(self, text):
        if not isinstance(text, np.ndarray):
            raise TypeError(f"input should be a NumPy array. Got {type(text)}.")
        return np.array(self.tokenizer(str(_strings(text, "PythonTokenizer"))))


class Ngram:
    def __init__(self, n, left_pad=("", 0), right_pad=("", 0), separator=" "):
        self.n = [n] if isinstance(n, int) else list(n)
        if any(k <= 0 for k in self.n):
            raise ValueError(f"For 'Ngram', every n must be positive, but got {self.n}.")
        self.left_pad, self.right_pad, self.separator = left_pad, right_pad, separator

    def __call__(self, tokens):
        tokens = [str(t) for t in _strings(tokens, "Ngram").reshape(-1)]
        out = []
        for n in self.n:
            left = [self.left_pad[0]] * min(self.left_pad[1], n - 1)
            right = [self.right_pad[0]] * min(self.right_pad[1], n - 1)
            padded = left + tokens + right
            out += [self.separator.join(padded[i:i + n]) for i in range(len(padded) - n + 1)]
        return np.array(out if out else [""])


class SlidingWindow:
    def __init__(self, width, axis=0):
        if width <= 0:
            raise ValueError(f"For 'SlidingWindow', the 'width' must be positive, but got {width}.")
        self.width, self.axis = width, axis

    def __call__(self, x):
        x = np.asarray(x)
        if x.ndim != 1 or self.axis not in (0, -1):
            raise RuntimeError(f"SlidingWindow: only 1-D inputs are supported, but got shape "
                               f"{list(x.shape)} with axis {self.axis}.")
        if len(x) < self.width:
            return np.empty((0, self.width), x.dtype)
        return np.stack([x[i:i + self.width] for i in range(len(x) - self.width + 1)])


_INT_PREFIX = re.compile(r"\s*[+-]?\d+")


class ToNumber:
    def __init__(self, data_type):
        self.np_type = np.dtype(data_type.np_type) if isinstance(data_type, Type) else \
            np.dtype(data_type)
        if self.np_type.kind not in "iuf":
            raise TypeError(f"For 'ToNumber', the 'data_type' must be numeric, but got "
                            f"{self.np_type}.")

    def __call__(self, strings):
        strings = _strings(strings, "ToNumber")
        out = np.empty(strings.shape, self.np_type)
        for index, text in np.ndenumerate(strings):
            text = str(text)
            if self.np_type.kind == "f":
                try:
                    value = float(text)
                except ValueError:
                    raise RuntimeError(f"ToNumber: '{text}' is not a number.") from None
                if np.isfinite(value) and abs(value) > np.finfo(self.np_type).max:
                    raise RuntimeError(f"ToNumber: '{text}' is out of range for {self.np_type}.")
            else:
                match = _INT_PREFIX.match(text)
                if match is None:
                    raise RuntimeError(f"ToNumber: '{text}' is not an integer.")
                value = int(match.group())
                info = np.iinfo(self.np_type)
                if not info.min <= value <= info.max:
                    raise RuntimeError(f"ToNumber: '{text}' is out of range for {self.np_type} "
                                       f"[{info.min}, {info.max}].")
            out[index] = value
        return out


class Truncate:
    def __init__(self, max_seq_len):
        if max_seq_len <= 0:
            raise ValueError(f"For 'Truncate', the 'max_seq_len' must be positive, but got "
                             f"{max_seq_len}.")
        self.max_seq_len = max_seq_len

    def __call__(self, x):
        x = np.asarray(x)
        if x.ndim not in (1, 2):
            raise RuntimeError(f"Truncate: the input must be 1-D or 2-D, but got shape "
                               f"{list(x.shape)}.")
        return np.ascontiguousarray(x[..., :self.max_seq_len])
