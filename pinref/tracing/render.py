"""Text views of a trace: the tutorial's pass-by-pass table and one cache's history.

The table has one row per stop (a joint step of a pass, or a piece of the driver's inline
code): the stop, the state of one cache for every joint at that stop (``Yaba`` for aba, ``f``
for rnea, ``Ycrb`` for crba by default), and what became known at that stop. For the
free-flyer + 2 RY model of the tutorial (``pinref.buildTutorialModel()``) the aba table is the
tutorial's table "stop / Yaba[1] / Yaba[2] / Yaba[3] / what is known", one row per joint step.
"""

import re
from dataclasses import dataclass

import numpy as np

from ..textwidth import fit_table
from . import steps as S

# Short names of the stops for the tables below.
_ABA_INIT, _FS1, _ABA_FEXT, _BS, _FS2, _ABA_LOOP = S.STEPS["aba"]
_RF, _RFEXT, _RB, _RARM = S.STEPS["rnea"]
_CF, _CB, _CARM, _CSYM = S.STEPS["crba"]
_WA_INIT, _WFS1, _WA_FEXT, _WBS, _WFS2, _WA_LOOP = S.STEPS["abaWorldConvention"]
_WC_INIT, _WCF, _WCB, _WCARM, _WCCOM, _ = S.STEPS["crbaWorldConvention"]

DEFAULT_CACHE = {"aba": "Yaba", "rnea": "f", "crba": "Ycrb", "abaWorldConvention": "oYaba",
                 "crbaWorldConvention": "oYcrb"}
# A step's driver prefix (AbaLocalConventionForwardStep1, "abaLocalConvention: f[0]..."),
# dropped from the narrow table's step column and named in its title.
_CONVENTION = re.compile(r"^([A-Za-z]+(?:Local|World)Convention)(?:: )?")
MAX_COLUMNS = 6   # joints shown as columns by default (the first ones); ``joints=`` picks

# What becomes known at each stop ({i} joint, {p} parent, {v} its velocity slice).
KNOWN = {
    _ABA_INIT: "v[0] = 0, a_gf[0] = -gravity, u = tau; f[0] = 0 (only without fext)",
    _FS1: "liMi[{i}], v[{i}], bias c_{i} (in a_gf[{i}]), h[{i}], pA_{i} = v x* h (in f[{i}]); "
          "Yaba[{i}] = Y_{i}",
    _ABA_FEXT: "pA_{i} -= fext[{i}]",
    (_BS, True): "u_{i} = tau_{i} - S^T pA_{i}, U_{i}, Dinv_{i}, UDinv_{i}; Ia_{i} (projected) "
                 "and pa_{i} = pA_{i} + Ia c + UDinv u sent to joint {p}",
    (_BS, False): "u_{i}, U_{i}, Dinv_{i}, UDinv_{i}: the root's D_{i} block is factorised; "
                  "Yaba[{i}] keeps the full articulated inertia (parent is the universe)",
    _FS2: "a_gf[{i}] += liMi^-1 a_gf[{p}]; ddq[{v}] = Dinv u - UDinv^T a_gf; a_gf[{i}] = a_{i} - g "
          "(final), a[{i}], f[{i}] = Y a_gf + v x* h",
    _ABA_LOOP: "f[{p}] += liMi[{i}] f[{i}]: f[{p}] collects its subtree's wrench",
    _RF: "liMi[{i}], v[{i}], a_gf[{i}] = a_{i} - g, h[{i}], f[{i}] = Y a_gf + v x* h (body {i})",
    _RFEXT: "f[{i}] -= fext[{i}]",
    (_RB, True): "tau[{v}] = S^T f[{i}] (f[{i}]: subtree {i}'s wrench); f[{p}] += liMi f[{i}]",
    (_RB, False): "tau[{v}] = S^T f[{i}] (f[{i}]: subtree {i}'s wrench)",
    _RARM: "tau += armature * a: tau is final",
    _CF: "liMi[{i}], Ycrb[{i}] = Y_{i}",
    (_CB, True): "Fcrb[{i}][:, {v}] = Ycrb S, M[{v}, subtree] = S^T F; "
                 "Ycrb[{p}] += liMi Ycrb[{i}], Fcrb[{p}][:, subtree] = liMi F",
    (_CB, False): "Fcrb[{i}][:, {v}] = Ycrb S, M[{v}, subtree] = S^T F (the root's block row)",
    _CARM: "M.diagonal() += armature: the upper triangle of M is final",
    _CSYM: "the strict upper triangle copied into the lower one: M is symmetric",
    _WA_INIT: "oa_gf[0] = -gravity, u = tau; of[0] = 0 (only without fext)",
    _WFS1: "liMi[{i}], oMi[{i}], J[:, {v}] = oMi S, ov[{i}], bias (in oa_gf[{i}]), oYcrb[{i}] = "
           "oinertias[{i}] = oYaba[{i}] = oMi Y, oh[{i}], of[{i}] = ov x* oh (WORLD)",
    _WA_FEXT: "of[{i}] -= oMi fext[{i}] (fext given LOCAL)",
    (_WBS, True): "u_{i} -= J^T of[{i}], U_{i}, Dinv_{i}, UDinv_{i} (WORLD); oYaba[{i}] projected "
                  "and of[{i}] += oYaba oa_gf + UDinv u, both added into joint {p} as they are",
    (_WBS, False): "u_{i}, U_{i}, Dinv_{i}, UDinv_{i} (WORLD): the root's block is factorised",
    _WFS2: "oa_gf[{i}] += oa_gf[{p}]; ddq[{v}] = Dinv u - UDinv^T oa_gf; oa_gf[{i}] += J ddq "
           "(final), oa[{i}], of[{i}] = oYcrb oa_gf + ov x* oh",
    _WA_LOOP: "of[{p}] += of[{i}]: of[{p}] collects its subtree's wrench (WORLD)",
    _WC_INIT: "oYcrb[0] = 0",
    _WCF: "liMi[{i}], oMi[{i}], J[:, {v}] = oMi S, oYcrb[{i}] = oMi Y_{i} (WORLD)",
    _WCB: "Ag[:, {v}] = oYcrb[{i}] J, M[{v}, subtree] = J^T Ag; oYcrb[{p}] += oYcrb[{i}]",
    _WCARM: "M.diagonal() += armature: the upper triangle of M is final",
    _WCCOM: "mass[0], com[0] from oYcrb[0]; Ag moved to the centre of mass",
}

# How a write leaves the cache, for the history: (step, cache, "own" | "parent"[, has parent])
# -> "= ..." (a new value) or "+= ..." / "-= ..." (an update); {i} joint, {p} parent, {c} child.
ROLE = {
    (_ABA_INIT, "f", "own"): "= 0 (only in the overload without fext)",
    (_FS1, "liMi", "own"): "= jointPlacements[{i}] * M_J (joint {i} in joint {p})",
    (_FS1, "v", "own"): "= v_J + liMi^-1 v[{p}] (velocity of body {i})",
    (_FS1, "a_gf", "own"): "= c_{i} = c_J + v_{i} x v_J (the bias, until pass 3)",
    (_FS1, "Yaba", "own"): "= Y_{i} (body {i} alone)",
    (_FS1, "h", "own"): "= Y_{i} v_{i}",
    (_FS1, "f", "own"): "= pA_{i} = v_{i} x* h_{i}",
    (_ABA_FEXT, "f", "own"): "-= fext_{i}",
    (_BS, "u", "own"): "= u_{i} = tau_{i} - S_{i}^T pA_{i}",
    (_BS, "Yaba", "own", True): "= Ia_{i} = IA_{i} - U_{i} Dinv_{i} U_{i}^T (projected, sent to "
                                "joint {p})",
    (_BS, "Yaba", "own", False): "= IA_{i}, the full articulated inertia (root: not projected)",
    (_BS, "f", "own"): "= pa_{i} = pA_{i} + Ia_{i} c_{i} + UDinv_{i} u_{i}",
    (_BS, "Yaba", "parent"): "+= liMi[{c}] Ia_{c} (joint {c} eliminated)",
    (_BS, "f", "parent"): "+= liMi[{c}] pa_{c}",
    (_FS2, "a_gf", "own"): "= c_{i} + liMi^-1 a_gf[{p}] + S_{i} ddq_{i} = a_{i} - g (final)",
    (_FS2, "ddq", "own"): "= Dinv_{i} u_{i} - UDinv_{i}^T a_gf_{i}",
    (_FS2, "a", "own"): "= a_gf_{i} + oMi^T g (oMi as last written)",
    (_FS2, "f", "own"): "= Y_{i} a_gf_{i} + v_{i} x* h_{i} (body {i} alone)",
    (_ABA_LOOP, "f", "parent"): "+= liMi[{c}] f_{c}",
    (_RF, "liMi", "own"): "= jointPlacements[{i}] * M_J (joint {i} in joint {p})",
    (_RF, "v", "own"): "= v_J + liMi^-1 v[{p}] (velocity of body {i})",
    (_RF, "a_gf", "own"): "= c_J + v_{i} x v_J + S_{i} a_{i} + liMi^-1 a_gf[{p}] = a_{i} - g",
    (_RF, "h", "own"): "= Y_{i} v_{i}",
    (_RF, "f", "own"): "= Y_{i} a_gf_{i} + v_{i} x* h_{i} (body {i} alone)",
    (_RFEXT, "f", "own"): "-= fext_{i}",
    (_RB, "tau", "own"): "= S_{i}^T f_{i}",
    (_RB, "f", "parent"): "+= liMi[{c}] f_{c}",
    (_RARM, "tau", "own"): "+= armature * a",
    (_CF, "liMi", "own"): "= jointPlacements[{i}] * M_J (joint {i} in joint {p})",
    (_CF, "Ycrb", "own"): "= Y_{i} (body {i} alone)",
    (_CB, "Ycrb", "parent"): "+= liMi[{c}] Ycrb_{c}",
    (_CB, "Fcrb", "own"): "= Ycrb_{i} S_{i}",
    (_CB, "Fcrb", "parent"): "= liMi[{c}] Fcrb[{c}] (the columns of subtree {c})",
    (_CB, "M", "own"): "= S_{i}^T Fcrb[{i}] (block row of joint {i})",
    (_CARM, "M", "own"): "+= diag(armature)",
    (_CSYM, "M", "own"): "= its upper triangle mirrored (symmetric)",
    (_WFS1, "oYaba", "own"): "= oMi Y_{i} (body {i} alone, WORLD)",
    (_WFS1, "of", "own"): "= ov_{i} x* oh_{i}",
    (_WA_FEXT, "of", "own"): "-= oMi fext_{i}",
    (_WBS, "oYaba", "own"): "-= UDinv_{i} U_{i}^T (projected, sent to joint {p})",
    (_WBS, "of", "own"): "+= oYaba_{i} oa_gf_{i} + UDinv_{i} u_{i}",
    (_WBS, "oYaba", "parent"): "+= oYaba_{c} (joint {c} eliminated)",
    (_WBS, "of", "parent"): "+= of_{c}",
    (_WFS2, "of", "own"): "= oYcrb_{i} oa_gf_{i} + ov_{i} x* oh_{i} (body {i} alone)",
    (_WA_LOOP, "of", "parent"): "+= of_{c}",
    (_WCF, "oYcrb", "own"): "= oMi Y_{i} (body {i} alone, WORLD)",
    (_WCB, "oYcrb", "parent"): "+= oYcrb_{c}",
}

# The same, short, for the table's cells ("+"/"-" texts add to the cell's previous text).
CELL = {
    (_FS1, "Yaba", "own"): "Y_{i}",
    (_BS, "Yaba", "own", True): "Ia_{i} (projected)",
    (_BS, "Yaba", "own", False): "IA_{i} (root, full)",
    (_BS, "Yaba", "parent"): "+ Ia_{c}",
    (_FS1, "f", "own"): "pA_{i} = v x* h",
    (_ABA_FEXT, "f", "own"): "- fext",
    (_BS, "f", "own"): "pa_{i}",
    (_BS, "f", "parent"): "+ pa_{c}",
    (_FS2, "f", "own"): "Y a_gf + v x* h",
    (_ABA_LOOP, "f", "parent"): "+ f_{c}",
    (_RF, "f", "own"): "Y a_gf + v x* h",
    (_RFEXT, "f", "own"): "- fext",
    (_RB, "f", "parent"): "+ f_{c}",
    (_CF, "Ycrb", "own"): "Y_{i}",
    (_CB, "Ycrb", "parent"): "+ Ycrb_{c}",
    (_FS1, "a_gf", "own"): "c_{i}",
    (_FS2, "a_gf", "own"): "a_{i} - g",
    (_RF, "a_gf", "own"): "a_{i} - g",
    (_WFS1, "oYaba", "own"): "oMi Y_{i}",
    (_WBS, "oYaba", "own"): "projected",
    (_WBS, "oYaba", "parent"): "+ oYaba_{c}",
    (_WCF, "oYcrb", "own"): "oMi Y_{i}",
    (_WCB, "oYcrb", "parent"): "+ oYcrb_{c}",
}


def _lookup(table_, snapshot, write, joint):
    relation = "own" if snapshot.joint in (None, joint) else "parent"
    keys = [(snapshot.step, write.cache, relation, snapshot.parent not in (None, 0)),
            (snapshot.step, write.cache, relation)]
    text = next((table_[k] for k in keys if k in table_), None)
    if text is None:
        return None
    return text.format(i=joint, p=snapshot.parent, c=snapshot.joint)


def _role(snapshot, write, joint):
    """How ``write`` (for ``joint``) leaves the cache at ``snapshot``, for the history."""
    return _lookup(ROLE, snapshot, write, joint) or f"(written by {snapshot.step})"


def _cell(snapshot, write, joint):
    """The short form for a table cell: (text, adds to the previous text)."""
    text = _lookup(CELL, snapshot, write, joint)
    if text is None:
        text = _role(snapshot, write, joint).lstrip("= ")
    return text, text[:1] in "+-"


def _known(snapshot, model):
    i, p = snapshot.joint, snapshot.parent
    keys = [(snapshot.step, p not in (None, 0)), snapshot.step]
    text = next((KNOWN[k] for k in keys if k in KNOWN), None)
    if text is None:
        return ", ".join(w.label for w in snapshot.writes)
    v = ""
    if i is not None:
        v = f"{model.idx_vs[i]}:{model.idx_vs[i] + model.nvs[i]}"
    return text.format(i=i, p=p, v=v)


def _covers(write, joint, model):
    """Does ``write`` hold (part of) ``joint``'s entry of its cache?"""
    if write.index is not None:
        return write.index == joint
    span = write.rows if write.rows is not None else write.cols   # J[:, cols_i]: its columns
    if span is not None and joint is not None:
        lo, hi = model.idx_vs[joint], model.idx_vs[joint] + model.nvs[joint]
        return span[0] < hi and lo < span[1]
    return write.rows is None and write.cols is None


def _at(value, state, batch_shape):
    """One state's value of a write (values without batch axes are the same for every state)."""
    x = np.asarray(value)
    n = len(batch_shape)
    if n == 0:
        return x
    if x.ndim >= n and x.shape[:n] == tuple(batch_shape):
        return x.reshape((-1,) + x.shape[n:])[state]
    return x


@dataclass(frozen=True)
class HistoryEntry:
    """One value of the followed cache: the snapshot that wrote it, the write, and its role."""

    snapshot: object
    write: object
    role: str


@dataclass(frozen=True)
class History:
    """The values one cache took for one joint during one traced call, in pass order."""

    cache: str
    joint: int | None
    joint_name: str
    call: object
    entries: tuple

    @classmethod
    def build(cls, trace, cache, joint, call):
        c = trace.call(call)
        model = c.model
        if isinstance(joint, str):
            if joint not in model.names:
                raise KeyError(f"no joint named {joint!r} in the traced model")
            joint = model.names.index(joint)
        entries = []
        for s in c.snapshots:
            for w in s.writes:
                if w.cache == cache and (joint is None or _covers(w, joint, model)):
                    entries.append(HistoryEntry(s, w, _role(s, w, joint)))
        if not entries:
            seen = sorted({w.cache for s in c.snapshots for w in s.writes})
            raise KeyError(f"{c.algorithm} wrote no {cache!r} for joint {joint}; it writes "
                           f"{', '.join(seen)}")
        name = "" if joint is None else model.names[joint]
        return cls(cache, joint, name, c, tuple(entries))

    def __len__(self):
        return len(self.entries)

    def __iter__(self):
        return iter(self.entries)

    def __getitem__(self, k):
        return self.entries[k]

    @property
    def values(self):
        """The read-only values, in pass order."""
        return tuple(e.write.value for e in self.entries)

    def text(self, state=0, precision=6):
        """Every value with its stop and role (state ``state`` of a batch)."""
        who = f" of joint {self.joint} {self.joint_name}" if self.joint is not None else ""
        n = max(1, int(np.prod(self.call.batch_shape)))
        lines = [f"{self.cache}{who} during {self.call.algorithm} (state {state} of {n}):"]
        for e in self.entries:
            value = _at(e.write.value, state, self.call.batch_shape)
            body = np.array2string(np.asarray(value), precision=precision, suppress_small=True,
                                   max_line_width=100)
            lines.append(f"- {e.snapshot.stop()}: {e.write.label} {e.role}")
            lines.extend("    " + line for line in body.splitlines())
        return "\n".join(lines)

    def __str__(self):
        return self.text()


def table(trace, cache=None, *, call=-1, state=0, joints=None, model_name=None,
          pick_hint="pass joints=[...] (ids or names) to show others", width=None):
    """The pass-by-pass table of one call: stop | cache[j] for each joint j | known at the stop.

    ``cache`` defaults to Yaba (aba), f (rnea), Ycrb (crba); ``joints`` (ids or names) to every
    joint when the model has at most MAX_COLUMNS of them, else to the first MAX_COLUMNS, with a
    note under the title that says so and how to pick others (``pick_hint``; the command says
    ``--joint``). ``model_name`` names the model in the title (default ``model.name``).
    A cell holds how the cache stands for that joint (its last write's role, "+ Ia_3" for each
    contribution received since) and the norm of its value; "*" marks the cells written at that
    stop, "." a cache not yet written in this call. ``width`` (columns) wraps the cells to fit,
    or splits the joints' columns into stacked tables that repeat pass, step and joint
    (``pinref.textwidth.fit_table``), and drops the driver's prefix from the step names (the
    title names it); None keeps one line per stop.
    """
    c = trace.call(call)
    model = c.model
    cache = cache or DEFAULT_CACHE.get(c.algorithm, "f")
    n_joints = model.njoints - 1
    note = None
    if joints is None:
        joints = list(range(1, min(n_joints, MAX_COLUMNS) + 1))
        if n_joints > MAX_COLUMNS:
            note = (f"note: {cache} columns for joints 1 to {MAX_COLUMNS} of {n_joints} only; "
                    f"{pick_hint}")
    joints = [model.names.index(j) if isinstance(j, str) else int(j) for j in joints]
    if not joints:
        note = f"note: no {cache} column (no joint selected); {pick_hint}"
    state_text = {j: "." for j in joints}
    head = ["pass", "step", "joint"] + [f"{cache}[{j}]" for j in joints] + ["known at this stop"]
    rows = []
    for s in c.snapshots:
        cells = {}
        for j in joints:
            for w in s.writes:
                if w.cache == cache and _covers(w, j, model):
                    text, adds = _cell(s, w, j)
                    base = state_text[j].split(" |")[0]
                    text = f"{base} {text}" if adds and base != "." else text
                    norm = np.linalg.norm(_at(w.value, state, c.batch_shape))
                    state_text[j] = f"{text} |{norm:.4g}|"
                    cells[j] = "* " + state_text[j]
        row = [str(s.pass_number), s.step if width is None else _CONVENTION.sub("", s.step),
               "" if s.joint is None else f"{s.joint} {s.joint_name}"]
        row += [cells.get(j, "  " + state_text[j]) for j in joints]
        row.append(_known(s, model))
        rows.append(row)
    lines = fit_table(head, rows, width, key=3)
    n = int(np.prod(c.batch_shape)) if c.batch_shape else 1
    name = model_name or model.name or "an unnamed model"
    title = (f"{c.algorithm} on {name} (nq {model.nq}, nv {model.nv}, {n_joints} joints), "
             f"{len(c.snapshots)} stops")
    if joints:
        title += f"; |x| = norm of {cache} at state {state} of {n}; * = written at this stop"
    prefixes = sorted({m.group(1)[0].upper() + m.group(1)[1:]
                       for s in c.snapshots if (m := _CONVENTION.match(s.step))})
    if width is not None and prefixes:
        title += f"; steps without their prefix {', '.join(prefixes)} (--wide shows it)"
    head_lines = [title] + ([note] if note else []) + [""]
    return "\n".join(head_lines + [line.rstrip() for line in lines])
