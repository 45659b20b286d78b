"""Every cache of a Data, pinref's or Pinocchio's, as arrays with one leading state axis.

A cache table maps ``(cache, index)`` to an array ``(B, ...)``: ``("Yaba", 2)`` is
``data.Yaba[2]`` for each of the B states, ``("joints.U", 2)`` is ``data.joints[2].U``,
``("tau", None)`` is ``data.tau``. SE3 values are ``homogeneous`` (4, 4), Motion and Force
``vector`` (6,), Ycrb is split into ``Ycrb.mass``, ``Ycrb.lever`` and ``Ycrb.inertia`` (and
``Ycrb`` holds ``matrix()`` for the CRBA trace), joint fields have their (6, nv) / (nv, nv)
shapes (Pinocchio returns (6,) for a 1-dof ``S``).
"""

import operator

import numpy as np

# (cache, per joint?, tail shape (nv: the model's, jnv: the joint's)), in report order.
FIELDS = (
    ("liMi", True, (4, 4)), ("oMi", True, (4, 4)),
    ("v", True, (6,)), ("a", True, (6,)), ("a_gf", True, (6,)), ("h", True, (6,)),
    ("f", True, (6,)),
    ("Ycrb.mass", True, ()), ("Ycrb.lever", True, (3,)), ("Ycrb.inertia", True, (3, 3)),
    ("Fcrb", True, (6, "nv")), ("Yaba", True, (6, 6)),
    ("tau", False, ("nv",)), ("nle", False, ("nv",)), ("g", False, ("nv",)),
    ("ddq", False, ("nv",)), ("M", False, ("nv", "nv")),
    ("joints.M", True, (4, 4)), ("joints.S", True, (6, "jnv")), ("joints.v", True, (6,)),
    ("joints.c", True, (6,)), ("joints.U", True, (6, "jnv")), ("joints.UDinv", True, (6, "jnv")),
    ("joints.Dinv", True, ("jnv", "jnv")),
)

# The caches of the WORLD convention (abaWorldConvention, crbaWorldConvention), compared too
# when ``world``: oYcrb as its matrix(), J and Ag (6, nv), mass and com (crba writes [0]).
WORLD_FIELDS = (
    ("ov", True, (6,)), ("oa", True, (6,)), ("oa_gf", True, (6,)), ("oh", True, (6,)),
    ("of", True, (6,)), ("oYcrb", True, (6, 6)), ("oYaba", True, (6, 6)),
    ("J", False, (6, "nv")), ("Ag", False, (6, "nv")), ("mass", True, ()), ("com", True, (3,)),
)


def _tail(tail, nv, jnv):
    return tuple(nv if d == "nv" else jnv if d == "jnv" else d for d in tail)


def keys(model, ycrb_matrix=False, world=False):
    """The ``(cache, index, tail shape)`` of every cache of ``model`` (pinref or pin Model),
    with the WORLD ones when ``world``."""
    out = []
    for name, per_joint, tail in FIELDS + (WORLD_FIELDS if world else ()):
        if not per_joint:
            out.append((name, None, _tail(tail, model.nv, 0)))
            continue
        first = 1 if name.startswith("joints.") else 0
        for i in range(first, model.njoints):
            out.append((name, i, _tail(tail, model.nv, model.nvs[i])))
    if ycrb_matrix:
        out.extend(("Ycrb", i, (6, 6)) for i in range(model.njoints))
    return out


def _value(data, name, i):
    """One cache of one Data (pinref or pin; pin's values are views, copied by the caller)."""
    if name.startswith("joints."):
        x = getattr(data.joints[i], name[7:])
    elif name.startswith("Ycrb."):
        x = getattr(data.Ycrb[i], name[5:])
    elif name in ("Ycrb", "oYcrb"):
        x = getattr(data, name)[i].matrix()
    elif i is None:
        x = getattr(data, name)
    else:
        x = getattr(data, name)[i]
    return _as_array(x)


def _as_array(x):
    """SE3 -> homogeneous, Motion and Force -> vector (pinref's or pin's), else unchanged."""
    kind = type(x).__name__
    if kind == "SE3":
        return x.homogeneous
    if kind in ("Motion", "Force"):
        return x.vector
    return x


def pinref_caches(model, data, batch, ycrb_matrix=False, world=False):
    """The cache table of a pinref Data after a call on ``batch`` states (flattened to B)."""
    n = int(np.prod(batch)) if batch else 1
    out = {}
    for name, i, tail in keys(model, ycrb_matrix, world):
        x = np.asarray(_value(data, name, i), dtype=float)
        out[name, i] = np.broadcast_to(x, tuple(batch) + tail).reshape((n,) + tail)
    return out


class PinCaches:
    """The cache table of B pin Data objects, filled state by state with :meth:`store`.

    The reading plan is built once: each Data list is fetched once per state and each element
    (a joint data, an inertia) once per joint, since every access to a pin Data crosses the
    Python binding; each value is read with one ``operator.attrgetter`` (``homogeneous`` of an
    SE3, ``vector`` of a Motion or Force), known from :data:`FIELDS`.
    """

    def __init__(self, pin_model, n, ycrb_matrix=False, world=False):
        self.keys = keys(pin_model, ycrb_matrix, world)
        self.arrays = {(name, i): np.empty((n,) + tail) for name, i, tail in self.keys}
        groups = {}
        for name, i, tail in self.keys:
            base, _, attr = name.partition(".")
            if name in ("Ycrb", "oYcrb"):
                attr = "matrix"
            group = groups.setdefault((base, i), [])
            needs_reshape = len(tail) == 2 and tail[1] == 1      # one column: pin gives (6,)
            group.append((_getter(name, attr), self.arrays[name, i],
                          tail if needs_reshape else None))
        self.lists = sorted({base for base, i in groups if i is not None})
        rank = {base: k for k, base in enumerate(self.lists)}
        self.plan = [(base if i is None else rank[base], i, fields)
                     for (base, i), fields in groups.items()]

    def store(self, k, pdata):
        """Copy every cache of ``pdata`` into state ``k``."""
        seqs = [list(getattr(pdata, name)) for name in self.lists]   # iterating: one crossing
        for base, i, fields in self.plan:
            item = getattr(pdata, base) if i is None else seqs[base][i]
            for get, out, shape in fields:
                out[k] = get(item) if shape is None else get(item).reshape(shape)


_SE3 = ("liMi", "oMi", "joints.M")
_SPATIAL_VECTORS = ("v", "a", "a_gf", "h", "f", "joints.v", "joints.c", "ov", "oa", "oa_gf",
                    "oh", "of")


def _getter(name, attr):
    """The reader of cache ``name`` from its element (``attr`` of it, or itself when empty)."""
    if attr == "matrix":
        return lambda item: item.matrix()
    path = ".".join(x for x in (attr, "homogeneous" if name in _SE3 else
                                "vector" if name in _SPATIAL_VECTORS else "") if x)
    return operator.attrgetter(path) if path else (lambda item: item)
