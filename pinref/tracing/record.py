"""Recording: the decorators the algorithms wear, and the immutable records they produce.

Two decorators attach tracing to ``pinref/algorithms/{rnea,crba,aba}.py`` without changing a
line of the algorithms:

- ``traced_step(algorithm, step, pass_number, writes=..., writes_if_parent=...)`` on each step
  function (one per Pinocchio step struct). After the step returns, every active trace records a
  :class:`Snapshot` holding read-only copies of the fields named in ``writes``.
- ``traced_algorithm(algorithm, ...)`` on the public drivers. It opens a *call* in each active
  trace (the inputs are copied), watches the Data lists named in ``watch`` so that the driver's
  inline writes between steps (``f[i] -= fext[i]``, ABA's final loop) are recorded as they
  happen, and records what the driver writes after its last loop (``exit_writes``: the armature
  term of RNEA and CRBA, pin.crba's symmetrisation).

With no trace active, each decorated function costs one extra Python call and one
``ContextVar.get()``; ``benchmarks/bench_tools.py`` measures it (well under 5 % of an ABA on the
humanoid).

Field specifications (``writes``), with ``i`` the step's joint, ``parent`` its parent, ``v_i``
its velocity slice ``[idx_v, idx_v + nv)``, ``cols_i`` the same slice as matrix columns and
``sub_i`` the slice of its subtree ``[idx_v, idx_v + nvSubtree[i])``:

==========================  ==============================================================
``name[i]``, ``name[parent]``  element of a per-joint Data list (liMi, v, a_gf, Yaba, f, ...)
``joints[i].name``          a field of the joint's data (M, S, v, c, U, StU, Dinv, UDinv)
``name[v_i]``               the joint's entries of a (..., nv) vector (u, ddq, tau)
``name[i][:, cols_i]``      columns of a (..., 6, nv) element (Fcrb); also ``sub_i``
``name[cols_i, sub_i]``     a block of a (..., nv, nv) matrix (M)
``name``                    a whole Data field (exit writes only: tau, M)
==========================  ==============================================================

Per-joint lists are read from ``data``; a vector over nv (``name[v_i]``) is read from the step's
argument of that name when it has one (RNEA's ``tau``, the driver's local buffer), else from
``data``. SE3 values are stored as ``homogeneous`` (..., 4, 4),
Motion and Force as ``vector`` (..., 6), Inertia as ``matrix()`` (..., 6, 6).
"""

import contextvars
import functools
import inspect
import re
import types
from dataclasses import dataclass, field

import numpy as np

from ..spatial import SE3, Force, Inertia, Motion
from . import steps as S

_ACTIVE = contextvars.ContextVar("pinref_trace_recorders", default=())

# Inline code of the drivers, before, between or after the step loops: (algorithm, the step
# recorded last, None before the first) -> (name, pass number (0: the driver's set-up), kind).
# kind "own": the written index is the joint; kind "child": ABA's final loop, where the joint
# is the child i whose wrench is added into f[parent].
INLINE = {
    ("aba", None): (S.ABA_INIT, 0, "own"),
    ("aba", S.ABA_FORWARD1): (S.ABA_FEXT, 1, "own"),
    ("aba", S.ABA_FORWARD2): (S.ABA_FINAL_LOOP, 4, "child"),
    ("aba", S.ABA_FINAL_LOOP): (S.ABA_FINAL_LOOP, 4, "child"),
    ("rnea", S.RNEA_FORWARD): (S.RNEA_FEXT, 1, "own"),
}


# --- the records -------------------------------------------------------------------------


def _frozen(x):
    """A read-only float copy of a cache value (SE3 -> homogeneous, Motion/Force -> vector,
    Inertia -> matrix())."""
    if isinstance(x, SE3):
        x = x.homogeneous
    elif isinstance(x, (Motion, Force)):
        x = x.vector
    elif isinstance(x, Inertia):
        x = x.matrix()
    out = np.array(x, dtype=float, copy=True)
    out.flags.writeable = False
    return out


@dataclass(frozen=True, eq=False)
class Write:
    """One field written by a step, as it was right after the step.

    ``cache`` is the Data field ("Yaba", "f", "u", "M", "Fcrb", ...) or ``joints.<field>`` for
    the joint data; ``index`` the element of a per-joint list (``Yaba[2]`` -> 2,
    ``joints[2].U`` -> 2), None for a vector or matrix field; ``rows``/``cols`` the
    ``(start, stop)`` entries written of a vector (rows) or matrix, None for all; ``value`` a
    read-only copy with the call's batch axes first; ``label`` the field as Pinocchio's code
    names it (``"Yaba[2]"``, ``"u[6:7]"``, ``"M[6:7, 6:8]"``, ``"Fcrb[1][:, 6:8]"``).
    """

    cache: str
    index: int | None
    rows: tuple | None
    cols: tuple | None
    value: np.ndarray = field(repr=False)
    label: str

    def take(self, full):
        """The entries this write covers, cut from ``full``: the field's whole value (batch axes
        first, same layout as the Data field)."""
        full = np.asarray(full)
        if self.rows is not None and self.cols is not None:
            return full[..., slice(*self.rows), slice(*self.cols)]
        if self.cols is not None:
            return full[..., slice(*self.cols)]
        if self.rows is not None:
            return full[..., slice(*self.rows)]
        return full


@dataclass(frozen=True, eq=False)
class Snapshot:
    """What one joint step of one pass wrote (or one piece of a driver's inline code).

    ``step`` is Pinocchio's step struct (``AbaLocalConventionBackwardStep``, ...) or, for code
    that runs inline in the driver, a ``"<driver>: <statement>"`` string. ``pass_number``
    counts the driver's loops from 1 (ABA: 1 forward, 2 backward, 3 forward, 4 the final
    backward loop); exit writes carry the last loop's number. ``joint`` is the step's joint id
    (None for the exit writes), ``parent`` its parent. ``writes`` in the order the spec names
    them. ``snapshot["Yaba", 2]`` or ``snapshot["u[6:7]"]`` return a write's value.
    """

    position: int
    call: int
    algorithm: str
    step: str
    pass_number: int
    joint: int | None
    joint_name: str
    parent: int | None
    writes: tuple

    def __getitem__(self, key):
        for w in self.writes:
            if key == w.label or key == (w.cache, w.index):
                return w.value
        raise KeyError(f"{self.step} (joint {self.joint}) wrote no {key!r}; it wrote "
                       f"{', '.join(w.label for w in self.writes)}")

    @property
    def inline(self):
        """True for code the driver runs between or after its step loops."""
        return ":" in self.step

    def stop(self):
        """A short name of this stop: ``"2 AbaLocalConventionBackwardStep j3 ry2_joint"``."""
        where = f" j{self.joint} {self.joint_name}" if self.joint is not None else ""
        return f"{self.pass_number} {self.step}{where}"


@dataclass(frozen=True, eq=False)
class Call:
    """One traced call of rnea, crba or aba: its inputs and the range of its snapshots.

    ``inputs`` maps the argument names (q, v, a, tau, fext) to read-only copies; ``model`` is
    the pinref Model it ran on; ``batch_shape`` the leading axes of the result;
    ``snapshots`` the call's snapshots in the order they were taken.
    """

    number: int
    algorithm: str
    model: object = field(repr=False)
    inputs: types.MappingProxyType = field(repr=False)
    batch_shape: tuple
    snapshots: tuple = field(repr=False)


class Trace:
    """The snapshots recorded inside one ``with pinref.trace() as t:`` block.

    ``t.snapshots`` every snapshot in order; ``t.calls`` one :class:`Call` per traced call;
    ``t.history(cache, joint)`` one field's values across the passes; ``t.table()`` (and
    ``str(t)``) the pass-by-pass table of the tutorial. Snapshots are immutable and hold copies,
    so later calls on the same Data do not change them.
    """

    def __init__(self):
        self._snapshots = []
        self._calls = []

    @property
    def snapshots(self):
        return tuple(self._snapshots)

    @property
    def calls(self):
        return tuple(self._calls)

    def __len__(self):
        return len(self._snapshots)

    def __iter__(self):
        return iter(tuple(self._snapshots))

    def __getitem__(self, k):
        return self._snapshots[k]

    def call(self, k=-1):
        """The k-th traced call (default the last)."""
        if not self._calls:
            raise IndexError("this trace recorded no call of rnea, crba or aba")
        return self._calls[k]

    def select(self, *, algorithm=None, step=None, joint=None, call=None):
        """Snapshots matching every criterion given (``joint`` by id or name)."""
        out = []
        for s in self._snapshots:
            if algorithm is not None and s.algorithm != algorithm:
                continue
            if step is not None and s.step != step:
                continue
            if joint is not None and joint not in (s.joint, s.joint_name):
                continue
            if call is not None and s.call != self.call(call).number:
                continue
            out.append(s)
        return tuple(out)

    def history(self, cache, joint=None, *, call=-1):
        """Every value ``cache`` took for ``joint`` (id or name) during one call, in pass order.

        For a per-joint list (Yaba, f, a_gf, Ycrb, joints.U, ...) the joint's element; for a
        vector over nv (u, ddq, tau) the joint's entries; for M the joint's block row; for
        ``joint=None`` every write of the cache. Returns a :class:`History`.
        """
        from .render import History

        return History.build(self, cache, joint, call)

    def table(self, cache=None, *, call=-1, state=0, joints=None, **options):
        """The pass-by-pass table (see ``pinref.tracing.render.table``; ``options``:
        ``model_name``, ``pick_hint``)."""
        from .render import table

        return table(self, cache=cache, call=call, state=state, joints=joints, **options)

    def __str__(self):
        return self.table() if self._calls else "(empty trace: no call of rnea, crba or aba)"

    def __repr__(self):
        return f"<pinref Trace: {len(self._calls)} call(s), {len(self._snapshots)} snapshots>"


# --- the recorder --------------------------------------------------------------------------


class _CallBuilder:
    """The open call of one recorder (mutable while the driver runs)."""

    def __init__(self, number, algorithm, model, data, inputs):
        self.number, self.algorithm, self.model, self.data = number, algorithm, model, data
        self.inputs = inputs
        self.depth = 1            # nested traced drivers (crba -> crba_upper)
        self.first = None         # position of the call's first snapshot
        self.last_step = None     # step name of the call's last snapshot
        self.last_pass = 1
        self.next_child = None    # ABA's final loop: the child whose wrench comes next


class _Recorder:
    """Feeds one Trace; one per active ``with pinref.trace()`` block."""

    def __init__(self, trace):
        self.trace = trace
        self.in_step = 0
        self.open = None

    def enter(self, algorithm, model, data, inputs):
        if self.open is not None:
            self.open.depth += 1
            return
        self.open = _CallBuilder(len(self.trace._calls), algorithm, model, data, inputs)

    def leave(self, shape):
        call = self.open
        call.depth -= 1
        if call.depth > 0:
            return
        self.open = None
        first = len(self.trace._snapshots) if call.first is None else call.first
        self.trace._calls.append(Call(call.number, call.algorithm, call.model,
                                      types.MappingProxyType(call.inputs), tuple(shape),
                                      tuple(self.trace._snapshots[first:])))

    def add(self, step, pass_number, joint, writes):
        call = self.open
        model = call.model
        position = len(self.trace._snapshots)
        if call.first is None:
            call.first = position
        parent = None if joint is None else model.parents[joint]
        name = "" if joint is None else model.names[joint]
        self.trace._snapshots.append(Snapshot(position, call.number, call.algorithm, step,
                                              pass_number, joint, name, parent, tuple(writes)))
        call.last_step, call.last_pass = step, pass_number

    def inline_write(self, cache, k, value):
        """The driver wrote ``data.<cache>[k] = value`` outside any step."""
        call = self.open
        if call is None:
            return
        rule = INLINE.get((call.algorithm, call.last_step))
        write = Write(cache, k, None, None, _frozen(value), f"{cache}[{k}]")
        if rule is None:
            self.add(f"{call.algorithm}: {cache}[{k}] = ...", call.last_pass, None, [write])
            return
        step, pass_number, kind = rule
        joint = k
        if kind == "child":
            if call.next_child is None:
                call.next_child = call.model.njoints - 1
            joint = call.next_child
            call.next_child -= 1
            if joint < 1 or call.model.parents[joint] != k:
                joint = None
        self.add(step, pass_number, joint, [write])


class _WatchedList:
    """A Data cache (``data.f``) that tells the recorders about writes made outside the steps."""

    def __init__(self, stack, recorders, cache):
        self._stack = stack
        self._recorders = recorders
        self._cache = cache

    def __len__(self):
        return len(self._stack)

    def __iter__(self):
        return iter(self._stack)

    def __getitem__(self, k):
        return self._stack[k]

    def __setitem__(self, k, value):
        self._stack[k] = value
        for rec in self._recorders:
            if not rec.in_step:
                rec.inline_write(self._cache, k, value)


class trace:
    """``with pinref.trace() as t:`` records every rnea, crba and aba call made in the block.

    ``t`` is a :class:`Trace`. Traces nest (each records), and a trace follows the context it
    was opened in (a thread started inside the block is not traced).
    """

    def __init__(self):
        self._trace = Trace()
        self._token = None

    def __enter__(self):
        self._token = _ACTIVE.set(_ACTIVE.get() + (_Recorder(self._trace),))
        return self._trace

    def __exit__(self, *exc):
        _ACTIVE.reset(self._token)
        return False


# --- field specifications ------------------------------------------------------------------

_SPEC = [
    (re.compile(r"^joints\[i\]\.(\w+)$"), "joint"),
    (re.compile(r"^(\w+)\[(i|parent)\]\[:, *(cols_i|sub_i)\]$"), "columns"),
    (re.compile(r"^(\w+)\[(i|parent)\]$"), "element"),
    (re.compile(r"^(\w+)\[v_i\]$"), "entries"),
    (re.compile(r"^(\w+)\[cols_i, *sub_i\]$"), "block"),
    (re.compile(r"^(\w+)$"), "whole"),
]


def _parse(spec):
    for pattern, kind in _SPEC:
        m = pattern.match(spec)
        if m:
            return kind, m.groups()
    raise ValueError(f"traced_step: cannot read the field specification {spec!r}")


def _split(specs):
    if isinstance(specs, str):   # split at blanks, except those after a comma ("[:, sub_i]")
        specs = re.split(r"(?<!,)\s+", specs.strip()) if specs.strip() else ()
    return tuple(_parse(s) for s in specs)


def _ranges(jmodel, data):
    v = (jmodel.idx_v, jmodel.idx_v + jmodel.nv)
    sub = (jmodel.idx_v, jmodel.idx_v + data.nvSubtree[jmodel.id])
    return {"v_i": v, "cols_i": v, "sub_i": sub}


def _fmt_range(r):
    return f"{r[0]}:{r[1]}"


def _read(kind, groups, source, i, parent, jdata, ranges, args=None):
    """(Write) for one parsed spec; ``args`` the step's arguments by name."""
    if kind == "joint":
        (name,) = groups
        return Write(f"joints.{name}", i, None, None, _frozen(getattr(jdata, name)),
                     f"joints[{i}].{name}")
    if kind == "element":
        name, which = groups
        k = i if which == "i" else parent
        return Write(name, k, None, None, _frozen(source(name)[k]), f"{name}[{k}]")
    if kind == "columns":
        name, which, cols = groups
        k, c = (i if which == "i" else parent), ranges[cols]
        value = np.asarray(source(name)[k])[..., slice(*c)]
        return Write(name, k, None, c, _frozen(value), f"{name}[{k}][:, {_fmt_range(c)}]")
    if kind == "entries":
        (name,) = groups
        r = ranges["v_i"]
        vector = args[name] if args and name in args else source(name)
        return Write(name, None, r, None, _frozen(np.asarray(vector)[..., slice(*r)]),
                     f"{name}[{_fmt_range(r)}]")
    if kind == "block":
        (name,) = groups
        r, c = ranges["cols_i"], ranges["sub_i"]
        value = np.asarray(source(name))[..., slice(*r), slice(*c)]
        return Write(name, None, r, c, _frozen(value),
                     f"{name}[{_fmt_range(r)}, {_fmt_range(c)}]")
    (name,) = groups
    return Write(name, None, None, None, _frozen(source(name)), name)


@dataclass(frozen=True)
class StepInfo:
    """What a ``traced_step`` decorator says about its step function."""

    algorithm: str
    step: str
    pass_number: int
    writes: tuple
    writes_if_parent: tuple
    params: tuple


def traced_step(algorithm, step, pass_number, writes=(), writes_if_parent=()):
    """Decorate the step function that mirrors Pinocchio's ``step`` struct.

    ``writes``: the fields the step writes (module docstring for the syntax), recorded after
    each call; ``writes_if_parent``: those it writes only when the joint has a parent joint
    (``parent > 0``). The step function's first four parameters are
    ``(jmodel, jdata, model, data)``. Steps run outside a traced rnea, crba or aba call (e.g.
    by nonLinearEffects) are not recorded.
    """
    def decorate(fn):
        params = tuple(inspect.signature(fn).parameters)
        info = StepInfo(algorithm, step, pass_number, _split(writes), _split(writes_if_parent),
                        params)

        @functools.wraps(fn)
        def traced(*args, **kwargs):
            recorders = _ACTIVE.get()
            if not recorders:
                return fn(*args, **kwargs)
            return _run_step(info, fn, recorders, args, kwargs)

        traced.step_info = info
        return traced

    return decorate


def retraced(step_function, replacement):
    """``replacement`` decorated as ``step_function`` is (same algorithm, step, writes): to swap
    a step for an experiment (e.g. a deliberately broken one) and still see it in traces."""
    info = step_function.step_info
    return traced_step(info.algorithm, info.step, info.pass_number,
                       [_unparse(s) for s in info.writes],
                       [_unparse(s) for s in info.writes_if_parent])(replacement)


def _unparse(parsed):
    kind, groups = parsed
    if kind == "joint":
        return f"joints[i].{groups[0]}"
    if kind == "element":
        return f"{groups[0]}[{groups[1]}]"
    if kind == "columns":
        return f"{groups[0]}[{groups[1]}][:, {groups[2]}]"
    if kind == "entries":
        return f"{groups[0]}[v_i]"
    if kind == "block":
        return f"{groups[0]}[cols_i, sub_i]"
    return groups[0]


def _run_step(info, fn, recorders, args, kwargs):
    for rec in recorders:
        rec.in_step += 1
    try:
        out = fn(*args, **kwargs)
    finally:
        for rec in recorders:
            rec.in_step -= 1
    bound = dict(zip(info.params, args))
    bound.update(kwargs)
    jmodel, jdata, model, data = (bound[p] for p in info.params[:4])
    i = jmodel.id
    parent = model.parents[i]
    ranges = _ranges(jmodel, data)

    def source(name):
        return getattr(data, name)

    specs = info.writes + (info.writes_if_parent if parent > 0 else ())
    writes = None
    for rec in recorders:
        if rec.open is None or rec.open.algorithm != info.algorithm:
            continue
        if writes is None:
            writes = [_read(kind, groups, source, i, parent, jdata, ranges, bound)
                      for kind, groups in specs]
        rec.add(info.step, info.pass_number, i, writes)
    return out


def traced_algorithm(algorithm, watch=(), exit_step=None, exit_writes=()):
    """Decorate a driver (rnea, crba, crba_upper, aba) so that traces record its calls.

    ``watch``: Data lists whose writes outside the steps are recorded (``"f"``: the fext
    subtraction and ABA's final loop); ``exit_step``/``exit_writes``: a name for what the driver
    does after its last loop and the fields it leaves (recorded when it returns). The driver's
    first parameters are ``(model, data, ...)``; the rest are copied as the call's inputs.
    """
    watch = tuple(watch.split() if isinstance(watch, str) else watch)
    exits = _split(exit_writes)

    def decorate(fn):
        sig = inspect.signature(fn)

        @functools.wraps(fn)
        def traced(*args, **kwargs):
            recorders = _ACTIVE.get()
            if not recorders:
                return fn(*args, **kwargs)
            return _run_algorithm(algorithm, watch, exit_step, exits, fn, sig, recorders,
                                  args, kwargs)

        return traced

    return decorate


def _inputs(arguments):
    out = {}
    for name, value in arguments.items():
        if name in ("model", "data", "convention") or value is None:
            continue
        if isinstance(value, (list, tuple)):     # fext as a list of Force
            value = np.stack(np.broadcast_arrays(*[np.asarray(f.vector) for f in value]), -2)
        out[name] = _frozen(value)
    return out


def _run_algorithm(algorithm, watch, exit_step, exits, fn, sig, recorders, args, kwargs):
    bound = sig.bind(*args, **kwargs)
    model, data = bound.arguments["model"], bound.arguments["data"]
    inputs = _inputs(bound.arguments)
    for rec in recorders:
        rec.enter(algorithm, model, data, inputs)
    saved = {name: getattr(data, name) for name in watch}
    for name, stack in saved.items():
        setattr(data, name, _WatchedList(stack, recorders, name))
    shape = ()
    try:
        out = fn(*args, **kwargs)
        shape = np.shape(out)[:-1] if np.ndim(out) else ()
        if algorithm == "crba":
            shape = np.shape(out)[:-2]
        if exit_step is not None:
            writes = [_read(kind, groups, lambda n: getattr(data, n), None, None, None, {})
                      for kind, groups in exits]
            for rec in recorders:
                if rec.open is not None:
                    rec.add(exit_step, rec.open.last_pass, None, writes)
    finally:
        for name, stack in saved.items():
            setattr(data, name, stack)
        for rec in recorders:
            if rec.open is not None:
                rec.leave(shape)
    return out
