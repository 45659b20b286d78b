"""Command output that fits the terminal: the width to fit, wrapped lines, wrapped or stacked
tables.

The commands (``pinref trace``, ``diff``, ``check``, ``source``) fit their text to
``output_width()``: the terminal's width when stdout is a terminal
(``shutil.get_terminal_size``), else ``DEFAULT_WIDTH`` (120) columns; ``--wide`` (width None)
keeps every line whole. A table too wide for the width wraps its cells (``fit_table``); when
even its narrowest wrapped form is too wide, it splits into stacked tables that repeat the
leading key columns.
"""

import re
import shutil
import sys
import textwrap

DEFAULT_WIDTH = 120   # when stdout is not a terminal (a file, a pipe, a test)
SEP = "  "
_FLOOR = 12           # a wrapped column keeps at least this many characters (or its natural width)
_SECONDS = re.compile(r"(\d) s\b")
_LAST_FLOOR = 30      # the last column, the one with prose ("known at this stop")


def output_width(wide=False, stream=None):
    """Columns to fit: None for ``wide``, the terminal's width on a terminal, else 120."""
    if wide:
        return None
    stream = sys.stdout if stream is None else stream
    if getattr(stream, "isatty", lambda: False)():
        return max(40, shutil.get_terminal_size((DEFAULT_WIDTH, 24)).columns)
    return DEFAULT_WIDTH


def add_wide_argument(parser):
    """``--wide``: keep today's one-line rows instead of fitting the terminal."""
    parser.add_argument("--wide", action="store_true",
                        help=f"do not fit the output to the terminal's width ({DEFAULT_WIDTH} "
                             "columns when not a terminal): one line per row, however long")


def fit_lines(text, width):
    """``text`` with every line longer than ``width`` wrapped at spaces.

    A continuation line is indented to where the line's last field starts (after its last run
    of two or more spaces in the first half of the width), else four past the line's own
    indentation, so that wrapped rows stay in their column. A line holding a long path (a word
    with a "/" over half the width) or a word longer than the room stays whole, to be copied.
    """
    if width is None:
        return text
    out = []
    for line in text.split("\n"):
        if len(line) <= width:
            out.append(line)
            continue
        lead = len(line) - len(line.lstrip(" "))
        starts = [m.end() for m in re.finditer(r" {2,}", line) if lead < m.end() <= width // 2]
        hang = starts[-1] if starts else min(lead + 4, width // 2)
        if any(len(w) > width - hang or ("/" in w and len(w) > width // 2) for w in line.split()):
            out.append(line)        # a long path, or a word longer than the room: kept whole
            continue
        glued = _SECONDS.sub("\\1\xa0s", line[lead:])   # "0.03 s" stays on one line
        out.extend(x.replace("\xa0", " ") for x in
                   textwrap.wrap(glued, width, initial_indent=" " * lead,
                                 subsequent_indent=" " * hang, break_on_hyphens=False))
    return "\n".join(out)


def _render(head, rows, widths, rule=True):
    """Rows of cells wrapped to ``widths``; a blank line between rows when over a quarter of
    them wrap."""
    def cells(row):     # a cell marked "* " (or its blank "  ") keeps its text in line
        return [textwrap.wrap(c, w, break_on_hyphens=False,
                              subsequent_indent="  " if c[:2] in ("* ", "  ") else "") or [""]
                for c, w in zip(row, widths)]

    wrapped = [cells(r) for r in rows]
    multi = 4 * sum(any(len(c) > 1 for c in r) for r in wrapped) > len(rows)
    lines = []
    for k, row in enumerate([cells(head)] + wrapped):
        if k > 1 and multi:
            lines.append("")
        for n in range(max(len(c) for c in row)):
            parts = [(c[n] if n < len(c) else "").ljust(w) for c, w in zip(row, widths)]
            lines.append(SEP.join(parts).rstrip())
        if k == 0 and rule:     # the last column's rule as long as its header, as in wide mode
            rules = [w for w in widths[:-1]] + [min(widths[-1], len(head[-1]))]
            lines.append(SEP.join("-" * w for w in rules))
    return lines


def _floors(head, rows, natural):
    last = len(natural) - 1
    floors = []
    for k, n in enumerate(natural):
        longest_word = max(len(w) for r in [head] + rows for w in (r[k].split() or [""]))
        floor = _LAST_FLOOR if k == last else _FLOOR
        floors.append(min(n, max(floor, min(longest_word, _LAST_FLOOR))))
    return floors


def _fit_widths(natural, floors, width):
    """Column widths summing (with separators) to at most ``width``: each column gives up a
    share of its width above its floor in proportion to that excess; None when even the floors
    are too wide."""
    room = width - len(SEP) * (len(natural) - 1)
    if sum(floors) > room:
        return None
    if sum(natural) <= room:
        return list(natural)
    excess = [n - f for n, f in zip(natural, floors)]
    spare = room - sum(floors)
    widths = [f + (e * spare) // sum(excess) for f, e in zip(floors, excess)]
    k = 0
    while sum(widths) < room and any(w < n for w, n in zip(widths, natural)):
        if widths[k] < natural[k]:
            widths[k] += 1
        k = (k + 1) % len(widths)
    return widths


def fit_table(head, rows, width, key=0):
    """The table ``head`` / ``rows`` (lists of strings) as text lines no wider than ``width``.

    Fits as is when it can; else its cells wrap (each column narrowed in proportion to its
    width above a floor of 12 characters, 30 for the last); when even that is too wide, it
    splits into stacked tables, each repeating the first ``key`` columns (wrapped) and taking
    as many of the others, in order and whole (the last one may wrap), as fit. ``width`` None:
    one line per row at the natural widths.
    """
    rows = [list(r) for r in rows]
    natural = [max(len(r[k]) for r in [head] + rows) for k in range(len(head))]
    if width is None:
        return _render(head, rows, natural)
    floors = _floors(head, rows, natural)
    widths = _fit_widths(natural, floors, width)
    if widths is not None or key == 0 or key >= len(head) - 1:
        if widths is None:      # nothing to stack: the floors, wider than asked
            widths = floors
        return _render(head, rows, widths)
    # Stacked: the key columns wrapped, the others whole (the last may wrap), in order.
    whole = [f if k < key or k == len(head) - 1 else n
             for k, (n, f) in enumerate(zip(natural, floors))]
    groups, group = [], []
    for k in range(key, len(head)):
        trial = list(range(key)) + group + [k]
        if group and sum(whole[j] for j in trial) + len(SEP) * (len(trial) - 1) > width:
            groups.append(group)
            group = []
        group.append(k)
    groups.append(group)
    lines = []
    for g in groups:
        cols = list(range(key)) + g
        sub_head = [head[j] for j in cols]
        sub_rows = [[r[j] for j in cols] for r in rows]
        if lines:
            lines.append("")
        lines.extend(fit_table(sub_head, sub_rows, width))
    return lines
