"""The built-in layers: values (semantics 8), Conv2d against an independent direct
convolution, and every layer's gradients against central differences in float64.

Gradient checks use the random-projection test (HIPS/autograd
``test_util.py``): for a random output weighting r and a random direction v,
⟨∇(Σ r·f), v⟩ must equal (Σ r·f(θ + εv) − Σ r·f(θ − εv)) / 2ε for the input and
for every trainable parameter.
"""
import math

import numpy as np
import pytest

import refms as ms
from refms import Tensor, nn


def f64(array):
    return Tensor(np.asarray(array, np.float64))


# -- the gradient check ---------------------------------------------------------------------------

def check_gradients(layer, x, eps=1e-6, rtol=1e-5, seed=0):
    """Random-projection check of d(Σ r·layer(x)) w.r.t. x and every trainable parameter."""
    rng = np.random.default_rng(seed)
    r = f64(rng.standard_normal(layer(x).shape))
    params = layer.trainable_params()

    def objective(inp):
        return (layer(inp) * r).sum()

    if params:
        gx, gparams = ms.grad(objective, 0, params)(x)
    else:
        gx, gparams = ms.grad(objective, 0)(x), ()

    def value(inp):
        return float(objective(inp).asnumpy())

    base_x = x.asnumpy()
    v = rng.standard_normal(base_x.shape)
    numeric = (value(f64(base_x + eps * v)) - value(f64(base_x - eps * v))) / (2 * eps)
    analytic = float((gx.asnumpy() * v).sum())
    assert math.isclose(analytic, numeric, rel_tol=rtol, abs_tol=1e-7), ("input", analytic, numeric)
    for param, grad in zip(params, gparams):
        base = param.asnumpy()
        v = rng.standard_normal(base.shape)
        param.set_data(f64(base + eps * v))
        plus = value(x)
        param.set_data(f64(base - eps * v))
        minus = value(x)
        param.set_data(f64(base))
        numeric = (plus - minus) / (2 * eps)
        analytic = float((grad.asnumpy() * v).sum())
        assert math.isclose(analytic, numeric, rel_tol=rtol, abs_tol=1e-7), \
            (param.name, analytic, numeric)


def random_input(*shape, seed=1):
    return f64(np.random.default_rng(seed).standard_normal(shape))


F64 = ms.float64

GRADIENT_CASES = [
    ("Dense", lambda: nn.Dense(4, 3, dtype=F64), (5, 4)),
    ("Dense 3-D input with activation", lambda: nn.Dense(4, 3, activation="tanh", dtype=F64),
     (2, 3, 4)),
    ("Conv2d same", lambda: nn.Conv2d(2, 3, 3, has_bias=True, dtype=F64), (2, 2, 5, 5)),
    ("Conv2d valid stride 2", lambda: nn.Conv2d(2, 3, 3, stride=2, pad_mode="valid", dtype=F64),
     (1, 2, 7, 7)),
    ("Conv2d pad dilation group", lambda: nn.Conv2d(4, 6, (3, 2), pad_mode="pad",
                                                    padding=(1, 0, 2, 1), dilation=2, group=2,
                                                    has_bias=True, dtype=F64), (2, 4, 6, 7)),
    ("BatchNorm2d eval", lambda: nn.BatchNorm2d(3, dtype=F64), (2, 3, 2, 2)),
    ("BatchNorm2d train", lambda: nn.BatchNorm2d(3, dtype=F64).set_train(), (4, 3, 2, 2)),
    ("BatchNorm1d train", lambda: nn.BatchNorm1d(3, dtype=F64).set_train(), (6, 3)),
    ("LayerNorm", lambda: nn.LayerNorm((4,), dtype=F64), (3, 4)),
    ("LayerNorm two axes", lambda: nn.LayerNorm((2, 3), begin_norm_axis=1, begin_params_axis=1,
                                                dtype=F64), (2, 2, 3)),
    ("GroupNorm", lambda: nn.GroupNorm(2, 4, dtype=F64), (2, 4, 3, 3)),
    ("MaxPool2d", lambda: nn.MaxPool2d(2, 2), (1, 2, 4, 4)),
    ("MaxPool2d same", lambda: nn.MaxPool2d(3, 2, pad_mode="same"), (1, 1, 5, 5)),
    ("AvgPool2d", lambda: nn.AvgPool2d(3, 2, pad_mode="same"), (1, 2, 5, 5)),
    ("AvgPool2d pad", lambda: nn.AvgPool2d(3, 2, pad_mode="pad", padding=1), (1, 1, 5, 5)),
    ("AdaptiveMaxPool2d", lambda: nn.AdaptiveMaxPool2d(3), (1, 2, 5, 4)),
    ("AdaptiveAvgPool2d", lambda: nn.AdaptiveAvgPool2d((2, 3)), (1, 2, 4, 6)),
    ("AdaptiveAvgPool2d uneven", lambda: nn.AdaptiveAvgPool2d((3, 2)), (1, 1, 5, 5)),
    ("ReLU", nn.ReLU, (3, 4)),
    ("Sigmoid", nn.Sigmoid, (3, 4)),
    ("Tanh", nn.Tanh, (3, 4)),
    ("GELU", nn.GELU, (3, 4)),
    ("GELU exact", lambda: nn.GELU(approximate=False), (3, 4)),
    ("Softmax", nn.Softmax, (3, 4)),
    ("LogSoftmax", lambda: nn.LogSoftmax(axis=0), (3, 4)),
    ("Flatten", nn.Flatten, (2, 3, 2)),
    ("Dropout eval", lambda: nn.Dropout(p=0.5), (3, 4)),
    ("SequentialCell", lambda: nn.SequentialCell([nn.Dense(4, 5, dtype=F64), nn.Sigmoid(),
                                                  nn.Dense(5, 2, dtype=F64)]), (3, 4)),
]


@pytest.mark.parametrize("build,shape", [case[1:] for case in GRADIENT_CASES],
                         ids=[case[0] for case in GRADIENT_CASES])
def test_layer_gradients_match_central_differences(build, shape):
    ms.set_seed(3)
    check_gradients(build(), random_input(*shape))


def test_embedding_gradient():
    ms.set_seed(3)
    emb = nn.Embedding(5, 3, dtype=ms.int32)
    emb.embedding_table.set_data(random_input(5, 3))
    ids = Tensor(np.array([[0, 4], [4, 2]], np.int32))
    g = ms.grad(lambda i: emb(i).sum(), None, emb.trainable_params())(ids)[0].asnumpy()
    assert g.tolist() == [[1] * 3, [0] * 3, [1] * 3, [0] * 3, [2] * 3]


# -- Conv2d against a direct convolution ------------------------------------------------------------

def direct_conv2d(x, w, stride, pads, dilation, group):
    """out[n, o, i, j] = Σ_{c, p, q} w[o, c, p, q] · xpad[n, g·C + c, i·sh + p·dh, j·sw + q·dw]."""
    top, bottom, left, right = pads
    xp = np.pad(x, ((0, 0), (0, 0), (top, bottom), (left, right)))
    n, _, h, wd = xp.shape
    out_c, c_per_group, kh, kw = w.shape
    oh = (h - dilation[0] * (kh - 1) - 1) // stride[0] + 1
    ow = (wd - dilation[1] * (kw - 1) - 1) // stride[1] + 1
    out = np.zeros((n, out_c, oh, ow))
    per_group_out = out_c // group
    for o in range(out_c):
        g = o // per_group_out
        for i in range(oh):
            for j in range(ow):
                rows = i * stride[0] + dilation[0] * np.arange(kh)
                cols = j * stride[1] + dilation[1] * np.arange(kw)
                patch = xp[:, g * c_per_group:(g + 1) * c_per_group][:, :, rows][:, :, :, cols]
                out[:, o, i, j] = (patch * w[o]).sum(axis=(1, 2, 3))
    return out


def same_pads(size, k, s, d):
    out = -(-size // s)
    total = max((out - 1) * s + d * (k - 1) + 1 - size, 0)
    return total // 2, total - total // 2


#: (pad_mode, padding, kernel, stride, dilation, group, input (N, C, H, W), out_channels)
CONV_TABLE = [
    ("same", 0, 3, 1, 1, 1, (2, 3, 6, 6), 4),
    ("same", 0, 3, 2, 1, 1, (1, 2, 7, 6), 4),
    ("same", 0, 2, 1, 1, 1, (1, 1, 3, 3), 1),
    ("same", 0, (3, 2), (2, 1), (2, 1), 2, (1, 4, 8, 7), 6),
    ("valid", 0, 3, 1, 1, 1, (2, 3, 6, 6), 4),
    ("valid", 0, 3, 2, 2, 1, (1, 2, 9, 8), 3),
    ("valid", 0, (2, 3), (1, 2), 1, 3, (1, 6, 5, 7), 3),
    ("pad", 1, 3, 1, 1, 1, (2, 3, 6, 6), 4),
    ("pad", (1, 0, 2, 0), 3, 1, 1, 1, (1, 1, 6, 6), 2),
    ("pad", (0, 2, 1, 3), 3, 2, 2, 2, (1, 4, 9, 9), 4),
    ("pad", 2, (3, 3), 3, 1, 4, (2, 8, 7, 7), 8),
]


@pytest.mark.parametrize("pad_mode,padding,kernel,stride,dilation,group,shape,out_channels",
                         CONV_TABLE)
def test_conv2d_matches_direct_convolution(pad_mode, padding, kernel, stride, dilation, group,
                                           shape, out_channels):
    ms.set_seed(5)
    conv = nn.Conv2d(shape[1], out_channels, kernel, stride=stride, pad_mode=pad_mode,
                     padding=padding, dilation=dilation, group=group, has_bias=True,
                     bias_init="normal")
    x = np.random.default_rng(0).standard_normal(shape).astype(np.float32)
    kh, kw = conv.kernel_size
    (sh, sw), (dh, dw) = conv.stride, conv.dilation
    if pad_mode == "same":
        pads = same_pads(shape[2], kh, sh, dh) + same_pads(shape[3], kw, sw, dw)
    elif pad_mode == "valid":
        pads = (0, 0, 0, 0)
    else:
        pads = (padding,) * 4 if isinstance(padding, int) else padding
    expected = direct_conv2d(x.astype(np.float64), conv.weight.asnumpy().astype(np.float64),
                             (sh, sw), pads, (dh, dw), group)
    expected += conv.bias.asnumpy().reshape(1, -1, 1, 1)
    got = conv(Tensor(x)).asnumpy()
    assert got.shape == expected.shape
    assert np.abs(got - expected).max() < 1e-5


@pytest.mark.parametrize("pad_mode,padding,kernel,stride,dilation,group,shape,out_channels",
                         CONV_TABLE)
def test_conv2d_matches_pytorch(pad_mode, padding, kernel, stride, dilation, group, shape,
                                out_channels):
    """The same table against torch.nn.functional.conv2d (explicit padding, like 'pad')."""
    torch = pytest.importorskip("torch", reason="PyTorch is not installed: the PyTorch "
                                                "comparison of Conv2d needs it")
    ms.set_seed(5)
    conv = nn.Conv2d(shape[1], out_channels, kernel, stride=stride, pad_mode=pad_mode,
                     padding=padding, dilation=dilation, group=group, has_bias=True,
                     bias_init="normal")
    x = np.random.default_rng(1).standard_normal(shape).astype(np.float32)
    kh, kw = conv.kernel_size
    (sh, sw), (dh, dw) = conv.stride, conv.dilation
    if pad_mode == "same":
        pads = same_pads(shape[2], kh, sh, dh) + same_pads(shape[3], kw, sw, dw)
    elif pad_mode == "valid":
        pads = (0, 0, 0, 0)
    else:
        pads = (padding,) * 4 if isinstance(padding, int) else padding
    top, bottom, left, right = pads
    padded = torch.nn.functional.pad(torch.from_numpy(x), (left, right, top, bottom))
    expected = torch.nn.functional.conv2d(padded, torch.from_numpy(conv.weight.asnumpy()),
                                          torch.from_numpy(conv.bias.asnumpy()),
                                          stride=(sh, sw), dilation=(dh, dw), groups=group)
    got = conv(Tensor(x)).asnumpy()
    assert got.shape == tuple(expected.shape)
    assert np.abs(got - expected.numpy()).max() < 1e-5


def test_conv2d_shapes_and_same_padding_values():                    # semantics 8.1
    x6 = Tensor(np.ones((1, 1, 6, 6), np.float32))
    assert nn.Conv2d(1, 1, 3)(x6).shape == (1, 1, 6, 6)
    assert nn.Conv2d(1, 1, 3, stride=2)(x6).shape == (1, 1, 3, 3)
    assert nn.Conv2d(1, 1, 3, pad_mode="valid")(x6).shape == (1, 1, 4, 4)
    assert nn.Conv2d(1, 1, 3, pad_mode="pad", padding=(1, 0, 2, 0))(x6).shape == (1, 1, 5, 6)
    x3 = Tensor(np.arange(9, dtype=np.float32).reshape(1, 1, 3, 3))
    out = nn.Conv2d(1, 1, 2, weight_init="ones")(x3)
    assert out.asnumpy()[0, 0].tolist() == [[8, 12, 7], [20, 24, 13], [13, 15, 8]]


def test_conv2d_defaults_and_errors():
    conv = nn.Conv2d(3, 4, 3)
    assert conv.bias is None and names_of(conv) == ["weight"] and conv.weight.shape == (4, 3, 3, 3)
    assert np.abs(conv.weight.asnumpy()).max() <= 1 / math.sqrt(27)      # HeUniform(√5)
    with pytest.raises(RuntimeError, match=r"'Conv2d'.*\(N, 3, H, W\).*\(1, 2, 5, 5\)"):
        conv(Tensor(np.ones((1, 2, 5, 5), np.float32)))
    with pytest.raises(ValueError, match="'pad' must be zero when 'pad_mode' is not 'pad'"):
        nn.Conv2d(3, 4, 3, pad_mode="same", padding=1)
    with pytest.raises(ValueError, match="'group' should be divisible"):
        nn.Conv2d(3, 4, 3, group=2)


def test_r1_default_initialisation():
    ms.set_context(compat="1.7")
    conv = nn.Conv2d(3, 4, 3, has_bias=True)
    dense = nn.Dense(100, 50)
    assert conv.weight_init == "normal" and conv.bias.asnumpy().tolist() == [0.0] * 4
    assert np.all(dense.bias.asnumpy() == 0) and abs(dense.weight.asnumpy().std() - 0.01) < 1e-3


def names_of(cell):
    return [p.name for p in cell.get_parameters()]


# -- Dense -----------------------------------------------------------------------------------------

def test_dense_values_and_errors():
    d = nn.Dense(3, 2, weight_init="ones", bias_init="ones")
    assert d(Tensor(np.ones((2, 2, 3), np.float32))).asnumpy().tolist() == [[[4, 4]] * 2] * 2
    assert d.weight.shape == (2, 3) and d.bias.shape == (2,)
    with pytest.raises(ValueError, match=r"'Dense'.*in_channels=3.*\(2, 5\)"):
        d(Tensor(np.ones((2, 5), np.float32)))
    with pytest.raises(ValueError, match="weight init shape error"):
        nn.Dense(3, 2, weight_init=Tensor(np.ones((3, 2), np.float32)))
    with pytest.raises(TypeError, match="'activation' must be str or Cell or Primitive"):
        nn.Dense(3, 2, activation=3)
    with pytest.raises(KeyError, match="'name' must be in"):
        nn.Dense(3, 2, activation="nope")


# -- BatchNorm (semantics 8.3) -----------------------------------------------------------------

X8 = np.arange(1, 9, dtype=np.float32).reshape(2, 1, 2, 2)


def test_batchnorm_training_uses_biased_variance_and_updates_with_unbiased():
    bn = nn.BatchNorm2d(1).set_train()
    out = bn(Tensor(X8)).asnumpy().ravel()
    assert np.allclose(out[:3], [-1.5275238, -1.0910884, -0.6546531], atol=1e-6)
    assert np.allclose(bn.moving_mean.asnumpy(), [0.45])            # 0.9·0 + 0.1·4.5
    assert np.allclose(bn.moving_variance.asnumpy(), [1.5])          # 0.9·1 + 0.1·6.0


def test_batchnorm_eval_default_divides_by_sqrt_one_plus_eps():
    out = nn.BatchNorm2d(1)(Tensor(X8)).asnumpy()
    assert np.allclose(out, X8 / math.sqrt(1 + 1e-5))
    assert float(np.float32(1 / math.sqrt(1 + 1e-5))) == pytest.approx(9.99994993e-01, abs=1e-9)


def test_use_batch_statistics():
    always = nn.BatchNorm2d(1, use_batch_statistics=True)              # eval mode, still updates
    always(Tensor(X8))
    assert np.allclose(always.moving_mean.asnumpy(), [0.45])
    never = nn.BatchNorm2d(1, use_batch_statistics=False).set_train()
    assert np.allclose(never(Tensor(X8)).asnumpy(), X8 / math.sqrt(1 + 1e-5))
    assert never.moving_mean.asnumpy().tolist() == [0.0]


def test_batchnorm_errors():
    with pytest.raises(ValueError, match=r"'momentum' must be a number in range \[0, 1\]"):
        nn.BatchNorm2d(2, momentum=1.5)
    with pytest.raises(ValueError, match=r"'BatchNorm2d'.*3 channels.*\(2, 4, 5, 5\)"):
        nn.BatchNorm2d(3)(Tensor(np.ones((2, 4, 5, 5), np.float32)))
    with pytest.raises(ValueError, match="rank 2 or 3"):
        nn.BatchNorm1d(3)(Tensor(np.ones((2, 3, 4, 4), np.float32)))


# -- other layers ------------------------------------------------------------------------------------

def test_pooling_shapes_and_values():                                   # semantics 8.4
    x7 = Tensor(np.arange(49, dtype=np.float32).reshape(1, 1, 7, 7))
    assert nn.MaxPool2d(3, 2)(x7).shape == (1, 1, 3, 3)
    assert nn.MaxPool2d(3, 2, pad_mode="same")(x7).shape == (1, 1, 4, 4)
    x4 = Tensor(np.arange(16, dtype=np.float32).reshape(1, 1, 4, 4))
    assert nn.AdaptiveMaxPool2d(2)(x4).asnumpy().ravel().tolist() == [5, 7, 13, 15]
    assert nn.AdaptiveAvgPool2d((2, 2))(x4).asnumpy().ravel().tolist() == [2.5, 4.5, 10.5, 12.5]
    assert nn.AdaptiveMaxPool2d(3)(x4).asnumpy().ravel().tolist() == [5, 6, 7, 9, 10, 11, 13, 14, 15]
    assert nn.MaxPool2d(2, 2)(Tensor(np.ones((1, 4, 4), np.float32))).shape == (1, 2, 2)
    with pytest.raises(ValueError, match="can not be set to non-default value"):
        nn.MaxPool2d(2, 2, padding=1)


def test_layer_norm_and_group_norm_values():
    x = np.arange(12, dtype=np.float32).reshape(4, 3) ** 1.5
    ln = nn.LayerNorm((3,))(Tensor(x)).asnumpy()
    mean, var = x.mean(-1, keepdims=True), x.var(-1, keepdims=True)
    assert np.allclose(ln, (x - mean) / np.sqrt(var + 1e-7), atol=1e-5)
    xg = np.arange(32, dtype=np.float32).reshape(2, 4, 2, 2) ** 1.3
    gn = nn.GroupNorm(2, 4)(Tensor(xg)).asnumpy()
    grouped = xg.reshape(2, 2, -1)
    ref = (grouped - grouped.mean(-1, keepdims=True)) / np.sqrt(grouped.var(-1, keepdims=True) + 1e-5)
    assert np.allclose(gn, ref.reshape(xg.shape), atol=1e-5)


def test_embedding_values():
    emb = nn.Embedding(5, 3, embedding_table="ones", padding_idx=1)
    out = emb(Tensor(np.array([[0, 1], [4, 1]], np.int32))).asnumpy()
    assert out.shape == (2, 2, 3) and out[0, 1].tolist() == [0, 0, 0] and out[0, 0].tolist() == [1] * 3
    one_hot = nn.Embedding(5, 3, use_one_hot=True, embedding_table="ones")
    assert one_hot(Tensor(np.array([2], np.int32))).asnumpy().tolist() == [[1, 1, 1]]


def test_dropout_modes():
    x = Tensor(np.ones((100, 100), np.float32))
    drop = nn.Dropout(p=0.5)
    assert drop(x) is x                                   # inference: identity
    drop.set_train()
    out = drop(x).asnumpy()
    assert set(np.unique(out).tolist()) <= {0.0, 2.0} and abs(out.mean() - 1) < 0.1
    with pytest.raises(ValueError, match=r"'p' must be a number in range \[0, 1\)"):
        nn.Dropout(p=1.0)
    assert repr(nn.Dropout(p=0.3)) == "Dropout(p=0.3)"


def test_flatten_and_identity():
    x = Tensor(np.ones((2, 3, 4), np.float32))
    assert nn.Flatten()(x).shape == (2, 12)
    assert nn.Flatten(0, 1)(x).shape == (6, 4)
    assert nn.Identity(1, k=2)(x) is x
    with pytest.raises(ValueError, match="out of range"):
        nn.Flatten(start_dim=3)(x)


def test_containers():
    seq = nn.SequentialCell(nn.Dense(3, 2), nn.ReLU())
    assert len(seq) == 2 and isinstance(seq[-1], nn.ReLU) and isinstance(seq[:1], nn.SequentialCell)
    assert seq(Tensor(np.ones((1, 3), np.float32))).shape == (1, 2)
    cl = nn.CellList([nn.Dense(2, 2)])
    cl.append(nn.ReLU())
    cl.insert(0, nn.Tanh())
    assert [type(c).__name__ for c in cl] == ["Tanh", "Dense", "ReLU"]
    assert names_of(cl) == ["1.weight", "1.bias"]
    with pytest.raises(TypeError, match="must be Cell, list or orderedDict"):
        nn.SequentialCell(3)
    with pytest.raises(IndexError):
        seq[5]
