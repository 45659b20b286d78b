"""Command output fits the terminal: 120 columns when stdout is no terminal, the terminal's width
when it is one, one line per row with ``--wide`` (issue 24)."""

import os

import pytest

from pinref import textwidth
from pinref.cli import main
from pinref.textwidth import fit_lines, fit_table, output_width


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def widest(text):
    return max(len(line) for line in text.splitlines())


@pytest.mark.parametrize("argv", [
    ("trace", "aba"),
    ("trace", "aba", "--model", "humanoid"),
    ("trace", "rnea", "--model", "humanoid"),
    ("trace", "crba", "--convention", "world"),
    ("trace", "aba", "--joint", "ry1_joint"),
    ("diff", "--model", "humanoid", "--states", "3"),
    ("check", "--states", "2", "--no-snapshots"),
    ("source", "aba"),
], ids=" ".join)
def test_default_output_fits_120_columns_and_wide_does_not(capsys, argv):
    code, out, _ = run(capsys, *argv)
    assert code == 0 and widest(out) <= 120, widest(out)
    code, wide, _ = run(capsys, *argv, "--wide")
    assert code == 0 and widest(wide) > 120
    words = [w for w in out.split() if not w[0].isdigit()]
    wide_words = [w for w in wide.split() if not w[0].isdigit()]
    if argv[0] != "trace":       # the same text, only the line breaks differ
        assert words == wide_words


def test_the_tutorial_table_keeps_the_seeds_columns_in_one_table(capsys):
    """The seed's "where to stop" table: stop | Yaba[1] | Yaba[2] | Yaba[3] | what is known, in
    that order, in one table whose rows wrap."""
    _, out, _ = run(capsys, "trace", "aba")
    heads = [line for line in out.splitlines() if line.startswith("pass ")]
    assert len(heads) == 1
    assert heads[0].split("  ")[0] == "pass"
    assert [c.strip() for c in heads[0].split("  ") if c.strip()] == [
        "pass", "step", "joint", "Yaba[1]", "Yaba[2]", "Yaba[3]", "known at this stop"]
    assert "steps without their prefix AbaLocalConvention" in " ".join(out.split())
    assert "BackwardStep" in out and "* IA_1 (root," in out


def test_the_humanoid_stacks_its_columns_repeating_the_stop(capsys):
    _, out, _ = run(capsys, "trace", "aba", "--model", "humanoid")
    heads = [line.split() for line in out.splitlines() if line.startswith("pass ")]
    assert len(heads) >= 2 and all(h[:3] == ["pass", "step", "joint"] for h in heads)
    columns = [c for h in heads for c in h[3:]]
    assert columns == [f"Yaba[{j}]" for j in range(1, 7)] + ["known", "at", "this", "stop"]


def test_a_terminal_gives_its_width(capsys, monkeypatch):
    monkeypatch.setattr(os, "get_terminal_size", lambda *a: os.terminal_size((90, 30)))
    monkeypatch.delenv("COLUMNS", raising=False)

    class Tty:
        def isatty(self):
            return True

    assert output_width(stream=Tty()) == 90
    assert output_width(wide=True, stream=Tty()) is None
    assert output_width(stream=open(os.devnull, "w")) == textwidth.DEFAULT_WIDTH


def test_fit_table_wraps_then_stacks():
    head = ["k", "a", "b", "c", "last"]
    rows = [["1", "x" * 30, "y " * 20, "z" * 30, "w " * 60], ["2", "", "", "", "short"]]
    whole = fit_table(head, rows, None)
    assert len(whole) == 4 and widest("\n".join(whole)) > 100
    wrapped = fit_table(head, rows, 115, key=1)
    assert widest("\n".join(wrapped)) <= 115
    assert sum(line.startswith("k ") for line in wrapped) == 1      # one table, cells wrapped
    stacked = fit_table(head, rows, 60, key=1)
    assert widest("\n".join(stacked)) <= 60
    assert sum(line.startswith("k ") for line in stacked) >= 2      # stacked, k repeated
    text = " ".join(stacked).split()
    for word in ["x" * 30, "z" * 30, "short"]:
        assert word in text


def test_fit_lines_hangs_a_wrapped_line_in_its_column():
    line = "PASS   armature     residual 1e-16  " + "the description goes on " * 6
    out = fit_lines(line, 80).splitlines()
    assert len(out) > 1 and widest("\n".join(out)) <= 80
    assert all(x.startswith(" " * 36) for x in out[1:])
    assert fit_lines(line, None) == line
