"""MindSpore 2.10's own docstring examples, run as programs and compared.

The examples' code is *not* kept in this repository: it is read at run time,
with :mod:`ast` (nothing is imported), from the Python sources of an installed
MindSpore 2.10 (``--sources DIR``, default ``$REFMS_MINDSPORE_SOURCES``).
What the repository keeps is what MindSpore printed for each example, with the
example's id and a hash of its code (``tests/golden/docstring_examples.json.gz``,
written by ``record_docstring_examples.py``).

An example is one docstring's ``>>>`` statements, run in order the way doctest
runs them: each statement is compiled in ``"single"`` mode (so a bare
expression prints its ``repr``), an exception is written as ``!TypeName`` and
the next statement still runs.  The statements are also written to a file so
that ``jit`` and GRAPH-mode Cells can read their source.

Used three ways::

    python docstring_examples.py worker BATCH.json OUT.jsonl [--refms ROOT]
    (the recorder and the test call ``run_batch`` / ``compare``)
"""
import ast
import doctest
import hashlib
import io
import json
import os
import re
import signal
import sys
import tempfile
import time
import types

#: Folders (relative to the ``mindspore`` package) whose examples are used: the
#: ops, nn, Tensor, mint, dataset transform, train and amp APIs.
AREAS = (
    "ops/function", "ops/operations/array_ops.py", "ops/operations/math_ops.py",
    "ops/operations/nn_ops.py", "ops/operations/random_ops.py", "ops/operations/other_ops.py",
    "ops/operations/debug_ops.py", "ops/operations/image_ops.py",
    "ops/operations/manually_defined", "ops/auto_generate/gen_ops_def.py",
    "ops/auto_generate/gen_ops_prim.py", "ops/auto_generate/gen_extend_func.py",
    "ops/functional_overload.py", "ops/primitive.py", "ops/composite",
    "nn/layer", "nn/loss", "nn/optim", "nn/wrap", "nn/cell.py", "nn/learning_rate_schedule.py",
    "nn/dynamic_lr.py", "common/tensor.py", "common/_tensor_docs.py", "common/parameter.py",
    "common/initializer.py", "common/api.py", "common/dtype.py", "common/_stub_tensor.py",
    "mint", "dataset/transforms", "dataset/vision", "dataset/text", "dataset/audio",
    "train/callback", "train/metrics", "train/model.py", "amp.py",
)
#: Leaves out the distributed and device-only parts of the areas above.
EXCLUDE = ("mint/distributed", "comm_func.py")


def example_files(sources):
    """The ``.py`` files of ``AREAS`` under the MindSpore package folder ``sources``, sorted."""
    found = []
    for area in AREAS:
        path = os.path.join(sources, area)
        if os.path.isfile(path):
            found.append(path)
            continue
        for folder, _, names in os.walk(path):
            found.extend(os.path.join(folder, n) for n in names if n.endswith(".py"))
    found = [f for f in found if not any(e in f.replace(os.sep, "/") for e in EXCLUDE)]
    return sorted(set(found))


def _owners(tree):
    """``{id(string node): owner name}`` for every string constant of the module."""
    owners = {}

    def visit(node, scope):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            scope = scope + [node.name]
        if isinstance(node, ast.Call) and node.args:
            first = node.args[0]
            if isinstance(first, ast.Constant) and isinstance(first.value, str):
                # attach_docstr("abs", r'''...''') and the like
                for arg in node.args[1:]:
                    if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                        owners[id(arg)] = ".".join(scope + [first.value])
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            owners.setdefault(id(node), ".".join(scope) or "<module>")
        for child in ast.iter_child_nodes(node):
            visit(child, scope)

    visit(tree, [])
    return owners


def extract(sources):
    """Every docstring example under ``sources``: a list of dicts, duplicates of code removed.

    ``id`` is ``file:owner`` (``#2`` … when one owner has several), ``sha`` the
    sha1 of the code, ``chunks`` the statements as ``[source, want]`` pairs
    (``want`` is the docstring's printed text, kept only for reading reports).
    """
    parser = doctest.DocTestParser()
    examples, seen, taken = [], set(), {}
    for path in example_files(sources):
        with open(path, encoding="utf-8") as handle:
            text = handle.read()
        try:
            tree = ast.parse(text)
        except SyntaxError:
            continue
        owners = _owners(tree)
        rel = os.path.relpath(path, sources).replace(os.sep, "/")
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Constant) and isinstance(node.value, str)
                    and ">>>" in node.value):
                continue
            try:
                parsed = parser.get_examples(node.value)
            except ValueError:
                continue
            chunks = [[e.source, e.want] for e in parsed]
            if not chunks:
                continue
            code = "".join(c[0] for c in chunks)
            sha = hashlib.sha1(code.encode()).hexdigest()[:16]
            if sha in seen:
                continue
            seen.add(sha)
            base = rel + ":" + owners.get(id(node), "<module>")
            taken[base] = taken.get(base, 0) + 1
            ident = base if taken[base] == 1 else "%s#%d" % (base, taken[base])
            examples.append({"id": ident, "sha": sha, "chunks": chunks})
    return examples


# ----------------------------------------------------------------------------------------
# The names an example uses, to tell "refms lacks this API" from a wrong result.


def dotted_names(code):
    """The ``mindspore.…`` paths an example's code names (imports resolved), sorted."""
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return []
    aliases, used = {}, set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for a in node.names:
                if a.name.split(".")[0] == "mindspore":
                    aliases[a.asname or a.name.split(".")[0]] = a.name if a.asname else "mindspore"
                    used.add(a.name)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            if node.module.split(".")[0] == "mindspore":
                for a in node.names:
                    if a.name != "*":
                        aliases[a.asname or a.name] = node.module + "." + a.name
                        used.add(node.module + "." + a.name)

    def chain(node):
        parts = []
        while isinstance(node, ast.Attribute):
            parts.append(node.attr)
            node = node.value
        if isinstance(node, ast.Name) and node.id in aliases:
            return ".".join([aliases[node.id]] + parts[::-1])
        return None

    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute):
            name = chain(node)
            if name:
                used.add(name)
    return sorted(used)


def missing_names(names):
    """Those of ``names`` that do not resolve (``import`` then ``getattr``) in this process."""
    import importlib
    missing = []
    for name in names:
        parts = name.split(".")
        obj, i = None, len(parts)
        while i > 0:
            try:
                obj = importlib.import_module(".".join(parts[:i]))
                break
            except Exception:  # pylint: disable=broad-except
                i -= 1
        if obj is None:
            missing.append(name)
            continue
        for part in parts[i:]:
            if not hasattr(obj, part):
                if not isinstance(obj, type(importlib)):
                    break  # an attribute of a class or object: leave it to the run
                missing.append(name)
                break
            obj = getattr(obj, part)
    return missing


# ----------------------------------------------------------------------------------------
# Running examples


#: Some examples use names their docstring imported or defined elsewhere (``mstype``,
#: ``LeNet5``, ``create_dataset``); these are defined before every example (an example's
#: own definitions replace them).  The network and the dataset are written here.
PREAMBLE = """\
import numpy as np
import mindspore
import mindspore as ms
from mindspore import Tensor, Parameter, nn, ops
from mindspore import dtype as mstype
from mindspore.ops import operations as P


class LeNet5(nn.Cell):
    # LeCun et al. 1998, as MindSpore's model zoo writes it: 1x32x32 in, 10 logits out
    def __init__(self, num_class=10, num_channel=1):
        super().__init__()
        self.conv1 = nn.Conv2d(num_channel, 6, 5, pad_mode="valid")
        self.conv2 = nn.Conv2d(6, 16, 5, pad_mode="valid")
        self.fc1 = nn.Dense(16 * 5 * 5, 120)
        self.fc2 = nn.Dense(120, 84)
        self.fc3 = nn.Dense(84, num_class)
        self.relu = nn.ReLU()
        self.max_pool2d = nn.MaxPool2d(kernel_size=2, stride=2)
        self.flatten = nn.Flatten()

    def construct(self, x):
        x = self.max_pool2d(self.relu(self.conv1(x)))
        x = self.max_pool2d(self.relu(self.conv2(x)))
        x = self.flatten(x)
        x = self.relu(self.fc1(x))
        x = self.relu(self.fc2(x))
        return self.fc3(x)


def create_dataset(num_samples=8, batch_size=4):
    # a small fixed dataset of 1x32x32 images and int32 labels in [0, 10)
    import mindspore.dataset as ds
    rng = np.random.default_rng(0)
    images = rng.uniform(0, 1, (num_samples, 1, 32, 32)).astype(np.float32)
    labels = rng.integers(0, 10, num_samples).astype(np.int32)
    return ds.NumpySlicesDataset((images, labels), ["data", "label"],
                                 shuffle=False).batch(batch_size)
"""


def first_line(error):
    """The first line of an exception's message that is not a rule of dashes."""
    for line in str(error).strip().splitlines():
        if line.strip() and not set(line.strip()) <= set("-="):
            return line.strip()[:200]
    return ""


class _Timeout(Exception):
    pass


def _alarm(signum, frame):
    raise _Timeout()


def run_example(example, folder, seconds=60):
    """Run one example; returns the list of what each statement printed."""
    path = os.path.join(folder, "ex_%s.py" % example["sha"])
    starts, lines = [], []
    for source, _ in example["chunks"]:
        starts.append(len(lines))
        lines.extend(source.splitlines())
    with open(path, "w", encoding="utf-8") as handle:
        handle.write("\n".join(lines) + "\n")
    # each example is a module of its own, so that jit / GRAPH mode find its globals
    module = types.ModuleType("docex_" + example["sha"])
    module.__file__ = path
    sys.modules[module.__name__] = module
    namespace = module.__dict__
    preamble_path = os.path.join(folder, "preamble.py")
    if not os.path.exists(preamble_path):
        with open(preamble_path, "w", encoding="utf-8") as handle:
            handle.write(PREAMBLE)
    exec(compile(PREAMBLE, preamble_path, "exec"), namespace)  # pylint: disable=exec-used
    outputs = []
    old_handler = signal.signal(signal.SIGALRM, _alarm)
    signal.alarm(seconds)
    try:
        for (source, _), start in zip(example["chunks"], starts):
            buffer = io.StringIO()
            saved = sys.stdout
            sys.stdout = buffer
            try:
                code = compile("\n" * start + source, path, "single")
                exec(code, namespace)  # pylint: disable=exec-used
            except _Timeout:
                sys.stdout = saved
                outputs.append(buffer.getvalue() + "!TIMEOUT")
                break
            except BaseException as error:  # pylint: disable=broad-except
                buffer.write("!%s: %s" % (type(error).__name__, first_line(error)))
            finally:
                sys.stdout = saved
            outputs.append(buffer.getvalue())
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old_handler)
        sys.modules.pop(module.__name__, None)
    return outputs


def _reset():
    """Undo what an example may have set: the execution mode and the seed."""
    try:
        import mindspore
        mindspore.set_context(mode=mindspore.PYNATIVE_MODE)
    except Exception:  # pylint: disable=broad-except
        pass


def run_batch(examples, out_path, refms_root=None, seconds=60):
    """Run ``examples`` one after another, appending one JSON line each to ``out_path``."""
    if refms_root:
        sys.path.insert(0, refms_root)
        from refms.alias import install
        install()
    import warnings
    warnings.filterwarnings("ignore")
    folder = tempfile.mkdtemp(prefix="docex_")
    cwd = os.getcwd()
    with open(out_path, "a", encoding="utf-8") as out:
        for example in examples:
            os.chdir(folder)
            code = "".join(c[0] for c in example["chunks"])
            record = {"id": example["id"], "sha": example["sha"]}
            if refms_root:
                record["missing"] = missing_names(dotted_names(PREAMBLE + code))
            started = time.perf_counter()
            try:
                record["out"] = run_example(example, folder, seconds)
            except BaseException as error:  # pylint: disable=broad-except
                record["out"] = ["!HARNESS %s" % type(error).__name__]
            record["seconds"] = round(time.perf_counter() - started, 3)
            _reset()
            os.chdir(cwd)
            out.write(json.dumps(record) + "\n")
            out.flush()


# ----------------------------------------------------------------------------------------
# Comparing printed outputs

NUMBER = re.compile(r"[-+]?(?:\d+\.?\d*(?:[eE][-+]?\d+)?|\.\d+(?:[eE][-+]?\d+)?)")
#: A word (``Float32``, ``nan``: compared as text), a number, or a run of other characters
#: (signs and points apart, so that ``[-1.5`` is ``[`` and ``-1.5``).
TOKEN = re.compile(r"[A-Za-z_]\w*|" + NUMBER.pattern + r"|[^\s\w+\-.]+|[+\-.]")


#: ``<mindspore.common.initializer.HeUniform object at 0x7f26...>``: the address differs in
#: every run, the module path between MindSpore and refms; compared as ``<HeUniform object>``.
OBJECT_REPR = re.compile(r"<[\w.]*?(\w+) object at 0x[0-9a-fA-F]+>")
SHAPE = re.compile(r"shape=\[[^\]]*\]")


def tokens(text):
    """``text`` split into words, numbers (as floats) and other runs of characters."""
    result = []
    for token in TOKEN.findall(text):
        if NUMBER.fullmatch(token):
            result.append(float(token))
        else:
            result.append(token)
    return result


def same_text(expected, actual, rtol=2e-3, atol=1e-5, loose=False):
    """Whether two printed outputs agree: words equal, numbers within tolerance.

    ``loose`` (for examples whose values are random) lets the numbers differ; words, the
    ``shape=[...]`` of tensor reprs and the count of numbers must still agree.  An exception
    line compares its type only.
    """
    if expected.startswith("!") or "\n!" in expected or actual.startswith("!") or "\n!" in actual:
        return _exception_types(expected) == _exception_types(actual) and same_text(
            _strip_exceptions(expected), _strip_exceptions(actual), rtol, atol, loose)
    expected, actual = OBJECT_REPR.sub(r"<\1 object>", expected), OBJECT_REPR.sub(r"<\1 object>", actual)
    if loose and SHAPE.findall(expected) != SHAPE.findall(actual):
        return False
    a, b = tokens(expected), tokens(actual)
    if len(a) != len(b):
        return False
    for x, y in zip(a, b):
        if isinstance(x, float) != isinstance(y, float):
            return False
        if not isinstance(x, float):
            if x != y:
                return False
        elif not loose and x != y and abs(x - y) > atol + rtol * abs(x):
            return False
    return True


def _exception_types(text):
    return [line.split(":")[0] for line in text.splitlines() if line.startswith("!")]


def _strip_exceptions(text):
    return "\n".join(line for line in text.splitlines() if not line.startswith("!"))


def compare(expected, actual, loose=False):
    """Index of the first statement whose output differs, or ``None`` when all agree."""
    for i, (x, y) in enumerate(zip(expected, actual)):
        if not same_text(x, y, loose=loose):
            return i
    if len(expected) != len(actual):
        return min(len(expected), len(actual))
    return None


def main(argv):
    if argv[0] == "worker":
        with open(argv[1], encoding="utf-8") as handle:
            examples = json.load(handle)
        refms_root = argv[argv.index("--refms") + 1] if "--refms" in argv else None
        run_batch(examples, argv[2], refms_root)
    else:
        raise SystemExit("usage: docstring_examples.py worker BATCH.json OUT.jsonl [--refms ROOT]")


if __name__ == "__main__":
    main(sys.argv[1:])
