"""design.md §2 in the tools' code: spatial vectors are [linear; angular] and their halves are
named (``LINEAR``, ``ANGULAR`` from pinref.spatial), never bare ``[:3]`` / ``[3:]``.

A source scan of the tool packages. Rotation blocks and translations of a 4x4 placement
(``H[:3, :3]``, ``H[:3, 3]``) are not spatial vectors and are not matched.
"""

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[2] / "pinref"
FILES = sorted([*(ROOT / "tracing").glob("*.py"), *(ROOT / "checking").glob("*.py"),
                ROOT / "cli.py", ROOT / "model" / "loading.py",
                *(ROOT / "compare" / f"{name}.py" for name in
                  ("reference", "caches", "diff", "report", "command"))])

# x[:3], x[3:], x[0:3], x[3:6], x[..., :3], x[:, 3:]: a half of a 6-vector by number.
BARE_HALF = re.compile(r"\[\s*(?:(?:\.\.\.|:)\s*,\s*)*(?:0?\s*:\s*3|3\s*:\s*6?)\s*\]")


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(ROOT.parent)))
def test_no_bare_spatial_slices(path):
    bad = [f"{path.name}:{n}: {line.strip()}"
           for n, line in enumerate(path.read_text().splitlines(), 1)
           if BARE_HALF.search(line.split("#")[0])]
    assert not bad, "use LINEAR / ANGULAR from pinref.spatial:\n" + "\n".join(bad)


def test_the_scan_sees_what_it_should():
    for text in ("v[:3]", "v[3:]", "f_c[..., :3]", "f[..., 3:]", "x[:, 0:3]", "g[3:6]"):
        assert BARE_HALF.search(text), text
    for text in ("H[..., :3, :3]", "H[:3, 3]", "v[LINEAR]", "x[..., ANGULAR]", "q[7:]",
                 "s[:30]"):
        assert not BARE_HALF.search(text), text
