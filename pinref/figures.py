"""Two pictures of a model: its kinematic tree (``pinref info --plot``) and the block structure
of its joint-space inertia matrix M (``pinref trace crba --plot``).

``plot_tree(model, path)``: one box per joint (the universe at the top) with its id, name and
type, ``idx_q/nq``, ``idx_v/nv`` and the velocity span of its subtree, ``v[idx_v : idx_v +
nvSubtree]`` (the columns CRBA writes into the joint's block row); the tree levels (joints of one
depth, whose steps pinref's passes take at once) are shaded bands.

``plot_mass_matrix(model, M, path)``: the heat map of ``|M|`` (log scale; an exact zero is
white, one below 1e-12 max|M|, rounding, gray), each joint's block
``M[idx_v_i : idx_v_i + nv_i, idx_v_j : idx_v_j + nv_j]`` outlined; on models of at most
``LABEL_JOINTS`` joints each block is labelled as in the tutorial: ``M_bb`` for a free-flyer
base, ``M_b2``, ``M_22``, ... (joint ids). The blocks of two joints
in different branches (neither an ancestor of the other) are exactly zero: CRBA never writes
them.

Both need matplotlib (``pip install 'pinref[plot]'``), write a PNG and return the Figure.
The helpers every ``--plot`` shares live here too: ``require_plot`` (the path and matplotlib
checked before a run), ``save_figure`` and their two errors.
"""

import os
from pathlib import Path

import numpy as np

from .errors import PinrefError, ShapeError

ROUNDING = 1e-12       # |M| entries below this times max|M| are drawn gray, exact zeros white
LABEL_JOINTS = 8       # label every block of M up to this many joints; the axes name them above
_LEVEL_SHADES = ("#e8eef7", "#f7f7f7")


def subtree_span(model, i):
    """``(idx_v[i], idx_v[i] + nvSubtree[i])``: the velocity indices of joint ``i``'s subtree
    (the model's joints are ordered so that a subtree's dofs are contiguous)."""
    lo = model.idx_vs[i]
    return lo, lo + sum(model.nvs[j] for j in model.subtrees[i])


def _depths(model):
    depth = [0] * model.njoints
    for i in range(1, model.njoints):
        depth[i] = depth[model.parents[i]] + 1
    return depth


def _x_positions(model):
    """Leaves at 0, 1, 2, ... in depth-first order; a parent centred over its children."""
    children = {i: [] for i in range(model.njoints)}
    for i in range(1, model.njoints):
        children[model.parents[i]].append(i)
    x, leaf = {}, [0]

    def place(i):
        if not children[i]:
            x[i] = float(leaf[0])
            leaf[0] += 1
        else:
            for c in children[i]:
                place(c)
            x[i] = 0.5 * (x[children[i][0]] + x[children[i][-1]])

    place(0)
    return x, leaf[0]


def _short_type(jmodel):
    return jmodel.shortname().removeprefix("JointModel")


def plot_tree(model, path, name=None):
    """Write the kinematic tree of ``model`` to ``path`` (a .png), titled ``name`` (default
    ``model.name``); returns the Figure."""
    check_plot_path(path)
    plt = _pyplot()
    depth = _depths(model)
    x, n_leaves = _x_positions(model)
    levels = max(depth) + 1
    col = 3.1                                   # inches per leaf column
    row = 0.82                                  # inches per level
    fig, ax = plt.subplots(figsize=(max(6.0, col * n_leaves + 1.2), row * levels + 1.0))
    ax.set_xlim(-0.75, n_leaves - 0.25)
    ax.set_ylim(levels - 0.5, -0.6)
    ax.axis("off")
    for d in range(levels):
        ax.axhspan(d - 0.5, d + 0.5, color=_LEVEL_SHADES[d % 2], zorder=0)
        ax.text(-0.72, d, f"level {d}", fontsize=8, color="#445", va="center")
    for i in range(1, model.njoints):
        p = model.parents[i]
        ax.plot([x[p], x[i]], [depth[p] + 0.22, depth[i] - 0.22], color="#889", lw=1, zorder=1)
    box = dict(boxstyle="round,pad=0.3", fc="white", ec="#4a6fa5", lw=1)
    ax.text(x[0], 0, "0 universe", ha="center", va="center", fontsize=8, bbox=box, zorder=2)
    for i in range(1, model.njoints):
        lo, hi = subtree_span(model, i)
        label = (f"{i} {model.names[i]}\n{_short_type(model.joints[i])}  "
                 f"q {model.idx_qs[i]}/{model.nqs[i]}  v {model.idx_vs[i]}/{model.nvs[i]}\n"
                 f"subtree v[{lo}:{hi}]")
        ax.text(x[i], depth[i], label, ha="center", va="center", fontsize=7, bbox=box,
                zorder=2, linespacing=1.15)
    ax.set_title(f"{name or model.name or 'model'}: nq {model.nq}, nv {model.nv}, "
                 f"{model.njoints - 1} joints\nbox: id name / type, idx_q/nq, idx_v/nv / "
                 "subtree velocity span; one shade per level", fontsize=9)
    fig.tight_layout()
    return save_figure(plt, fig, path)


def _block_name(model, i):
    if i == 1 and model.nvs[1] == 6 and model.parents[1] == 0:
        return "b"
    return str(i)


def plot_mass_matrix(model, M, path, name=None):
    """Write the heat map of ``|M|`` (``M`` of shape ``(nv, nv)``, e.g. ``data.M`` after crba)
    with the joints' blocks outlined to ``path`` (a .png), titled ``name`` (default
    ``model.name``); returns the Figure."""
    check_plot_path(path)
    M = np.asarray(M, dtype=float)
    if M.shape != (model.nv, model.nv):
        raise ShapeError(f"plot_mass_matrix: M has shape {M.shape}, expected (nv, nv) = "
                         f"({model.nv}, {model.nv})")
    plt = _pyplot()
    from matplotlib.colors import LogNorm
    A = np.abs(M)
    top = A.max() if A.max() > 0 else 1.0
    size = min(9.0, 4.0 + 0.16 * model.nv)
    fig, ax = plt.subplots(figsize=(size + 1.6, size))
    # exact zeros (masked) white; below ROUNDING * max|M| (rounding, not structure) gray
    cmap = plt.get_cmap("viridis").with_extremes(bad="white", under="#d0d0d0")
    image = ax.imshow(np.ma.masked_where(A == 0, A), cmap=cmap,
                      norm=LogNorm(vmin=ROUNDING * top, vmax=top), interpolation="nearest")
    fig.colorbar(image, ax=ax, shrink=0.8, extend="min",
                 label=f"|M[r, c]|; white: exactly 0, gray: below {ROUNDING:g} max|M|")
    joints = [i for i in range(1, model.njoints) if model.nvs[i] > 0]
    ticks, names = [], []
    for i in joints:
        lo, n = model.idx_vs[i], model.nvs[i]
        for j in joints:
            lo_j, n_j = model.idx_vs[j], model.nvs[j]
            ax.add_patch(plt.Rectangle((lo_j - 0.5, lo - 0.5), n_j, n, fill=False,
                                       ec="#d33" if i == j else "#666", lw=1.2 if i == j else 0.5))
            if len(joints) <= LABEL_JOINTS:
                zero = not np.any(M[lo:lo + n, lo_j:lo_j + n_j])
                ax.text(lo_j + 0.5 * n_j - 0.5, lo + 0.5 * n - 0.5,
                        f"M_{_block_name(model, i)}{_block_name(model, j)}" + (
                            "\n= 0" if zero else ""),
                        ha="center", va="center", fontsize=9 if n * n_j > 1 else 8,
                        color="black" if zero else "white",
                        bbox=dict(boxstyle="round,pad=0.15", fc="#0006", ec="none")
                        if not zero else None)
        ticks.append(lo + 0.5 * n - 0.5)
        names.append(_block_name(model, i))
    ax.set_xticks(ticks, names, fontsize=7 if len(joints) > LABEL_JOINTS else 9)
    ax.set_yticks(ticks, names, fontsize=7 if len(joints) > LABEL_JOINTS else 9)
    ax.set_xlabel("column block: joint id (b: the free-flyer base), width nv")
    ax.set_ylabel("row block: joint id")
    ax.set_title(f"|M| of {name or model.name or 'the model'} (nv {model.nv}): joint blocks "
                 "outlined, diagonal blocks in red", fontsize=9)
    fig.tight_layout()
    return save_figure(plt, fig, path)


# --- what every --plot shares (the experiments' figures too) -------------------------------------


class MissingPlotError(PinrefError, ImportError):
    """matplotlib is not installed (``pip install 'pinref[plot]'``)."""


class PlotFileError(PinrefError, OSError):
    """The figure cannot be written where asked (no such directory, not writable, a
    directory, not a .png name)."""


def check_plot_path(path):
    """Refuse, before a long run, a figure path that cannot be written: not a .png name (the
    figure is a PNG and matplotlib would add ``.png`` to a name without one), a directory, or in
    a directory that does not exist or is not writable. Raises PlotFileError."""
    p = Path(os.fspath(path))
    if p.suffix.lower() != ".png":
        raise PlotFileError(f"--plot {str(path)!r}: expected a file name ending in .png, "
                            f"e.g. {p.stem or 'figure'}.png")
    if p.is_dir():
        raise PlotFileError(f"--plot {path}: is a directory; give a file name in it")
    parent = p.parent
    if not parent.is_dir():
        raise PlotFileError(f"--plot {path}: no directory {parent}; create it or write the "
                            "figure elsewhere")
    if not os.access(parent, os.W_OK):
        raise PlotFileError(f"--plot {path}: the directory {parent} is not writable; write "
                            "the figure elsewhere")


def require_plot(path):
    """Before a run whose figure goes to ``path``: PlotFileError for a path that cannot be
    written, MissingPlotError without matplotlib (not after the run)."""
    check_plot_path(path)
    _pyplot()


def save_figure(plt, fig, path):
    """Save ``fig`` as ``path`` (PNG, 110 dpi), close it and return it; an OSError of the write
    becomes a PlotFileError naming the file."""
    try:
        fig.savefig(path, dpi=110)
    except OSError as err:
        raise PlotFileError(f"--plot {path}: cannot write the figure "
                            f"({err.strerror or err})") from err
    finally:
        plt.close(fig)
    return fig


def _pyplot():
    try:
        import matplotlib
    except ImportError:
        raise MissingPlotError("--plot needs matplotlib: pip install 'pinref[plot]'") from None
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt
