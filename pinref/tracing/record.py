"""Recording: the hook that watches the core's steps, and the immutable records it produces.

The core declares its steps once (``pinref/algorithms/steps.py``: name, algorithm, pass, the
fields each writes) and reports each joint as it completes a step. ``with pinref.trace() as t``
subscribes a recorder to that hook (``steps.hooked``): for every rnea, crba and aba call it
opens a :class:`Call` (the inputs copied), and for every joint a step reports it records a
:class:`Snapshot` holding read-only copies of the fields the step declares. A level step (all
joints of one tree depth at once) is shown per joint; where children add into their parents,
round by round in Pinocchio's order, each child's snapshot is taken after its round, so it holds
what Pinocchio's per-joint loop holds after that joint.

With no trace active the core pays one ``ContextVar.get()`` per call; ``benchmarks/bench_tools.py``
measures it.

Field specifications (``Step.writes``), with ``i`` the step's joint, ``parent`` its parent,
``v_i`` its velocity slice ``[idx_v, idx_v + nv)``, ``cols_i`` the same slice as matrix columns
and ``sub_i`` the slice of its subtree ``[idx_v, idx_v + nvSubtree[i])``: see
``pinref/algorithms/steps.py``. SE3 values are stored as ``homogeneous`` (..., 4, 4), Motion
and Force as ``vector`` (..., 6), Inertia as ``matrix()`` (..., 6, 6).
"""

import re
import types
from dataclasses import dataclass, field, replace

import numpy as np

from ..algorithms import steps as core
from ..spatial import SE3, Force, Inertia, Motion


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
        ``model_name``, ``pick_hint``, ``width``)."""
        from .render import table

        return table(self, cache=cache, call=call, state=state, joints=joints, **options)

    def __str__(self):
        return self.table() if self._calls else "(empty trace: no call of rnea, crba or aba)"

    def __repr__(self):
        return f"<pinref Trace: {len(self._calls)} call(s), {len(self._snapshots)} snapshots>"


# --- the recorder ------------------------------------------------------------------------

TRACED = ("rnea", "crba", "aba", "abaWorldConvention", "crbaWorldConvention")


class _Recorder:
    """Feeds one Trace; the hook of one active ``with pinref.trace()`` block."""

    def __init__(self, trace):
        self.trace = trace
        self.open = None          # (Call number, algorithm, model, data, inputs, first position)
        self.depth = 0

    def enter(self, algorithm, model, data, inputs):
        self.depth += 1
        if self.depth == 1 and algorithm in TRACED:
            self.open = (len(self.trace._calls), algorithm, model, data, _inputs(inputs),
                         len(self.trace._snapshots))

    def leave(self, shape):
        self.depth -= 1
        if self.depth or self.open is None:
            return
        number, algorithm, model, _, inputs, first = self.open
        self.open = None
        snapshots = _loop_order(algorithm, self.trace._snapshots[first:], first)
        self.trace._snapshots[first:] = snapshots
        self.trace._calls.append(Call(number, algorithm, model, types.MappingProxyType(inputs),
                                      tuple(shape), tuple(snapshots)))

    def around(self, step, run):
        return run()

    def done(self, step, joints):
        if self.open is None:
            return
        number, algorithm, model, data, _, _ = self.open
        for i in joints:
            writes = [_read(kind, groups, model, data, i) for kind, groups in _specs(step, model, i)]
            parent = None if i is None else model.parents[i]
            name = "" if i is None else model.names[i]
            self.trace._snapshots.append(Snapshot(len(self.trace._snapshots), number, algorithm,
                                                  step.name, step.pass_number, i, name, parent,
                                                  tuple(writes)))


def _loop_order(algorithm, snapshots, first):
    """The call's snapshots in the order of Pinocchio's per-joint loops, numbered from
    ``first``: pass by pass, a forward pass by increasing joint id and a backward pass
    (``steps.BACKWARD_PASSES``) by decreasing id, the steps of one joint in the order the
    algorithm declares them (``RneaForwardStep`` before ``f[i] -= fext[i]``), the driver's
    whole-field statements (joint None) at the end of their pass.

    The core reports a level's joints together; each snapshot already holds what Pinocchio's
    loop holds after its joint (children add into a parent in Pinocchio's order), so sorting
    them gives Pinocchio's sequence of stops."""
    backward = core.BACKWARD_PASSES[algorithm]
    rank = {step.name: k for k, step in enumerate(core.STEPS[algorithm])}

    def key(s):
        at = float("inf") if s.joint is None else (-s.joint if s.pass_number in backward
                                                   else s.joint)
        return (s.pass_number, at, rank[s.step])

    return [replace(s, position=first + k) for k, s in enumerate(sorted(snapshots, key=key))]


class trace:
    """``with pinref.trace() as t:`` records every rnea, crba and aba call made in the block.

    ``t`` is a :class:`Trace`. Traces nest (each records), and a trace follows the context it
    was opened in (a thread started inside the block is not traced).
    """

    def __init__(self):
        self._trace = Trace()
        self._hooked = None

    def __enter__(self):
        self._hooked = core.hooked(_Recorder(self._trace))
        self._hooked.__enter__()
        return self._trace

    def __exit__(self, *exc):
        self._hooked.__exit__(*exc)
        return False


# --- field specifications ------------------------------------------------------------------

_SPEC = [
    (re.compile(r"^joints\[i\]\.(\w+)$"), "joint"),
    (re.compile(r"^(\w+)\[(i|parent)\]\[:, *(cols_i|sub_i)\]$"), "columns"),
    (re.compile(r"^(\w+)\[:, *(cols_i)\]$"), "matrix_columns"),
    (re.compile(r"^(\w+)\[(i|parent|0)\]$"), "element"),
    (re.compile(r"^(\w+)\[v_i\]$"), "entries"),
    (re.compile(r"^(\w+)\[cols_i, *sub_i\]$"), "block"),
    (re.compile(r"^(\w+)$"), "whole"),
]
_PARSED = {}


def _parse(spec):
    for pattern, kind in _SPEC:
        m = pattern.match(spec)
        if m:
            return kind, m.groups()
    raise ValueError(f"cannot read the field specification {spec!r}")


def _specs(step, model, i):
    """The parsed fields ``step`` writes for joint ``i`` (its ``writes_if_parent`` when the
    joint's parent is not the universe)."""
    key = (step, i is not None and i > 0 and model.parents[i] > 0)
    if key not in _PARSED:
        _PARSED[key] = tuple(_parse(f) for f in step.writes + (step.writes_if_parent
                                                                if key[1] else ()))
    return _PARSED[key]


def _ranges(model, data, i):
    jmodel = model.joints[i]
    v = (jmodel.idx_v, jmodel.idx_v + jmodel.nv)
    sub = (jmodel.idx_v, jmodel.idx_v + data.nvSubtree[i])
    return {"v_i": v, "cols_i": v, "sub_i": sub}


def _fmt_range(r):
    return f"{r[0]}:{r[1]}"


def _read(kind, groups, model, data, i):
    """The :class:`Write` of one parsed field for joint ``i`` (None: a whole field)."""
    if kind == "whole":
        (name,) = groups
        return Write(name, None, None, None, _frozen(getattr(data, name)), name)
    if kind == "element" and groups[1] == "0":
        name = groups[0]
        return Write(name, 0, None, None, _frozen(getattr(data, name)[0]), f"{name}[0]")
    ranges, parent = _ranges(model, data, i), model.parents[i]
    if kind == "matrix_columns":
        name, cols = groups
        c = ranges[cols]
        value = np.asarray(getattr(data, name))[..., slice(*c)]
        return Write(name, None, None, c, _frozen(value), f"{name}[:, {_fmt_range(c)}]")
    if kind == "joint":
        (name,) = groups
        return Write(f"joints.{name}", i, None, None, _frozen(getattr(data.joints[i], name)),
                     f"joints[{i}].{name}")
    if kind == "element":
        name, which = groups
        k = i if which == "i" else parent
        return Write(name, k, None, None, _frozen(getattr(data, name)[k]), f"{name}[{k}]")
    if kind == "columns":
        name, which, cols = groups
        k, c = (i if which == "i" else parent), ranges[cols]
        value = np.asarray(getattr(data, name)[k])[..., slice(*c)]
        return Write(name, k, None, c, _frozen(value), f"{name}[{k}][:, {_fmt_range(c)}]")
    if kind == "entries":
        (name,) = groups
        r = ranges["v_i"]
        return Write(name, None, r, None, _frozen(np.asarray(getattr(data, name))[..., slice(*r)]),
                     f"{name}[{_fmt_range(r)}]")
    (name,) = groups
    r, c = ranges["cols_i"], ranges["sub_i"]
    value = np.asarray(getattr(data, name))[..., slice(*r), slice(*c)]
    return Write(name, None, r, c, _frozen(value), f"{name}[{_fmt_range(r)}, {_fmt_range(c)}]")


def _inputs(arguments):
    out = {}
    for name, value in arguments.items():
        if isinstance(value, (list, tuple)):     # fext as a list of Force
            value = np.stack(np.broadcast_arrays(*[np.asarray(f.vector) for f in value]), -2)
        out[name] = _frozen(value)
    return out
