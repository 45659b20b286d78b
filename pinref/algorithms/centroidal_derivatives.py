"""Partial derivatives of the centroidal dynamics (algorithm/centroidal-derivatives.hxx, 3.8.0).

``hg(q, v)`` is the centroidal momentum and ``dhg(q, v, a)`` its time derivative (centroidal.py);
derivatives with respect to q are along the tangent space (docs/derivatives.md). Everything is
in the WORLD frame (prefix o), as in rnea_derivatives.py, whose forward statements these are
without gravity: ``of`` is the rate of change of momentum, not the joint wrench.
``B(f) m = m x* f``; "x" of a matrix acts column by column.

computeCentroidalDynamicsDerivatives(q, v, a):
    for i = 1 .. n-1:                                   CentroidalDynDerivativesForwardStep
        jcalc(q, v) ; liMi ; oMi = oMi[parent] liMi ; v[i] ; a[i]        (as in the RNEA ones)
        oYcrb_i = oMi Y_i ;  ov_i = oMi v[i] ;  oa_i = oMi a[i]
        oh_i = oYcrb_i ov_i ;  of_i = oYcrb_i oa_i + ov_i x* oh_i                (no gravity)
        J_i = oMi S_i ;  dJ_i = ov_i x J_i ;  dAdq_i = oa_parent x J_i      (oa[0] as it is)
        dVdq_i = ov_parent x J_i ;  dAdq_i += ov_parent x dVdq_i ;  dAdv_i = dJ_i + dVdq_i
                                                             (parent > 0; else dVdq_i = 0)
        doYcrb_i = ov_i x* oYcrb_i - oYcrb_i ov_i x + B(oh_i)
    oYcrb[0] = 0 ;  oh[0] = 0 ;  of[0] = 0                       (doYcrb[0] keeps its value)
    for i = n-1 .. 1:                                   CentroidalDynDerivativesBackwardStep
        tau_i = J_i^T of_i                         (oYcrb, doYcrb, oh, of: subtree sums here)
        dFda_i = oYcrb_i J_i ;  dFdv_i = doYcrb_i J_i + oYcrb_i dAdv_i
        dFdq_i = doYcrb_i dVdq_i + oYcrb_i dAdq_i + B(of_i) J_i
        oYcrb_parent += oYcrb_i ; doYcrb_parent += doYcrb_i ; oh_parent += oh_i ; of_parent += of_i
        dHdq_i = B(oh_i) J_i + oYcrb_i dVdq_i                  (every parent, the universe too)
    Ytot = oYcrb_0 ;  c = Ytot.lever ;  mass[0] = Ytot.mass ;  com[0] = c
    hg = oh_0 at c ;  dhg = of_0 at c ;  Ig = (Ytot.mass, 0, Ytot.inertia)
    dh_dq    = dHdq at c,  angular += hg.linear x dFda.linear / mass      (translateForceSet)
    dhdot_dq = dFdq at c,  angular += dhg.linear x dFda.linear / mass
    dhdot_dv = dFdv at c ;  Ag = dFda at c ;  dhdot_da = Ag

getCentroidalDynamicsDerivatives() after computeRNEADerivatives(q, v, a) (its oYcrb and of
are subtree sums already, its of includes gravity):
    oh[0] = 0 ; of[0] = 0 ; oYcrb[0] = 0 ;  Fcrb[0] = dFdq
    for i = n-1 .. 1:                                GetCentroidalDynDerivativesBackwardStep
        for each column k of joint i:
            v[0].linear = J_k.linear + J_k.angular x oYcrb_i.lever      (v[0] is the scratch)
            Fcrb[0][:, k].angular += v[0].linear x (oYcrb_i.mass gravity)
        oh_parent += oh_i ;  if parent == 0: of_0 += of_i, oYcrb_0 += oYcrb_i
        dHdq_i = B(oh_i) J_i + oYcrb_i dVdq_i
    of_0 += Ytot gravity ;  then as above, with Fcrb[0] in place of dFdq.
    v[0].linear ends as the value of joint 1's last column (docs/quirks.md).

How the code maps to the loops: the forward statements are computeRNEADerivatives' level steps
and column statements (rnea_derivatives.py) with oa in place of oa_gf; the sums run level by
level from the deepest, children in Pinocchio's order (rounds), the universe included; the
column statements read the joint's complete sums and run for every column after that loop.
"""

from types import SimpleNamespace

import numpy as np

from ..model.tree import tree
from ..spatial import Force
from ..spatial._kernels import LINEAR, cross
from . import scan
from ._args import check_data, state
from ._levels import crf, full, widen
from .centroidal import at_point, centroidal_inertia, subtree_sums, world_inertias
from .rnea_derivatives import (
    _force_cross_matrix,
    _InertiasFromMatrices,
    columns,
    forward_levels,
    matrix_face,
    motion_derivative_columns,
    moved,
    mv,
    packed,
    subspace_columns,
)


def _centroidal_forward_columns(T, C, data, shape, P):
    """The statements of CentroidalDynDerivativesForwardStep::algo after oMi, v and a, for every
    joint after the level loop: oYcrb, ov, oa, oh, of (rows of ``P = (Y, dY, oh, of)``), J and
    dJ, dVdq, dAdq (with oa), dAdv, doYcrb. Returns J, dJ, dVdq, dAdq, dAdv column first."""
    Y, dY, OH, OF = P
    OV, OA = data.ov.vector, data.oa.vector
    # oYcrb_i = oMi Y_i
    Yw, X = world_inertias(T.tree, data, shape)
    Y[1:] = Yw[1:]
    # ov_i = oMi v_i ;  oa_i = oMi a_i
    OV[1:] = mv(X[1:], data.v.vector[1:])
    OA[1:] = mv(X[1:], data.a.vector[1:])
    # oh_i = oYcrb_i ov_i ;  of_i = oYcrb_i oa_i + ov_i x* oh_i   (doYcrb reads data.oh)
    OH[1:] = data.oh.vector[1:] = mv(Y[1:], OV[1:])
    OF[1:] = mv(Y[1:], OA[1:]) + mv(crf(OV[1:]), OH[1:])
    # J_i = oMi S_i
    J = mv(X[C.row], subspace_columns(C, data, shape))
    return (J,) + motion_derivative_columns(C, data, Y, dY, J, parent_acceleration=OA)


def _at_com(F, c, mass, h, dFda):
    """``F`` at the CoM c, with ``angular += h.linear x dFda.linear / mass`` when h is given."""
    out = at_point(F, c)
    if h is not None:
        out[..., 3:] += cross(h[..., LINEAR], dFda[..., LINEAR]) / mass[..., None]
    return out


def _centroidal_results(data, Y0, oh0, of0, dHdq, dFdq, dFdv, dFda):
    """The drivers' closing statements (both): mass[0], com[0], hg, dhg, Ig and the four
    derivatives at the CoM; Ag = dhdot_da. Returns the four, Pinocchio's (..., 6, nv)."""
    Ytot, data.Ig = centroidal_inertia(Y0)
    c, mass = Ytot.lever, np.asarray(Ytot.mass)
    data.mass[0] = mass
    data.com[0] = c.copy()
    # hg = oh_0 at c ;  dhg = of_0 at c
    hg, dhg = at_point(oh0, c), at_point(of0, c)
    data.hg, data.dhg = Force.unchecked(hg), Force.unchecked(dhg)
    # dh_dq = dHdq at c + hg.linear x dFda.linear / mass ; dhdot_dq likewise with dFdq, dhg
    dh_dq = _at_com(dHdq, c, mass, hg, dFda)
    dhdot_dq = _at_com(dFdq, c, mass, dhg, dFda)
    # dhdot_dv = dFdv at c ;  Ag = dhdot_da = dFda at c
    dhdot_dv = _at_com(dFdv, c, mass, None, None)
    Ag = _at_com(dFda, c, mass, None, None)
    out = [matrix_face(x).copy() for x in (dh_dq, dhdot_dq, dhdot_dv, Ag)]
    data.Ag = out[3].copy()
    return tuple(out)


def computeCentroidalDynamicsDerivatives(model, data, q, v, a):
    """Partial derivatives of the centroidal momentum and of its time derivative.

    Parameters
    ----------
    q : ndarray, shape (..., model.nq)
    v, a : ndarray, shape (..., model.nv)

    Returns
    -------
    (dh_dq, dhdot_dq, dhdot_dv, dhdot_da) : four new ndarrays (..., 6, model.nv): d hg / dq,
        d dhg / dq, d dhg / dv and d dhg / da (= Ag, the centroidal map). Column j is the
        derivative along the tangent direction e_j.

    Mirrors ``pinocchio::computeCentroidalDynamicsDerivatives`` (centroidal-derivatives.hxx,
    3.8.0); see the module docstring. Writes liMi, oMi, v, a (LOCAL), oYcrb, ov, oa, oh, of
    (oYcrb, oh, of as subtree sums, entry 0 the totals), doYcrb (subtree sums; entry 0 adds to
    what it held), J, dJ, dVdq, dAdq, dAdv, dFda, dFdq, dFdv, dHdq, tau (``J^T of`` without
    gravity), mass[0], com[0], hg, dhg, Ig, Ag and the joints' M, S, v, c.
    """
    check_data(model, data)
    q, arrays, shape = state(model, q, data=data, v=v, a=a)
    q, v, a = full(shape, q, arrays["v"], arrays["a"])
    model.check_compact_subtrees("computeCentroidalDynamicsDerivatives")
    n = model.njoints
    widen(data, shape, "liMi", "oMi", "v", "a", "ov", "oa", "oh", "of", "doYcrb")
    # jcalc(q, v) ; liMi ; S_i a_i + c_J (every joint) ;  oMi, v_i, a_i (level by level)
    T, C = forward_levels(model, data, q, v, a, shape)
    buf, Yv, dYv, OH, OF = packed(n, shape, 36, 36, 6, 6)
    Y, dY = (x.reshape(x.shape[:-1] + (6, 6)) for x in (Yv, dYv))
    J, dJ, dVdq, dAdq, dAdv = _centroidal_forward_columns(T, C, data, shape, (Y, dY, OH, OF))
    # oYcrb_0 = 0 ; oh_0 = 0 ; of_0 = 0 ; doYcrb_0 keeps what it held
    Y[0], OH[0], OF[0] = 0.0, 0.0, 0.0
    dY[0] = data.doYcrb.matrix[0]
    # oYcrb, doYcrb, oh, of: x_parent += x_i   (the universe too)
    subtree_sums(T.tree, buf)
    Ycol, dYcol, of_col = Y[C.row], dY[C.row], OF[C.row]
    # tau_i = J_i^T of_i
    data.tau = moved(np.vecdot(J, of_col), 0, -1)
    # dFda_i = oYcrb_i J_i ;  dFdv_i = doYcrb_i J_i + oYcrb_i dAdv_i
    dFda = mv(Ycol, J)
    dFdv = mv(dYcol, J) + mv(Ycol, dAdv)
    # dFdq_i = doYcrb_i dVdq_i + oYcrb_i dAdq_i + B(of_i) J_i
    dFdq = mv(dYcol, dVdq) + mv(Ycol, dAdq) + mv(_force_cross_matrix(of_col), J)
    # dHdq_i = B(oh_i) J_i + oYcrb_i dVdq_i
    dHdq = mv(_force_cross_matrix(OH[C.row]), J) + mv(Ycol, dVdq)
    data.oh.vector[:], data.of.vector[:], data.doYcrb.matrix[:] = OH, OF, dY
    (data.J, data.dJ, data.dVdq, data.dAdq, data.dAdv, data.dFda, data.dFdq, data.dFdv,
     data.dHdq) = (matrix_face(x).copy() for x in (J, dJ, dVdq, dAdq, dAdv, dFda, dFdq, dFdv,
                                                   dHdq))
    out = _centroidal_results(data, Y[0], OH[0], OF[0], dHdq, dFdq, dFdv, dFda)
    data.oYcrb = _InertiasFromMatrices(Y, T.tree.pos, None)
    data.mark("computeCentroidalDynamicsDerivatives", "liMi", "oMi", "v", "a", "oYcrb", "ov",
              "oa", "oh", "of", "doYcrb", "J", "dJ", "dVdq", "dAdq", "dAdv", "tau", "dFda",
              "dFdv", "dFdq", "dHdq", "mass", "com", "hg", "dhg", "Ig", "Ag")
    return out


def getCentroidalDynamicsDerivatives(model, data):
    """The derivatives of computeCentroidalDynamicsDerivatives, from the caches of
    ``computeRNEADerivatives(model, data, q, v, a)`` (gravity taken back out); four new
    ndarrays (..., 6, model.nv).

    Mirrors ``pinocchio::getCentroidalDynamicsDerivatives`` (centroidal-derivatives.hxx,
    3.8.0); see the module docstring. Writes oh (subtree sums, oh[0] the total), of[0],
    oYcrb[0], Fcrb[0] (dFdq with the gravity terms), v[0].linear (its scratch), dHdq, mass[0],
    com[0], hg, dhg, Ig and Ag. Raises NotComputedError when computeRNEADerivatives has not
    run on this Data (Pinocchio would read whatever the caches hold).
    """
    check_data(model, data)
    where = "getCentroidalDynamicsDerivatives"
    for cache in ("dFdq", "dFdv", "dFda", "dVdq", "oh"):
        data.require(where, cache, "computeRNEADerivatives(model, data, q, v, a)")
    T = tree(model)
    shape = np.broadcast_shapes(data.oMi.batch, data.oh.batch, np.shape(data.dFdq)[:-2])
    nv, n = model.nv, model.njoints
    C = columns(model, SimpleNamespace(tree=T))           # columns() reads the Walk's tree only
    # the (6, nv) caches column first, (nv, *shape, 6)
    J, dVdq, dFdq, dFdv, dFda = (
        np.broadcast_to(moved(np.asarray(getattr(data, name), dtype=float), -1, 0),
                        (nv,) + shape + (6,)) for name in ("J", "dVdq", "dFdq", "dFdv", "dFda"))
    Y = np.stack([np.broadcast_to(data.oYcrb[i].matrix(), shape + (6, 6)) for i in T.order])
    OF = np.stack([np.broadcast_to(data.of[i].vector, shape + (6,)) for i in T.order])
    OH = data.oh.rows("vector", slice(None), shape)
    OH = np.broadcast_to(OH, (n,) + shape + (6,)).copy()
    # oh_0 = 0 ; of_0 = 0 ; oYcrb_0 = 0
    OH[0], OF[0], Y[0] = 0.0, 0.0, 0.0
    # Fcrb[0] = dFdq ;  column k of joint i: Fcrb[0][:, k].angular += (J_k.linear + J_k.angular
    # x oYcrb_i.lever) x (oYcrb_i.mass gravity)
    Ycol = Y[C.row]
    mass = Ycol[..., 0, 0]
    lever = Ycol[..., (5, 3, 4), (1, 2, 0)] / mass[..., None]
    vtmp = J[..., LINEAR] + cross(J[..., 3:], lever)
    Ftmp = dFdq.copy()
    Ftmp[..., 3:] += cross(vtmp, mass[..., None] * model.gravity.linear)
    # oh_parent += oh_i (every joint) ;  of_0 += of_i, oYcrb_0 += oYcrb_i (root joints)
    for level in reversed(T.levels):
        scan.add_to_parents(level, (OH, OH[level.rows]))
    top = T.levels[0]
    scan.add_to_parents(top, (OF, OF[top.rows]), (Y, Y[top.rows]))
    # dHdq_i = B(oh_i) J_i + oYcrb_i dVdq_i
    dHdq = mv(_force_cross_matrix(OH[C.row]), J) + mv(Y[C.row], dVdq)
    # of_0 += Ytot gravity
    OF[0] = OF[0] + mv(Y[0], np.broadcast_to(model.gravity.vector, shape + (6,)))
    widen(data, shape, "oh", "of", "v", "Fcrb")
    data.oh.vector[:] = OH
    data.of.vector[0] = OF[0]
    # v[0].linear: the scratch's last value, joint 1's last column
    data.v.vector[0, ..., LINEAR] = vtmp[model.idx_vs[1] + model.nvs[1] - 1]
    data.Fcrb.matrix[0] = matrix_face(Ftmp)
    data.dHdq = matrix_face(dHdq).copy()
    out = _centroidal_results(data, Y[0], OH[0], OF[0], dHdq, Ftmp, dFdv, dFda)
    data.oYcrb[0] = centroidal_inertia(Y[0])[0]
    data.mark(where, "oh", "of", "oYcrb", "Fcrb", "v", "dHdq", "mass", "com", "hg", "dhg", "Ig",
              "Ag")
    return out


__all__ = ["computeCentroidalDynamicsDerivatives", "getCentroidalDynamicsDerivatives"]
