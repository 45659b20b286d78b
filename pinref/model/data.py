"""Every cache the algorithms write (multibody/data.hpp), declared once with its meaning.

Data is built from a Model with Pinocchio's initial values (facts §0.4). Each algorithm replaces
the caches it writes; when it is called with a batch of states, those caches carry the same
leading batch axes. Caches an algorithm does not write keep what they held (see
docs/quirks.md: ABA reads ``oMi`` without writing it, RNEA never writes ``f[0]``, ...).
"""

import numpy as np

from ..spatial import SE3, Force, Inertia, Motion


class Data:
    """The work space of the algorithms for one Model (``pinocchio::Data``)."""

    def __init__(self, model):
        n, nv = model.njoints, model.nv
        # --- kinematics (forwardKinematics, rnea, crba, aba) -------------------------------
        self.oMi = [SE3.Identity() for _ in range(n)]     # placement of joint i in the world
        self.liMi = [SE3.Identity() for _ in range(n)]    # placement of joint i in its parent
        self.v = [Motion.Zero() for _ in range(n)]        # spatial velocity of body i, frame i
        self.a = [Motion.Zero() for _ in range(n)]        # spatial acceleration of i, frame i
        # spatial acceleration minus gravity, frame i; a_gf[0] = -gravity (set here too)
        self.a_gf = [Motion.Zero() for _ in range(n)]
        self.a_gf[0] = -model.gravity
        # --- rnea, aba ---------------------------------------------------------------------
        self.h = [Force.Zero() for _ in range(n)]         # momentum Y_i v_i of body i, frame i
        self.f = [Force.Zero() for _ in range(n)]         # joint wrench (rnea) / bias force (aba)
        self.tau = np.zeros(nv)                           # rnea: joint torques         (..., nv)
        self.nle = np.zeros(nv)                           # nonLinearEffects: C v + g   (..., nv)
        self.g = np.zeros(nv)                             # computeGeneralizedGravity   (..., nv)
        # --- crba --------------------------------------------------------------------------
        self.M = np.zeros((nv, nv))                       # joint-space inertia       (..., nv, nv)
        self.Ycrb = [Inertia.Zero() for _ in range(n)]    # composite inertia of subtree i, frame i
        self.Fcrb = [np.zeros((6, nv)) for _ in range(n)]  # Ycrb_k S_k moved to frame i (..., 6, nv)
        # --- aba ---------------------------------------------------------------------------
        self.Yaba = [np.zeros((6, 6)) for _ in range(n)]  # articulated inertia, frame i (..., 6, 6)
        self.u = np.zeros(nv)                             # tau - S^T pA, per joint       (..., nv)
        self.ddq = np.zeros(nv)                           # joint accelerations           (..., nv)
        # --- joints and tree bookkeeping ---------------------------------------------------
        self.joints = [jmodel.createData() for jmodel in model.joints]
        self.nvSubtree = _nv_subtree(model)               # dofs of the subtree rooted at i


def _nv_subtree(model):
    """``Data::nvSubtree`` as Pinocchio 3.8.0 fills it, including its value at index 0.

    Going i = n-1 .. 0: nvSubtree[i] += nv_i ; nvSubtree[parent] += nvSubtree[i]. At i = 0 the
    universe's placeholder joint reports nv = 1 and is its own parent, so nvSubtree[0] ends as
    2 (nv + 1) (docs/quirks.md). Index 0 is never read by the algorithms.
    """
    out = [0] * model.njoints
    for i in reversed(range(model.njoints)):
        out[i] += model.nvs[i] if i > 0 else 1
        out[model.parents[i]] += out[i]
    return out
