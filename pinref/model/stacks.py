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

import numpy as np

from ..spatial import SE3, Force, Inertia, Motion


class Stack:
    """``njoints`` values of one cache: arrays ``(njoints, *batch, *tail)``, one per part.

    Subclasses name the parts (``PARTS``: attribute name and tail shape), build the value of
    row i from the row views (``_wrap``) and split a value into its part arrays (``_parts``).
    """

    PARTS = ()

    def __init__(self, n, *initial):
        """``initial``: one array per part, the value of every row (broadcast), batch ``()``."""
        self.batch = ()
        for (name, tail), x in zip(self.PARTS, initial):
            setattr(self, name, np.broadcast_to(np.asarray(x, dtype=float), (n,) + tail).copy())

    def __len__(self):
        return getattr(self, self.PARTS[0][0]).shape[0]

    def __iter__(self):
        return (self[k] for k in range(len(self)))

    def __getitem__(self, i):
        if isinstance(i, slice):
            return [self[k] for k in range(*i.indices(len(self)))]
        return self._wrap(*(getattr(self, name)[i] for name, _ in self.PARTS))

    def __setitem__(self, i, value):
        parts = self._parts(value)
        batch = self.batch
        for (name, tail), x in zip(self.PARTS, parts):
            b = np.shape(x)[:np.ndim(x) - len(tail)]
            if b != batch:
                batch = np.broadcast_shapes(batch, b)
        if batch != self.batch:
            self.widen(batch)
        for (name, _), x in zip(self.PARTS, parts):
            getattr(self, name)[i] = x

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

    def __repr__(self):
        return f"[{', '.join(repr(x) for x in self)}]"


class MotionStack(Stack):
    """Motions ``vector (njoints, *batch, 6)``; ``stack[i]`` is a Motion viewing row i."""

    PARTS = (("vector", (6,)),)
    _kind = Motion

    def _wrap(self, vector):
        return self._kind._wrap(vector)

    def _parts(self, value):
        return (value.vector,)


class ForceStack(MotionStack):
    """Forces ``vector (njoints, *batch, 6)``; ``stack[i]`` is a Force viewing row i."""

    _kind = Force


class SE3Stack(Stack):
    """Placements ``rotation (njoints, *batch, 3, 3)``, ``translation (njoints, *batch, 3)``."""

    PARTS = (("rotation", (3, 3)), ("translation", (3,)))

    def __init__(self, n):
        super().__init__(n, np.eye(3), np.zeros(3))

    def _wrap(self, R, p):
        return SE3._wrap(R, p)

    def _parts(self, value):
        return value.rotation, value.translation


class InertiaStack(Stack):
    """Inertias ``mass (njoints, *batch)``, ``lever (..., 3)``, ``inertia (..., 3, 3)``."""

    PARTS = (("mass", ()), ("lever", (3,)), ("inertia", (3, 3)))

    def __init__(self, n):
        super().__init__(n, 0.0, np.zeros(3), np.zeros((3, 3)))

    def _wrap(self, m, c, I):
        return Inertia._wrap(m, c, I)

    def _parts(self, value):
        return value.mass, value.lever, value.inertia


class MatrixStack(Stack):
    """Matrices ``matrix (njoints, *batch, rows, cols)``; ``stack[i]`` is a view of row i."""

    def __init__(self, n, rows, cols):
        self.PARTS = (("matrix", (rows, cols)),)
        super().__init__(n, np.zeros((rows, cols)))

    def _wrap(self, matrix):
        return matrix

    def _parts(self, value):
        return (np.asarray(value, dtype=float),)
