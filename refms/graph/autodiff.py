"""Graph-mode automatic differentiation: gradients as an IR → IR transform.

Algorithm: reverse mode by closure transformation — Pearlmutter & Siskind,
"Reverse-Mode AD in a Functional Framework: Lambda the Ultimate
Backpropagator" (TOPLAS 2008), the scheme of MindSpore's ``ad/dfunctor.cc``
and of Myia.  For a closed graph ``g(x…)`` the transform builds ``J(g)(x…)``
which returns ``(g(x…), B)``: the forward value and a *backpropagator*
closure ``B(dout) -> (dx…)``:

* ``J(g)`` replays ``g``'s forward nodes; a call of a graph ``h`` becomes a call
  of ``J(h)``, whose second output is ``h``'s backpropagator; a
  ``Switch(c, @a, @b)`` becomes ``Switch(c, @J(a), @J(b))``, so loops and
  run-time conditions are differentiated by the same rule (a loop's
  backpropagator is built one iteration at a time, as the loop runs);
* ``B`` is a child graph of ``J(g)``: it walks ``g``'s nodes in reverse, and for
  each primitive *traces the primitive's own bprop* — the same
  ``bprop(*inputs, out, dout)`` PyNative calls — into IR, by running it on
  stand-ins with the node-emitting executor (:mod:`refms.graph.tracer`);
  cotangents of a node used several times are added; a graph call's
  cotangents come from calling its backpropagator;
* a graph flagged ``custom_bprop`` (a Cell with ``bprop``) is not entered: its
  backpropagator calls the Cell's ``bprop`` (parsed like ``construct``), checked
  as in PyNative (semantics 6).
* a primitive reading a Parameter that the program also writes (``ops.assign`` in the
  differentiated function) reads it through a snapshot: ``J(g)`` copies the Parameter
  (an ``Identity`` node, MindSpore's ``Load`` followed by the ``TensorMove`` it inserts)
  where the primitive runs, and the backpropagator uses the copy, so each product of
  ``for i in range(3): ops.assign(self.w, i); out = x * self.w + out`` is
  differentiated with the value ``w`` had then (MindSpore 2.10 graph mode, tutorial
  "static_graph_expert_programming"; its default ``MS_DEV_SIDE_EFFECT_LOAD_ELIM=1``
  leaves out the copy where it judges a single read safe, which can give the final value
  instead — refms copies every such read, as ``MS_DEV_SIDE_EFFECT_LOAD_ELIM=0`` does).
  The gradient of the copy flows to the Parameter.  PyNative has no snapshot: its
  backward reads the Parameter when it runs (semantics 4.6).

Before the transform the target is inlined and lambda-lifted
(:mod:`refms.graph.passes.lambda_lift`) with its weights as parameters, so
every graph is closed and every value flowing in — weights included — gets
its gradient as a backpropagator output.  After it, ordinary inlining and
simplification turn the straight-line case into one flat graph.

``run_and_differentiate`` is the graph counterpart of
``refms.autograd.grad.run_and_differentiate``: ``GradOperation``,
``grad`` and ``value_and_grad`` run their one Python implementation on
stand-ins and get the same return structures in both modes.  When a gradient
is compiled, and how compiled calls join a PyNative tape, is
:mod:`refms.graph.grad_dispatch`.
``HookBackward`` is ignored in graph mode (semantics 5.1): the emitter drops it.
"""
from ..autograd import tape as _tape
from ..autograd.grad import seed_cotangents
from ..ops import functional as F
from ..ops.primitive import Primitive
from ..ops.prims.cast import Identity
from .._tensor import Tensor
from . import abstract as A
from . import forward_reuse
from . import graph_ops as G
from . import ir
from . import tracer
from .bridge import GraphCallable
from .cells import PyCall
from .clone import clone_program
from .errors import GraphCompileError
from .fallback import PyExecute
from .infer import Context
from .passes import inline, lambda_lift
from .passes._util import callee_value, parameter_of

__all__ = ["Transform", "run_and_differentiate", "prepare", "cotangent_abstract", "PyBprop"]



def cotangent_abstract(abstract):
    """The abstract of a gradient with respect to a value of ``abstract``."""
    if isinstance(abstract, A.Abstract):
        return A.Abstract(abstract.shape, abstract.dtype)
    if isinstance(abstract, A.AbstractTuple):
        return A.AbstractTuple([cotangent_abstract(a) for a in abstract.items], "tuple")
    return A.Const(None)


class PyBprop:
    """Fallback for a primitive whose bprop needs values at compile time: the bprop runs
    in Python (PyNative ops, no tape) when the gradient graph runs."""

    effect = False

    def __init__(self, prim, n_inputs):
        self.prim = prim
        self.n_inputs = n_inputs
        self.name = f"PyBprop[{prim.name}]"

    def run(self, *values):
        inputs = values[:self.n_inputs]
        out, dout = values[self.n_inputs], values[self.n_inputs + 1]
        with _tape.no_grad():
            grads = self.prim.bprop(*inputs, out, dout)
        return tuple(grads) if isinstance(grads, (tuple, list)) else (grads,)

    def __call__(self, *values):
        return self.run(*values)

    def __repr__(self):
        return self.name


class Transform:
    """One reverse-mode transform session: ``J(graph)`` memoized per graph."""

    def __init__(self, specializer):
        self.spec = specializer
        self.memo = {}
        self.written = None       # ids of the Parameters the program writes (ALL: any)

    def J(self, graph):
        if self.written is None:  # the first graph is the whole program's entry
            self.written = written_parameters(graph)
        done = self.memo.get(id(graph))
        if done is None:
            if graph.flags.get("custom_bprop") is not None:
                done = self._custom(graph)
            elif graph.flags.get("backward_hooks") is not None:
                done = self._hooked(graph)
            else:
                done = self._build(graph)
        return done

    # -- forward replay ------------------------------------------------------------------------
    def _build(self, graph):
        fwd = ir.FuncGraph("J_" + graph.name, loc=graph.loc)
        fwd.flags["effects"] = graph.flags.get("effects", False)
        self.memo[id(graph)] = fwd
        fmap = {}
        for param in graph.params:
            fmap[id(param)] = fwd.add_param(param.name, param.abstract, param.loc)

        def new(node):
            if isinstance(node, ir.ValueNode):
                if isinstance(node.value, ir.FuncGraph):
                    return ir.ValueNode(self.J(node.value))
                return node
            return fmap.get(id(node), node)

        def primal(node):
            """An input of a PyExecute node: host code calls the function values it is given,
            so they stay the primal graphs (a Partial of one is built again around it)."""
            if isinstance(node, ir.ValueNode):
                return node
            if isinstance(node, ir.CNode) and isinstance(node.inputs[0], ir.ValueNode) \
                    and node.inputs[0].value is G.PARTIAL:
                return fwd.apply([G.PARTIAL] + [primal(i) for i in node.inputs[1:]], None,
                                 node.abstract, node.loc)
            return new(node)

        records = []
        for node in graph.order:
            head = node.inputs[0]
            args = [new(i) for i in node.inputs[1:]]
            callee = head.value if isinstance(head, ir.ValueNode) else None
            if isinstance(callee, Primitive):
                snapshots = self._snapshots(fwd, node, args) if callee.differentiable else {}
                fmap[id(node)] = fwd.apply([head] + args, node.name, node.abstract, node.loc)
                if callee.differentiable:
                    records.append((node, "prim", (callee, snapshots)))
            elif isinstance(callee, ir.FuncGraph) or isinstance(head, ir.CNode):
                callee_node = ir.ValueNode(self.J(callee)) if callee is not None else new(head)
                pair = A.AbstractTuple([node.abstract, A.AbstractGraph(fwd)])
                call = fwd.apply([callee_node] + args, None, pair, node.loc)
                fmap[id(node)] = fwd.apply([G.TUPLE_GETITEM, call, 0], node.name, node.abstract,
                                           node.loc)
                backprop = fwd.apply([G.TUPLE_GETITEM, call, 1], None, A.AbstractGraph(fwd),
                                     node.loc)
                records.append((node, "call", backprop))
            elif callee is G.SWITCH:
                branches = [new(i) for i in node.inputs[2:]]
                fmap[id(node)] = fwd.apply([head, args[0]] + branches, node.name, node.abstract,
                                           node.loc)
            elif callee in (G.MAKE_TUPLE, G.MAKE_LIST):
                fmap[id(node)] = fwd.apply([head] + args, node.name, node.abstract, node.loc)
                records.append((node, "make_tuple", None))
            elif callee is G.MAKE_DICT:
                fmap[id(node)] = fwd.apply([head] + args, node.name, node.abstract, node.loc)
                records.append((node, "make_dict", None))
            elif callee is G.TUPLE_GETITEM:
                fmap[id(node)] = fwd.apply([head] + args, node.name, node.abstract, node.loc)
                records.append((node, "getitem", node.inputs[2].value))
            elif isinstance(callee, PyExecute):            # host code: no gradient flows
                fmap[id(node)] = fwd.apply([head] + [primal(i) for i in node.inputs[1:]],
                                           node.name, node.abstract, node.loc)
            elif isinstance(callee, G.GraphOp) or _python_scalar_op(callee):
                fmap[id(node)] = fwd.apply([head] + args, node.name, node.abstract, node.loc)
            else:
                if isinstance(head, ir.Parameter) or isinstance(callee, G.PartialValue):
                    raise GraphCompileError(
                        f"cannot differentiate @{graph.name} (at {node.loc}): it calls a "
                        f"function passed in as a value — a gradient's backpropagator through "
                        f"a run-time condition or loop. refms differentiates a gradient again "
                        f"(higher order) only when the first gradient is straight-line code.")
                raise GraphCompileError(f"cannot differentiate through {head!r} in "
                                        f"@{graph.name} (at {node.loc})")
        bprop = self._backward(graph, fwd, fmap, records)
        out = new(graph.output)
        fwd.set_output(fwd.apply([G.MAKE_TUPLE, out, ir.ValueNode(bprop)], None,
                                 A.AbstractTuple([graph.output.abstract, A.AbstractGraph(bprop)]),
                                 graph.loc))
        return fwd

    def _snapshots(self, fwd, node, args):
        """``{input position: copy node}`` for the inputs of the primitive call ``node`` that
        read a Parameter the program writes (``args``: those inputs in ``fwd``): the copies
        are taken in ``fwd`` just before the primitive runs, for the backpropagator."""
        copies = {}
        for k, i in enumerate(node.inputs[1:]):
            param = parameter_of(i)
            if param is None or (self.written is not ALL and id(param) not in self.written):
                continue
            value = fwd.apply([ir.ValueNode(_SNAPSHOT), args[k]], None,
                              A.Abstract(tuple(param.shape), param.dtype), node.loc)
            copies[k] = value
        return copies

    # -- the backpropagator ------------------------------------------------------------------------
    def _backward(self, graph, fwd, fmap, records):
        spec = self.spec
        back = ir.FuncGraph("B_" + graph.name, parent=fwd, loc=graph.loc)
        dout = back.add_param("dout", cotangent_abstract(graph.output.abstract))
        ctx = Context(None, None, back)
        with tracer.tracing(spec, ctx, graph.loc) as state:
            cot = {}

            def forward_value(node):
                """The stand-in of a forward value (a free variable of the backpropagator)."""
                if isinstance(node, ir.ValueNode):
                    return node.value
                return spec.to_python(ctx, fmap.get(id(node), node), node.abstract)

            def add(node, grad):
                if grad is None or isinstance(node, ir.ValueNode):
                    return
                if isinstance(node, ir.Parameter) and node.default is not None:
                    return
                previous = cot.get(id(node))
                cot[id(node)] = grad if previous is None else _add(previous, grad, F)

            def complete(node, grad):
                """``grad`` with missing parts filled by zeros (bprops want a full dout)."""
                return _fill(grad, node.abstract, lambda: forward_value(node), F)

            add(graph.output, spec.to_python(ctx, dout, dout.abstract))
            for node, kind, info in reversed(records):
                grad = cot.get(id(node))
                if grad is None or _all_none(grad):
                    continue
                state.loc = node.loc          # backward nodes point at the forward source line
                inputs = node.inputs[1:]
                if kind == "prim":
                    prim, snapshots = info
                    grad = complete(node, grad)
                    xs = [forward_value(snapshots.get(k, i)) for k, i in enumerate(inputs)]
                    grads = self._prim_bprop(ctx, prim, xs, forward_value(node), grad, inputs,
                                             fmap, node)
                    for i, g in zip(inputs, grads):
                        add(i, g)
                elif kind == "call":
                    grad = complete(node, grad)
                    d_node, _ = spec.from_python(ctx, grad)
                    result = A.AbstractTuple([cotangent_abstract(i.abstract) for i in inputs])
                    call = back.apply([info, d_node], None, result, node.loc)
                    for i, g in zip(inputs, spec.to_python(ctx, call, result)):
                        add(i, g)
                elif kind == "make_tuple":
                    grad = complete(node, grad)
                    for i, g in zip(inputs, grad):
                        add(i, g)
                elif kind == "make_dict":
                    grad = complete(node, grad)
                    values = list(grad.values()) if isinstance(grad, dict) else list(grad)
                    half = len(inputs) // 2
                    for i, g in zip(inputs[half:], values):
                        add(i, g)
                elif kind == "getitem":
                    source = inputs[0]
                    items = [None] * len(source.abstract.items)
                    items[info] = grad
                    add(source, tuple(items))
            grads = tuple(complete(p, cot.get(id(p))) for p in graph.params)
            out_node, _ = spec.from_python(ctx, grads)
        back.set_output(out_node)
        return back

    def _prim_bprop(self, ctx, prim, xs, out, dout, inputs, fmap, node):
        """Trace ``prim.bprop`` into the backpropagator (or fall back to PyBprop)."""
        spec = self.spec
        try:
            grads = prim.bprop(*xs, out, dout)
        except GraphCompileError:
            values = [spec.from_python(ctx, v)[0] for v in list(xs) + [out, dout]]
            result = A.AbstractTuple([cotangent_abstract(i.abstract) for i in inputs])
            call = ctx.graph.apply([ir.ValueNode(PyBprop(prim, len(xs)))] + values, None, result,
                                   node.loc)
            grads = spec.to_python(ctx, call, result)
        if not isinstance(grads, (tuple, list)):
            grads = (grads,)
        return grads

    # -- custom bprop cells --------------------------------------------------------------------------
    def _custom(self, graph):
        """``J`` of a Cell with ``bprop``: forward = the cell's graph, backward = its bprop."""
        spec = self.spec
        bprop = graph.flags["custom_bprop"]
        n_inputs = graph.flags.get("n_inputs", len(graph.params))
        fwd = ir.FuncGraph("J_" + graph.name, loc=graph.loc)
        self.memo[id(graph)] = fwd
        params = [fwd.add_param(p.name, p.abstract, p.loc) for p in graph.params]
        out_abstract = graph.output.abstract
        out = fwd.apply([ir.ValueNode(graph)] + params, None, out_abstract, graph.loc)
        back = ir.FuncGraph("B_" + graph.name, parent=fwd, loc=graph.loc)
        dout = back.add_param("dout", cotangent_abstract(out_abstract))
        ctx = Context(None, None, back)
        user = params[len(params) - n_inputs:]
        with tracer.tracing(spec, ctx, graph.loc):
            inputs = [spec.to_python(ctx, p, p.abstract) for p in user]
            forward = spec.to_python(ctx, out, out_abstract)
            d = spec.to_python(ctx, dout, dout.abstract)
            grads = bprop(*inputs, forward, d)     # a user bprop, checked: parsed when called
            grads = tuple(_fill(g, p.abstract, lambda p=p: spec.to_python(ctx, p, p.abstract), F)
                          for g, p in zip(grads, user))
            lifted = tuple(_fill(None, p.abstract, lambda p=p: spec.to_python(ctx, p, p.abstract),
                                 F) for p in params[:len(params) - n_inputs])
            out_node, _ = spec.from_python(ctx, lifted + grads)
        back.set_output(out_node)
        fwd.set_output(fwd.apply([G.MAKE_TUPLE, out, ir.ValueNode(back)], None,
                                 A.AbstractTuple([out_abstract, A.AbstractGraph(back)]), graph.loc))
        return fwd


    # -- cells with backward hooks -----------------------------------------------------------------
    def _hooked(self, graph):
        """``J`` of a unit flagged ``backward_hooks``: its own backpropagator, with the cell's
        backward pre-hooks run on ``dout`` before it and its backward hooks on the input
        gradients after it — Python calls at run time (semantics 5.3–5.6)."""
        hooks = graph.flags["backward_hooks"]
        n_inputs = graph.flags.get("n_inputs", len(graph.params))
        inner = self._build(graph)
        fwd = ir.FuncGraph("Jhook_" + graph.name, loc=graph.loc)
        self.memo[id(graph)] = fwd
        params = [fwd.add_param(p.name, p.abstract, p.loc) for p in graph.params]
        out_abstract = graph.output.abstract
        pair = A.AbstractTuple([out_abstract, A.AbstractGraph(inner)])
        call = fwd.apply([ir.ValueNode(inner)] + params, None, pair, graph.loc)
        out = fwd.apply([G.TUPLE_GETITEM, call, 0], None, out_abstract, graph.loc)
        inner_back = fwd.apply([G.TUPLE_GETITEM, call, 1], None, A.AbstractGraph(inner), graph.loc)
        back = ir.FuncGraph("B_" + graph.name, parent=fwd, loc=graph.loc)
        dout = back.add_param("dout", cotangent_abstract(out_abstract))
        pre = back.apply([ir.ValueNode(PyCall(hooks.pre, "backward_pre_hooks")),
                          dout], None, dout.abstract, graph.loc)
        results = A.AbstractTuple([cotangent_abstract(p.abstract) for p in graph.params])
        grads = back.apply([inner_back, pre], None, results, graph.loc)
        first = len(params) - n_inputs
        tensors = [k for k in range(first, len(params)) if isinstance(params[k].abstract, A.Abstract)]
        items = [back.apply([G.TUPLE_GETITEM, grads, k], None, results.items[k], graph.loc)
                 for k in range(len(params))]
        grad_input = back.apply([G.MAKE_TUPLE] + [items[k] for k in tensors], None,
                                A.AbstractTuple([results.items[k] for k in tensors]), graph.loc)
        hooked = back.apply([ir.ValueNode(PyCall(hooks.post, "backward_hooks")),
                             grad_input, pre] + [params[k] for k in tensors], None,
                            grad_input.abstract, graph.loc)
        for position, k in enumerate(tensors):
            items[k] = back.apply([G.TUPLE_GETITEM, hooked, position], None, results.items[k],
                                  graph.loc)
        back.set_output(back.apply([G.MAKE_TUPLE] + items, None, results, graph.loc))
        fwd.set_output(fwd.apply([G.MAKE_TUPLE, out, ir.ValueNode(back)], None,
                                 A.AbstractTuple([out_abstract, A.AbstractGraph(back)]), graph.loc))
        return fwd


#: What ``written_parameters`` answers when the program runs host code, which may write any.
ALL = "all"

#: The snapshot of a Parameter a primitive reads: a copy (MindSpore's ``TensorMove``).
_SNAPSHOT = Identity()


def written_parameters(entry):
    """The ids of the Parameters a run of ``entry`` may write: the Parameter inputs of the
    primitives that write an input (``Assign``, BatchNorm's moving statistics, optimizer
    updates); :data:`ALL` when it runs host code (JIT Fallback), which may write any."""
    written = set()
    for graph in ir.graphs_of(entry):
        for node in graph.order:
            callee = callee_value(node)
            if isinstance(callee, PyExecute):
                return ALL
            if isinstance(callee, Primitive) and callee.side_effect_mem:
                written.update(id(parameter_of(i)) for i in node.inputs[1:]
                               if parameter_of(i) is not None)
    return written


def _all_none(grad):
    if grad is None:
        return True
    if isinstance(grad, (tuple, list)):
        return all(_all_none(g) for g in grad)
    if isinstance(grad, dict):
        return all(_all_none(g) for g in grad.values())
    return False


def _add(a, b, F):
    """Cotangent addition: None is zero, tuples add item by item."""
    if a is None:
        return b
    if b is None:
        return a
    if isinstance(a, dict):
        return {k: _add(a[k], b[k], F) for k in a}
    if isinstance(a, (tuple, list)):
        return tuple(_add(x, y, F) for x, y in zip(a, b))
    return F.add(a, b)


def _fill(grad, abstract, forward, F):
    """``grad`` shaped like ``abstract`` with None parts replaced by zeros of the forward value
    (``forward()`` gives its stand-in); constants get None."""
    if isinstance(abstract, A.Abstract):
        if grad is None:
            return F.zeros_like(forward())
        return grad
    if isinstance(abstract, A.AbstractTuple):
        items = None if grad is None else (list(grad.values()) if isinstance(grad, dict) else grad)
        values = None

        def item_value(k):
            nonlocal values
            if values is None:
                value = forward()
                values = list(value.values()) if isinstance(value, dict) else list(value)
            return values[k]
        return tuple(_fill(None if items is None else items[k], a, lambda k=k: item_value(k), F)
                     for k, a in enumerate(abstract.items))
    return None


# -- preparing a target and differentiating it ------------------------------------------------------

def prepare(target):
    """A copy of ``target`` ready for the transform: inlined (custom-bprop and hooked cells kept
    whole), simplified and lambda-lifted with its free variables — weights, or nodes of the
    graph that calls it (a closure's) — as trailing parameters; returns the copy and them.

    The copy takes every graph ``target`` reaches, not only its scope: the graphs it calls
    are specializations the compiler caches and shares (a network's ``construct`` called
    once for the loss and once under the gradient, as ``TrainOneStepCell`` does), and
    inlining rewrites graphs in place."""
    prepared = clone_program(target)
    inline.run(prepared, keep_units=True)
    lambda_lift.run(prepared, lift_weights=True)
    return prepared, list(prepared.flags.get("lifted", []))


def _callee(spec, fn):
    """(abstract, node) of a function given as a Python value while tracing."""
    if isinstance(fn, GraphCallable):
        return fn.abstract, fn.node
    return A.Const(fn), ir.ValueNode(fn)


def _seeded_dout(out, target, sens):
    """The cotangent of the whole output: ones (or ``sens``) on the Tensors of ``target``,
    zeros on the other Tensors, None on constants (semantics 4.4)."""
    seeds = {id(t): s for t, s in seed_cotangents(target, sens, broadcast=True)}

    def rebuild(value):
        if isinstance(value, Tensor):
            seed = seeds.get(id(value))
            return F.zeros_like(value) if seed is None else seed
        if isinstance(value, dict):
            return {k: rebuild(v) for k, v in value.items()}
        if isinstance(value, (tuple, list)):
            return tuple(rebuild(v) for v in value)
        return None
    return rebuild(out)


def _python_scalar_op(callee):
    """A Python function run on run-time numbers (``operator.add`` of a number known only at
    run time, the number made a 0-d Tensor): Python numbers carry no gradient, as in
    MindSpore, so the node is copied into the forward graph and nothing flows back."""
    return callable(callee) and not isinstance(callee, (Primitive, ir.FuncGraph,
                                                        G.PartialValue))


def run_and_differentiate(fn, args, sens=None, differentiate=None):
    """Graph version of ``refms.autograd.grad.run_and_differentiate``, called while a
    graph is being compiled: emits ``J(fn)`` and its backpropagator's call; returns
    ``(out, grads, args)`` with stand-ins, ``grads`` keyed by ``id`` of the argument
    stand-ins and of the weights (refms Parameters)."""
    state = tracer.current()
    spec, ctx, loc = state.specializer, state.ctx, state.loc
    pairs = [spec.from_python(ctx, a, loc) for a in args]
    fn_abstract, fn_node = _callee(spec, fn)
    name = getattr(fn, "__name__", None) or getattr(fn, "cls_name", None) or "fn"
    target = spec.graph_for_call(fn_abstract, fn_node, [a for _, a in pairs], name, loc=loc)
    prepared, lifted = prepare(target)
    forward = Transform(spec).J(prepared)
    inputs = [n for n, _ in pairs] + lifted
    out_abstract = prepared.output.abstract
    pair = A.AbstractTuple([out_abstract, A.AbstractGraph(forward)])
    earlier = forward_reuse.earlier_call(spec.cell_calls, ctx.graph, fn, [n for n, _ in pairs],
                                         lifted)
    call = ctx.graph.apply([ir.ValueNode(forward, abstract=A.AbstractGraph(forward))] + inputs,
                           None, pair, loc)
    if earlier is not None:         # `loss = net(x)` ran just before: J(net) replaces it
        out_node = forward_reuse.replace_forward(ctx.graph, earlier, call)
    else:
        out_node = ctx.graph.apply([G.TUPLE_GETITEM, call, 0], None, out_abstract, loc)
    backprop = ctx.graph.apply([G.TUPLE_GETITEM, call, 1], None, A.AbstractGraph(forward), loc)
    out = spec.to_python(ctx, out_node, out_abstract, loc)
    seeded = out if differentiate is None else differentiate(out)
    dout = _seeded_dout(out, seeded, sens)
    d_node, _ = spec.from_python(ctx, dout, loc)
    result = A.AbstractTuple([cotangent_abstract(p.abstract) for p in prepared.params])
    grads_node = ctx.graph.apply([backprop, d_node], None, result, loc)
    grads_py = spec.to_python(ctx, grads_node, result, loc)
    grads = {}
    for value, grad in zip(args, grads_py[:len(args)]):
        if isinstance(value, Tensor) and grad is not None:
            previous = grads.get(id(value))
            grads[id(value)] = grad if previous is None else F.add(previous, grad)
    for free, grad in zip(lifted, grads_py[len(args):]):
        if getattr(free, "default", None) is not None and grad is not None:
            grads[id(free.default)] = grad           # a weight: keyed by its refms Parameter
    return out, grads, list(args)
