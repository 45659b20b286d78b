"""Jacobians of subtree centres of mass (algorithm/center-of-mass.hxx) and the derivative of the
centre-of-mass velocity (algorithm/center-of-mass-derivatives.hxx), Pinocchio 3.8.0.

Body k has mass m_k and centre of mass c_k (frame k); r is the root of the subtree, sub(r) its
joints (``model.subtrees[r]``: r and its descendants; for r = 0 every joint but the universe).

jacobianSubtreeCenterOfMass(r):
    if r == 0:  mass[0] = 0 ; com[0] = 0
    for k in sub(r):   mass[k] = m_k ;  com[k] = m_k oMi[k] c_k                       (WORLD)
    Jcom = 0 ;  res = 0
    for k in sub(r), reversed:                       JacobianCenterOfMassBackwardStep
        com[parent] += com[k] ;  mass[parent] += mass[k]       (also into parent(r), outside)
        J[:, cols_k] = oMi S_k ;  res[:, cols_k] += mass[k] J.linear - com[k] x J.angular
        com[k] /= mass[k]
    r == 0:  res /= mass[0]       (com[0] keeps the mass-weighted sum: it is not divided)
    r > 0:   res[:, sub cols] /= mass[r]
             for each ancestor j of r (j > 0):       JacobianSubtreeCenterOfMassBackwardStep
                 J[:, cols_j] = oMi S_j ;  res[:, cols_j] += J.linear - com[r] x J.angular

getJacobianSubtreeCenterOfMass(r), after jacobianCenterOfMass (its Jcom, J, com, mass):
    r == 0:  res = Jcom
    r > 0:   res[:, sub cols] = mass[0] / mass[r] Jcom[:, sub cols]
             res[:, c] = J_c.linear - com[r] x J_c.angular    for every column c of r's ancestors

getCenterOfMassVelocityDerivatives(), after centerOfMass(q, v) (com[k], vcom[k] in frame k):
    for k = 1 .. n-1:                                CoMVelocityDerivativesForwardStep
        vpc = v[k] - jdata.v (parent > 0, else 0) ;  vpc.linear -= vcom[k]
        vxS = vpc x S_k
        dvcom_dq[:, cols_k] = mass[k] / mass[0] R_k (vxS.linear - com[k] x vxS.angular)

How the code maps to the loops: the subtree sums run level by level over the whole tree with
every joint outside sub(r) holding zeros (adding a zero changes no bit), children in
Pinocchio's order (rounds); only the rows of sub(r) and of parent(r) are then written back, as
Pinocchio writes them. The column statements read a joint's complete sums and run for every
column after that loop, masked to the columns Pinocchio writes. The velocity derivative reads
no other joint and runs for every column at once.
"""

import numpy as np

from ..errors import ArgumentTypeError, ArgumentValueError, ModelError
from ..model.model import bind_positional
from ..model.tree import tree
from ..spatial._kernels import ANGULAR, LINEAR, cross, matvec
from . import scan
from ._args import check_data
from ._levels import crm, expand
from .center_of_mass import body_constants
from .jacobian import subspace_columns, world_columns
from .kinematics import forwardKinematics


def _check_root(model, root, where):
    """``subtree_root_joint_id``: an int in [0, njoints)."""
    if isinstance(root, (bool, np.bool_)) or not isinstance(root, (int, np.integer)):
        raise ArgumentTypeError(f"{where}: subtree_root_joint_id must be a joint index (int), "
                                f"got {root!r}")
    if not 0 <= root < model.njoints:
        raise ArgumentValueError(f"{where}: subtree_root_joint_id {root} is not a joint of the "
                                 f"model: pass one of 0 .. {model.njoints - 1}")
    return int(root)


def _subtree_columns(model, data, root):
    """The tangent columns of the subtree of ``root`` (all of them for the universe)."""
    if root == 0:
        return np.arange(model.nv)
    start = model.idx_vs[root]
    return np.arange(start, start + data.nvSubtree[root])


def _ancestor_columns(model, root):
    """The tangent columns of the joints between the universe and ``root`` (root excluded)."""
    return np.array([c for j in model.supports[root][1:-1]
                     for c in range(model.idx_vs[j], model.idx_vs[j] + model.nvs[j])],
                    dtype=np.intp)


def _columns_of_J(T, data, shape, columns):
    """``J[:, c] = oMi S`` for the columns ``columns`` only (data.J keeps the others);
    returns every column of ``oMi S`` column first ``(nv, *shape, 6)`` and each column's row."""
    nv = data.J.shape[-1]
    full_J = np.zeros(shape + (6, nv))
    cols, rows = world_columns(T, data, full_J, shape)
    J = np.broadcast_to(data.J, shape + (6, nv)).copy()
    J[..., columns] = full_J[..., columns]
    data.J = J
    return cols, rows


def jacobianSubtreeCenterOfMass(model, data, *args, **kwargs):
    """Jacobian ``(..., 3, nv)`` of the centre of mass of the subtree rooted at a joint, WORLD.

    ``jacobianSubtreeCenterOfMass(model, data, q, subtree_root_joint_id)`` runs
    ``forwardKinematics(q)`` first; ``(model, data, subtree_root_joint_id)`` reads data's oMi.
    Writes mass and com (WORLD, subtree CoMs) of the subtree's joints, and of the subtree's
    parent joint too (its values plus the subtree's sums, docs/quirks.md); com[0] holds the
    mass-weighted sum for the universe's subtree; J (the subtree's and its ancestors' columns);
    Jcom = 0. Returns a new array. Mirrors ``pinocchio::jacobianSubtreeCenterOfMass``.
    """
    check_data(model, data)
    where = "jacobianSubtreeCenterOfMass"
    signature = f"{where}(model, data[, q], subtree_root_joint_id)"
    names = ("q", "subtree_root_joint_id") if len(args) + len(kwargs) == 2 else \
        ("subtree_root_joint_id",)
    given = bind_positional(signature, names, args, dict(kwargs))
    if set(given) != set(names):
        raise ArgumentTypeError(f"{signature}: expected 1 or 2 arguments after data (by position "
                                f"or by these names), got {sorted(given) or 'none'}")
    if "q" in given:
        forwardKinematics(model, data, given["q"])
    root = _check_root(model, given["subtree_root_joint_id"], where)
    data.require(where, "oMi", "forwardKinematics(model, data, q), or pass q")
    shape = data.oMi.batch
    T = tree(model)
    nb, n = len(shape), model.njoints
    inside = np.zeros(n, dtype=bool)
    inside[[T.pos[k] for k in model.subtrees[root]]] = True
    m, c = body_constants(model, T)
    # mass_k = m_k ; com_k = m_k oMi c_k   (k in the subtree; zeros elsewhere)
    mass = np.where(inside, m, 0.0)
    com = expand(mass, nb)[..., None] * (matvec(data.oMi.rotation, expand(c, nb))
                                         + data.oMi.translation)
    com[~inside] = 0.0
    for level in reversed(T.levels):
        # com_parent += com_k ;  mass_parent += mass_k
        scan.add_to_parents(level, (com, com[level.rows]), (mass, mass[level.rows]))
    sub = _subtree_columns(model, data, root)
    anc = _ancestor_columns(model, root)
    J, rows = _columns_of_J(T, data, shape, np.concatenate([sub, anc]))
    if mass[T.pos[root]] <= 0.0:
        raise ModelError(f"{where}: the subtree of joint {root} has mass {mass[T.pos[root]]}; "
                         "it must be positive (give its bodies inertias)")
    res = np.zeros((model.nv,) + shape + (3,))
    # res[:, cols_k] = mass_k J.linear - com_k x J.angular   (k in the subtree, summed com_k)
    mk = expand(mass[rows[sub]], nb + 1)
    res[sub] = mk * J[sub][..., LINEAR] - cross(com[rows[sub]], J[sub][..., ANGULAR])
    # com_k /= mass_k   (k in the subtree)
    k = np.flatnonzero(inside)
    com[k] = com[k] / expand(mass[k], nb)[..., None]
    # res /= mass_r
    res[sub] = res[sub] / mass[T.pos[root]]
    if root > 0 and len(anc):
        # res[:, cols_j] += J.linear - com_r x J.angular   (the ancestors j of r)
        res[anc] = J[anc][..., LINEAR] - cross(com[T.pos[root]], J[anc][..., ANGULAR])
    # written back: the subtree's rows, and its parent's, which held its own values before
    # the subtree's sums were added (the universe's were zeroed first when r == 0)
    parent = model.parents[root] if root > 0 else 0
    if root > 0:
        p = T.pos[parent]
        com[p] = data.com[parent] + com[p]
        mass[p] = data.mass[parent] + mass[p]
    written = set(model.subtrees[root]) | {parent}
    new_com = list(com[T.pos])
    data.com[:] = [new_com[j] if j in written else data.com[j] for j in range(n)]
    data.mass[:] = [float(mass[T.pos[j]]) if j in written else data.mass[j] for j in range(n)]
    data.Jcom = np.zeros(shape + (3, model.nv))
    data.mark(where, "mass", "com", "J", "Jcom")
    return np.moveaxis(res, 0, -1).copy()


def getJacobianSubtreeCenterOfMass(model, data, subtree_root_joint_id):
    """Jacobian ``(..., 3, nv)`` of the centre of mass of a subtree, WORLD, from the caches of
    ``jacobianCenterOfMass(model, data, q)`` (its Jcom, J, com and mass; compute_subtree_coms
    left True). Writes nothing; returns a new array. Mirrors
    ``pinocchio::getJacobianSubtreeCenterOfMass`` (center-of-mass.hxx, 3.8.0).
    """
    check_data(model, data)
    where = "getJacobianSubtreeCenterOfMass"
    root = _check_root(model, subtree_root_joint_id, where)
    data.require(where, "Jcom", "jacobianCenterOfMass(model, data, q)")
    Jcom = np.asarray(data.Jcom, dtype=float)
    if root == 0:
        return Jcom.copy()
    J = np.asarray(data.J, dtype=float)
    shape = np.broadcast_shapes(Jcom.shape[:-2], J.shape[:-2], np.shape(data.com[root])[:-1])
    res = np.zeros(shape + (3, model.nv))
    sub, anc = _subtree_columns(model, data, root), _ancestor_columns(model, root)
    # res[:, sub] = mass_0 / mass_r Jcom[:, sub]
    res[..., sub] = (data.mass[0] / data.mass[root]) * Jcom[..., sub]
    # res[:, c] = J_c.linear - com_r x J_c.angular   (the ancestors' columns)
    Jc = np.moveaxis(J[..., anc], -1, 0)
    com_r = np.asarray(data.com[root], dtype=float)
    res[..., anc] = np.moveaxis(Jc[..., LINEAR] - cross(com_r, Jc[..., ANGULAR]), 0, -1)
    return res


def getCenterOfMassVelocityDerivatives(model, data):
    """Partial derivative ``d vcom / dq`` ``(..., 3, nv)`` of the centre-of-mass velocity, WORLD
    axes, along the tangent space, from the caches of ``centerOfMass(model, data, q, v)`` (or
    computeAllTerms): v, the joints' v and S, mass, com and vcom (frame i) and oMi. Writes
    nothing; returns a new array. Mirrors ``pinocchio::getCenterOfMassVelocityDerivatives``
    (center-of-mass-derivatives.hxx, 3.8.0).
    """
    check_data(model, data)
    where = "getCenterOfMassVelocityDerivatives"
    data.require(where, "vcom", "centerOfMass(model, data, q, v)")
    T = tree(model)
    order = T.order
    per_row = [np.asarray(data.com[i], dtype=float) for i in order] + \
        [np.asarray(data.vcom[i], dtype=float) for i in order]
    shape = np.broadcast_shapes(data.v.batch, data.oMi.batch, *(x.shape[:-1] for x in per_row))
    nb = len(shape)
    com = np.stack(np.broadcast_arrays(*per_row[:len(order)]))
    com = np.broadcast_to(com, (len(order),) + shape + (3,))
    vcom = np.broadcast_to(np.stack(np.broadcast_arrays(*per_row[len(order):])),
                           (len(order),) + shape + (3,))
    vJ = np.stack([np.broadcast_to(data.joints[i].v.vector, shape + (6,)) for i in order[1:]])
    # vpc = v_k - jdata.v (parent > 0, else 0) ;  vpc.linear -= vcom_k
    V = data.v.rows("vector", slice(1, None), shape)
    vpc = np.broadcast_to(V - vJ, vJ.shape).copy()
    roots = np.array([model.parents[i] == 0 for i in order[1:]])
    vpc[roots] = 0.0
    vpc[..., LINEAR] -= vcom[1:]
    S, rows = subspace_columns(T, data, shape)
    # vxS = vpc x S_k   (column by column)
    vxS = matvec(crm(vpc[rows - 1]), expand(S, nb) if S.ndim == 2 else S)
    # dvcom_dq[:, cols_k] = mass_k / mass_0 R_k (vxS.linear - com_k x vxS.angular)
    ratio = np.array([data.mass[i] for i in order])[rows] / data.mass[0]
    R = data.oMi.rows("rotation", rows, shape)
    out = expand(ratio, nb)[..., None] * matvec(R, vxS[..., LINEAR]
                                                 - cross(com[rows], vxS[..., ANGULAR]))
    return np.moveaxis(out, 0, -1).copy()


__all__ = [
    "getCenterOfMassVelocityDerivatives",
    "getJacobianSubtreeCenterOfMass",
    "jacobianSubtreeCenterOfMass",
]
