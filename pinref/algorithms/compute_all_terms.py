"""computeAllTerms: M, nle, Jacobians, centre of mass, centroidal terms and energy in one sweep
(algorithm/compute-all-terms.hxx, 3.8.0).

The forward step is RNEA's at a = 0 (LOCAL v, a, a_gf, h, f) together with the WORLD
placements, velocities and Jacobians; the backward step is CRBA's in the WORLD frame (composite
inertias oYcrb, ``M = J^T oYcrb J``) with the centroidal map Ag and its time variation dAg.
``Y.variation(v) = v x* Y - Y (v x)`` (Inertia::variation); ``liMi.act`` moves a force to the
parent's frame.

    v[0] = 0 ; a[0] = 0 ; h[0] = 0 ; a_gf[0] = -gravity ; oYcrb[0] = 0
    for i = 1 .. n-1:                                       CATForwardStep
        jcalc(q, v) -> M_J, S_i, v_J, c_J ;  liMi[i] = jointPlacements[i] M_J
        oMi[i] = oMi[parent] liMi[i] ;  v[i] = v_J + liMi^-1 v[parent]      (parent > 0)
        ov_i = oMi v[i] ;  oYcrb_i = oMi Y_i ;  doYcrb_i = oYcrb_i.variation(ov_i)
        J_i = oMi S_i ;  dJ_i = ov_i x J_i
        a[i] = a_gf[i] = c_J + v[i] x v_J
        a[i] += liMi^-1 a[parent]   (parent > 0) ;  a_gf[i] += liMi^-1 a_gf[parent]
        h[i] = Y_i v[i] ;  f[i] = Y_i a_gf[i] + v[i] x* h[i]
    for i = n-1 .. 1:                                       CATBackwardStep
        Ag_i = oYcrb_i J_i ;  dAg_i = doYcrb_i J_i + oYcrb_i dJ_i   (subtree sums from here)
        M[i, sub_i] = J_i^T Ag[sub_i] ;  nle_i = S_i^T f[i]
        oYcrb_parent += oYcrb_i ;  doYcrb_parent += doYcrb_i           (parent 0 included)
        h[parent] += liMi h[i] ;  f[parent] += liMi f[i]                (parent 0 included)
        mass[i] = oYcrb_i.mass ;  com[i] = oMi^-1 oYcrb_i.lever ;  vcom[i] = h[i].linear / mass[i]
    mass[0] = oYcrb_0.mass ;  com[0] = oYcrb_0.lever ;  vcom[0] = h[0].linear / mass[0]
    Ag.angular += Ag.linear x com[0] ;  dAg.angular += dAg.linear x com[0] + Ag.linear x vcom[0]
    hg = h[0], hg.angular += hg.linear x com[0] ;  dhg = f[0], dhg.angular += dhg.linear x com[0]
    diag(M) += armature ;  Jcom = Ag.linear / mass[0]
    Ig = (mass[0], 0, oYcrb_0.inertia) ;  g = -Ag.linear^T gravity.linear
    computeMechanicalEnergy(model, data)                     (energy.py: from v, oMi, joint_v)

i stands for joint i's columns, sub_i for those of its subtree (``idx_v .. idx_v +
nvSubtree[i]``). com[i] and vcom[i] (i >= 1) are in frame i, com[0] and vcom[0] in the world.
The Python binding zeroes M before the passes and copies its strict upper triangle into the
lower one after them, so ``data.M`` is the full symmetric matrix.

Call-history quirks (docs/quirks.md): the driver resets h[0] and oYcrb[0] but not f[0] and
doYcrb[0], into which the backward step adds too: ``f[0]`` ends as what it held plus the
children's sum, and ``dhg`` is read from it. v[0] is not reset by Pinocchio's other passes
either; oinertias, Ycrb, Fcrb, tau, oh, C and B are not written.

How the code maps to the loops above (the level passes of rnea.py and rnea_derivatives.py,
whose module docstrings say more): the forward step reads its parent in oMi, v, a and a_gf,
which run one tree level at a time (oMi and v first, then ``c_J + v x v_J`` for every joint,
then a and a_gf level by level); its other statements run for every joint at once after them.
The backward step's sums into the parent run level by level from the deepest, children in
Pinocchio's order (rounds, the universe being the parent of the top level); Ag, dAg, M, nle,
mass, com and vcom read the joint's complete sums and run for every joint after that loop.
"""

import numpy as np

from ..spatial import Force, Inertia
from ..spatial._kernels import ANGULAR, EPS, LINEAR, cross, se3_action
from . import scan
from ._args import state
from ._levels import Walk, crf, crm, expand, full, joint_calc, matvec, vecmat, widen
from .center_of_mass import _write_back
from .centroidal import at_point
from .coriolis import placement_velocity_step
from .energy import _kinetic_energy_forward_step, _potential_energy_step, _scalar
from .rnea_derivatives import (
    _inertia_from_matrix,
    _InertiasFromMatrices,
    columns,
    columns_first,
    matrix_face,
    moved,
    mv,
    packed,
    subspace_columns,
    world_inertia_matrices,
    write_blocks,
)


def _cat_acceleration_step(level, kin, data):
    """The statements of CATForwardStep::algo that read the parent's accelerations, for the
    joints of one level (a_i = a_gf_i = c_J + v_i x v_J was set for every joint before)."""
    i, p = level.rows, level.parent_rows
    A, AG = data.a.vector, data.a_gf.vector
    X = kin.X[i]
    if level.has_parent:
        # a_i += liMi^-1 a_parent
        A[i] = A[i] + matvec(X, A[p])
    # a_gf_i += liMi^-1 a_gf_parent
    AG[i] = AG[i] + matvec(X, AG[p])


def _cat_forward_columns(T, C, data, Sc, shape, P):
    """The statements of CATForwardStep::algo that read no parent, for every joint after the
    level loops: ov, oYcrb, doYcrb, J, dJ (WORLD) and h, f (LOCAL), into the rows of ``P = (Y,
    dY, h, f)``. Returns J, dJ column first ``(nv, *shape, 6)``."""
    Y, dY, H, F = P
    OV, V, AG = data.ov.vector, data.v.vector, data.a_gf.vector
    X = se3_action(data.oMi.rotation[1:], data.oMi.translation[1:])
    # ov_i = oMi v_i
    OV[1:] = mv(X, V[1:])
    # oYcrb_i = oMi Y_i ;  doYcrb_i = ov_i x* oYcrb_i - oYcrb_i ov_i x
    # = -(Z^T + Z) with Z = oYcrb_i ov_i x   (v x* = -(v x)^T, oYcrb_i symmetric)
    Yi = Y[1:]
    Yi[...] = world_inertia_matrices(T, data.oMi.rotation[1:], data.oMi.translation[1:],
                                     len(shape), slice(1, None))
    Z = Yi @ crm(OV[1:])
    np.negative(Z.mT + Z, out=dY[1:])
    # J_i = oMi S_i ;  dJ_i = ov_i x J_i
    J = mv(X[C.row - 1], Sc)
    dJ = mv(crm(OV[C.row]), J)
    # h_i = Y_i v_i ;  f_i = Y_i a_gf_i + v_i x* h_i
    I = expand(T.inertia_matrix[1:], len(shape))
    H[1:] = mv(I, V[1:])
    F[1:] = mv(I, AG[1:]) + mv(crf(V[1:]), H[1:])
    return J, dJ


def _cat_backward_step(level, kin, buf, forces):
    """The sums of CATBackwardStep::algo for the joints of one level, into their parents (the
    universe too): oYcrb, doYcrb as they are (WORLD), h and f moved by liMi (``forces``: their
    slice of the buffer ``buf``), children in Pinocchio's order (rounds)."""
    x = buf[level.rows].copy()
    # liMi h_i, liMi f_i   (X^T h_i, X^T f_i: one (6, 2) block per joint)
    hf = x[..., forces].reshape(x.shape[:-1] + (2, 6))
    x[..., forces] = vecmat(hf, kin.X[level.rows][..., None, :, :]).reshape(x.shape[:-1] + (12,))
    # oYcrb_p += oYcrb_i ; doYcrb_p += doYcrb_i ; h_p += liMi h_i ; f_p += liMi f_i
    scan.add_to_parents(level, (buf, x))


def _cat_backward_columns(C, Y, dY, J, dJ, F, Sc, M):
    """The statements of CATBackwardStep::algo other than the sums, for every column at once:
    Ag, dAg, the blocks ``M[i, sub_i]`` and nle. Returns Ag, dAg column first and nle."""
    Ycol = Y[C.row]
    # Ag_i = oYcrb_i J_i ;  dAg_i = doYcrb_i J_i + oYcrb_i dJ_i
    Ag = mv(Ycol, J)
    dAg = mv(dY[C.row], J) + mv(Ycol, dJ)
    # M[i, sub_i] = J_i^T Ag[sub_i]
    write_blocks(M, C.sub, columns_first(J) @ matrix_face(Ag))
    # nle_i = S_i^T f_i
    nle = moved(np.vecdot(Sc, F[C.row]), 0, -1)
    return Ag, dAg, nle


def _cat_subtree_coms(T, data, Y, H):
    """mass[i], com[i] (frame i), vcom[i] = h[i].linear / mass[i] for every joint, and the
    universe's (world frame) from the complete sums."""
    R, p = data.oMi.rotation, data.oMi.translation
    mass = Y[..., 0, 0].copy()
    # oYcrb_i.lever = (m c) / m, m c read off the block m [c]x (entries (2, 1), (0, 2), (1, 0))
    lever = Y[..., (5, 3, 4), (1, 2, 0)] / np.maximum(mass, EPS)[..., None]
    # com_i = oMi^-1 oYcrb_i.lever   (i >= 1) ;  com_0 = oYcrb_0.lever
    com = lever.copy()
    com[1:] = vecmat(lever[1:] - p[1:], R[1:])
    # vcom_i = h_i.linear / mass_i
    with np.errstate(divide="ignore", invalid="ignore"):
        vcom = H[..., LINEAR] / mass[..., None]
    _write_back(data, T, "com", com)
    _write_back(data, T, "vcom", vcom)
    data.mass[:] = mass[T.pos].tolist()
    return mass[0], com[0], vcom[0]


def _centroidal_terms(model, data, Ag, dAg, oY0, h0, f0, com0, vcom0, mass0):
    """The driver's closing statements: Ag and dAg moved to the CoM, hg, dhg, Jcom, Ig, g."""
    Ag_lin, dAg_lin = Ag[..., LINEAR], dAg[..., LINEAR]
    c, vc = com0[None], vcom0[None]
    # Ag.angular += Ag.linear x com_0 ;  dAg.angular += dAg.linear x com_0 + Ag.linear x vcom_0
    Ag[..., ANGULAR] += cross(Ag_lin, c)
    dAg[..., ANGULAR] += cross(dAg_lin, c) + cross(Ag_lin, vc)
    # hg = h_0, hg.angular += hg.linear x com_0 ;  dhg = f_0, dhg.angular += dhg.linear x com_0
    data.hg, data.dhg = Force.unchecked(at_point(h0, com0)), Force.unchecked(at_point(f0, com0))
    # Jcom = Ag.linear / mass_0
    with np.errstate(divide="ignore", invalid="ignore"):     # mass 0: NaN (data.mark warns)
        data.Jcom = matrix_face(Ag_lin) / mass0[..., None, None]
    # Ig = (mass_0, 0, oYcrb_0.inertia)
    data.Ig = Inertia.unchecked(mass0.copy(), np.zeros(mass0.shape + (3,)), oY0.inertia.copy())
    # g = -Ag.linear^T gravity.linear
    data.g = -moved(Ag_lin @ model.gravity.linear, 0, -1)


def computeAllTerms(model, data, q, v):
    """M, nle, g, the Jacobians, the centre of mass, the centroidal terms and the energies for
    one state (or a batch), in ``data``; returns None as pin does.

    Parameters
    ----------
    q : ndarray, shape (..., model.nq)
    v : ndarray, shape (..., model.nv)

    Mirrors ``pinocchio::computeAllTerms`` (algorithm/compute-all-terms.hxx, 3.8.0) and its
    Python binding (M zeroed first, then made symmetric); see the module docstring. Writes
    liMi, oMi, v, ov, a (LOCAL, a = 0 but for c_J and v x v_J), a_gf, h, f (subtree sums; f[0]
    adds to what it held), oYcrb and doYcrb (subtree sums, the universe's too), J, dJ, Ag and
    dAg (moved to the CoM), M (armature added), nle, g, mass, com, vcom (com[i], vcom[i] in
    frame i for i >= 1), Jcom, hg, dhg, Ig, kinetic_energy, potential_energy,
    mechanical_energy and the joints' M, S, v, c.
    """
    q, arrays, shape = state(model, q, data=data, v=v)
    q, v = full(shape, q, arrays["v"])
    model.check_compact_subtrees("computeAllTerms")
    nv, n = model.nv, model.njoints
    widen(data, shape, "liMi", "oMi", "v", "ov", "a", "a_gf", "h", "f", "doYcrb")
    data.M = np.zeros(shape + (nv, nv))
    # v_0 = 0 ; a_0 = 0 ; a_gf_0 = -gravity   (h_0 = 0 and oYcrb_0 = 0 below)
    data.v.vector[0] = 0.0
    data.a.vector[0] = 0.0
    data.a_gf.vector[0] = -model.gravity.vector
    T = Walk(model, q, v)
    C = columns(model, T)
    # jcalc(q, v) -> M_J, S_i, v_J, c_J ; liMi = jointPlacements[i] M_J   (every joint)
    kin = joint_calc(T, data, q, v, shape)
    for level in T.levels:
        # oMi = oMi[parent] liMi ;  v_i = v_J + liMi^-1 v_parent   (as CoriolisMatrixForwardStep)
        placement_velocity_step(level, kin, data)
    # a_i = a_gf_i = c_J + v_i x v_J   (every joint)
    bias = matvec(crm(data.v.vector[1:]), kin.vJ[1:])
    if kin.c is not None:
        bias = kin.c[1:] + bias
    data.a.vector[1:] = data.a_gf.vector[1:] = bias
    for level in T.levels:
        _cat_acceleration_step(level, kin, data)
    buf, Yv, dYv, H, F = packed(n, shape, 36, 36, 6, 6)
    Y, dY = (x.reshape(x.shape[:-1] + (6, 6)) for x in (Yv, dYv))
    Sc = subspace_columns(C, data, shape)
    J, dJ = _cat_forward_columns(T.tree, C, data, Sc, shape, (Y, dY, H, F))
    # h_0 = 0 ; oYcrb_0 = 0 ; doYcrb_0, f_0 keep what they held
    Y[0], H[0] = 0.0, 0.0
    dY[0], F[0] = data.doYcrb.matrix[0], data.f.vector[0]
    forces = slice(72, 84)
    for level in reversed(T.levels):
        _cat_backward_step(level, kin, buf, forces)
    Ag, dAg, data.nle = _cat_backward_columns(C, Y, dY, J, dJ, F, Sc, data.M)
    data.h.vector[:], data.f.vector[:], data.doYcrb.matrix[:] = H, F, dY
    mass0, com0, vcom0 = _cat_subtree_coms(T.tree, data, Y, H)
    oY0 = _inertia_from_matrix(Y[0])
    _centroidal_terms(model, data, Ag, dAg, oY0, H[0], F[0], com0, vcom0, mass0)
    # diag(M) += armature ;  M lower = M upper^T   (the binding)
    diagonal = np.einsum("...ii->...i", data.M)
    diagonal += model.armature
    np.copyto(data.M, data.M.mT, where=np.tri(nv, k=-1, dtype=bool))
    data.oYcrb = _InertiasFromMatrices(Y, T.tree.pos, oY0)
    data.J, data.dJ, data.Ag, data.dAg = map(matrix_face, (J, dJ, Ag, dAg))
    # computeMechanicalEnergy(model, data)
    data.kinetic_energy = _scalar(0.5 * _kinetic_energy_forward_step(model, T.tree, data))
    data.potential_energy = _scalar(_potential_energy_step(model, T.tree, data))
    data.mechanical_energy = _scalar(data.kinetic_energy + data.potential_energy)
    data.mark("computeAllTerms", "liMi", "oMi", "v", "ov", "a", "a_gf", "oYcrb", "doYcrb", "J",
              "dJ", "h", "f", "Ag", "dAg", "M", "nle", "mass", "com", "vcom", "hg", "dhg",
              "Jcom", "Ig", "g", "kinetic_energy", "potential_energy", "mechanical_energy")


__all__ = ["computeAllTerms"]
