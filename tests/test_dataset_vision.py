"""Vision operations against MindSpore 2.10, called eagerly on one image.

tests/dataset_golden/vision.npz holds MindSpore's outputs for inputs.vision_cases()
(recorded by record.py, section ``vision``): every resize mode, crops, pads,
flips, rotations and affine warps (random ops pinned by their ranges), colour
and histogram operations (the hue shift on rows that take both of OpenCV's code
paths), Decode of the checked-in JPEG and PNG.  All match bit for bit.
"""
import builtins
import os
import sys

import numpy as np
import pytest

import refms as ms
import refms.dataset as ds
from refms.dataset import vision

GOLDEN = os.path.join(os.path.dirname(__file__), "dataset_golden")
sys.path.insert(0, GOLDEN)
import inputs  # noqa: E402

RECORDED = np.load(os.path.join(GOLDEN, "vision.npz"))
IMAGES = inputs.vision_inputs()


def _enum(name):
    """The vision enum member spelled ``name`` ("LINEAR", "EDGE", "DROP"...)."""
    for enum in (vision.Inter, vision.Border, vision.SliceMode):
        if name in enum.__members__:
            return enum[name]
    raise KeyError(name)


def build(cls, args, kwargs):
    kwargs = {k: _enum(v) if isinstance(v, str) else v for k, v in kwargs.items()}
    if cls == "ConvertColor":
        args = [getattr(vision.ConvertMode, "COLOR_" + args[0])]
    return getattr(vision, cls)(*args, **kwargs)


@pytest.mark.parametrize("name, spec, source", inputs.vision_cases(),
                         ids=[c[0] for c in inputs.vision_cases()])
def test_matches_mindspore(name, spec, source):
    if name + "/error" in RECORDED.files:
        kind = str(RECORDED[name + "/error"]).split(":")[0]          # MindSpore's exception
        with pytest.raises(getattr(builtins, kind)):
            build(*spec)(IMAGES[source])
        return
    want = RECORDED[name]
    got = np.asarray(build(*spec)(IMAGES[source]))
    assert got.shape == want.shape and got.dtype == want.dtype
    np.testing.assert_array_equal(got, want)


def test_random_color_adjust_applies_the_four_adjustments_in_a_random_order():
    """MindSpore shuffles the order on each call; every order was recorded from its Adjust* ops."""
    image = IMAGES["rgb_wide"]
    factors = inputs.COLOR_FACTORS
    orders = {key.split("/")[1]: RECORDED[key] for key in RECORDED.files
              if key.startswith("color_order/")}
    ops = {"brightness": vision.AdjustBrightness, "contrast": vision.AdjustContrast,
           "saturation": vision.AdjustSaturation, "hue": vision.AdjustHue}
    assert len(orders) == 24
    for order, want in orders.items():                # refms's Adjust* ops chained alike
        out = image
        for name in order.split(","):
            out = ops[name](factors[name])(out)
        np.testing.assert_array_equal(out, want)
    for key in RECORDED.files:                        # MindSpore's own outputs are among them
        if key.startswith("color_random/"):
            assert any(np.array_equal(RECORDED[key], want) for want in orders.values())
    op = vision.RandomColorAdjust(**{name: (value, value) for name, value in factors.items()})
    seen = set()
    for seed in range(12):
        ds.config.set_seed(seed)
        out = op(image)
        matches = [order for order, want in orders.items() if np.array_equal(out, want)]
        assert matches, f"seed {seed}: not one of the 24 orders"
        seen.add(matches[0])
    assert len(seen) >= 4


def test_fma32_rounds_once():
    """float32(a·b + c) against exact rational arithmetic, rounded half to even."""
    from fractions import Fraction
    from refms.dataset.vision.fma import fma32
    rng = np.random.default_rng(5)
    a = (rng.random(600) * 2 - 1).astype(np.float32)
    b = np.concatenate([rng.random(300), rng.random(300) * 1e-6]).astype(np.float32)
    c = np.concatenate([np.ones(200), rng.random(200) * 300, rng.random(200) * 1e-3]) \
        .astype(np.float32)
    # exact ties: a·b + c half-way between two float32 values, with and without an error term
    tie_a = np.array([1 + 2.0 ** -12, 1 + 2.0 ** -12, 3], np.float32)
    tie_b = np.array([1 + 2.0 ** -12, -(1 + 2.0 ** -12), 2.0 ** -24], np.float32)
    a, b = np.concatenate([a, tie_a]), np.concatenate([b, tie_b])
    c = np.concatenate([c, np.float32([0, 0, 1])])
    got = fma32(a, b, c)
    for x, y, z, out in zip(a, b, c, got):
        exact = Fraction(float(x)) * Fraction(float(y)) + Fraction(float(z))
        nearest = np.float32(float(exact))             # may be one float32 off: check neighbours
        candidates = [np.nextafter(nearest, np.float32(-np.inf)), nearest,
                      np.nextafter(nearest, np.float32(np.inf))]
        best = min(candidates, key=lambda v: (abs(Fraction(float(v)) - exact),
                                              int(np.float32(v).view(np.int32)) & 1))
        assert out == best, (x, y, z)


@pytest.mark.parametrize("path", ["cat/0.jpg", "cat/0.png"])
def test_decode_matches_mindspore(path):
    with open(os.path.join(GOLDEN, "images", path), "rb") as f:
        data = np.frombuffer(f.read(), np.uint8)
    np.testing.assert_array_equal(vision.Decode()(data), RECORDED["decode/" + path])
    assert vision.Decode(to_pil=True)(data).size == RECORDED["decode/" + path].shape[1::-1]


def test_random_operations_are_reproducible_and_within_bounds():
    image = IMAGES["rgb"]
    ds.config.set_seed(3)
    first = [vision.RandomResizedCrop((8, 8))(image) for _ in range(3)]
    ds.config.set_seed(3)
    again = [vision.RandomResizedCrop((8, 8))(image) for _ in range(3)]
    assert all(a.shape == (8, 8, 3) and np.array_equal(a, b) for a, b in zip(first, again))
    assert not np.array_equal(first[0], first[1])
    crop = vision.RandomCrop((5, 6))(image)
    assert any(np.array_equal(crop, image[t:t + 5, l:l + 6]) for t in range(19) for l in range(26))
    cut = vision.CutOut(4, num_patches=2)(image)
    assert (cut == 0).all(-1).sum() >= 16 and ((cut == image) | (cut == 0)).all()
    flips = {vision.RandomHorizontalFlip()(image).tobytes() for _ in range(20)}
    assert flips == {image.tobytes(), image[:, ::-1].tobytes()}
    decoded = vision.RandomCropDecodeResize((6, 7))(
        np.fromfile(os.path.join(GOLDEN, "images", "cat", "0.jpg"), np.uint8))
    assert decoded.shape == (6, 7, 3) and decoded.dtype == np.uint8


def test_batch_mixing_keeps_label_mass():
    rng = np.random.default_rng(0)
    images = rng.integers(0, 256, (4, 8, 8, 3)).astype(np.uint8)
    labels = np.eye(3, dtype=np.float32)[[0, 1, 2, 1]]
    mixed, mixed_labels = vision.MixUpBatch(0.4)(images, labels)
    assert mixed.shape == images.shape and np.allclose(mixed_labels.sum(1), 1)
    cut, cut_labels = vision.CutMixBatch(vision.ImageBatchFormat.NHWC, 1.0, 1.0)(images, labels)
    assert cut.shape == images.shape and np.allclose(cut_labels.sum(1), 1)
    with pytest.raises(RuntimeError, match="one-hot"):
        vision.MixUpBatch()(images, np.array([0, 1, 2, 1]))


def test_to_pil_and_tensor_layouts():
    image = IMAGES["rgb"]
    pil = vision.ToPIL()(image)
    assert pil.size == (31, 23) and np.array_equal(np.asarray(pil), image)
    assert vision.HWC2CHW()(pil).shape == (3, 23, 31)
    gray = vision.Grayscale()(pil)
    assert gray.mode == "L"
    with pytest.raises(RuntimeError, match="Normalize: the image has 3 channels"):
        vision.Normalize([0.5, 0.5], [0.5, 0.5])(image)


def test_random_augmentations_do_not_depend_on_worker_count():
    data = np.stack([IMAGES["rgb"]] * 12)

    def run(workers):
        ms.set_seed(5)
        pipeline = ds.NumpySlicesDataset({"image": data}, shuffle=True).map(
            [vision.RandomResizedCrop((10, 10)), vision.RandomHorizontalFlip(),
             vision.RandomColorAdjust(brightness=0.4)], "image",
            num_parallel_workers=workers).shuffle(4).batch(4)
        return [b[0] for b in pipeline.create_tuple_iterator(output_numpy=True, num_epochs=1)]

    # several workers where the machine has the CPUs (more than CPUs is a ValueError)
    one, several = run(1), run(min(4, os.cpu_count() or 1))
    assert all(np.array_equal(a, b) for a, b in zip(one, several))
    assert not all(np.array_equal(one[0][0], one[0][i]) for i in range(1, 4))
    assert all(np.array_equal(a, b) for a, b in zip(one, run(1)))


# -- RandomResize, RandomColor, RandomSharpness, RandomSelectSubpolicy, SlicePatches ----------
# (their pinned forms are cases of test_matches_mindspore; these check the random draws)

def test_random_resize_uses_one_of_four_interpolations():
    """Each call is Resize with LINEAR, NEAREST, BICUBIC or AREA (what MindSpore 2.10 drew in
    20 seeds): every output is one of those four, matched bit for bit above, and all four
    occur."""
    image = IMAGES["rgb"]
    modes = {m: vision.Resize((12, 16), getattr(vision.Inter, m))(image)
             for m in ("LINEAR", "NEAREST", "BICUBIC", "AREA")}
    seen = set()
    op = vision.RandomResize((12, 16))
    for seed in range(24):
        ds.config.set_seed(seed)
        out = op(image)
        match = [m for m, want in modes.items() if np.array_equal(out, want)]
        assert match, f"seed {seed}: not one of the four interpolations"
        seen.add(match[0])
    assert seen == set(modes)
    with pytest.raises(ValueError):
        vision.RandomResize(0)


@pytest.mark.parametrize("cls", ["RandomColor", "RandomSharpness"])
def test_random_blend_degree_is_drawn_from_the_range(cls):
    """A degree t in [0.2, 0.8] makes every pixel a convex blend of the image and its
    degenerate image (t = 0): between the two, up to rounding; draws differ between calls and
    repeat with the seed."""
    image = IMAGES["rgb"]
    degenerate = getattr(vision, cls)((0.0, 0.0))(image).astype(int)
    low = np.minimum(degenerate, image) - 1
    high = np.maximum(degenerate, image) + 1
    op = getattr(vision, cls)((0.2, 0.8))
    ds.config.set_seed(5)
    outs = [op(image) for _ in range(4)]
    ds.config.set_seed(5)
    again = [op(image) for _ in range(4)]
    for out, repeat in zip(outs, again):
        np.testing.assert_array_equal(out, repeat)
        assert ((out >= low) & (out <= high)).all()
    assert len({out.tobytes() for out in outs}) > 1
    for bad, error in (((-1.0, 1.0), ValueError), ((1.5, 1.0), ValueError), (1.0, TypeError)):
        with pytest.raises(error):                      # MindSpore 2.10's types
            getattr(vision, cls)(bad)


def test_random_select_subpolicy_runs_one_subpolicy_with_its_probabilities():
    image = IMAGES["rgb"]
    invert, flip = vision.Invert(), vision.HorizontalFlip()
    only = vision.RandomSelectSubpolicy([[(invert, 1.0), (flip, 0.0)]])
    np.testing.assert_array_equal(only(image), invert(image))
    both = vision.RandomSelectSubpolicy([[(invert, 1.0), (flip, 1.0)]])
    np.testing.assert_array_equal(both(image), flip(invert(image)))
    either = vision.RandomSelectSubpolicy([[(invert, 1.0)], [(flip, 1.0)]])
    ds.config.set_seed(2)
    outcomes = [either(image).tobytes() for _ in range(40)]
    assert set(outcomes) == {invert(image).tobytes(), flip(image).tobytes()}
    half = vision.RandomSelectSubpolicy([[(invert, 0.5)]])
    ds.config.set_seed(3)
    inverted = sum(np.array_equal(half(image), invert(image)) for _ in range(400))
    assert 160 < inverted < 240                       # Binomial(400, 0.5): ±4 sd
    for bad, error in (([], ValueError), ([[]], ValueError), ([[invert]], ValueError),
                       ([[(invert, 2.0)]], ValueError), ([[(invert, "a")]], TypeError)):
        with pytest.raises(error):                      # MindSpore 2.10's types
            vision.RandomSelectSubpolicy(bad)


def test_slice_patches_in_a_pipeline_and_bad_arguments():
    image = IMAGES["rgb"]
    data = ds.NumpySlicesDataset(image[None], ["image"], shuffle=False)
    names = [f"p{k}" for k in range(6)]
    data = data.map(vision.SlicePatches(2, 3), input_columns=["image"], output_columns=names)
    row = next(data.create_dict_iterator(output_numpy=True))
    want = vision.SlicePatches(2, 3)(image)
    for name, patch in zip(names, want):
        np.testing.assert_array_equal(row[name], patch)
    for kwargs, error in (({"num_height": 0}, ValueError), ({"num_height": 1.0}, TypeError),
                          ({"fill_value": 300}, ValueError), ({"slice_mode": 1}, TypeError)):
        with pytest.raises(error):                      # MindSpore 2.10's types
            vision.SlicePatches(**kwargs)
