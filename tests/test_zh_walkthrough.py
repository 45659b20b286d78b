"""docs/zh/walkthrough.md is the walkthrough in the tutorials' language: the same stops (its
sections) and the same code blocks with the same outputs as docs/walkthrough.md, its prose in
Chinese with the tutorials' terms. tests/test_docs.py runs its blocks like the English page's."""

import re
from pathlib import Path

from test_docs import blocks

ROOT = Path(__file__).resolve().parents[1]
EN = (ROOT / "docs" / "walkthrough.md").read_text()
ZH = (ROOT / "docs" / "zh" / "walkthrough.md").read_text()


def fenced(text):
    return [(lang, body) for lang, _, body in blocks(text)]


def sections(text):
    return [m.group(1) for m in re.finditer(r"^## (\d+)\.", text, re.M)]


def test_the_same_code_blocks_and_outputs_in_the_same_order():
    en, zh = fenced(EN), fenced(ZH)
    assert len(en) >= 40 and zh == en


def test_the_same_stops_and_pictures():
    assert sections(ZH) == sections(EN) == ["0", "1", "2", "3", "4", "5"]
    pictures = re.findall(r"\]\((?:\.\./)?figures/([\w-]+\.png)\)", EN)
    assert pictures and re.findall(r"\]\(\.\./figures/([\w-]+\.png)\)", ZH) == pictures


def test_the_prose_is_chinese_with_the_tutorials_terms():
    prose = "\n".join(line for line in ZH.splitlines() if not line.startswith(("    ", "`")))
    han = len(re.findall(r"[\u4e00-\u9fff]", prose))
    assert han > 2000
    for term in ["铰接体惯量", "复合刚体惯量", "偏置加速度", "偏置力", "运动子空间", "自由漂浮",
                 "质量矩阵", "第一趟", "第二趟", "第三趟", "消元", "回代"]:
        assert term in ZH, term


def test_its_links_resolve():
    for target in re.findall(r"\]\(([^)#]+)\)", ZH):
        if "://" not in target:
            assert (ROOT / "docs" / "zh" / target).resolve().exists(), target
