"""``mindspore.parallel._cost_model_context``: cost-model switches of the auto-parallel search.

refms does no strategy search, so these settings are recorded and have no effect.
"""
_SETTINGS = {"multi_subgraphs": False}


def _set_multi_subgraphs(multi_subgraph=True):
    _SETTINGS["multi_subgraphs"] = bool(multi_subgraph)


def _get_multi_subgraphs():
    return _SETTINGS["multi_subgraphs"]
