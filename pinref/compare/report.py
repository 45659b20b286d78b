"""The result of a comparison: dataclasses that print as tables and convert to JSON.

    DiffReport                      one model, one batch of states, one or more algorithms
      .algorithms: AlgorithmDiff    one algorithm
        .caches: CacheDiff          one cache (Yaba, f, u, M, joints.U, ...) over every joint
                                    and state: worst absolute and relative error, and where
        .first_divergence: Divergence | None
                                    the first field, in pass order, beyond the tolerance
        .conditioning: Conditioning | None
                                    the states that agree only within their conditioning
    Location                        a state index, a joint (name, id, idx_v range), row, column

Errors are measured as the project's tolerance reads, ``1e-12 * max(1, |ref|)``: for one cache
of one joint in one state, ``abs = max|pinref - pin|`` and ``rel = abs / max(1, max|pin|)``
(the maxima over that cache's entries: one matrix, one vector, one spatial quantity). The
cache agrees when ``rel <= tolerance`` for every joint and state. NaN counts as equal only
where both hold NaN.
"""

import json
import math
from dataclasses import asdict, dataclass, field


@dataclass(frozen=True)
class Location:
    """Where an error sits: ``state`` (index into the batch of states, () for one state),
    ``joint``/``joint_id`` (the joint owning the entry; for a vector or matrix over nv, the
    joint owning its row), ``idx_v`` (that joint's ``[start, stop)`` velocity range), ``row`` and
    ``col`` inside the value (None where it has no such axis), ``entry`` as text."""

    state: tuple
    joint: str | None
    joint_id: int | None
    idx_v: tuple | None
    row: int | None
    col: int | None
    entry: str

    def __str__(self):
        where = [f"state {_state(self.state)}"]
        if self.joint is not None:
            rng = f" (idx_v {self.idx_v[0]}:{self.idx_v[1]})" if self.idx_v else ""
            where.append(f"joint {self.joint}{rng}")
        where.append(self.entry)
        return ", ".join(where)


def _state(state):
    return "()" if state == () else ",".join(str(k) for k in state)


@dataclass(frozen=True)
class CacheDiff:
    """One cache compared over every joint and state.

    ``max_abs_error`` and ``max_rel_error`` are the worst over joints and states, at
    ``where_abs`` and ``where_rel``; ``compared`` counts (joint, state) pairs, ``failed`` those
    beyond the tolerance; ``reference`` says how pin's value was obtained (its end state, or
    rebuilt from it: ``u`` and ``StU``); ``within_conditioning`` counts the pairs beyond the
    tolerance that agree within their state's conditioning (not failed, see Conditioning).
    """

    cache: str
    max_abs_error: float
    max_rel_error: float
    where_abs: Location | None
    where_rel: Location | None
    compared: int
    failed: int
    reference: str
    within_conditioning: int = 0

    @property
    def agree(self):
        return self.failed == 0


@dataclass(frozen=True)
class Divergence:
    """The first field, in pass order, where pinref leaves the tolerance.

    ``step`` is Pinocchio's step struct (or driver statement, or ``"end state"`` when every stop
    agreed but a cache of the end state does not), ``pass_number`` the driver loop, ``joint``/
    ``joint_id`` the stop's joint, ``field`` the field as the code names it (``"f[3]"``),
    ``cache`` its Data field, ``where`` the worst entry in the first failing state, ``got`` and
    ``expected`` pinref's and pin's numbers there, ``reference`` how pin's value was obtained.
    """

    algorithm: str
    step: str
    pass_number: int | None
    joint: str | None
    joint_id: int | None
    field: str
    cache: str
    where: Location
    abs_error: float
    rel_error: float
    tolerance: float
    got: float
    expected: float
    reference: str
    states_failing: int

    def __str__(self):
        stop = self.step if self.pass_number is None else f"pass {self.pass_number}, {self.step}"
        joint = f", joint {self.joint_id} {self.joint}" if self.joint_id is not None else ""
        return (f"{stop}{joint}: {self.field} is off at {self.where} "
                f"(pinref {self.got:.17g}, pin {self.expected:.17g}; abs {self.abs_error:.3g}, "
                f"rel {self.rel_error:.3g} > {self.tolerance:g}; {self.states_failing} state(s)); "
                f"pin's value: {self.reference}")


@dataclass(frozen=True)
class Conditioning:
    """The states of an algorithm that agree only within their conditioning.

    Where a state's rounding is amplified (ABA on a badly conditioned state: a running error
    bound of its joint blocks, ``pinref.compare.diff.aba_amplification``), its error is judged
    against ``bound = max(tolerance, factor * eps * amplification)`` instead of the tolerance.
    ``states`` counts them; ``state``, ``cache``, ``rel_error``, ``amplification`` and
    ``bound`` describe the one with the largest relative error.
    """

    states: int
    state: tuple
    cache: str
    rel_error: float
    amplification: float
    bound: float
    factor: float

    def __str__(self):
        return (f"{self.states} state(s) agree within conditioning (worst: state "
                f"{_state(self.state)}, {self.cache} rel {self.rel_error:.3g} <= "
                f"{self.factor:g} eps x amplification {self.amplification:.3g} = "
                f"{self.bound:.3g})")


@dataclass(frozen=True)
class AlgorithmDiff:
    """One algorithm: every cache of the end state and every stop of the trace compared;
    ``conditioning`` is None when every state agrees within the tolerance itself."""

    algorithm: str
    caches: tuple
    first_divergence: Divergence | None
    stops_compared: int
    fields_compared: int
    fields_failed: int
    seconds: dict = field(default_factory=dict)
    conditioning: Conditioning | None = None

    @property
    def agree(self):
        return self.first_divergence is None and all(c.agree for c in self.caches)

    def worst(self):
        """The CacheDiff with the largest relative error."""
        return max(self.caches, key=lambda c: c.max_rel_error)


@dataclass(frozen=True)
class DiffReport:
    """pinref against Pinocchio on one model and one batch of states.

    ``model`` (name, nq, nv, njoints, joint names), ``states`` (count), ``batch_shape``,
    ``tolerance``, ``inputs`` (which of a, tau, fext, armature were used), ``versions``
    (pinref, pin), ``algorithms`` one AlgorithmDiff each, ``seconds`` the wall times.
    ``agree`` is True when every algorithm agrees.
    """

    model: dict
    states: int
    batch_shape: tuple
    tolerance: float
    inputs: dict
    versions: dict
    algorithms: tuple
    seconds: dict = field(default_factory=dict)

    @property
    def agree(self):
        return all(a.agree for a in self.algorithms)

    def __getitem__(self, algorithm):
        for a in self.algorithms:
            if a.algorithm == algorithm:
                return a
        raise KeyError(algorithm)

    def to_dict(self):
        """Plain data (dicts, lists, numbers, strings, None), with ``agree`` flags added."""
        out = asdict(self)
        out["agree"] = self.agree
        out["batch_shape"] = list(self.batch_shape)
        for a, d in zip(self.algorithms, out["algorithms"]):
            d["agree"] = a.agree
            for c, dc in zip(a.caches, d["caches"]):
                dc["agree"] = c.agree
        return _plain(out)

    def to_json(self, indent=2):
        return json.dumps(self.to_dict(), indent=indent, allow_nan=False)

    def _header(self):
        m = self.model
        inputs = "; ".join(f"{k}: {v}" for k, v in self.inputs.items())
        return [(f"pinref diff: model {m['name']!r} (nq {m['nq']}, nv {m['nv']}, "
                 f"{m['njoints'] - 1} joints); {inputs}"),
                (f"pinref {self.versions['pinref']} against pin {self.versions['pin']}; "
                 f"tolerance {self.tolerance:g} * max(1, |ref|) per cache, joint and state")]

    def __str__(self):
        """The summary: max relative error of each cache (rows) for each algorithm (columns),
        then one verdict per algorithm with its worst cache or its first divergence."""
        names = []
        for a in self.algorithms:
            names.extend(c.cache for c in a.caches if c.cache not in names)
        head = ["cache"] + [a.algorithm for a in self.algorithms]
        rows = [head]
        for name in names:
            row = [name]
            for a in self.algorithms:
                c = next((c for c in a.caches if c.cache == name), None)
                row.append("" if c is None else f"{c.max_rel_error:.2g}" + ("" if c.agree
                                                                           else " !"))
            rows.append(row)
        widths = [max(len(r[k]) for r in rows) for k in range(len(head))]
        lines = self._header() + [""]
        lines += ["  ".join(x.ljust(w) for x, w in zip(r, widths)).rstrip() for r in rows]
        lines.append("(max relative error over joints and states; ! = beyond the tolerance)")
        lines.append("")
        width = max(len(a.algorithm) for a in self.algorithms)
        for a in self.algorithms:
            name = a.algorithm.ljust(width)
            stops = f"{a.fields_compared} fields at {a.stops_compared} stops"
            if a.agree:
                w = a.worst()
                where = f" at {w.where_rel}" if w.where_rel is not None else ""
                lines.append(f"{name}  agree   {stops}; worst {w.cache} "
                             f"{w.max_rel_error:.2g}{where}")
                if a.conditioning is not None:
                    lines.append(f"{' ' * width}          {a.conditioning}")
                continue
            lines.append(f"{name}  DIFFER  {stops}, {a.fields_failed} off; first divergence:")
            lines.append(f"{' ' * width}          {a.first_divergence}")
            off = [c.cache for c in a.caches if not c.agree]
            if off:
                lines.append(f"{' ' * width}          off at the end: {', '.join(off)}")
        return "\n".join(lines)

    def details(self):
        """Every cache of every algorithm: worst absolute and relative errors and where."""
        lines = self._header()
        for a in self.algorithms:
            lines.append("")
            verdict = "agree" if a.agree else "DIFFER"
            lines.append(f"{a.algorithm}: {verdict} ({len(a.caches)} caches at the end, "
                         f"{a.fields_compared} fields at {a.stops_compared} stops; "
                         f"{a.fields_failed} off)")
            if a.first_divergence is not None:
                lines.append(f"  first divergence: {a.first_divergence}")
            if a.conditioning is not None:
                lines.append(f"  {a.conditioning}")
            lines.extend("  " + row for row in _cache_table(a.caches))
        return "\n".join(lines)


def _cache_table(caches):
    head = ("cache", "max abs", "max rel", "compared", "worst (rel) at")
    rows = [head]
    for c in caches:
        where = str(c.where_rel) if c.where_rel is not None else "-"
        mark = "" if c.agree else f"  <- {c.failed} off"
        rows.append((c.cache, f"{c.max_abs_error:.2g}", f"{c.max_rel_error:.2g}",
                     str(c.compared), where + mark))
    widths = [max(len(r[k]) for r in rows) for k in range(len(head) - 1)]
    return ["  ".join(x.ljust(w) for x, w in zip(r, widths)) + "  " + r[-1] for r in rows]


def _plain(x):
    if isinstance(x, dict):
        return {str(k): _plain(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [_plain(v) for v in x]
    if isinstance(x, float):
        return x if math.isfinite(x) else str(x)     # JSON has no NaN or infinity
    if hasattr(x, "item"):          # numpy scalars
        return _plain(x.item())
    return x
