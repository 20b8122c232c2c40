"""The default adapter: refms, the reference implementation in this repository.

Each case runs under the MindSpore version of its page: ``REFMS_COMPAT`` is
set for the subprocess (so transcripts get it before ``import mindspore``) and
``refms.set_context(compat=...)`` is called for structured cases.
"""
from . import ModuleAdapter

__all__ = ["adapter"]


class RefmsAdapter(ModuleAdapter):
    compat_note = "each case runs under its page's version: REFMS_COMPAT / set_context(compat=...)"

    def __init__(self):
        super().__init__("refms", name="refms")

    def env(self, compat):
        return {"REFMS_COMPAT": compat}

    def load(self, compat):
        module = super().load(compat)
        module.set_context(compat=compat)
        return module


adapter = RefmsAdapter()
