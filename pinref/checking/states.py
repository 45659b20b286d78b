"""The states the checks run on: seeded, batched, non-degenerate, and replayable field by field.

A :class:`States` holds N states along a leading axis, plus the two model parameters every
state shares:

=================  ====================  ===================================================
field              shape                 meaning
=================  ====================  ===================================================
q                  (N, nq)               configuration (quaternions x, y, z, w; unit norm)
v, a               (N, nv)               velocity (free-flyer: LOCAL linear, angular), accel.
tau                (N, nv)               a generalised-force command (the floating-base check
                                         zeroes the base part)
fext               (N, njoints, 6)       one wrench on one joint: LOCAL frame of that joint,
                                         about its origin, [force; moment]; other rows zero
fext_placement     (N, 4, 4)             jMc, the point c where that wrench acts, in the
                                         joint frame (the wrench at c is jMc^-1 . fext[j])
armature           (nv,)                 the armature the checked model uses
gravity            (6,)                  the gravity the checked model uses, [linear; angular]
=================  ====================  ===================================================

:func:`make_states` draws them from a seed. The fixture is deliberately *not* at the identity:
random base orientations and positions, non-zero velocities, a contact point off the joint
origin with a turned frame, since at identity poses and zero velocity LOCAL, WORLD and
LOCAL_WORLD_ALIGNED coincide and a wrench needs no lever arm, and many mistakes hide
(the tutorial's warning in its section on reference frames).
"""

from dataclasses import dataclass

import numpy as np

import pinref

from ..errors import ArgumentTypeError, ArgumentValueError, ShapeError
from ..spatial import SE3, Force
from ..tracing.states import is_int

BATCHED_FIELDS = ("q", "v", "a", "tau", "fext", "fext_placement")
SHARED_FIELDS = ("armature", "gravity")
STATE_FIELDS = BATCHED_FIELDS + SHARED_FIELDS

# Configuration bounds used where the model's own are infinite (or +-DBL_MAX): a metre, a radian.
DEFAULT_BOUND = 1.0
# The checks run on every state at once: at most this much memory for them (``state_bytes``).
CHECK_BYTES_LIMIT = 4 << 30
# Armature drawn for a model whose own is zero: uniform in this range on the actuated dofs.
ARMATURE_RANGE = (0.05, 0.5)


def field_shapes(model):
    """The shape of each field of one state (no batch axis)."""
    nq, nv, nj = model.nq, model.nv, model.njoints
    return {"q": (nq,), "v": (nv,), "a": (nv,), "tau": (nv,), "fext": (nj, 6),
            "fext_placement": (4, 4), "armature": (nv,), "gravity": (6,)}


def floating_base_dofs(model):
    """Tangent indices of the free-flyer joints hanging from the universe (unactuated), sorted."""
    dofs = []
    for i in range(1, model.njoints):
        if model.parents[i] == 0 and model.joints[i].shortname() == "JointModelFreeFlyer":
            dofs.extend(range(model.idx_vs[i], model.idx_vs[i] + model.nvs[i]))
    return np.array(dofs, dtype=int)


def has_floating_base(model):
    """True when every joint hanging from the universe is a free-flyer: nothing holds the robot
    but gravity, so its base is unactuated."""
    roots = [i for i in range(1, model.njoints) if model.parents[i] == 0]
    return bool(roots) and all(model.joints[i].shortname() == "JointModelFreeFlyer"
                               for i in roots)


@dataclass
class States:
    """N states (see the module docstring for the fields). ``states[k]`` is state k alone,
    still with a batch axis of length 1."""

    q: np.ndarray
    v: np.ndarray
    a: np.ndarray
    tau: np.ndarray
    fext: np.ndarray
    fext_placement: np.ndarray
    armature: np.ndarray
    gravity: np.ndarray

    def __len__(self):
        return len(self.q)

    def __getitem__(self, k):
        k = np.atleast_1d(np.asarray(k, dtype=int))
        return States(**{name: getattr(self, name)[k] for name in BATCHED_FIELDS},
                      **{name: getattr(self, name) for name in SHARED_FIELDS})

    def fext_joints(self):
        """The joint carrying the wrench of each state, (N,) ints (its only non-zero row)."""
        return np.argmax(np.any(self.fext[:, 1:] != 0.0, axis=-1), axis=-1) + 1

    def arrays(self, k):
        """State k as a dict of arrays without batch axis (what a snapshot stores)."""
        out = {name: np.array(getattr(self, name)[k]) for name in BATCHED_FIELDS}
        out.update({name: np.array(getattr(self, name)) for name in SHARED_FIELDS})
        return out

    @classmethod
    def from_arrays(cls, arrays):
        """One state from a dict of arrays without batch axis (a snapshot's)."""
        return cls(**{name: np.asarray(arrays[name], dtype=float)[None] for name in BATCHED_FIELDS},
                   **{name: np.asarray(arrays[name], dtype=float) for name in SHARED_FIELDS})


def _bounds(model):
    """The model's position limits, with +-DEFAULT_BOUND where they are infinite or +-DBL_MAX."""
    lo, hi = model.lowerPositionLimit.copy(), model.upperPositionLimit.copy()
    unbounded = ~(np.isfinite(lo) & np.isfinite(hi)) | (np.abs(lo) > 1e10) | (np.abs(hi) > 1e10)
    lo[unbounded], hi[unbounded] = -DEFAULT_BOUND, DEFAULT_BOUND
    return lo, hi


def default_armature(model, rng):
    """The model's armature if any entry is non-zero; otherwise small positive values on the
    actuated dofs and zero on the floating base (the tutorial's armature experiment)."""
    if np.any(model.armature != 0.0):
        return np.array(model.armature, dtype=float)
    b = rng.uniform(*ARMATURE_RANGE, size=model.nv)
    b[floating_base_dofs(model)] = 0.0
    return b


def state_bytes(model):
    """The memory one state takes while every check runs on the batch at once: ten cache
    tables of the model (``pinref.compare.caches.keys``), measured as 9 on the humanoid (about
    1 MB) and 4 on the tutorial model."""
    from ..compare.caches import keys

    return 10 * 8 * sum(int(np.prod(tail)) for _, _, tail in keys(model, ycrb_matrix=True))


def make_states(model, n, seed):
    """``n`` states of ``model`` drawn from ``np.random.default_rng(seed)``.

    q: ``randomConfiguration`` within the position limits (+-1 where they are unbounded),
    v, a, tau: standard normal; one wrench per state on a random joint, standard normal at a
    random point c (``SE3.Random``: turned, up to 1 m from the joint origin) and moved to the
    joint origin exactly (``jMc.act``); armature from :func:`default_armature`; the model's
    gravity. Raises ShapeError for fewer than one state or more than CHECK_BYTES_LIMIT holds,
    ArgumentTypeError / ArgumentValueError for a count or seed that is not an integer >= 0.
    """
    if not is_int(n):
        raise ArgumentTypeError(f"n_states: expected a positive integer, got "
                                f"{type(n).__name__} {n!r}")
    if n < 1:
        raise ShapeError(f"n_states: expected at least 1 state, got {n}")
    if not is_int(seed) or seed < 0:
        raise (ArgumentValueError if is_int(seed) else ArgumentTypeError)(
            f"seed: expected an integer >= 0 (NumPy's seeds are), got {seed!r}")
    need = n * state_bytes(model)
    if need > CHECK_BYTES_LIMIT:
        raise ShapeError(f"n_states: {n} states of this model (nv {model.nv}, njoints "
                         f"{model.njoints}) need about {need / 2**30:.3g} GiB to check at once, "
                         f"more than the {CHECK_BYTES_LIMIT / 2**30:g} GiB allowed; check at "
                         f"most {CHECK_BYTES_LIMIT // state_bytes(model)} states per run "
                         "(other seeds cover more)")
    rng = np.random.default_rng(seed)
    lo, hi = _bounds(model)
    q = pinref.randomConfiguration(model, np.broadcast_to(lo, (n, model.nq)),
                                   np.broadcast_to(hi, (n, model.nq)), rng=rng)
    v, a, tau = (rng.normal(size=(n, model.nv)) for _ in range(3))
    joints = rng.integers(1, model.njoints, size=n)
    jMc = SE3.Random((n,), rng=rng)
    f_c = rng.normal(size=(n, 6))
    fext = np.zeros((n, model.njoints, 6))
    fext[np.arange(n), joints] = jMc.act(Force(f_c)).vector
    return States(q=q, v=v, a=a, tau=tau, fext=fext, fext_placement=jMc.homogeneous,
                  armature=default_armature(model, rng),
                  gravity=np.array(model.gravity.vector, dtype=float))


__all__ = ["States", "make_states", "STATE_FIELDS", "field_shapes", "floating_base_dofs",
           "has_floating_base", "default_armature", "state_bytes", "CHECK_BYTES_LIMIT"]
