"""The tree scan: the loops of rnea, crba and aba, so that their step functions read like the C++.

Pinocchio runs a pass as a loop over the joints, ``for i in 1 .. n-1`` (forward) or its reverse
(backward), and the step of joint i reads only its parent's values. pinref runs a step for every
joint of one tree *level* at once (``level.rows``: the joints of one depth, a slice of the
stacked caches; ``level.parent_rows``: their parents' rows, finished by an earlier level), so a
level step computes what the per-joint loop computes. This module owns what that needs, so that
an algorithm hands it step functions:

- ``backward``: the level loop from the deepest level. The step returns what its joints add into
  their parents, ``((target, values), ...)`` (Pinocchio's ``target[parent] += values_i``), and the
  scan adds it in Pinocchio's order: children of one parent by decreasing index, one ``round`` at
  a time (round r holds the r-th child of every parent, so no parent appears twice in a round),
  each round as ``target[parents] = target[parents] + values[children]``;
- ``forward``: a forward step reads its parent only in a few statements; the step walks the levels
  for those and runs the others for every joint at once, then the scan reports the levels;
- ``step``: a statement the driver runs outside the loops (set-up, armature, fext);
- the reports to the tracing hooks (``call.run`` around each step, ``call.done`` once the
  joints hold what Pinocchio's loop holds after them; ``pinref/algorithms/steps.py``); with no
  hook active (``call.hooks`` empty, the common case) the scan calls the steps directly and
  reports nothing, the same statements in the same order.
"""


def step(call, step, joints, fn, *args):
    """``fn(*args)`` as the step ``step`` of the joints ``joints`` (ids; ``(None,)`` for a
    statement of no joint), reported when it returns."""
    if not call.hooks:
        return fn(*args)
    out = call.run(step, fn, *args)
    call.done(step, joints)
    return out


def forward(call, step_, T, fn, *args, then=None):
    """``fn(*args)`` as the forward step ``step_`` of every joint (fn walks ``T.levels`` for
    the statements that read the parent), then each level's joints reported in turn, each level
    followed by ``then = (step, fn, *args)`` (the fext overload's ``f_i -= fext_i``, run as
    ``fn(level, *args)``) when given."""
    out = call.run(step_, fn, *args)
    if not call.hooks and then is None:
        return out
    for level in T.levels:
        call.done(step_, level.forward_ids)
        if then is not None:
            step(call, then[0], level.forward_ids, then[1], level, *then[2:])
    return out


def backward(call, step_, T, fn, *args):
    """``fn(level, *args)`` as the backward step ``step_`` of each level (a step of its own for
    the hooks), deepest first; fn returns what its joints add into their parents (``((target,
    values), ...)``, ``values`` with the level's joints first) or None, and the scan adds it
    round by round (module docstring), reporting the joints of each round."""
    if not call.hooks:                  # no hook watches: the same additions, unreported
        for level in reversed(T.levels):
            additions = fn(level, *args)
            if additions is not None:
                add_to_parents(level, *additions)
        return
    for level in reversed(T.levels):
        call.run(step_, _backward_level, call, step_, level, fn, args)


def _backward_level(call, step_, level, fn, args):
    additions = fn(level, *args)
    if additions is None:
        call.done(step_, level.backward_ids)
        return
    for children, parents, ids in level.rounds:
        for target, values in additions:
            # target[parent] += values_i
            target[parents] = target[parents] + values[children]
        call.done(step_, ids)


def add_to_parents(level, *additions):
    """``target[parent] += values_i`` for each ``(target, values)`` and every joint i of
    ``level`` (``values`` with the level's joints first), in Pinocchio's order, as ``backward``
    adds them, for a pass no hook watches."""
    for children, parents, _ in level.rounds:
        for target, values in additions:
            # target[parent] += values_i
            target[parents] = target[parents] + values[children]
