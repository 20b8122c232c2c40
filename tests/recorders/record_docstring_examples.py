"""Record what MindSpore 2.10's docstring examples print, and compare refms with it.

    python tests/recorders/record_docstring_examples.py \\
        --sources /path/to/site-packages/mindspore --mindspore-python /path/to/msenv/bin/python

The examples are read from the MindSpore sources (see ``docstring_examples.py``);
each batch of examples runs in its own process (a process that dies is
restarted after the example that killed it), first on MindSpore, then on refms
(``import mindspore`` resolving to refms).  Outputs are compared statement by
statement: words equal, numbers within tolerance, exceptions by type.  An
example whose MindSpore output differs between two runs is random: only its
words and count of numbers are compared.

Writes ``tests/golden/docstring_examples.json.gz`` (MindSpore's outputs of the
examples refms agrees with, by id and code hash; ``tests/test_docstring_examples.py``
replays them) and, with ``--report FILE``, a JSON summary of every example:
``agree``, ``agree_slow`` (agrees, but too slow for the test), ``differ`` (first
differing statement, both outputs),
``missing_api`` (names refms lacks), ``mindspore_fails`` (the example raised
on MindSpore's CPU build, e.g. an Ascend-only op) or ``not_run``.

``--phase refms`` reuses the MindSpore results of an earlier run (in ``--work``);
``--phase mindspore`` / ``again`` run only MindSpore's first / second pass, ``compare``
only compares stored results.
"""
import argparse
import gzip
import json
import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)

import docstring_examples as dex  # noqa: E402  pylint: disable=wrong-import-position

GOLDEN = os.path.join(ROOT, "tests", "golden", "docstring_examples.json.gz")
#: Examples that take refms longer than this (a 1×120×1024×640 convolution) agree but are
#: left out of the golden file, to keep the replaying test short.
SLOW_SECONDS = 5.0


def run_all(examples, out_path, python, refms, batch=120, jobs=2, tag=""):
    """Run ``examples`` in worker processes of ``python``; returns ``{id: record}``."""
    env = dict(os.environ, GLOG_v="3", ONEDNN_MAX_CPU_ISA="AVX2", PYTHONWARNINGS="ignore",
               OMP_NUM_THREADS="1")
    if refms:
        env["PYTHONPATH"] = ROOT
    work = os.path.dirname(out_path)
    pending = [examples[i:i + batch] for i in range(0, len(examples), batch)]
    running = []
    serial = 0
    results = {}
    while pending or running:
        while pending and len(running) < jobs:
            chunk = pending.pop(0)
            serial += 1
            batch_path = os.path.join(work, "%sbatch_%d.json" % (tag, serial))
            part_path = os.path.join(work, "%spart_%d.jsonl" % (tag, serial))
            with open(batch_path, "w", encoding="utf-8") as handle:
                json.dump(chunk, handle)
            if os.path.exists(part_path):
                os.remove(part_path)
            command = [python, os.path.join(HERE, "docstring_examples.py"), "worker",
                       batch_path, part_path] + (["--refms", ROOT] if refms else [])
            process = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL,
                                       stderr=subprocess.DEVNULL, cwd=work)
            running.append((process, chunk, part_path))
        time.sleep(0.5)
        for item in list(running):
            process, chunk, part_path = item
            if process.poll() is None:
                continue
            running.remove(item)
            done = {}
            if os.path.exists(part_path):
                with open(part_path, encoding="utf-8") as handle:
                    for line in handle:
                        record = json.loads(line)
                        done[record["id"]] = record
            results.update(done)
            rest = [e for e in chunk if e["id"] not in done]
            if rest:
                # the first unfinished example took the process down
                results[rest[0]["id"]] = {"id": rest[0]["id"], "sha": rest[0]["sha"],
                                          "out": ["!CRASH exit %s" % process.returncode]}
                if rest[1:]:
                    pending.insert(0, rest[1:])
            print("%s%d/%d" % (tag, len(results), len(examples)), file=sys.stderr, flush=True)
    with open(out_path, "w", encoding="utf-8") as handle:
        for example in examples:
            handle.write(json.dumps(results[example["id"]]) + "\n")
    return results


def load(path):
    with open(path, encoding="utf-8") as handle:
        return {r["id"]: r for r in map(json.loads, handle)}


def classify(example, ms, ms_again, rf):
    """The example's status and details (see the module docstring)."""
    if ms is None or rf is None:
        return "not_run", {}
    if any("!CRASH" in o or "!TIMEOUT" in o or "!HARNESS" in o for o in ms["out"]):
        return "mindspore_fails", {"ms": ms["out"][-1]}
    for output, (_, want) in zip(ms["out"], example["chunks"]):
        if dex._exception_types(output) and not want.startswith("Traceback"):
            # raised where the docstring shows no exception: a CPU limitation
            return "mindspore_fails", {"ms": output[-300:]}
    if rf.get("missing"):
        return "missing_api", {"missing": rf["missing"]}
    loose = ms_again is not None and dex.compare(ms["out"], ms_again["out"]) is not None
    where = dex.compare(ms["out"], rf["out"], loose=loose)
    if where is None:
        return "agree", {"loose": loose}
    ms_text = ms["out"][where] if where < len(ms["out"]) else "<none>"
    rf_text = rf["out"][where] if where < len(rf["out"]) else "<none>"
    return "differ", {"statement": where, "code": example["chunks"][where][0]
                      if where < len(example["chunks"]) else "",
                      "ms": ms_text[-1500:], "refms": rf_text[-1500:], "loose": loose}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--sources", default=os.environ.get("REFMS_MINDSPORE_SOURCES"))
    parser.add_argument("--mindspore-python", default="/work/msenv/bin/python")
    parser.add_argument("--refms-python", default=sys.executable)
    parser.add_argument("--work", default="/tmp/docex_work")
    parser.add_argument("--phase", choices=["all", "mindspore", "again", "refms", "compare"], default="all")
    parser.add_argument("--only", nargs="*", help="id prefixes to run")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--report")
    parser.add_argument("--no-golden", action="store_true")
    args = parser.parse_args()
    if not args.sources:
        parser.error("--sources (or $REFMS_MINDSPORE_SOURCES) names MindSpore's package folder")
    os.makedirs(args.work, exist_ok=True)
    examples = dex.extract(args.sources)
    if args.only:
        if len(args.only) == 1 and os.path.isfile(args.only[0]):
            with open(args.only[0], encoding="utf-8") as handle:
                args.only = handle.read().split()
        examples = [e for e in examples if any(e["id"].startswith(p) for p in args.only)]
    ms_path = os.path.join(args.work, "mindspore.jsonl")
    again_path = os.path.join(args.work, "mindspore_again.jsonl")
    rf_path = os.path.join(args.work, "refms.jsonl")
    if args.phase in ("all", "mindspore"):
        ms = run_all(examples, ms_path + ".new", args.mindspore_python, False, jobs=args.jobs,
                     tag="ms")
        if args.only and os.path.exists(ms_path):
            full = load(ms_path)
            full.update(ms)
            ms = full
        with open(ms_path, "w", encoding="utf-8") as handle:
            for record in ms.values():
                handle.write(json.dumps(record) + "\n")
    else:
        ms = load(ms_path)
    if args.phase in ("all", "refms"):
        subset = [e for e in examples if e["id"] in ms]
        rf = run_all(subset, rf_path, args.refms_python, True, jobs=args.jobs, tag="rf")
        if args.only and os.path.exists(rf_path + ".full"):
            full = load(rf_path + ".full")
            full.update(rf)
            rf = full
        with open(rf_path + ".full", "w", encoding="utf-8") as handle:
            for record in rf.values():
                handle.write(json.dumps(record) + "\n")
    elif os.path.exists(rf_path + ".full"):
        rf = load(rf_path + ".full")
    else:
        rf = {}
    again = load(again_path) if os.path.exists(again_path) else {}
    if args.phase in ("all", "mindspore") and args.only:
        for example in examples:               # re-recorded: run the second pass again too
            again.pop(example["id"], None)
    # run MindSpore a second time, in the reverse order (so in other company in each process):
    # an example whose output changes is random or depends on what ran before it
    retry = [e for e in examples[::-1] if e["id"] not in again and e["id"] in ms]
    if retry and args.phase in ("all", "mindspore", "again"):
        again.update(run_all(retry, again_path + ".new", args.mindspore_python, False,
                             jobs=args.jobs, tag="ms2"))
        with open(again_path, "w", encoding="utf-8") as handle:
            for record in again.values():
                handle.write(json.dumps(record) + "\n")
    if args.phase in ("mindspore", "again"):
        return
    report, counts, golden = {}, {}, {}
    for example in examples:
        ident = example["id"]
        status, detail = classify(example, ms.get(ident), again.get(ident), rf.get(ident))
        report[ident] = dict(detail, status=status)
        slow = rf.get(ident, {}).get("seconds", 0) > SLOW_SECONDS
        if status == "agree" and slow:
            status = "agree_slow"
            report[ident]["status"] = status
        if status == "agree":
            golden[ident] = {"sha": example["sha"], "out": ms[ident]["out"],
                             "loose": detail["loose"]}
        counts[status] = counts.get(status, 0) + 1
    print(json.dumps(counts, sort_keys=True))
    if args.report:
        with open(args.report, "w", encoding="utf-8") as handle:
            json.dump({"counts": counts, "examples": report}, handle, indent=1, sort_keys=True)
    if not args.no_golden and not args.only:
        os.makedirs(os.path.dirname(GOLDEN), exist_ok=True)
        with gzip.open(GOLDEN, "wt", encoding="utf-8") as handle:
            json.dump({"mindspore": "2.10", "examples": golden}, handle, sort_keys=True)


if __name__ == "__main__":
    main()
