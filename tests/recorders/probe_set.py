"""A set of probes: small programs, each run against the ``ms`` namespace it is given
(MindSpore 2.10 when recording, refms in the tests), returning plain Python values.

A recorder module makes one set, registers its probes with ``@PROBE_SET.probe`` and ends
with ``PROBE_SET.record()`` under ``__main__``, which runs every probe on MindSpore and
writes their results to ``tests/recorders/<name>.json``.  The test module replays them:
``PROBE_SET.check(name, refms)`` runs one probe on refms and compares the whole result.
"""
import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))


def outcome(fn, *args):
    """``fn(*args)``, or ``{"raises": exception class name}``."""
    try:
        return fn(*args)
    except Exception as error:           # the exception type is the recorded behaviour
        return {"raises": type(error).__name__}


def as_json(value):
    """``value`` as the recorder stored it (tuples become lists)."""
    return json.loads(json.dumps(value))


class ProbeSet:
    """Probes by name, and the JSON file their MindSpore results are recorded in."""

    def __init__(self, json_name, recorder):
        self.probes = {}
        self.path = os.path.join(HERE, json_name)
        self.recorder = recorder             # the script that writes the file, for messages
        self._recorded = None

    def probe(self, fn):
        """Register ``fn(ms)`` as a probe under its name."""
        self.probes[fn.__name__] = fn
        return fn

    def run(self, ms):
        return {name: fn(ms) for name, fn in self.probes.items()}

    def record(self):
        """Run every probe on MindSpore and write the results."""
        import mindspore
        with open(self.path, "w") as f:
            json.dump({"mindspore": mindspore.__version__, **self.run(mindspore)}, f, indent=0)

    def recorded(self):
        if self._recorded is None:
            with open(self.path) as f:
                self._recorded = json.load(f)
        return self._recorded

    def check(self, name, ms):
        """Run probe ``name`` on ``ms`` and assert its result is the recorded one."""
        recorded = self.recorded()
        assert name in recorded, f"probe {name} not recorded: run tests/recorders/{self.recorder}"
        got = as_json(self.probes[name](ms))
        want = recorded[name]
        if isinstance(want, dict):
            for key in want:
                assert got.get(key) == want[key], \
                    f"{name}[{key}]: refms {got.get(key)!r}, MindSpore {want[key]!r}"
        assert got == want
