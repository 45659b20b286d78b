"""The import graph of pinref/ (every import statement, those inside functions too, read from
the source with ``ast``): the layering design.md asks for, and the cycles issue 23 broke.

- the core (spatial, joints, model, algorithms) imports none of the tools;
- model/ imports nothing of algorithms/ (random_states, which did, is the tools');
- compare imports nothing of checking, and cli.py no tool (checking -> compare and each
  command -> cli stay, one way);
- the cycles left inside spatial/ and model/ are the ones no small module breaks: SE3 acts on
  Motion and Inertia, whose ``se3Action`` checks its argument is an SE3; Inertia converts to
  and from the dynamic parameters; ``Model.createData`` builds the Data that checks its Model,
  and the Data of a model with mimic joints is its extended model's (``mimic.init_mimic_data``
  runs ``Data.__init__`` on it).
"""

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "pinref"
CORE = ("spatial", "joints", "model", "algorithms")
TOOLS = ("compare", "checking", "tracing", "sourcemap", "experiments", "cli")


def _modules():
    """{dotted name: (path, is a package)} of every module of pinref."""
    out = {}
    for path in PACKAGE.rglob("*.py"):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        package = parts[-1] == "__init__"
        out[".".join(parts[:-1] if package else parts)] = (path, package)
    return out


def _graph():
    """{module: the pinref modules it imports}: ``from . import x`` of a submodule x counts as
    an import of x only (not of the package whose __init__ has already run)."""
    modules, graph = _modules(), {}
    for name, (path, package) in modules.items():
        targets = set()
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                found = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    parts = name.split(".")[:len(name.split(".")) - node.level + package]
                    base = ".".join(parts + ([node.module] if node.module else []))
                subs = [f"{base}.{a.name}" for a in node.names if f"{base}.{a.name}" in modules]
                found = subs if len(subs) == len(node.names) else [base, *subs]
            else:
                continue
            for target in found:
                while target and target not in modules:
                    target = target.rpartition(".")[0]
                if target and target != name:
                    targets.add(target)
        graph[name] = targets
    return graph


def _cycles(graph, prefix):
    """The strongly connected components (more than one module) among the modules of
    ``prefix``, as sorted tuples."""
    nodes = [m for m in graph if m.startswith(prefix)]
    index, low, stack, out = {}, {}, [], []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in graph[v]:
            if not w.startswith(prefix):
                continue
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while not component or component[-1] != v:
                component.append(stack.pop())
            if len(component) > 1:
                out.append(tuple(sorted(component)))

    for v in nodes:
        if v not in index:
            visit(v)
    return sorted(out)


def _imports(graph, source, target):
    """The modules of ``source`` that import a module of ``target`` (pinref.<name> prefixes)."""
    return sorted(m for m, targets in graph.items() if m.startswith(f"pinref.{source}")
                  for t in targets if t.startswith(f"pinref.{target}"))


def test_the_core_imports_no_tool_and_model_no_algorithm():
    graph = _graph()
    for core in CORE:
        for tool in TOOLS:
            assert _imports(graph, core, tool) == [], (core, tool)
    assert _imports(graph, "model", "algorithms") == []


def test_compare_imports_no_checking_and_cli_no_tool():
    graph = _graph()
    assert _imports(graph, "compare", "checking") == []
    for tool in TOOLS[:-1]:
        assert _imports(graph, "cli", tool) == [], tool


def test_the_cycles_left_in_spatial_and_model():
    graph = _graph()
    assert _cycles(graph, "pinref.spatial") == [
        ("pinref.spatial.dynamic_parameters", "pinref.spatial.inertia", "pinref.spatial.motion",
         "pinref.spatial.se3")]
    assert _cycles(graph, "pinref.model") == [
        ("pinref.model.data", "pinref.model.mimic", "pinref.model.model")]
