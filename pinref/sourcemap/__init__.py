"""pinref's statements beside the lines of Pinocchio's headers they mirror (``pinref source``).

    from pinref.sourcemap import resolve, render

    blocks = resolve("aba")          # the installed pin's headers (pip install 'pinref[pin]')
    print(render(blocks))

The map is data, ``linemap.json`` beside this module: for each algorithm, blocks in the order the
algorithm runs them; a block pairs one pinref function (file and dotted name, found with
``ast``) with one scope of a header (a text found exactly once in the header; the block runs from
there to the first closing brace at the indentation of the scope's first line). Each step pairs an
anchor text found exactly once in the pinref function with one found exactly once in the header
block. Anchors are compared with runs of whitespace collapsed to one space, so a statement split
over lines, or moved by a reformatting, still matches; no line number is stored, they are found
at run time (but for the record of the baseline's header line of each step, the one
docs/walkthrough.md quotes). Where a header's path or text differs between Pinocchio versions the
map holds a small ``{version: text}`` table in its place (``pick``). ``tests/tools/test_source.py``
checks every anchor against the installed pin, 3.8.0 or 4.1.0.

The headers are found in the installed wheels (``libpinocchio``/``pin``: cmeel's
``cmeel.prefix/include/pinocchio``), in either layout: pin 3.x keeps the algorithms in
``algorithm/*.hxx``, pin 4.x in ``src/algorithm/*.hxx``; the version is the headers' own
``PINOCCHIO_VERSION`` (config.hpp). Nothing imports pinocchio; pinref's core never does.
"""

import ast
import importlib.metadata
import importlib.util
import json
import re
from dataclasses import dataclass
from pathlib import Path

from ..errors import PinrefError

MAP_FILE = Path(__file__).with_name("linemap.json")
ROOT = Path(__file__).resolve().parents[2]
ALGORITHMS = ("rnea", "crba", "aba")


class HeadersNotFoundError(PinrefError, ImportError):
    """Pinocchio's headers are not installed (``pip install 'pinref[pin]'``)."""


class SourceMapError(PinrefError, LookupError):
    """An anchor of the line map is not found exactly once: the map has drifted from the code."""


@dataclass(frozen=True)
class Place:
    """Where an anchor was found: ``file`` (as shown), 1-based ``first``..``last`` lines and
    their text; ``comment`` the comment line just above (pinref's side), ``error`` why it was
    not found (then lines are 0 and text empty)."""

    file: str
    first: int
    last: int
    text: str
    comment: str = ""
    error: str = ""


@dataclass(frozen=True)
class Step:
    pinref: Place
    pin: Place


@dataclass(frozen=True)
class Block:
    """One stop: ``stop`` (the trace's step name), the pinref function and the header scope with
    the lines where each starts, and the steps."""

    stop: str
    function: Place
    scope: Place
    steps: tuple

    @property
    def ok(self):
        return not (self.function.error or self.scope.error) and all(
            not (s.pinref.error or s.pin.error) for s in self.steps)


def load_map():
    """The line map as plain data (``linemap.json``)."""
    return json.loads(MAP_FILE.read_text())


@dataclass(frozen=True)
class Headers:
    """One Pinocchio's headers: ``include`` (its include/pinocchio directory), ``source`` (where
    the map's header paths start: ``include`` for pin 3.x, ``include/src`` for pin 4.x) and
    ``version`` (``PINOCCHIO_VERSION`` of its config.hpp, None if it has none)."""

    include: Path
    source: Path
    version: object = None


# Where each layout keeps aba.hxx under include/pinocchio: pin 3.x, then pin 4.x.
LAYOUTS = (("algorithm/aba.hxx", ""), ("src/algorithm/aba.hxx", "src"))


def _looked_for(include):
    return " or ".join(f"{include}/{probe}" for probe, _ in LAYOUTS)


def _read_header(path):
    """The text of the header ``path``; HeadersNotFoundError when it is not UTF-8 (no
    Pinocchio header, whose sources are ASCII)."""
    try:
        return path.read_text(encoding="utf-8")
    except UnicodeDecodeError as err:
        raise HeadersNotFoundError(
            f"{path} is not UTF-8 text (byte {err.object[err.start:err.start + 1].hex()} at "
            f"offset {err.start}): not a Pinocchio header; give --headers the include/pinocchio "
            "directory of a Pinocchio install") from None


def open_headers(include):
    """``Headers`` of the include/pinocchio directory ``include``, either layout; raises
    HeadersNotFoundError naming the files looked for when it is neither."""
    include = Path(include)
    for probe, source in LAYOUTS:
        if (include / probe).is_file():
            config = include / "config.hpp"
            found = re.search(r'define PINOCCHIO_VERSION "([^"]+)"',
                              _read_header(config)) if config.is_file() else None
            return Headers(include, include / source, found.group(1) if found else None)
    raise HeadersNotFoundError(f"no Pinocchio headers in {include}: looked for "
                               f"{_looked_for(include)}")


def find_headers():
    """``Headers`` of the installed Pinocchio wheel (pin 3.x or 4.x layout).

    Looks through the files of the ``libpinocchio`` and ``pin`` distributions for
    ``include/pinocchio/algorithm/aba.hxx`` (3.x) or ``include/pinocchio/src/algorithm/aba.hxx``
    (4.x), then next to the ``pinocchio`` package; imports nothing. Raises HeadersNotFoundError
    naming what it looked for when none has them.
    """
    probes = tuple("include/pinocchio/" + probe for probe, _ in LAYOUTS)
    for name in ("libpinocchio", "pin"):
        try:
            dist = importlib.metadata.distribution(name)
        except importlib.metadata.PackageNotFoundError:
            continue
        for f in dist.files or ():
            for probe in probes:
                if str(f).endswith(probe):
                    include = Path(dist.locate_file(f)).parents[probe.count("/") - 2]
                    return open_headers(include)
    spec = importlib.util.find_spec("pinocchio")
    if spec is not None and spec.origin:
        for parent in Path(spec.origin).parents:
            candidate = parent / "include" / "pinocchio"
            if any((candidate / probe).is_file() for probe, _ in LAYOUTS):
                return open_headers(candidate)
    raise HeadersNotFoundError(
        "Pinocchio's headers are not installed (looked in the libpinocchio and pin wheels and "
        "beside the pinocchio package for " + " or ".join(probes) + "): pip install "
        "'pinref[pin]' (pin==3.8.0) or 'pinref[pin4]', or give --headers DIR (the "
        "include/pinocchio directory)")


def _version_key(version):
    return tuple(int(part) for part in re.findall(r"\d+", version)[:3])


def pick(value, version, baseline):
    """The text of ``value`` for Pinocchio ``version``: ``value`` itself, or, where the text
    differs between versions, a ``{version it holds from: text}`` table, of which the entry of
    the newest version not newer than ``version`` (the ``baseline``'s when ``version`` is None
    or older than every entry)."""
    if not isinstance(value, dict):
        return value
    if version is None:
        return value[baseline]
    older = [v for v in value if _version_key(v) <= _version_key(version)]
    return value[max(older, key=_version_key)] if older else value[baseline]


def _collapse(lines, first):
    """``(text, owner)``: the lines' tokens joined by one space, and the line number of each
    character of that text."""
    text, owner = [], []
    for k, line in enumerate(lines):
        for token in line.split():
            if text:
                text.append(" ")
                owner.append(first + k)
            text.append(token)
            owner.extend([first + k] * len(token))
    return "".join(text), owner


def _find_once(anchor, lines, first, where):
    """``(first line, last line)`` (1-based) of the one occurrence of ``anchor`` in ``lines``
    (numbered from ``first``), or a string saying why not."""
    text, owner = _collapse(lines, first)
    needle = " ".join(anchor.split())
    count = text.count(needle)
    if count != 1:
        return f"{needle!r} found {count} times in {where}, expected once"
    at = text.index(needle)
    return owner[at], owner[at + len(needle) - 1]


def _function_lines(path, dotted):
    """The source lines and first line number of a top-level function or a class's method."""
    source = path.read_text()
    body = ast.parse(source).body
    node = None
    for name in dotted.split("."):
        node = next((n for n in body if isinstance(n, (ast.FunctionDef, ast.ClassDef))
                     and n.name == name), None)
        if node is None:
            return None, 0
        body = node.body
    lines = source.splitlines()
    return lines[node.lineno - 1:node.end_lineno], node.lineno


def _statement_end(lines, first, last, first_no, python):
    """Extend [first, last] to the end of the statement: brackets balanced (Python), or a line
    ending in ; { or } (C++)."""
    k = last
    while k - first_no < len(lines) - 1:
        chunk = "\n".join(lines[first - first_no:k - first_no + 1])
        if python:
            if sum(chunk.count(c) for c in "([{") <= sum(chunk.count(c) for c in ")]}"):
                break
        elif chunk.splitlines()[-1].split("//")[0].rstrip().endswith((";", "{", "}")):
            break
        k += 1
    return k


def _place(file_shown, lines, first_no, anchor, where, python):
    found = _find_once(anchor, lines, first_no, where)
    if isinstance(found, str):
        return Place(file_shown, 0, 0, "", error=found)
    first, last = found
    last = _statement_end(lines, first, last, first_no, python)
    text = "\n".join(lines[k - first_no] for k in range(first, last + 1)
                     if lines[k - first_no].strip())
    comment = ""
    if python and first > first_no:
        above = lines[first - first_no - 1].strip()
        comment = above if above.startswith("#") else ""
    return Place(file_shown, first, last, text, comment)


def _scope_lines(header_lines, scope, where):
    """The lines of the header block that starts at the one occurrence of ``scope``, and the
    number of its first line; a list of scopes narrows step by step (each is looked for in the
    block of the one before). A string says why not."""
    lines, start = header_lines, 1
    for text in [scope] if isinstance(scope, str) else scope:
        found = _find_once(text, lines, start, where)
        if isinstance(found, str):
            return found, 0
        first = found[0]
        head = lines[first - start]
        indent = len(head) - len(head.lstrip())
        end = len(lines)
        for k in range(first - start + 1, len(lines)):
            line = lines[k]
            if line.strip().startswith("}") and len(line) - len(line.lstrip()) <= indent:
                end = k + 1
                break
        lines, start = lines[first - start:end], first
    return lines, start


def resolve(algorithm, headers=None, strict=False):
    """The blocks of ``algorithm`` ('rnea', 'crba' or 'aba') with every anchor located.

    headers : ``Headers``, or the include/pinocchio directory of a Pinocchio (``open_headers``;
        default: the installed wheel's, ``find_headers``); its version picks the map's texts
        where they differ between versions (``pick``)
    strict : raise SourceMapError at the first anchor not found exactly once (else the Place
        carries the reason in ``error``)

    Returns a tuple of Block.
    """
    if algorithm not in ALGORITHMS:
        raise SourceMapError(f"algorithm: expected one of {', '.join(ALGORITHMS)}, got "
                             f"{algorithm!r}")
    if headers is None:
        headers = find_headers()
    elif not isinstance(headers, Headers):
        headers = open_headers(headers)
    data = load_map()

    def text(value):
        return pick(value, headers.version, data["pinocchio"])

    blocks = []
    for entry in data["algorithms"][algorithm]:
        path = ROOT / entry["file"]
        lines, fn_line = _function_lines(path, entry["function"])
        header_path = headers.source / text(entry["header"])
        shown = header_path.relative_to(headers.include).as_posix()
        if not header_path.is_file():
            raise HeadersNotFoundError(f"no header {header_path} (the map's "
                                       f"{text(entry['header'])} for Pinocchio "
                                       f"{headers.version or '(version unknown)'}): give "
                                       "--headers the include/pinocchio directory of a "
                                       "Pinocchio install")
        header_lines = _read_header(header_path).splitlines()
        header = header_path.name
        scope_lines, scope_line = _scope_lines(header_lines, text(entry["scope"]), header)
        function = Place(entry["file"], fn_line, fn_line, entry["function"],
                         error="" if lines else f"no function {entry['function']} in "
                         f"{entry['file']}")
        failed = isinstance(scope_lines, str)
        scope = Place(shown, scope_line, scope_line,
                      "" if failed else scope_lines[0].strip(), error=scope_lines if failed else "")
        steps = []
        for ours, theirs, _baseline_line in entry["steps"]:
            mine = (_place(entry["file"], lines, fn_line, ours,
                           f"{entry['file']}:{entry['function']}", True)
                    if lines else Place(entry["file"], 0, 0, "", error=function.error))
            pin = (_place(shown, scope_lines, scope_line, text(theirs),
                          f"{header} block at line {scope_line}", False)
                   if not scope.error else Place(shown, 0, 0, "", error=scope.error))
            steps.append(Step(mine, pin))
        block = Block(entry["stop"], function, scope, tuple(steps))
        if strict and not block.ok:
            errors = [p.error for s in block.steps for p in (s.pinref, s.pin) if p.error]
            raise SourceMapError(f"{algorithm}, {entry['stop']} (Pinocchio "
                                 f"{headers.version or '(version unknown)'}): "
                                 f"{(function.error or scope.error or errors[0])}")
        blocks.append(block)
    return tuple(blocks)


def _indent(text, prefix):
    """``text`` after ``prefix``, its further lines aligned under the first and indented as
    in the source, relative to the first line."""
    first, *rest = text.splitlines() or [""]
    pad = " " * len(prefix)
    base = len(first) - len(first.lstrip())
    return "\n".join([prefix + first.strip()] + [
        pad + r[min(base, len(r) - len(r.lstrip())):].rstrip() for r in rest])


def render(blocks, algorithm, version=None, headers=None):
    """The listing ``pinref source`` prints: per block a heading with both places, then each
    statement as two lines (pinref's, with its comment, and the header's)."""
    out = [f"{algorithm}: pinref beside Pinocchio {version or '(version unknown)'}'s headers, "
           "statement by statement"]
    if headers is not None:
        out.append(f"headers: {headers}")
    for b in blocks:
        out.append("")
        fn = b.function
        out.append(f"== {b.stop}")
        out.append(f"   pinref  {fn.file}:{fn.first}  {fn.text}" if not fn.error
                   else f"   pinref  NOT FOUND: {fn.error}")
        scope = b.scope.text
        short = scope if len(scope) <= 70 else scope[:67] + "..."
        out.append(f"   pin     {b.scope.file}:{b.scope.first}  {short}" if not b.scope.error
                   else f"   pin     NOT FOUND: {b.scope.error}")
        for s in b.steps:
            out.append("")
            if s.pinref.comment:
                out.append(f"   {s.pinref.comment}")
            for side, p in (("pinref", s.pinref), ("pin", s.pin)):
                if p.error:
                    out.append(f"   {side:<6}  NOT FOUND: {p.error}")
                    continue
                name = Path(p.file).name
                out.append(_indent(p.text, f"   {side:<6}  {name + ':' + str(p.first):<18} "))
    return "\n".join(out)


def to_dict(blocks, algorithm, version=None, headers=None):
    """The blocks as plain data (``pinref source --json``)."""
    def place(p):
        d = {"file": p.file, "line": p.first, "last_line": p.last, "text": p.text}
        if p.comment:
            d["comment"] = p.comment
        if p.error:
            d["error"] = p.error
        return d

    return {"algorithm": algorithm, "pin": version,
            "headers": None if headers is None else str(headers), "ok": all(b.ok for b in blocks),
            "blocks": [{"stop": b.stop, "function": place(b.function), "scope": place(b.scope),
                        "steps": [{"pinref": place(s.pinref), "pin": place(s.pin)}
                                  for s in b.steps]} for b in blocks]}


__all__ = ["ALGORITHMS", "Block", "Headers", "HeadersNotFoundError", "LAYOUTS", "Place",
           "SourceMapError", "Step", "find_headers", "load_map", "open_headers", "pick", "render",
           "resolve", "to_dict"]
