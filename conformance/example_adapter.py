"""A worked example: the adapter of *minims*, a fictional implementation of MindSpore.

minims is a made-up framework used to show the adapter protocol end to end
(the suite's README walks through it).  Its traits, as a real one might have:

* it is imported as ``minims`` and mirrors MindSpore's import paths
  (``minims.nn``, ``minims.ops``, ``minims.common.initializer``), so
  transcripts that ``import mindspore`` can be pointed at it;
* it implements MindSpore 2.10's behaviour only: it has no switch for older
  versions, so it is run with ``--target 2.10`` and the suite counts the pages'
  older behaviour as not applicable;
* it needs an environment variable in every process (``MINIMS_DEVICE=cpu``)
  and a call before use (``set_context(mode=...)`` to its PyNative mode).

Put this module anywhere importable (here: ``conformance.example_adapter``)
and run ``python -m conformance --impl conformance.example_adapter``; or
define ``conformance_adapter`` in minims itself and run ``--impl minims``.
"""
import importlib

from conformance.adapters import ModuleAdapter

__all__ = ["MiniMSAdapter", "conformance_adapter"]


class MiniMSAdapter(ModuleAdapter):
    """``ModuleAdapter`` does the usual work (finding, describing and importing the module,
    importing its subpackages); minims's adapter adds its environment and setup."""

    #: Shown in reports: how a page's MindSpore version is honoured.
    compat_note = "minims implements MindSpore 2.10 only; run it with --target 2.10"
    #: 1.x names the pages use that minims spells the 2.x way: {"old": "new"}.
    shims = {"ms_function": "jit"}

    def __init__(self, module_name="minims"):
        super().__init__(module_name, name="minims")

    def env(self, compat):
        """Extra environment variables of each case's subprocess."""
        return {"MINIMS_DEVICE": "cpu"}

    def load(self, compat):
        """Import minims in a case's subprocess and return the namespace cases call ``ms``."""
        ms = super().load(compat)
        for old, new in self.shims.items():
            if not hasattr(ms, old):
                setattr(ms, old, getattr(ms, new))
        ms.set_context(mode=ms.PYNATIVE_MODE)
        return ms

    def describe(self):
        module = importlib.import_module(self.module_name)
        return f"minims {getattr(module, '__version__', '?')}"


conformance_adapter = MiniMSAdapter()
