"""Per-joint caches stored as one array per cache, joint axis first, with Pinocchio's face.

``data.v`` holds every body velocity in one array ``data.v.vector`` of shape
``(njoints, *batch, 6)``; ``data.v[i]`` is a Motion whose ``vector`` is a view onto row i (so a
write through it reaches the cache, as with Pinocchio's references), and ``data.v[i] = m``
copies ``m`` into row i. The algorithms read and write the arrays whole or by rows; users and
the tools see the same lists of Motion, Force, SE3, Inertia or arrays as before.

A row written with more batch axes than the stack holds widens the whole stack first (the other
rows are broadcast), so a cache written by a batched call after a single-state one behaves as
the per-joint lists did. ``widen(shape)`` does the same explicitly before a call writes rows.
"""

import itertools

import numpy as np

from ..joints.base import JointData
from ..spatial import SE3, Force, Inertia, Motion


class Stack:
    """``njoints`` values of one cache: arrays ``(njoints, *batch, *tail)``, one per part.

    Subclasses name the parts (``PARTS``: attribute name and tail shape), build the value of
    row i from the row views (``_wrap``) and split a value into its part arrays (``_parts``).
    """

    PARTS = ()

    def __init__(self, pos, *initial):
        """``pos[i]``: the row of joint i (``Tree.pos``); ``initial``: one array per part, the
        value of every row (broadcast), batch ``()``."""
        self.batch = ()
        self.pos = pos
        n = len(pos)
        for (name, tail), x in zip(self.PARTS, initial):
            setattr(self, name, np.broadcast_to(np.asarray(x, dtype=float), (n,) + tail).copy())

    def __len__(self):
        return getattr(self, self.PARTS[0][0]).shape[0]

    def __iter__(self):
        return (self[k] for k in range(len(self)))

    def __getitem__(self, i):
        if isinstance(i, slice):
            return [self[k] for k in range(*i.indices(len(self)))]
        row = self.pos[i]
        return self._wrap(*(getattr(self, name)[row] for name, _ in self.PARTS))

    def __setitem__(self, i, value):
        parts = self._parts(value)
        batch = self.batch
        for (name, tail), x in zip(self.PARTS, parts):
            b = x.shape[:x.ndim - len(tail)]
            if b != batch:
                batch = np.broadcast_shapes(batch, b)
        if batch != self.batch:
            self.widen(batch)
        row = self.pos[i]
        for (name, _), x in zip(self.PARTS, parts):
            getattr(self, name)[row] = x

    def widen(self, shape):
        """Broadcast every row to the batch shape ``shape`` (a no-op when it already has it)."""
        shape = tuple(shape)
        if shape == self.batch:
            return
        ones = (1,) * (len(shape) - len(self.batch))
        for name, tail in self.PARTS:
            x = getattr(self, name)
            x = x.reshape(x.shape[:1] + ones + x.shape[1:])
            setattr(self, name, np.broadcast_to(x, x.shape[:1] + shape + tail).copy())
        self.batch = shape

    def rows(self, name, index, shape):
        """Rows ``index`` of part ``name`` aligned with a call on batch ``shape``: 1-axes are
        inserted after the joint axis when the stack holds fewer batch axes (a view)."""
        x = getattr(self, name)[index]
        extra = len(shape) - len(self.batch)
        return x.reshape(x.shape[:1] + (1,) * extra + x.shape[1:]) if extra else x

    def __repr__(self):
        return f"[{', '.join(repr(x) for x in self)}]"


class MotionStack(Stack):
    """Motions ``vector (njoints, *batch, 6)``; ``stack[i]`` is a Motion viewing row i."""

    PARTS = (("vector", (6,)),)
    _kind = Motion

    def _wrap(self, vector):
        return self._kind.unchecked(vector)

    def _parts(self, value):
        return (np.asarray(value.vector),)


class ForceStack(MotionStack):
    """Forces ``vector (njoints, *batch, 6)``; ``stack[i]`` is a Force viewing row i."""

    _kind = Force


class SE3Stack(Stack):
    """Placements ``rotation (njoints, *batch, 3, 3)``, ``translation (njoints, *batch, 3)``."""

    PARTS = (("rotation", (3, 3)), ("translation", (3,)))

    def __init__(self, pos):
        super().__init__(pos, np.eye(3), np.zeros(3))

    def _wrap(self, R, p):
        return SE3.unchecked(R, p)

    def _parts(self, value):
        return np.asarray(value.rotation), np.asarray(value.translation)


class InertiaMatrixStack(Stack):
    """Inertias stored as their 6x6 matrices ``matrix (njoints, *batch, 6, 6)`` (CRBA's Ycrb,
    accumulated as ``X^T Y X`` sums); ``stack[i]`` is the Inertia ``(m, c, I)`` read back from
    the matrix ``[[m I3, -m [c]x], [m [c]x, I - m [c]x [c]x]]`` (a copy, not a view)."""

    PARTS = (("matrix", (6, 6)),)

    def __init__(self, pos):
        super().__init__(pos, np.zeros((6, 6)))

    def _wrap(self, Y):
        m = Y[..., 0, 0].copy()
        mc = Y[..., (5, 3, 4), (1, 2, 0)]                # m c from the block m [c]x
        safe = np.where(m > 0, m, 1.0)
        c = np.where((m > 0)[..., None], mc / safe[..., None], 0.0)
        mcx = Y[..., 3:6, 0:3]
        I = Y[..., 3:6, 3:6] + np.where((m > 0)[..., None, None], mcx @ mcx / safe[..., None, None], 0.0)
        return Inertia.unchecked(m, c, I)

    def _parts(self, value):
        return (value.matrix(),)


class MatrixStack(Stack):
    """Matrices ``matrix (njoints, *batch, rows, cols)``; ``stack[i]`` is a view of row i."""

    def __init__(self, pos, rows, cols):
        self.PARTS = (("matrix", (rows, cols)),)
        super().__init__(pos, np.zeros((rows, cols)))

    def _wrap(self, matrix):
        return matrix

    def _parts(self, value):
        return (np.asarray(value, dtype=float),)


_CLOCK = itertools.count()


class JointRows:
    """The joint data of one group of joints computed together (``Tree`` groups): each field
    written by the group's last calc, an array (or SE3, Motion) with the group's joint axis
    first, and when it was written."""

    def __init__(self):
        self.fields = {}
        self.stamps = {}

    def plain_fields(self):
        """Nothing to compare: ``data.joints`` shows these values (Data equality)."""
        return {}

    def write(self, **fields):
        stamp = next(_CLOCK)
        for name, value in fields.items():
            self.fields[name] = value
            self.stamps[name] = stamp


def _row_field(name):
    def get(self):
        stamp, own = self._own[name]
        source = self._sources.get(name)
        if source is not None and source[0].stamps.get(name, -1) > stamp:
            return source[0].fields[name][source[1]]
        return own

    def set(self, value):
        self._own[name] = (next(_CLOCK), value)

    return property(get, set)


class RowJointData(JointData):
    """``data.joints[i]`` of a joint whose calc (and calc_aba) run with its groups: each field
    is the joint's row of what its group last wrote (``sources``: field -> (JointRows, row)),
    unless the field was set on this object since (``jmodel.calc(jdata, q)`` called directly)
    or no group writes it (an unaligned joint's calc_aba runs alone unless S = +-e_k)."""

    FIELDS = ("joint_q", "joint_v", "M", "S", "v", "c", "U", "StU", "Dinv", "UDinv")

    def __init__(self, jdata, sources):
        self._own = {}
        self._sources = sources
        self._shortname = jdata._shortname
        for name in self.FIELDS:
            setattr(self, name, getattr(jdata, name))

    def plain_fields(self):
        """The fields' values (what two joint data are compared by)."""
        return {"shortname": self._shortname, **{name: getattr(self, name)
                                                 for name in self.FIELDS}}


for _name in RowJointData.FIELDS:
    setattr(RowJointData, _name, _row_field(_name))
