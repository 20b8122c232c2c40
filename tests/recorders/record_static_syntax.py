"""Record MindSpore 2.10's behaviour on every Python example of its static-graph syntax pages.

The pages (mindspore-ai/docs, ``tutorials/source_{en,zh_cn}/compile/``):

* ``static_graph`` — "Introduction to Graph Mode Programming": constants and variables,
  data types, JIT Fallback (third-party libraries, ``asnumpy``), ``mutable``, list
  in-place operations, attribute assignment, annotation types;
* ``statements`` — "Graph Mode Syntax - Python Statements";
* ``python_builtin_functions`` — "Graph Mode Syntax - Python Built-in Functions";
* ``operators`` — "Graph Mode Syntax - Operators" (tables only, no code example);
* ``static_graph_expert_programming`` — its "Using jit_class" section.

The Chinese pages hold the same examples (some with Chinese comments); an example is
recorded once, under the English page, unless its code differs.

Run with the MindSpore environment (not refms), from the repository root::

    GLOG_v=3 /work/msenv/bin/python tests/recorders/record_static_syntax.py \\
        /work/.mirror/mindspore-ai+docs/repo

The first argument is a git directory of mindspore-ai/docs.  Every example runs as a
script in its own process (``GLOG_v=3``; the page's own ``set_context`` calls, if any,
choose the mode) and the printed output, the exception (type and first line) or the exit
status are written to ``tests/golden/static_syntax.json``, which
``tests/test_graph_static_syntax.py`` replays on refms.
"""
import json
import os
import re
import subprocess
import sys
import tempfile
import textwrap

HERE = os.path.dirname(os.path.abspath(__file__))
OUTPUT = os.path.join(os.path.dirname(HERE), "golden", "static_syntax.json")

PAGES = (  # (page name, English path, Chinese path, section heading or None for the whole page)
    ("static_graph", "tutorials/source_en/compile/static_graph.md",
     "tutorials/source_zh_cn/compile/static_graph.md", None),
    ("statements", "tutorials/source_en/compile/statements.md",
     "tutorials/source_zh_cn/compile/statements.ipynb", None),
    ("python_builtin_functions", "tutorials/source_en/compile/python_builtin_functions.md",
     "tutorials/source_zh_cn/compile/python_builtin_functions.ipynb", None),
    ("operators", "tutorials/source_en/compile/operators.md",
     "tutorials/source_zh_cn/compile/operators.md", None),
    ("jit_class", "tutorials/source_en/compile/static_graph_expert_programming.md",
     "tutorials/source_zh_cn/compile/static_graph_expert_programming.ipynb", "jit_class"),
)

#: What runs an example: the script as ``__main__``; an exception is written as JSON.
RUNNER = """\
import json, runpy, sys
path, report = sys.argv[1], sys.argv[2]
sys.argv = [path]
try:
    runpy.run_path(path, run_name="__main__")
except BaseException as error:
    sys.stdout.flush()
    message = str(error).strip().splitlines()
    with open(report, "w") as f:
        json.dump({"type": type(error).__name__, "message": message[0] if message else ""}, f)
    raise SystemExit(1)
"""

_FENCE = re.compile(r"^(?P<indent>[ \t]*)```\s*(?P<lang>\w*)\s*$")
_HEADING = re.compile(r"^(#+)\s+(.*)$")


def git_show(docs, path):
    return subprocess.run(["git", "-C", docs, "show", f"HEAD:{path}"], check=True,
                          capture_output=True, text=True).stdout


def _enter(headings, match):
    """The heading path after a heading line (``headings`` is [(level, title), ...])."""
    level = len(match.group(1))
    return [h for h in headings if h[0] < level] + [(level, match.group(2).strip())]


def markdown_blocks(text, headings=()):
    """(heading path, code) for every fenced ``python`` block of a Markdown text."""
    blocks, headings, lines, i = [], list(headings), text.splitlines(), 0
    while i < len(lines):
        match = _HEADING.match(lines[i])
        if match:
            headings = _enter(headings, match)
        fence = _FENCE.match(lines[i])
        if fence is None:
            i += 1
            continue
        body, i = [], i + 1
        while i < len(lines) and not re.match(r"^\s*```\s*$", lines[i]):
            body.append(lines[i])
            i += 1
        i += 1
        if fence.group("lang") in ("python", "py"):
            blocks.append((headings, textwrap.dedent("\n".join(body)).strip() + "\n"))
    return blocks


def notebook_blocks(text):
    """(heading path, code) for the code cells and fenced python blocks of a notebook."""
    blocks, headings = [], []
    for cell in json.loads(text)["cells"]:
        source = "".join(cell["source"])
        if cell["cell_type"] == "markdown":
            blocks += markdown_blocks(source, headings)
            for line in source.splitlines():
                match = _HEADING.match(line)
                if match:
                    headings = _enter(headings, match)
        elif cell["cell_type"] == "code":
            blocks.append((headings, source.strip() + "\n"))
    return blocks


def blocks_of(docs, path):
    text = git_show(docs, path)
    return notebook_blocks(text) if path.endswith(".ipynb") else markdown_blocks(text)


def in_section(blocks, word):
    """The blocks under a heading that mentions ``word`` (a page's section)."""
    return [(h, code) for h, code in blocks if any(word in title for _, title in h)]


def code_key(code):
    """The code without comments and blank lines: equal keys are the same example."""
    lines = []
    for line in code.splitlines():
        line = re.sub(r"#.*$", "", line).rstrip()
        if line.strip():
            lines.append(line)
    return "\n".join(lines)


def runnable(code):
    """Examples that are scripts (shell lines, outputs and IR listings are not)."""
    return "import" in code or "mindspore" in code or "ms." in code


def examples(docs):
    cases, seen = [], set()
    for page, english, chinese, section in PAGES:
        for language, path in (("en", english), ("zh", chinese)):
            blocks = blocks_of(docs, path)
            if section:
                blocks = in_section(blocks, section)
            for number, (heading, code) in enumerate(blocks, 1):
                key = code_key(code)
                if key in seen or not runnable(code):
                    continue
                seen.add(key)
                cases.append({"id": f"{page}.{language}{number:02d}", "page": page,
                              "source": path, "heading": heading[-1][1] if heading else "",
                              "code": code})
    return cases


def run_on_mindspore(code, python):
    with tempfile.TemporaryDirectory() as directory:
        script = os.path.join(directory, "example.py")
        report = os.path.join(directory, "error.json")
        runner = os.path.join(directory, "runner.py")
        with open(script, "w") as f:
            f.write(code)
        with open(runner, "w") as f:
            f.write(RUNNER)
        env = dict(os.environ, GLOG_v="3")
        try:
            proc = subprocess.run([python, runner, script, report], capture_output=True,
                                  text=True, timeout=600, cwd=directory, env=env)
        except subprocess.TimeoutExpired:
            return {"stdout": "", "error": {"type": "Timeout", "message": "over 600 s"}}
        error = None
        if os.path.exists(report):
            with open(report) as f:
                error = json.load(f)
        elif proc.returncode != 0:
            error = {"type": "Crash", "message": f"exit status {proc.returncode}: "
                                                 f"{proc.stderr.strip()[-300:]}"}
        return {"stdout": proc.stdout, "error": error}


def record_programs(programs, output, names=()):
    """Run each program of ``programs`` ({name: code}) on MindSpore and write what it printed
    and raised to ``output`` (JSON).  With ``names``, only those are run again and the other
    recorded results are kept."""
    import mindspore
    results = {}
    if names and os.path.exists(output):
        with open(output) as f:
            results = json.load(f)["programs"]
    for name in names or list(programs):
        results[name] = run_on_mindspore(programs[name], sys.executable)
        error = results[name]["error"]
        print(name, "raises " + error["type"] if error else "ok", flush=True)
    with open(output, "w") as f:
        json.dump({"mindspore": mindspore.__version__, "programs": results}, f, indent=1)
        f.write("\n")


def main():
    docs = sys.argv[1] if len(sys.argv) > 1 else "/work/.mirror/mindspore-ai+docs/repo"
    import mindspore
    cases = examples(docs)
    commit = subprocess.run(["git", "-C", docs, "rev-parse", "HEAD"], check=True,
                            capture_output=True, text=True).stdout.strip()
    for case in cases:
        case["mindspore"] = run_on_mindspore(case["code"], sys.executable)
        error = case["mindspore"]["error"]
        print(case["id"], "raises " + error["type"] if error else "ok", flush=True)
    with open(OUTPUT, "w") as f:
        json.dump({"mindspore": mindspore.__version__, "docs_commit": commit, "cases": cases},
                  f, indent=1, ensure_ascii=False)
        f.write("\n")


if __name__ == "__main__":
    main()
