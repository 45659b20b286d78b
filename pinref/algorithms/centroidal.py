"""Centroidal momentum, its map Ag and their time variations (algorithm/centroidal.hxx, 3.8.0).

The centroidal momentum ``hg`` is the robot's total momentum expressed at its centre of mass
(world axes): ``hg = Ag(q) v``, ``dhg = Ag a + dAg v``. ``liMi.act(f) = X^T f`` with ``X =
liMi.actionInverse``; ``Y.variation(v) = v x* Y - Y (v x)`` (Inertia::variation, the time
derivative of a WORLD inertia moving with v); ``f.angular += f.linear x c`` moves a force from
the world origin to the point c.

computeCentroidalMomentum(model, data) (LOCAL, from data.liMi and data.v):
    for i = 1 .. n-1:   mass[i] = m_i ;  com[i] = m_i c_i ;  h[i] = Y_i v[i]
                        f[i] = Y_i a[i] + v[i] x* h[i]                       (TimeVariation)
    mass[0] = 0 ; com[0] = 0 ; h[0] = 0 ; f[0] = 0
    for i = n-1 .. 1:
        mass[parent] += mass[i] ;  com[parent] += R_i com[i] + mass[i] p_i    (liMi = (R, p))
        h[parent] += liMi h[i] ;  f[parent] += liMi f[i]                     (TimeVariation)
    com[0] /= mass[0] ;  hg = h[0] at com[0] ;  vcom[0] = hg.linear / mass[0]
    dhg = f[0] at com[0]                                                     (TimeVariation)
    (with q, v[, a]: forwardKinematics(q, v[, a]) first.) com[i], i >= 1, keep the
    mass-weighted sums m c in frame i (the centre-of-mass pass of center_of_mass.py, POSITION).

ccrba(q, v), computeCentroidalMap(q) (WORLD):
    forwardKinematics(q) ;  oYcrb[0] = 0 ;  oYcrb[i] = oMi Y_i ;  Ag = 0
    for i = n-1 .. 1:                                                       CcrbaBackwardStep
        J[:, cols_i] = oMi S_i ;  Ag[:, cols_i] += oYcrb_i J_i ;  oYcrb[parent] += oYcrb_i
    com[0] = oYcrb_0.lever ;  Ag.angular += Ag.linear x com[0]   (every column)
    ccrba only: hg = Ag v ;  Ig = (oYcrb_0.mass, 0, oYcrb_0.inertia)

dccrba(q, v), computeCentroidalMapTimeVariation(q, v) (WORLD):
    forwardKinematics(q, v) ;  oYcrb[0] = 0
    for i = 1 .. n-1:  oYcrb_i = oMi Y_i ;  ov_i = oMi v[i] ;  doYcrb_i = oYcrb_i.variation(ov_i)
    for i = n-1 .. 1:                                                      DCcrbaBackwardStep
        J[:, cols_i] = oMi S_i ;  dJ[:, cols_i] = ov_i x J_i
        oYcrb[parent] += oYcrb_i ;  doYcrb[parent] += doYcrb_i   (parent > 0)
        Ag[:, cols_i] = oYcrb_i J_i ;  dAg[:, cols_i] = doYcrb_i J_i + oYcrb_i dJ_i
    com[0] = oYcrb_0.lever ;  Ag.angular += Ag.linear x com[0]
    dccrba only: hg = Ag v ;  vcom[0] = hg.linear / oYcrb_0.mass ;  Ig as in ccrba
    dAg.angular += dAg.linear x com[0] + Ag.linear x vcom[0]
    computeCentroidalMapTimeVariation reads vcom[0] without computing it: whatever an earlier
    call left there (docs/quirks.md).

How the code maps to the loops: the forward statements read no parent and run for every joint
at once; the subtree sums run level by level from the deepest, children added in Pinocchio's
order (rounds; the universe is the parent of the top level, except for doYcrb); the column
statements read the joint's complete sums and run for every column after that loop. The
composite inertias are 6x6 matrices during the passes (``oMi Y_i = X* Y_i X*^T``);
``data.oYcrb[i]`` are then Inertia read off them (rnea_derivatives.py).
"""

import numpy as np

from ..errors import ArgumentTypeError
from ..model.tree import tree
from ..spatial import Force, Inertia
from ..spatial._kernels import ANGULAR, LINEAR, cross, matvec, se3_action
from . import scan
from ._args import KinematicLevel, check_data, state
from ._levels import action_inverse, crf, crm, expand, full, vecmat, widen
from .center_of_mass import (
    _com_backward_step,
    _com_forward_step,
    _write_back,
    body_constants,
)
from .frames import require_acceleration
from .jacobian import world_columns
from .kinematics import forwardKinematics
from .rnea_derivatives import (
    _inertia_from_matrix,
    _InertiasFromMatrices,
    matrix_face,
    mv,
    packed,
    subtree_sums_step,
    world_inertia_matrices,
)

# --- shared by the centroidal passes (centroidal.py, centroidal_derivatives.py) -----------------


def at_point(F, c):
    """Forces (or columns of forces) ``F (..., 6)`` moved from the world origin to the point
    ``c (..., 3)``: ``angular += linear x c`` (a new array; Pinocchio's ``translateForceSet``
    and its in-place shifts of Ag, hg, dhg)."""
    out = F.copy()
    out[..., ANGULAR] += cross(F[..., LINEAR], c)
    return out


def centroidal_inertia(Y0):
    """``(Ytot, Ig)``: the Inertia of the 6x6 total ``oYcrb_0`` and the centroidal inertia
    ``Ig = (mass, 0, inertia at the CoM)`` (world axes)."""
    Ytot = _inertia_from_matrix(Y0)
    m = np.array(Ytot.mass, dtype=float)
    return Ytot, Inertia.unchecked(m, np.zeros(m.shape + (3,)), Ytot.inertia.copy())


def world_inertias(T, data, shape):
    """``oYcrb_i = oMi Y_i`` (6x6, ``world_inertia_matrices``) for every row, and oMi's X."""
    X = se3_action(data.oMi.rotation, data.oMi.translation)
    return world_inertia_matrices(T, data.oMi.rotation, data.oMi.translation, len(shape)), X


def subtree_sums(T, buf, universe=True):
    """``x_parent += x_i`` for every level of the tree, deepest first, children in Pinocchio's
    order; into row 0 (the universe) too when ``universe``."""
    for level in reversed(T.levels):
        subtree_sums_step(level, buf, universe)


# --- computeCentroidalMomentum, computeCentroidalMomentumTimeVariation (LOCAL) ------------------


def _momentum_forward_step(T, data, shape, variation):
    """The statements of the drivers' first loop that read no parent, for every joint at once:
    ``h_i = Y_i v_i`` and (``variation``) ``f_i = Y_i a_i + v_i x* h_i``; row 0 zero. Returns
    the rows ``(n, *shape, 6 or 12)`` (h, then f)."""
    Y = expand(T.inertia_matrix, len(shape))
    V = data.v.rows("vector", slice(None), shape)
    # h_i = Y_i v_i
    H = matvec(Y, V)
    if not variation:
        out = np.broadcast_to(H, H.shape[:1] + shape + (6,)).copy()
    else:
        A = data.a.rows("vector", slice(None), shape)
        # f_i = Y_i a_i + v_i x* h_i
        F = matvec(Y, A) + matvec(crf(V), H)
        out = np.concatenate(np.broadcast_arrays(H, F), axis=-1)
    # h_0 = 0 ; f_0 = 0
    out[0] = 0.0
    return out


def _momentum_backward_step(level, data, hf, shape):
    """The momentum statements of the drivers' backward loop for the joints of one level:
    ``h_parent += liMi h_i`` (and ``f_parent += liMi f_i``), children in Pinocchio's order.
    mass and com are folded by the centre-of-mass pass (``_com_backward_step``)."""
    i = level.rows
    X = action_inverse(data.liMi.rows("rotation", i, shape),
                       data.liMi.rows("translation", i, shape))
    # liMi h_i = X^T h_i (and liMi f_i)
    x = hf[i]
    parts = x.reshape(x.shape[:-1] + (x.shape[-1] // 6, 6))          # h (and f), an empty batch too
    moved = vecmat(parts, X[..., None, :, :]).reshape(x.shape)
    # h_parent += liMi h_i ;  f_parent += liMi f_i
    scan.add_to_parents(level, (hf, moved))


def _centroidal_momentum(model, data, variation):
    """``pinocchio::computeCentroidalMomentum[TimeVariation](model, data)`` on data's liMi, v
    (and a); returns hg (or dhg) as a new Force."""
    where = "computeCentroidalMomentum" + ("TimeVariation" if variation else "")
    data.require(where, "liMi", "forwardKinematics(model, data, q, v), or pass q and v")
    data.require(where, "v", "forwardKinematics(model, data, q, v), or pass q and v")
    stacks = [data.liMi, data.v]
    if variation:
        require_acceleration(data, where)
        stacks.append(data.a)
    shape = np.broadcast_shapes(*(s.batch for s in stacks))
    T = tree(model)
    # com_i = m_i c_i ; com_0 = 0 ; mass: the subtree masses (constants of the Tree)
    sums = _com_forward_step(T, data, body_constants(model, T), KinematicLevel.POSITION, shape)
    hf = _momentum_forward_step(T, data, shape, variation)
    for level in reversed(T.levels):
        # com_parent += R com_i + mass_i p
        _com_backward_step(level, data, sums, shape)
        _momentum_backward_step(level, data, hf, shape)
    mass0 = sums.mass[0]
    # com_0 /= mass_0
    with np.errstate(divide="ignore", invalid="ignore"):     # mass 0: NaN (data.mark warns)
        sums.com[0] = sums.com[0] / mass0
    com0 = sums.com[0]
    widen(data, shape, "h", *(("f",) if variation else ()))
    data.h.vector[:] = hf[..., :6]
    # hg = h_0 at com_0 ;  vcom_0 = hg.linear / mass_0
    hg = at_point(hf[0, ..., :6], com0)
    data.hg = Force.unchecked(hg)
    _write_back(data, T, "com", sums.com)
    data.mass[:] = sums.mass[T.pos].tolist()
    with np.errstate(divide="ignore", invalid="ignore"):
        data.vcom[0] = hg[..., LINEAR] / mass0
    fields = ["mass", "com", "h", "hg", "vcom"]
    if variation:
        data.f.vector[:] = hf[..., 6:]
        # dhg = f_0 at com_0
        data.dhg = Force.unchecked(at_point(hf[0, ..., 6:], com0))
        fields += ["f", "dhg"]
    data.mark(where, *fields)
    return (data.dhg if variation else data.hg).copy()


def computeCentroidalMomentum(model, data, q=None, v=None):
    """Centroidal momentum ``hg`` (Force, ``vector (..., 6)``): the total momentum at the centre
    of mass, world axes.

    ``computeCentroidalMomentum(model, data, q, v)`` runs ``forwardKinematics(q, v)`` first;
    ``computeCentroidalMomentum(model, data)`` reads data's ``liMi`` and ``v``. Writes mass,
    com (com[0] the CoM, world; com[i] the mass-weighted sums m c of subtree i, frame i), h
    (subtree momenta, frame i; h[0] world), hg, vcom[0]. Returns a copy of ``data.hg``.
    Mirrors ``pinocchio::computeCentroidalMomentum`` (centroidal.hxx, 3.8.0).
    """
    check_data(model, data)
    if (q is None) != (v is None):
        raise ArgumentTypeError("computeCentroidalMomentum(model, data[, q, v]): pass both q "
                                "and v, or neither (to use the kinematics in data)")
    if q is not None:
        forwardKinematics(model, data, q, v)
    return _centroidal_momentum(model, data, False)


def computeCentroidalMomentumTimeVariation(model, data, q=None, v=None, a=None):
    """Time derivative ``dhg`` (Force) of the centroidal momentum; also writes ``hg``.

    ``(model, data, q, v, a)`` runs ``forwardKinematics(q, v, a)`` first; ``(model, data)``
    reads data's ``liMi``, ``v`` and ``a``. Writes what computeCentroidalMomentum writes, and
    f (subtree sums of ``Y a + v x* Y v``, frame i; f[0] world) and dhg. Returns a copy of
    ``data.dhg``. Mirrors ``pinocchio::computeCentroidalMomentumTimeVariation``.
    """
    check_data(model, data)
    given = [x is not None for x in (q, v, a)]
    if any(given) and not all(given):
        raise ArgumentTypeError("computeCentroidalMomentumTimeVariation(model, data[, q, v, a]): "
                                "pass q, v and a, or none of them (to use the kinematics in data)")
    if q is not None:
        forwardKinematics(model, data, q, v, a)
    return _centroidal_momentum(model, data, True)


# --- ccrba, computeCentroidalMap, dccrba, computeCentroidalMapTimeVariation (WORLD) -------------


def _centroidal_map(model, data, q, v, variation, velocity=True):
    """The passes shared by the four maps (module docstring): forwardKinematics, the WORLD
    composite inertias, J, Ag (and dJ, dAg), Ag moved to the CoM. Returns ``(Ag, dAg, Y0,
    com0, shape)`` column first (dAg None without ``variation``). ``v`` is checked (None
    refused) unless ``velocity`` is False (computeCentroidalMap takes no v)."""
    tangent = {"v": v} if velocity else {}
    q, arrays, shape = state(model, q, data=data, **tangent)
    q, v = full(shape, q, arrays.get("v"))
    if variation:
        forwardKinematics(model, data, q, v)
    else:
        forwardKinematics(model, data, q)
    T = tree(model)
    nv, n = model.nv, model.njoints
    buf, *parts = packed(n, shape, *((36, 36) if variation else (36,)))
    Y, dY = [x.reshape(x.shape[:-1] + (6, 6)) for x in parts] + [None] * (2 - len(parts))
    # oYcrb_i = oMi Y_i ; oYcrb_0 = 0
    Y[...], X = world_inertias(T, data, shape)
    Y[0] = 0.0
    data.J = np.zeros(shape + (6, nv))
    if variation:
        widen(data, shape, "ov", "doYcrb")
        OV = data.ov.vector
        # ov_i = oMi v_i ;  doYcrb_i = ov_i x* oYcrb_i - oYcrb_i ov_i x
        OV[1:] = mv(X[1:], data.v.vector[1:])
        ov_x = crm(OV[1:])
        dY[1:] = -(ov_x.mT @ Y[1:]) - Y[1:] @ ov_x
        dY[0] = 0.0
        # oYcrb_parent += oYcrb_i ;  doYcrb_parent += doYcrb_i   (parent > 0)
        subtree_sums(T, buf, universe=False)
        for top in T.levels[:1]:                                # none when nv = 0
            # oYcrb_0 += oYcrb_i   (the root joints)
            scan.add_to_parents(top, (Y, Y[top.rows]))
    else:
        # oYcrb_parent += oYcrb_i
        subtree_sums(T, buf)
    # J[:, cols_i] = oMi S_i
    J, rows = world_columns(T, data, data.J, shape)
    # Ag[:, cols_i] = oYcrb_i J_i
    Ag = mv(Y[rows], J)
    dAg = None
    if variation:
        # dJ[:, cols_i] = ov_i x J_i ;  dAg[:, cols_i] = doYcrb_i J_i + oYcrb_i dJ_i
        dJ = mv(crm(data.ov.vector[rows]), J)
        dAg = mv(dY[rows], J) + mv(Y[rows], dJ)
        data.dJ = matrix_face(dJ).copy()
        data.doYcrb.matrix[1:] = dY[1:]
    # com_0 = oYcrb_0.lever ;  Ag.angular += Ag.linear x com_0
    Ytot, Ig = centroidal_inertia(Y[0])
    com0 = Ytot.lever
    Ag = at_point(Ag, com0)
    data.com[0] = com0.copy()
    data.oYcrb = _InertiasFromMatrices(Y, T.pos, Ytot)
    return Ag, dAg, Ig, com0, v


def _store_map(data, Ag, dAg=None):
    """``data.Ag`` (and dAg) from their columns; returns the copies the bindings return."""
    data.Ag = matrix_face(Ag).copy()
    if dAg is None:
        return data.Ag.copy()
    data.dAg = matrix_face(dAg).copy()
    return data.dAg.copy()


def ccrba(model, data, q, v):
    """Centroidal map ``Ag (..., 6, nv)``, momentum ``hg = Ag v`` and inertia ``Ig`` (the
    Centroidal Composite Rigid Body Algorithm).

    Writes liMi, oMi (forwardKinematics(q)), oYcrb (subtree sums, WORLD; oYcrb[0] the total),
    J (every column), Ag (about the CoM, world axes), com[0], hg, Ig and the joints' M, S.
    Returns a copy of ``data.Ag``. Mirrors ``pinocchio::ccrba`` (centroidal.hxx, 3.8.0).
    """
    check_data(model, data)
    Ag, _, Ig, _, v = _centroidal_map(model, data, q, v, False)
    out = _store_map(data, Ag)
    # hg = Ag v
    data.hg = Force.unchecked(np.matvec(data.Ag, v))
    data.Ig = Ig
    data.mark("ccrba", "liMi", "oMi", "oYcrb", "J", "Ag", "com", "hg", "Ig")
    return out


def computeCentroidalMap(model, data, q):
    """Centroidal map ``Ag (..., 6, nv)``: ``Ag v`` is the momentum at the CoM, world axes.

    Writes liMi, oMi, oYcrb, J, Ag and com[0] (as ccrba, without hg and Ig); returns a copy of
    ``data.Ag``. Mirrors ``pinocchio::computeCentroidalMap`` (centroidal.hxx, 3.8.0).
    """
    check_data(model, data)
    Ag, _, _, _, _ = _centroidal_map(model, data, q, None, False, velocity=False)
    out = _store_map(data, Ag)
    data.mark("computeCentroidalMap", "liMi", "oMi", "oYcrb", "J", "Ag", "com")
    return out


def _time_variation(data, Ag, dAg, com0, vcom0):
    """``dAg.angular += dAg.linear x com_0 + Ag.linear x vcom_0`` (Ag already at com_0)."""
    out = at_point(dAg, com0)
    out[..., ANGULAR] += cross(Ag[..., LINEAR], vcom0)
    return out


def dccrba(model, data, q, v):
    """Time derivative ``dAg (..., 6, nv)`` of the centroidal map; also Ag, hg, Ig.

    Writes liMi, oMi, v (forwardKinematics(q, v)), ov and doYcrb (rows 1.., doYcrb as subtree
    sums), oYcrb, J, dJ, Ag, dAg, com[0], hg, vcom[0], Ig and the joints' data. Returns a copy
    of ``data.dAg``; ``dhg = Ag a + dAg v``. Mirrors ``pinocchio::dccrba`` (centroidal.hxx).
    """
    check_data(model, data)
    Ag, dAg, Ig, com0, v = _centroidal_map(model, data, q, v, True)
    # hg = Ag v ;  vcom_0 = hg.linear / oYcrb_0.mass
    hg = np.matvec(matrix_face(Ag), v)
    with np.errstate(divide="ignore", invalid="ignore"):     # mass 0: NaN (data.mark warns)
        vcom0 = hg[..., LINEAR] / Ig.mass[..., None]
    dAg = _time_variation(data, Ag, dAg, com0, vcom0)
    out = _store_map(data, Ag, dAg)
    data.hg = Force.unchecked(hg)
    data.vcom[0] = vcom0
    data.Ig = Ig
    data.mark("dccrba", "liMi", "oMi", "v", "ov", "oYcrb", "doYcrb", "J", "dJ", "Ag", "dAg",
              "com", "hg", "vcom", "Ig")
    return out


def computeCentroidalMapTimeVariation(model, data, q, v):
    """Time derivative ``dAg (..., 6, nv)`` of the centroidal map, and Ag.

    As dccrba without hg, vcom[0] and Ig: the shift of dAg reads ``data.vcom[0]`` as an earlier
    call left it (Pinocchio's behaviour, docs/quirks.md; a fresh Data holds zeros). Returns a
    copy of ``data.dAg``. Mirrors ``pinocchio::computeCentroidalMapTimeVariation``.
    """
    check_data(model, data)
    Ag, dAg, _, com0, _ = _centroidal_map(model, data, q, v, True)
    dAg = _time_variation(data, Ag, dAg, com0, np.asarray(data.vcom[0], dtype=float))
    out = _store_map(data, Ag, dAg)
    data.mark("computeCentroidalMapTimeVariation", "liMi", "oMi", "v", "ov", "oYcrb", "doYcrb",
              "J", "dJ", "Ag", "dAg", "com")
    return out


__all__ = [
    "ccrba",
    "computeCentroidalMap",
    "computeCentroidalMapTimeVariation",
    "computeCentroidalMomentum",
    "computeCentroidalMomentumTimeVariation",
    "dccrba",
]
