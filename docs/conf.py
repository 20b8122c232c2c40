"""Sphinx configuration for the refms documentation (built with ``-W``: warnings are errors)."""
import os
import sys

sys.path.insert(0, os.path.abspath(".."))

project = "refms"
author = "the refms developers"
release = "0.1.0"
extensions = ["sphinx.ext.autodoc", "sphinx.ext.viewcode"]
autodoc_member_order = "bysource"
autodoc_default_options = {"members": True, "undoc-members": False}
exclude_patterns = ["_build"]
html_theme = "alabaster"
