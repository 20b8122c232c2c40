"""Real MindSpore, used only when it is importable (it is never a dependency of refms).

MindSpore has no switch for older behaviour, so a case whose page documents a
behaviour that changed since is expected to fail here; each such case is listed
in ``conformance/deviations/mindspore.txt`` with the version difference that
explains it.  One removed 1.x name whose behaviour lives on under a new name
is restored for the pages that use it: ``mindspore.ms_function`` is
``mindspore.jit`` (``from mindspore import ms_function`` raises ImportError in
2.10; semantics 7.1).
"""
import os

from . import ModuleAdapter

__all__ = ["adapter"]


class MindSporeAdapter(ModuleAdapter):
    compat_note = ("not applicable: MindSpore runs its own version's behaviour; "
                   "version differences are recorded in deviations/mindspore.txt")
    shims = {"ms_function": "jit"}
    #: A MindSpore op that fails can make a later op in the same process fail too (its kernel
    #: state lingers), so a failed op-table check ends its worker (``runner.run_op_batch``).
    isolate_failures = True

    def __init__(self):
        super().__init__("mindspore", name="mindspore")
        self.alias_target = None        # transcripts import the real mindspore

    def describe(self):
        os.environ.setdefault("GLOG_v", "3")       # quiet MindSpore's C++ log before importing it
        return super().describe()

    def env(self, compat):
        return {"GLOG_v": os.environ.get("GLOG_v", "3")}

    def load(self, compat):
        module = super().load(compat)
        for old, new in self.shims.items():
            if not hasattr(module, old):
                setattr(module, old, getattr(module, new))
        return module


adapter = MindSporeAdapter()
