"""The two pictures: the kinematic tree (``pinref info --plot``) and the block structure of M
(``pinref trace crba --plot``), from the command and from Python."""

import numpy as np
import pytest

import pinref
from pinref.cli import main
from pinref.figures import PlotFileError
from pinref.figures import plot_mass_matrix, plot_tree, subtree_span

PNG = b"\x89PNG\r\n\x1a\n"


def texts(fig):
    return [t.get_text() for ax in fig.axes for t in ax.texts]


@pytest.mark.parametrize("build", [pinref.buildTutorialModel, pinref.buildSampleModelHumanoid])
def test_the_tree_names_every_joint_with_its_indices_and_subtree_span(tmp_path, build):
    model = build()
    data = model.createData()
    fig = plot_tree(model, tmp_path / "tree.png")
    assert (tmp_path / "tree.png").read_bytes()[:8] == PNG
    labels = texts(fig)
    for i in range(1, model.njoints):
        lo, hi = subtree_span(model, i)
        assert hi - lo == data.nvSubtree[i]
        box = next(t for t in labels if t.startswith(f"{i} {model.names[i]}\n"))
        assert (f"q {model.idx_qs[i]}/{model.nqs[i]}  v {model.idx_vs[i]}/{model.nvs[i]}" in box
                and f"subtree v[{lo}:{hi}]" in box)
    depth = max(len(model.supports[i]) for i in range(model.njoints)) - 1
    assert sum(t.startswith("level ") for t in labels) == depth + 1


def test_the_tutorial_blocks_are_labelled_as_in_the_tutorial(tmp_path):
    model = pinref.buildTutorialModel()
    M = pinref.crba(model, model.createData(), pinref.neutral(model))
    labels = texts(plot_mass_matrix(model, M, tmp_path / "M.png"))
    for name in ["M_bb", "M_b2", "M_b3", "M_2b", "M_22", "M_23", "M_33"]:
        assert name in labels


def test_blocks_of_different_branches_are_exactly_zero_and_drawn_white(tmp_path):
    """The humanoid's legs are in different branches: their blocks of M are exactly zero, which
    the figure masks (white); its own blocks are not."""
    model = pinref.buildSampleModelHumanoid()
    q = pinref.randomConfiguration(model, -np.ones(model.nq), np.ones(model.nq))
    M = pinref.crba(model, model.createData(), q)
    rleg, lleg = slice(6, 12), slice(12, 18)
    assert not M[rleg, lleg].any() and M[rleg, rleg].any()
    fig = plot_mass_matrix(model, M, tmp_path / "M.png")
    shown = fig.axes[0].images[0].get_array()
    assert shown.mask[rleg, lleg].all() and np.array_equal(shown.mask, M == 0)
    with pytest.raises(ValueError, match="expected \\(nv, nv\\)"):
        plot_mass_matrix(model, M[:3], tmp_path / "M.png")


def test_the_commands_write_the_figures(tmp_path, capsys):
    tree, M = tmp_path / "tree.png", tmp_path / "M.png"
    assert main(["info", "--model", "humanoid", "--plot", str(tree)]) == 0
    assert main(["trace", "crba", "--plot", str(M)]) == 0
    out = capsys.readouterr().out
    assert f"wrote {tree}" in out and f"wrote {M}" in out
    assert tree.read_bytes()[:8] == PNG and M.read_bytes()[:8] == PNG
    assert main(["trace", "aba", "--plot", str(M)]) == 2
    assert "use it with crba" in capsys.readouterr().err
    assert main(["info", "--plot", str(tmp_path / "tree.pdf")]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and "ending in .png" in captured.err
    with pytest.raises(PlotFileError):
        plot_tree(pinref.buildTutorialModel(), tmp_path / "no" / "tree.png")
