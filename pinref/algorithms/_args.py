"""Argument checks and batch plumbing shared by the algorithms (the API boundary)."""

import enum

import numpy as np

from ..errors import NonFiniteError, ShapeError, UnsupportedError
from ..joints.liegroup import ArgumentPosition  # noqa: F401  (re-exported: ARG0, ARG1)
from ..spatial import Force
from ..spatial._kernels import as_array, batch_shape


class Convention(enum.IntEnum):
    """``pinocchio::Convention``: the frame in which CRBA and ABA accumulate (WORLD == 0)."""

    WORLD = 0
    LOCAL = 1


class ReferenceFrame(enum.IntEnum):
    """``pinocchio::ReferenceFrame``: where a velocity, acceleration or Jacobian is expressed.

    WORLD: world axes, about the world origin. LOCAL: the frame's own axes, about its origin.
    LOCAL_WORLD_ALIGNED: world axes, about the frame's origin.
    """

    WORLD = 0
    LOCAL = 1
    LOCAL_WORLD_ALIGNED = 2


class KinematicLevel(enum.IntEnum):
    """``pinocchio::KinematicLevel``: how far ``centerOfMass`` goes (position, velocity, accel.)."""

    POSITION = 0
    VELOCITY = 1
    ACCELERATION = 2


def check_local(convention, algorithm):
    """Only the LOCAL convention is implemented; WORLD raises UnsupportedError."""
    if Convention(convention) != Convention.LOCAL:
        raise UnsupportedError(
            f"{algorithm}: Convention.WORLD is not implemented in pinref yet; "
            "use Convention.LOCAL (the default), whose results ddq and M are the same")


def state(model, q, *, data=None, **tangent):
    """Check the model (and data), q and the tangent vectors (v, a, tau, ...); return them and
    their batch shape.

    With ``data``, it is made ready for that batch shape (``Data.conform``): its stale caches
    keep their values when they broadcast to the new batch, as Pinocchio's would.
    """
    check_model(model, data)
    q = model.check_configuration(q)
    arrays = {name: model.check_vector(x, name, model.nv) for name, x in tangent.items()}
    shape = batch_shape((q, 1), *((x, 1) for x in arrays.values()))
    if data is not None:
        data.conform(model, shape)
    return q, arrays, shape


def check_model(model, data=None):
    """A pinref Model (and its Data), with an armature of nv finite non-negative numbers and a
    finite gravity; otherwise a typed error saying what to pass."""
    from ..model import Data, Model

    if not isinstance(model, Model):
        raise UnsupportedError(
            f"expected a pinref.Model, got {type(model).__module__}.{type(model).__name__}; "
            "convert a Pinocchio model with pinref.from_pinocchio(model)")
    if data is not None and not isinstance(data, Data):
        raise UnsupportedError(
            f"expected a pinref.Data, got {type(data).__module__}.{type(data).__name__}; "
            "create it with model.createData() or pinref.Data(model)")
    armature = model.armature
    if (not isinstance(armature, np.ndarray) or armature.shape != (model.nv,)
            or not np.all(np.isfinite(armature)) or np.any(armature < 0)):
        raise ShapeError(f"model.armature: expected {model.nv} finite non-negative numbers "
                         f"(one per velocity entry), got {armature!r}")
    if not np.all(np.isfinite(model.gravity.vector)) or model.gravity.vector.shape != (6,):
        raise NonFiniteError(f"model.gravity: expected one finite Motion, got {model.gravity!r}")


def external_forces(model, fext, shape):
    """``fext`` as an array ``(..., njoints, 6)`` (LOCAL frame of each joint), or None.

    Accepts a list of ``njoints`` Force (entry 0 ignored, as in Pinocchio) or an array.
    """
    if fext is None:
        return None
    if isinstance(fext, (list, tuple)):
        if len(fext) != model.njoints:
            raise ShapeError(f"fext: expected a list of model.njoints = {model.njoints} Force "
                             f"(entry 0 is ignored), got {len(fext)}")
        for k, f in enumerate(fext):
            if not isinstance(f, Force):
                raise ShapeError(f"fext[{k}]: expected a pinref.Force, got {type(f).__name__}")
        vectors = [np.broadcast_to(f.vector, f.vector.shape) for f in fext]
        try:
            fext = np.stack(np.broadcast_arrays(*vectors), axis=-2)
        except ValueError:
            raise ShapeError("fext: the batch shapes of the forces do not broadcast") from None
    fext = as_array(fext, "fext", (model.njoints, 6))
    fext_shape = fext.shape[:-2]
    if batch_shape((fext, 2), (np.zeros(shape), 0)) != shape:
        raise ShapeError(f"fext: its batch shape {fext_shape} must broadcast to the batch shape "
                         f"{shape} of q, v and a/tau (give the states the batch axes, or fewer "
                         "axes to fext)")
    return fext


def writable(array, shape):
    """``array`` broadcast to ``shape`` as an owned writable array (copied only if needed)."""
    if array.shape == shape and array.flags.writeable and array.base is None:
        return array
    return np.broadcast_to(array, shape).copy()
