"""Configuration spaces of the joints (multibody/liegroup/*.hpp).

Each space has ``nq``, ``nv`` and ``neutral``, ``integrate``, ``difference``, ``interpolate``,
``normalize``, ``is_normalized``, ``random_configuration``, ``dIntegrate``, ``dDifference``, all
with leading batch axes.
"""

import numpy as np


class VectorSpace:
    """R^n (``VectorSpaceOperationTpl``): q (+) v = q + v."""

    def __init__(self, n):
        self.nq = self.nv = n

    def neutral(self):
        return np.zeros(self.nq)


class SpecialOrthogonal2:
    """SO(2) as (cos, sin) (``SpecialOrthogonalOperationTpl<2>``)."""

    nq, nv = 2, 1

    def neutral(self):
        return np.array([1.0, 0.0])


class SpecialOrthogonal3:
    """SO(3) as the (x, y, z, w) quaternion (``SpecialOrthogonalOperationTpl<3>``)."""

    nq, nv = 4, 3

    def neutral(self):
        return np.array([0.0, 0, 0, 1])


class SpecialEuclidean2:
    """SE(2) as (x, y, cos, sin) (``SpecialEuclideanOperationTpl<2>``)."""

    nq, nv = 4, 3

    def neutral(self):
        return np.array([0.0, 0, 1, 0])


class SpecialEuclidean3:
    """SE(3) as (x, y, z, qx, qy, qz, qw) (``SpecialEuclideanOperationTpl<3>``)."""

    nq, nv = 7, 6

    def neutral(self):
        return np.array([0.0, 0, 0, 0, 0, 0, 1])
