"""The runner's failure isolation for implementations that carry state between ops (real
MindSpore: an op that failed can make a later op of the same process fail too).

With ``adapter.isolate_failures`` a worker stops at its first failed op-table check; the
runner goes on in a fresh worker, running that check again first when others ran before
it in its process.  A simulated worker stands in for the subprocess here: checks named
``bad`` always fail, and in a process where a check failed every later check fails too.
"""
import types

from conformance import runner
from conformance.adapters import mindspore as mindspore_adapter


def _cases(*names):
    page = types.SimpleNamespace(compat="2.10")
    return [types.SimpleNamespace(id=f"op.x.{name}.forward", page=page) for name in names]


def _simulated_worker(processes):
    def work(cases, adapter, timeout, stop_after_failure):
        processes.append([case.id.split(".")[2] for case in cases])
        found, poisoned = {}, False
        for case in cases:
            failed = poisoned or case.id.split(".")[2].startswith("bad")
            found[case.id] = {"problems": ["failed"] if failed else [], "seconds": 0.0}
            poisoned = poisoned or failed
            if failed and stop_after_failure:
                break
        return found, []
    return work


def test_mindspore_adapter_isolates_failures():
    assert mindspore_adapter.adapter.isolate_failures is True


def test_a_failure_does_not_leak_into_later_checks(monkeypatch):
    processes = []
    monkeypatch.setattr(runner, "_op_worker", _simulated_worker(processes))
    adapter = types.SimpleNamespace(isolate_failures=True)
    results = runner.run_op_batch(_cases("a", "bad1", "b", "c", "bad2", "d"), adapter)
    assert [r.ok for r in results] == [True, False, True, True, False, True]
    # bad1 failed after 'a': retried first in a fresh process; likewise bad2 after b, c
    assert processes == [["a", "bad1", "b", "c", "bad2", "d"], ["bad1", "b", "c", "bad2", "d"],
                         ["b", "c", "bad2", "d"], ["bad2", "d"], ["d"]]


def test_without_isolation_one_process_runs_the_batch(monkeypatch):
    processes = []
    monkeypatch.setattr(runner, "_op_worker", _simulated_worker(processes))
    adapter = types.SimpleNamespace(isolate_failures=False)
    results = runner.run_op_batch(_cases("a", "bad1", "b"), adapter)
    assert [r.ok for r in results] == [True, False, False]     # b fails by leaked state
    assert processes == [["a", "bad1", "b"]]
