"""Argument checks shared by the layers; messages follow MindSpore's ``Validator``."""

__all__ = ["check_positive_int", "check_non_negative_int", "check_bool", "check_int_or_pair",
           "check_float_range"]


def _is_int(value):
    return isinstance(value, int) and not isinstance(value, bool)


def check_positive_int(value, name, cell_name):
    if not _is_int(value):
        raise TypeError(f"For '{cell_name}', the '{name}' must be int, but got "
                        f"{type(value).__name__}.")
    if value <= 0:
        raise ValueError(f"For '{cell_name}', the '{name}' must be a positive int, but got "
                         f"{value}.")
    return value


def check_non_negative_int(value, name, cell_name):
    if not _is_int(value):
        raise TypeError(f"For '{cell_name}', the '{name}' must be int, but got "
                        f"{type(value).__name__}.")
    if value < 0:
        raise ValueError(f"For '{cell_name}', the '{name}' must be a non-negative int, but got "
                         f"{value}.")
    return value


def check_bool(value, name, cell_name):
    if not isinstance(value, bool):
        raise TypeError(f"For '{cell_name}', the '{name}' must be bool, but got "
                        f"{type(value).__name__}.")
    return value


def check_int_or_pair(value, name, cell_name, allow_zero=False):
    """An int or a pair of ints (each > 0, or >= 0 with ``allow_zero``) as a pair."""
    pair = (value, value) if _is_int(value) else value
    low = 0 if allow_zero else 1
    if not (isinstance(pair, (tuple, list)) and len(pair) == 2 and all(_is_int(v) for v in pair)):
        raise TypeError(f"For '{cell_name}', the '{name}' must be an int or a tuple of two ints, "
                        f"but got {value!r}.")
    if any(v < low for v in pair):
        raise ValueError(f"For '{cell_name}', every value of '{name}' must be >= {low}, but got "
                         f"{value!r}.")
    return tuple(pair)


def check_float_range(value, low, high, name, cell_name):
    """low <= value <= high."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TypeError(f"For '{cell_name}', the '{name}' must be float, but got "
                        f"{type(value).__name__}.")
    if not low <= value <= high:
        raise ValueError(f"For '{cell_name}', the '{name}' must be in range [{low}, {high}], but "
                         f"got {value}.")
    return float(value)
