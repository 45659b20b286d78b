"""Whether a rigid body can have an inertia: the one rule the URDF loader, ``Inertia(...)`` and
``pinref check`` apply (Pinocchio checks none of it; pinref warns with InertiaWarning).

A body's rotational inertia I about its centre of mass is symmetric with principal moments
(eigenvalues) a <= b <= c that satisfy

- **no negative moment**: a >= 0 (I positive semi-definite);
- **the triangle inequality**: a + b >= c (each moment is a sum of two of the mass's second
  moments, sum_k m_k y_k^2 + z_k^2 ...).

Both are judged robustly, relative to the inertia's scale s = max|eigenvalue|:

- a moment is negative only below ``-NEGATIVE_TOLERANCE * eps * s``: the eigenvalues of a
  symmetric 3x3 matrix carry an absolute rounding error of a few eps * s, so a placeholder
  ``ixx = iyy = izz = ixy = ixz = iyz = 1e-6`` (eigenvalues -1.99e-22, 8.5e-23, 3e-6) has no
  negative moment (it breaks the triangle inequality instead);
- the triangle inequality is broken only when a + b < c - max(TRIANGLE_TOLERANCE * c,
  NEGATIVE_TOLERANCE * eps * s): the relative slack lets a flat plate (c = a + b) written to
  six significant digits through (each number off by up to 5e-6 of itself, so c - (a + b) by
  up to 1e-5 c).

``inertia_problems`` returns what is broken, with the numbers; callers decide whether to warn
or raise. Negative mass is not judged here: the loader and ``Inertia`` refuse it outright.
"""

import warnings

import numpy as np

from ..errors import InertiaError, InertiaWarning

NEGATIVE_TOLERANCE = 16.0
"""k of the rounding tolerance k * eps * max|eigenvalue| on the principal moments."""

TRIANGLE_TOLERANCE = 1e-5
"""Relative slack of the triangle inequality: a + b >= c (1 - TRIANGLE_TOLERANCE) passes."""

_EPS = np.finfo(float).eps


def principal_moments(inertia):
    """The principal moments a <= b <= c of the symmetric ``inertia`` (..., 3, 3), (..., 3)."""
    return np.linalg.eigvalsh(inertia)


def inconsistent(moments):
    """(...,) bool: the moments ``(..., 3)`` (ascending) break the rule above."""
    a, b, c = moments[..., 0], moments[..., 1], moments[..., 2]
    rounding = NEGATIVE_TOLERANCE * _EPS * np.abs(moments).max(axis=-1)
    return (a < -rounding) | (a + b < c - np.maximum(TRIANGLE_TOLERANCE * c, rounding))


def inertia_problems(inertia):
    """What makes the symmetric 3x3 ``inertia`` no rigid body's, as a list of sentences with
    the numbers (empty when it is physical): a negative principal moment (the matrix is then
    indefinite or negative definite), or the triangle inequality and by how much it fails."""
    moments = principal_moments(np.asarray(inertia, dtype=float))
    if not inconsistent(moments):
        return []
    a, b, c = (float(x) for x in moments)
    text = f"principal moments ({a:.6g}, {b:.6g}, {c:.6g})"
    rounding = NEGATIVE_TOLERANCE * _EPS * max(abs(a), abs(c))
    if a < -rounding:
        kind = ("indefinite" if c > 0 else "negative semi-definite" if c == 0
                else "negative definite")
        return [f"{text}: the smallest is negative (the matrix is {kind})"]
    excess, rest = c - (a + b), a + b
    if rest <= rounding:
        by = "the other two sum to about 0"
    elif excess < rest:
        by = f"{100 * excess / rest:.3g} % of the sum of the other two"
    else:
        by = f"{excess / rest:.3g} times the sum of the other two"
    return [f"{text}: the largest exceeds the sum of the other two by {excess:.3g} ({by}), "
            "which breaks the triangle inequality"]


def check_rigid_body(inertia, where):
    """``Inertia(...)``'s check of ``inertia`` (..., 3, 3), symmetric: InertiaError where
    Pinocchio's constructor raises (a negative diagonal entry: "The 3d inertia should be
    positive"), one InertiaWarning where Pinocchio accepts an inertia no rigid body has
    (``inconsistent``), naming the first such batch element and how many there are."""
    diagonal = np.diagonal(inertia, axis1=-2, axis2=-1)
    if np.any(diagonal < 0):
        index = tuple(int(k) for k in np.unravel_index(int(np.argmin(diagonal)),
                                                       diagonal.shape))
        raise InertiaError(
            f"{where}: the rotational inertia has the negative diagonal entry "
            f"{float(diagonal[index]):.6g} (I[{index[-1]}, {index[-1]}]"
            f"{'' if diagonal.ndim == 1 else f' of batch element {index[:-1]}'}); a moment of "
            "inertia about an axis is a sum of m r^2 and cannot be negative (Pinocchio raises "
            "too)")
    bad = inconsistent(principal_moments(inertia))
    if np.any(bad):
        first = tuple(int(k) for k in np.unravel_index(int(np.argmax(bad)), bad.shape))
        count = f" ({int(bad.sum())} of {bad.size} batch elements; the first, {first})" \
            if bad.ndim else ""
        warnings.warn(f"{where}: no rigid body has this inertia{count}: "
                      f"{inertia_problems(inertia[first])[0]}; Pinocchio accepts it",
                      InertiaWarning, stacklevel=3)
