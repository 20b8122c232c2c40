"""Sphinx configuration for the refms documentation.

Built with ``-W`` (every warning is an error) and ``nitpicky`` (every
cross-reference must resolve), once as HTML and once with the ``doctest``
builder, which runs every example of the tutorials and checks what it prints.
Pictures of the IR are drawn at build time by Graphviz (``dot``).
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))          # the repository: refms and conformance
sys.path.insert(0, os.path.join(HERE, "_ext"))      # this site's own extensions

project = "refms"
author = "the refms developers"
copyright = "the refms developers; Apache-2.0"
release = "0.1.0"

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.doctest",
    "sphinx.ext.graphviz",
    "sphinx.ext.mathjax",
    "sphinx.ext.viewcode",
    "sphinx_copybutton",
    "refms_docs",            # _ext/refms_docs.py: IR listings and pictures, the op reference
    "refms_conformance_examples",  # the MindSpore pages' examples in the tutorials, as doctests
]

nitpicky = True
nitpick_ignore_regex = [
    (r"py:.*", r"(numpy|np)\..*"),
    (r"py:class", r"(optional|callable|iterable|array_like|tuple of .*|list of .*)"),
]
autodoc_member_order = "bysource"
autodoc_default_options = {"members": True, "undoc-members": False}
autodoc_typehints = "none"
exclude_patterns = ["_build"]
templates_path = []

# Tutorials are MindSpore programs: ``import mindspore`` resolves to refms in the
# doctests, exactly as under ``python -m refms run``.
doctest_global_setup = """
import numpy as np
import refms
from refms.alias import install as _install_mindspore_alias
_install_mindspore_alias()
refms.set_context(mode=refms.PYNATIVE_MODE, compat="2.10")
refms.set_seed(0)
# Blocks marked ``:skipif: mindspore_skip`` show an older release's behaviour, refms's own API,
# or a class MindSpore's CPU build cannot run (each such block says which, and where its output
# comes from): refms runs them; docs/tools/mindspore_check.py, which runs the pages on MindSpore
# 2.10, skips them.
mindspore_skip = False
"""
doctest_default_flags = 0     # outputs must match exactly, as MindSpore prints them

graphviz_output_format = "svg"

html_theme = "furo"
html_static_path = ["_static"]
html_css_files = ["refms.css"]     # doctest outputs labelled; tables that fit a phone
html_title = "refms"
copybutton_prompt_text = r">>> |\.\.\. |\$ "
copybutton_prompt_is_regexp = True
