"""The steps of rnea, crba and aba, declared once, and the hook through which tools watch them.

Each :class:`Step` names what it mirrors (Pinocchio's step struct, or ``"<driver>: <statement>"``
for a statement Pinocchio's driver runs between its loops), its algorithm, its pass (counted
from 1; 0 for the driver's set-up) and the Data fields it writes for each joint ``i``:

==========================  ==============================================================
``name[i]``, ``name[parent]``  row of a per-joint cache (liMi, v, a_gf, Yaba, f, ...)
``joints[i].name``          a field of the joint's data (M, S, v, c, U, StU, Dinv, UDinv)
``name[v_i]``               the joint's entries of a (..., nv) vector (u, ddq, tau)
``name[i][:, cols_i]``      columns of a (..., 6, nv) row (Fcrb); also ``sub_i``
``name[:, cols_i]``         the joint's columns of a (..., 6, nv) matrix (J, Ag)
``name[0]``                 entry 0 of a per-joint list (mass, com), joint or not
``name[cols_i, sub_i]``     a block of a (..., nv, nv) matrix (M)
``name``                    a whole field (steps without a joint: tau, M)
==========================  ==============================================================

``writes_if_parent`` lists the fields written only when the joint's parent is not the universe.

The drivers run every step through :func:`run`. With no hook active that is a plain call. A hook
(``pinref.tracing`` records, ``pinref.checking.drills`` plants mutations) is an object with
``enter(algorithm, model, data, inputs)`` and ``leave(shape)`` around each driver call,
``around(step, run)`` around each step (it must call ``run()``), and ``done(step, joints)``
after the joints ``joints`` (ids, in Pinocchio's loop order) have completed the step: a level
step reports its joints at its end, or round by round where children add into their parents.
The algorithms import nothing from the tools; the tools subscribe with :func:`hooked`
(:class:`Hook` is a hook that changes nothing, to subclass).
"""

import contextlib
import contextvars
from dataclasses import dataclass

from ..model.data import claim, release


@dataclass(frozen=True)
class Step:
    """One step of a pass (see the module docstring)."""

    algorithm: str
    name: str
    pass_number: int
    writes: tuple = ()
    writes_if_parent: tuple = ()


def _step(algorithm, name, pass_number, writes="", writes_if_parent=""):
    split = lambda text: tuple(_fields(text))
    return Step(algorithm, name, pass_number, split(writes), split(writes_if_parent))


def _fields(text):
    """Split at blanks, except those after a comma (``Fcrb[i][:, sub_i]``)."""
    out, word = [], ""
    for part in text.split(" "):
        if not part:
            continue
        if word.endswith(","):
            word += " " + part
        else:
            if word:
                out.append(word)
            word = part
    if word:
        out.append(word)
    return out


ABA_INIT = _step("aba", "abaLocalConvention: f[0].setZero()", 0, "f[i]")
ABA_FORWARD1 = _step("aba", "AbaLocalConventionForwardStep1", 1,
                     "joints[i].M joints[i].S joints[i].v joints[i].c liMi[i] v[i] a_gf[i] "
                     "Yaba[i] h[i] f[i]")
ABA_FEXT = _step("aba", "abaLocalConvention: f[i] -= fext[i]", 1, "f[i]")
ABA_BACKWARD = _step("aba", "AbaLocalConventionBackwardStep", 2,
                     "u[v_i] joints[i].U joints[i].StU joints[i].Dinv joints[i].UDinv Yaba[i]",
                     "f[i] Yaba[parent] f[parent]")
ABA_FORWARD2 = _step("aba", "AbaLocalConventionForwardStep2", 3, "a_gf[i] ddq[v_i] a[i] f[i]")
ABA_FINAL_LOOP = _step("aba", "abaLocalConvention: f[parent] += liMi[i].act(f[i])", 4,
                       "f[parent]")

RNEA_FORWARD = _step("rnea", "RneaForwardStep", 1,
                     "joints[i].M joints[i].S joints[i].v joints[i].c liMi[i] v[i] a_gf[i] h[i] "
                     "f[i]")
RNEA_FEXT = _step("rnea", "rnea: f[i] -= fext[i]", 1, "f[i]")
RNEA_BACKWARD = _step("rnea", "RneaBackwardStep", 2, "tau[v_i]", "f[parent]")
RNEA_ARMATURE = _step("rnea", "rnea: tau += armature * a", 2, "tau")

CRBA_FORWARD = _step("crba", "CrbaLocalConventionForwardStep", 1,
                     "joints[i].M joints[i].S liMi[i] Ycrb[i]")
CRBA_BACKWARD = _step("crba", "CrbaLocalConventionBackwardStep", 2,
                      "Fcrb[i][:, cols_i] M[cols_i, sub_i]", "Ycrb[parent] Fcrb[parent][:, sub_i]")
CRBA_ARMATURE = _step("crba", "crbaLocalConvention: M.diagonal() += armature", 2, "M")
CRBA_SYMMETRIC = _step("crba", "crba (Python binding): make_symmetric(M)", 2, "M")

# Convention.WORLD (aba_world.py, crba_world.py): the drivers abaWorldConvention and
# crbaWorldConvention, traced under those names. ``J[:, cols_i]``: joint i's columns of data.J.
ABA_WORLD_INIT = _step("abaWorldConvention", "abaWorldConvention: of[0].setZero()", 0, "of[i]")
ABA_WORLD_FORWARD1 = _step("abaWorldConvention", "AbaWorldConventionForwardStep1", 1,
                           "joints[i].M joints[i].S joints[i].v joints[i].c liMi[i] oMi[i] "
                           "J[:, cols_i] ov[i] oa_gf[i] oinertias[i] oYcrb[i] oYaba[i] oh[i] of[i]")
ABA_WORLD_FEXT = _step("abaWorldConvention", "abaWorldConvention: of[i] -= oMi[i].act(fext[i])",
                       1, "of[i]")
ABA_WORLD_BACKWARD = _step("abaWorldConvention", "AbaWorldConventionBackwardStep", 2,
                           "u[v_i] joints[i].U joints[i].StU joints[i].Dinv joints[i].UDinv",
                           "oYaba[i] of[i] oYaba[parent] of[parent]")
ABA_WORLD_FORWARD2 = _step("abaWorldConvention", "AbaWorldConventionForwardStep2", 3,
                           "oa_gf[i] ddq[v_i] oa[i] of[i]")
ABA_WORLD_FINAL_LOOP = _step("abaWorldConvention", "abaWorldConvention: of[parent] += of[i]", 4,
                             "of[parent]")

CRBA_WORLD_INIT = _step("crbaWorldConvention", "crbaWorldConvention: oYcrb[0].setZero()", 0,
                        "oYcrb[i]")
CRBA_WORLD_FORWARD = _step("crbaWorldConvention", "CrbaWorldConventionForwardStep", 1,
                           "joints[i].M joints[i].S liMi[i] oMi[i] J[:, cols_i] oYcrb[i]")
CRBA_WORLD_BACKWARD = _step("crbaWorldConvention", "CrbaWorldConventionBackwardStep", 2,
                            "Ag[:, cols_i] M[cols_i, sub_i] oYcrb[parent]")
CRBA_WORLD_ARMATURE = _step("crbaWorldConvention",
                            "crbaWorldConvention: M.diagonal() += armature", 2, "M")
CRBA_WORLD_CENTROIDAL = _step("crbaWorldConvention",
                              "crbaWorldConvention: mass[0], com[0], Ag_ang += Ag_lin x com[0]", 2,
                              "mass[0] com[0] Ag")

# Every step of each algorithm, in the order its passes run them.
STEPS = {
    "aba": (ABA_INIT, ABA_FORWARD1, ABA_FEXT, ABA_BACKWARD, ABA_FORWARD2, ABA_FINAL_LOOP),
    "rnea": (RNEA_FORWARD, RNEA_FEXT, RNEA_BACKWARD, RNEA_ARMATURE),
    "crba": (CRBA_FORWARD, CRBA_BACKWARD, CRBA_ARMATURE, CRBA_SYMMETRIC),
    "abaWorldConvention": (ABA_WORLD_INIT, ABA_WORLD_FORWARD1, ABA_WORLD_FEXT, ABA_WORLD_BACKWARD,
                           ABA_WORLD_FORWARD2, ABA_WORLD_FINAL_LOOP),
    "crbaWorldConvention": (CRBA_WORLD_INIT, CRBA_WORLD_FORWARD, CRBA_WORLD_BACKWARD,
                            CRBA_WORLD_ARMATURE, CRBA_WORLD_CENTROIDAL, CRBA_SYMMETRIC),
}

# The passes that visit the joints from the last to the first (the others go from 1 to n - 1).
BACKWARD_PASSES = {"aba": (2, 4), "rnea": (2,), "crba": (2,), "abaWorldConvention": (2, 4),
                   "crbaWorldConvention": (2,)}

_HOOKS = contextvars.ContextVar("pinref_step_hooks", default=())


@contextlib.contextmanager
def hooked(hook):
    """Activate ``hook`` for the calls made in the block (in this context only)."""
    token = _HOOKS.set(_HOOKS.get() + (hook,))
    try:
        yield hook
    finally:
        _HOOKS.reset(token)


class Hook:
    """A hook that changes nothing: ``data`` holds the Data of the driver calls in progress
    (``data[-1]`` the innermost), ``around`` runs the step, ``done`` ignores it. A hook that
    watches or changes a step overrides ``around`` or ``done``."""

    def __init__(self):
        self.data = []

    def enter(self, algorithm, model, data, inputs):
        self.data.append(data)

    def leave(self, shape):
        self.data.pop()

    def around(self, step, run):
        return run()

    def done(self, step, joints):
        pass


class Call:
    """One driver call as the hooks see it: ``with Call(...) as call:`` then
    ``call.run(step, fn, *args)`` for each step, and ``call.done(step, joints)`` from inside a
    step's function (no-ops without hooks)."""

    __slots__ = ("hooks", "algorithm", "model", "data", "inputs", "shape")

    def __init__(self, algorithm, model, data, inputs):
        self.hooks = _HOOKS.get()
        self.algorithm, self.model, self.data, self.inputs = algorithm, model, data, inputs
        self.shape = ()

    def __enter__(self):
        claim(self.data, self)                  # DataInUseError while another thread uses it
        try:
            for hook in self.hooks:
                hook.enter(self.algorithm, self.model, self.data, self.inputs())
        except BaseException:                   # no __exit__ follows: release the Data here
            release(self.data, self)
            raise
        return self

    def __exit__(self, *exc):
        release(self.data, self)
        for hook in self.hooks:
            hook.leave(self.shape)
        return False

    def run(self, step, fn, *args):
        """``fn(*args)``, wrapped by every hook's ``around``."""
        if not self.hooks:
            return fn(*args)
        body = lambda: fn(*args)
        for hook in reversed(self.hooks):
            body = (lambda h, inner: lambda: h.around(step, inner))(hook, body)
        return body()

    def done(self, step, joints):
        """Joints ``joints`` (ids, Pinocchio's loop order) have completed ``step``."""
        for hook in self.hooks:
            hook.done(step, joints)


class _Quiet:
    """The ``call`` of the drivers that no hook watches (nonLinearEffects, gravity, ...)."""

    hooks = ()

    def run(self, step, fn, *args):
        return fn(*args)

    def done(self, step, joints):
        pass


QUIET = _Quiet()
