"""Pass-by-pass traces of rnea, crba and aba.

    import pinref

    model = pinref.buildTutorialModel()
    data = model.createData()
    with pinref.trace() as t:
        pinref.aba(model, data, q, v, tau)
    print(t)                              # stop | Yaba[1] | Yaba[2] | Yaba[3] | what is known
    print(t.history("Yaba", joint=2))     # Yaba[2] after each step that wrote it
    t.select(step="AbaLocalConventionBackwardStep", joint="ry2_joint")[0]["f", 3]

After each joint step of each pass (named after Pinocchio's step struct:
``AbaLocalConventionForwardStep1``, ``AbaLocalConventionBackwardStep``,
``AbaLocalConventionForwardStep2``, ``RneaForwardStep``, ``RneaBackwardStep``,
``CrbaLocalConventionForwardStep``, ``CrbaLocalConventionBackwardStep``), and after each piece
of inline driver code (``f[i] -= fext[i]``, ABA's final loop ``f[parent] += liMi[i].act(f[i])``,
the armature terms, pin.crba's symmetrisation), the trace holds an immutable
:class:`Snapshot`: algorithm, step, pass number, joint id and name, and read-only copies of the
fields the step wrote. See docs/tools.md.

``pinref.trace`` is the function that opens a trace (``pinref.tracing.trace``); the classes
live in ``pinref.tracing``.
"""

from .record import Call, Snapshot, Trace, Write, trace
from .render import History, HistoryEntry, table

__all__ = ["Call", "History", "HistoryEntry", "Snapshot", "Trace", "Write", "table", "trace"]

