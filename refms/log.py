"""``mindspore.log``: the logger MindSpore scripts write to (``logger.info(...)``).

A standard ``logging`` logger named ``refms``.  Its level follows the
``GLOG_v`` environment variable as MindSpore's does (0 debug, 1 info,
2 warning — the default, 3 error, 4 critical), read when the module is imported.
"""
import logging
import os

__all__ = ["debug", "info", "warning", "error", "critical", "get_level", "get_log_config"]

_LEVELS = {"0": logging.DEBUG, "1": logging.INFO, "2": logging.WARNING, "3": logging.ERROR,
           "4": logging.CRITICAL}

GLOBAL_LOGGER = logging.getLogger("refms")
GLOBAL_LOGGER.setLevel(_LEVELS.get(os.environ.get("GLOG_v", "2"), logging.WARNING))
logging = logging       # ``from mindspore.log import logging`` works in MindSpore


def debug(msg, *args, **kwargs):
    GLOBAL_LOGGER.debug(msg, *args, **kwargs)


def info(msg, *args, **kwargs):
    GLOBAL_LOGGER.info(msg, *args, **kwargs)


def warning(msg, *args, **kwargs):
    GLOBAL_LOGGER.warning(msg, *args, **kwargs)


def error(msg, *args, **kwargs):
    GLOBAL_LOGGER.error(msg, *args, **kwargs)


def critical(msg, *args, **kwargs):
    GLOBAL_LOGGER.critical(msg, *args, **kwargs)


def get_level():
    """The level as MindSpore reports it: the ``GLOG_v`` digit as a string."""
    level = GLOBAL_LOGGER.getEffectiveLevel()
    for key, value in _LEVELS.items():
        if value == level:
            return key
    return "2"


def get_log_config():
    return {"GLOG_v": get_level()}
