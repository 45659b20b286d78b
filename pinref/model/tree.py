"""The tree as the level passes walk it: joints by depth and kind, and the model's constants.

Pinocchio's passes visit the joints one by one in index order (forward) or reverse index order
(backward). A joint's step reads only its parent's values, so every joint of one depth (a tree
*level*) can take its step at once. ``Tree(model)`` orders the joints level by level and, within
a level, by joint kind (for the kinds whose ``calc`` runs on a whole group, ``BATCHED``: the
joint class and its S column, so that the joints of one S are neighbours; every other joint is a
group of its own, and so is a ``BATCHED`` joint about a general axis in the level steps), so
that the rows of one level and of one group are slices of the stacked caches
(``pinref/model/stacks.py``). The calc runs once per ``BATCHED`` class for the whole tree
(``Tree.kinds``), whatever the axes.

Children add into their parent in Pinocchio's order, the decreasing joint index: ``rounds`` of a
level split it so that round r holds the r-th child (by decreasing index) of every parent, and no
parent appears twice in a round.

The model's constants in row order (``inertia_matrix``, ``inertia_parts``, the placements) are
built here once and checked at each call (armature and gravity are read at each call): ``tree(model)``
rebuilds them when a joint, an inertia or a placement of the model was replaced, when an
attribute of one was set (``model.inertias[2].mass = 5``), or when one of their arrays was
edited in place (``model.jointPlacements[2].translation[0] = 0.1``, which Pinocchio's Python
allows too). For that last check the Tree binds the model's placement and inertia arrays to
views of one array it owns, ``source``, and compares its bytes with those it was built from.
The Tree is kept beside the model (by a weak reference), not in it, so copies, pickles and
comparisons of a Model do not see it.
"""

import copy
import functools
import operator
import weakref

import numpy as np

from ..joints._axis import AxisBlock, calc_axis_group, unit_entry
from ..joints.base import JointBlock, calc_joint_group
from ..joints.prismatic import JointModelPrismaticTpl, JointModelPrismaticUnaligned
from ..joints.revolute import JointModelRevoluteTpl
from ..joints.revolute_unaligned import JointModelRevoluteUnaligned
from ..joints.revolute_unbounded import (JointModelRevoluteUnboundedTpl,
                                         JointModelRevoluteUnboundedUnaligned)
from ..spatial import _kernels
from ..spatial._kernels import LINEAR, se3_action_inverse, skew

# Joint classes whose calc runs on a whole group at once: the 1-dof joints about (or along) a
# fixed axis u, M_J linear in (cos q, sin q) or in q. Their calc_aba and S products run by group
# too when S = +-e_k (every frame-axis joint; an unaligned one whose axis is +-e_k, as a URDF
# axis "0 0 -1" loads): ``Group.unit``, and the level's ``AxisBlock``.
BATCHED = (JointModelRevoluteTpl, JointModelRevoluteUnboundedTpl, JointModelPrismaticTpl,
           JointModelRevoluteUnaligned, JointModelRevoluteUnboundedUnaligned,
           JointModelPrismaticUnaligned)


def _index(rows):
    """``rows`` (a list of row numbers) as a slice when they are consecutive, else an array."""
    if len(rows) and list(rows) == list(range(rows[0], rows[0] + len(rows))):
        return slice(rows[0], rows[0] + len(rows))
    return np.array(rows, dtype=np.intp)


class Group:
    """Joints of one kind whose calc (or calc_aba) runs in one call: rows ``rows`` of the
    stacked caches (a slice for the joints of one level, an index array for all the joints of
    one kind). ``key`` names the group's joint data rows in a Data. A ``batched`` calc group
    (role "calc") holds one ``BATCHED`` class, each joint its own axis; a ``batched`` level
    group (role "aba") holds joints of one class and one S = sign e_k, ``unit = (k, sign)``."""

    def __init__(self, model, ids, rows, role):
        self.ids = ids
        self.jmodels = [model.joints[i] for i in ids]
        self.rows = _index(rows)
        self.key = (role, tuple(ids))
        first = self.jmodels[0]
        self.unit = unit_entry(first._S_col) if isinstance(first, BATCHED) else None
        self.batched = isinstance(first, BATCHED) and (role == "calc" or self.unit is not None)
        self.nq, self.nv = first.nq, first.nv
        self.q_index = np.concatenate([np.arange(j.idx_q, j.idx_q + j.nq) for j in self.jmodels])
        self.v_index = np.concatenate([np.arange(j.idx_v, j.idx_v + j.nv) for j in self.jmodels])
        if self.batched:
            # the group's calc: the joint model itself, reading a (K, ..., nq) "q" at idx 0
            self.template = copy.copy(first)
            self.template.setIndexes(first.id, 0, 0)
            self.scratch = self.template.createData()
            self.prismatic = self.template.part == LINEAR
            if role == "calc":
                # a calc group holds one family, each joint its own axis: S_col (K, 6), the
                # joints' own transforms (their M), the placements' constants
                self.S_col = np.stack([j._S_col for j in self.jmodels])
                self.S_col.flags.writeable = False
                self.transforms = [j._transform for j in self.jmodels]
                self.affine = _affine_placements(model, first, ids)
        if role == "calc":
            # the kind's jcalc and liMi, beside its joint class: calc(data, q, v, rows, shape,
            # actions) -> (R, p, X, v_J, c_J) of liMi, joint axis first
            calc = calc_axis_group if self.batched else calc_joint_group
            self.calc = functools.partial(calc, self)
            self.placement = model.jointPlacements[ids[0]]


def _affine_placements(model, first, ids):
    """The group's ``liMi`` and ``X = liMi.actionInverse`` as affine maps of the joint
    coordinates x (``(cos q, sin q)`` for the revolute joints, ``d`` for the prismatic ones):
    ``R = R0 + x @ RW``, ``X = X0 + x @ XW``, ``p = p0`` (revolute) or ``p0 + d pW`` (prismatic).
    Constants per joint ``(K, n, 9)`` / ``(K, n, 36)``, from ``liMi = jointPlacements[i] * M_J``
    with M_J linear in x (``M_J = (B0 + c Bc + s Bs, 0)`` or ``(I3, d e)``), e the joint's
    axis (e_k, or an unaligned joint's u as given)."""
    R0, RW, X0, XW, p0, pW = [], [], [], [], [], []
    for i in ids:
        jmodel = model.joints[i]
        e = jmodel._S_col[jmodel.part]
        P = model.jointPlacements[i]
        RP, pP = P.rotation, P.translation
        if first.part == LINEAR:
            R0.append(RP.reshape(9))
            RW.append(np.zeros((1, 9)))
            X0.append(se3_action_inverse(RP, pP).reshape(36))
            XW.append(_linear_action_inverse(np.zeros((3, 3)), RP, RP @ e)[None])
            p0.append(pP)
            pW.append(RP @ e)
        else:
            B0 = np.outer(e, e)
            Bc, Bs = np.eye(3) - B0, skew(e)
            R0.append((RP @ B0).reshape(9))
            RW.append(np.stack([(RP @ Bc).reshape(9), (RP @ Bs).reshape(9)]))
            X0.append(_linear_action_inverse(RP @ B0, None, pP).reshape(36))
            XW.append(np.stack([_linear_action_inverse(RP @ B, None, pP).reshape(36)
                                for B in (Bc, Bs)]))
            p0.append(pP)
            pW.append(np.zeros(3))
    # shaped for the (K, B, n) coordinates of B states: constants (K, 1, m), the coefficient of
    # coordinate j at [j], (K, 1, m) too (affine_eval, elementwise so that it is batch-invariant)
    column = lambda x: np.array(x)[:, None]
    per_coordinate = lambda x: np.moveaxis(np.array(x), 1, 0)[:, :, None]
    return (column(R0), per_coordinate(RW), column(X0), per_coordinate(XW), column(p0),
            column(pW))


def _linear_action_inverse(M, R, p):
    """``[[M^T, -M^T [p]x], [0, M^T]]`` (``se3_action_inverse`` is linear in R for a fixed p);
    with ``R`` given: ``[[0, -R^T [p]x], [0, 0]]``, the part linear in p."""
    out = np.zeros((6, 6))
    if R is None:
        out[:3, :3] = out[3:, 3:] = M.T
        out[:3, 3:] = -(M.T @ skew(p))
    else:
        out[:3, 3:] = -(R.T @ skew(p))
    return out.reshape(36)


class Level:
    """The joints of one depth (``index``: its place in ``Tree.levels``): rows ``rows`` of the
    caches, their parents' rows, groups, ``blocks`` (the joints of one kind whose S products
    and calc_aba run in one call, each with the interface of
    :class:`~pinref.joints.base.JointBlock`), rounds."""

    def __init__(self, model, pos, ids, lo):
        self.ids = ids
        self.forward_ids = tuple(sorted(ids))               # Pinocchio's loop order, forward
        self.backward_ids = self.forward_ids[::-1]          # and backward
        self.rows = slice(lo, lo + len(ids))
        self.id_index = np.array(ids, dtype=np.intp)        # joint ids, row order
        self.has_parent = model.parents[ids[0]] > 0
        self.parent_rows = _index([pos[model.parents[i]] for i in ids])
        self.groups = []
        start = 0
        while start < len(ids):
            end = start + 1
            first = model.joints[ids[start]]
            if isinstance(first, BATCHED) and unit_entry(first._S_col) is not None:
                kind = _kind_key(model, ids[start])           # the class and S
                while end < len(ids) and _kind_key(model, ids[end]) == kind:
                    end += 1
            self.groups.append(Group(model, ids[start:end], range(lo + start, lo + end), "aba"))
            start = end
        self.v_index = np.concatenate([g.v_index for g in self.groups])
        self.blocks = blocks(self.groups, lo)
        # rounds: (local indices of the children, their parents' rows), children of one parent in
        # decreasing index, round r taking the r-th of every parent
        children = {}
        for k, i in sorted(enumerate(ids), key=lambda e: -e[1]):
            children.setdefault(model.parents[i], []).append(k)
        self.rounds = []
        for r in range(max(len(c) for c in children.values())):
            local = sorted(c[r] for c in children.values() if len(c) > r)
            self.rounds.append((_index(local), _index([pos[model.parents[ids[k]]]
                                                        for k in local]),
                                tuple(sorted((ids[k] for k in local), reverse=True))))


def blocks(groups, lo):
    """The blocks of the level steps for ``groups`` (rows from ``lo``): one
    :class:`~pinref.joints._axis.AxisBlock` for every joint with S = sign e_k (the batched
    level groups), one :class:`~pinref.joints.base.JointBlock` for each other joint, by first
    row."""
    axis = [g for g in groups if g.batched]
    out = [JointBlock(g.jmodels[0], g.rows.start - lo) for g in groups if not g.batched]
    if axis:
        rows = [r - lo for g in axis for r in range(g.rows.start, g.rows.stop)]
        out.append(AxisBlock(axis, [j for g in axis for j in g.jmodels], rows,
                             [g.unit for g in axis for _ in g.ids]))
    for b in out:
        # the block's rows of the stacked caches (``rows``: its place in the arrays a step hands it)
        b.stack_rows = (slice(b.rows.start + lo, b.rows.stop + lo) if isinstance(b.rows, slice)
                        else b.rows + lo)
    return sorted(out, key=lambda b: b.rows.start if isinstance(b.rows, slice) else b.rows[0])


def _kind_key(model, i):
    """Where joint i goes in its level: by class, the ``BATCHED`` ones of one S together."""
    jmodel = model.joints[i]
    return (type(jmodel).__name__, (i,)) if not isinstance(jmodel, BATCHED) else \
        (type(jmodel).__name__, tuple(jmodel._S_col.tolist()))


def _family(jmodel, i):
    """The ``BATCHED`` class ``jmodel`` is an instance of (its axis aside), or ``i`` (its own
    group) for any other joint."""
    return next((kind for kind in BATCHED if isinstance(jmodel, kind)), i)


class Tree:
    """Joint order of the stacked caches (``order[row] = joint id``, ``pos[id] = row``), levels,
    and the model's constants in row order."""

    def __init__(self, model):
        depth = [0] * model.njoints
        for i in range(1, model.njoints):
            depth[i] = depth[model.parents[i]] + 1
        by_level = {}
        for i in range(1, model.njoints):
            by_level.setdefault(depth[i], []).append(i)
        self.order = [0]
        for d in sorted(by_level):
            self.order += sorted(by_level[d], key=lambda i: (_kind_key(model, i), i))
        self.order_ids = tuple(range(1, model.njoints))       # Pinocchio's forward order
        self.pos = [0] * model.njoints
        for row, i in enumerate(self.order):
            self.pos[i] = row
        self.levels = []
        lo = 1
        for d in sorted(by_level):
            ids = self.order[lo:lo + len(by_level[d])]
            self.levels.append(Level(model, self.pos, ids, lo))
            self.levels[-1].index = len(self.levels) - 1
            lo += len(ids)
        # every joint of one batched family (revolute, unbounded revolute, prismatic, whatever
        # the axis) in one group (their calc, liMi and X), row order
        kinds = {}
        for i in self.order[1:]:
            kinds.setdefault(_family(model.joints[i], i), []).append(i)
        self.kinds = [Group(model, ids, [self.pos[i] for i in ids], "calc")
                      for ids in kinds.values()]
        # every joint as the blocks of the level steps, rows from 1 (a step hands them x[1:])
        self.blocks = blocks([g for level in self.levels for g in level.groups], 1)
        self._bind_sources(model)
        # constants, row order
        self.inertia_matrix = np.stack([model.inertias[i].matrix() for i in self.order])
        self.inertia_parts = (np.array([model.inertias[i].mass for i in self.order]),
                              np.stack([model.inertias[i].lever for i in self.order]),
                              np.stack([model.inertias[i].inertia for i in self.order]))
        self.placement_rotation = np.stack([model.jointPlacements[i].rotation for i in self.order])
        self.placement_translation = np.stack([model.jointPlacements[i].translation
                                               for i in self.order])

    def _bind_sources(self, model):
        """Copy the placements' and inertias' arrays into ``source`` (joint order, 24 numbers a
        joint: rotation, translation, lever, inertia) and bind the model's objects to views of
        it, so that an edit in place of any of them changes ``source``."""
        n = model.njoints
        self.source = np.empty((n, 24))
        for i in range(n):
            P, Y = model.jointPlacements[i], model.inertias[i]
            row = self.source[i]
            row[0:9], row[9:12] = P.rotation.reshape(9), P.translation
            row[12:15], row[15:24] = Y.lever, Y.inertia.reshape(9)
            object.__setattr__(P, "rotation", row[0:9].reshape(3, 3))
            object.__setattr__(P, "translation", row[9:12])
            object.__setattr__(Y, "lever", row[12:15])
            object.__setattr__(Y, "inertia", row[15:24].reshape(3, 3))
        # another Tree may have bound the same objects (models sharing them): it re-checks
        _kernels.SETATTR_COUNT[0] += 1
        self.source_bytes = self.source.tobytes()
        self.parents = list(model.parents)
        self.joints = list(model.joints)
        self.placements = list(model.jointPlacements)
        self.inertias = list(model.inertias)
        self.fields = self._fields()
        self.setattr_count = _kernels.SETATTR_COUNT[0]

    def _fields(self):
        return [x for P in self.placements for x in (P.rotation, P.translation)] + \
            [x for Y in self.inertias for x in (Y.mass, Y.lever, Y.inertia)] + \
            [j._S_col for j in self.joints if isinstance(j, BATCHED)]

    def current(self, model):
        """Whether the constants still describe ``model`` (see the module docstring)."""
        n = len(self.joints)
        if not (len(model.joints) == len(model.inertias) == len(model.jointPlacements) == n
                and all(map(operator.is_, model.joints, self.joints))
                and all(map(operator.is_, model.jointPlacements, self.placements))
                and all(map(operator.is_, model.inertias, self.inertias))
                and model.parents == self.parents):
            return False
        if self.setattr_count != _kernels.SETATTR_COUNT[0]:
            # some attribute of a spatial object was set since: are these still ours?
            if not all(map(operator.is_, self._fields(), self.fields)):
                return False
            self.setattr_count = _kernels.SETATTR_COUNT[0]
        return self.source.tobytes() == self.source_bytes


_TREES = {}   # id(model) -> (weak reference to the model, its Tree): not a field of the Model


def tree(model):
    """The model's Tree, built on first use and again when it no longer describes the model
    (``Tree.current``)."""
    entry = _TREES.get(id(model))
    if entry is not None and entry[0]() is model and entry[1].current(model):
        return entry[1]
    built = Tree(model)
    key = id(model)
    _TREES[key] = (weakref.ref(model, lambda _: _TREES.pop(key, None)), built)
    return built
