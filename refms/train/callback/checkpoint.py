"""``CheckpointConfig`` and ``ModelCheckpoint``: save the training network during training
(MindSpore ``train/callback/_checkpoint.py``).

A file is written every ``save_checkpoint_steps`` steps (counted over all
epochs) and once more when training ends, named
``<prefix>-<epoch>_<step in epoch>.ckpt`` in ``directory`` (default: the current
one).  Before each save, if ``keep_checkpoint_max`` files of this prefix exist
the oldest (by modification time) is deleted.  If the directory already holds
files of the prefix, the prefix becomes ``<prefix>_<n>`` so nothing is
overwritten.  The saved network is ``cb_params.train_network`` (so optimizer
state — ``global_step``, ``moments.*`` — is included) unless
``saved_network`` is given.

In GRAPH_MODE the first step also writes ``<prefix>-graph.meta``, as MindSpore
does (there it is the compiled training graph as a protobuf; refms writes the
IR text of the training network's compiled graph, when one is at hand).
"""
import os
import time

from ...checkpoint import save_checkpoint
from ...context import is_graph_mode
from ...nn.cell import Cell
from .callback import Callback

__all__ = ["CheckpointConfig", "ModelCheckpoint"]


def _non_negative_int(value, name):
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ValueError(f"For 'CheckpointConfig', the '{name}' must be a non-negative int, but got "
                         f"{value!r}.")
    return value


class CheckpointConfig:
    """CheckpointConfig(save_checkpoint_steps=1, save_checkpoint_seconds=0, keep_checkpoint_max=5,
    keep_checkpoint_per_n_minutes=0, integrated_save=True, async_save=False, saved_network=None,
    append_info=None, ...)"""

    def __init__(self, save_checkpoint_steps=1, save_checkpoint_seconds=0, keep_checkpoint_max=5,
                 keep_checkpoint_per_n_minutes=0, integrated_save=True, async_save=False,
                 saved_network=None, append_info=None, enc_key=None, enc_mode="AES-GCM",
                 exception_save=False, crc_check=False, **kwargs):
        save_checkpoint_steps = _non_negative_int(save_checkpoint_steps, "save_checkpoint_steps")
        save_checkpoint_seconds = _non_negative_int(save_checkpoint_seconds,
                                                    "save_checkpoint_seconds")
        keep_checkpoint_max = _non_negative_int(keep_checkpoint_max, "keep_checkpoint_max")
        keep_checkpoint_per_n_minutes = _non_negative_int(keep_checkpoint_per_n_minutes,
                                                          "keep_checkpoint_per_n_minutes")
        if saved_network is not None and not isinstance(saved_network, Cell):
            raise TypeError(f"For 'CheckpointConfig', the type of 'saved_network' must be None or "
                            f"Cell, but got {type(saved_network)}.")
        if not save_checkpoint_steps and not save_checkpoint_seconds and \
                not keep_checkpoint_max and not keep_checkpoint_per_n_minutes:
            raise ValueError("For 'CheckpointConfig', the input arguments 'save_checkpoint_steps', "
                             "'save_checkpoint_seconds', 'keep_checkpoint_max' and "
                             "'keep_checkpoint_per_n_minutes' can't be all None or 0.")
        if enc_key is not None:
            raise ValueError("For 'CheckpointConfig', refms does not implement checkpoint "
                             "encryption ('enc_key').")
        self._save_checkpoint_steps = save_checkpoint_steps
        self._save_checkpoint_seconds = save_checkpoint_seconds
        if save_checkpoint_steps and save_checkpoint_steps > 0:
            self._save_checkpoint_seconds = None
        self._keep_checkpoint_max = keep_checkpoint_max
        self._keep_checkpoint_per_n_minutes = keep_checkpoint_per_n_minutes
        if keep_checkpoint_max and keep_checkpoint_max > 0:
            self._keep_checkpoint_per_n_minutes = None
        elif not keep_checkpoint_per_n_minutes:
            self._keep_checkpoint_max = 1
        self._integrated_save = integrated_save
        self._async_save = async_save
        self._saved_network = saved_network
        self._append_dict = self._handle_append_info(append_info)
        self._crc_check = crc_check
        self._enc_key, self._enc_mode = enc_key, enc_mode
        self.exception_save = exception_save

    @staticmethod
    def _handle_append_info(append_info):
        if append_info is None or append_info == []:
            return None
        if not isinstance(append_info, list):
            raise TypeError(f"For 'CheckpointConfig', the type of 'append_info' must be list, but "
                            f"got {type(append_info)}.")
        handled = {}
        for item in append_info:
            if item in ("epoch_num", "step_num"):
                handled[item] = 0
            elif isinstance(item, dict):
                handled.update(item)
            else:
                raise ValueError(f"For 'CheckpointConfig', the 'append_info' may hold 'epoch_num', "
                                 f"'step_num' and dicts, but got {item!r}.")
        return handled

    @property
    def save_checkpoint_steps(self):
        return self._save_checkpoint_steps

    @property
    def save_checkpoint_seconds(self):
        return self._save_checkpoint_seconds

    @property
    def keep_checkpoint_max(self):
        return self._keep_checkpoint_max

    @property
    def keep_checkpoint_per_n_minutes(self):
        return self._keep_checkpoint_per_n_minutes

    @property
    def integrated_save(self):
        return self._integrated_save

    @property
    def async_save(self):
        return self._async_save

    @property
    def saved_network(self):
        return self._saved_network

    @property
    def append_dict(self):
        return self._append_dict

    @property
    def crc_check(self):
        return self._crc_check

    @property
    def enc_key(self):
        return self._enc_key

    @property
    def enc_mode(self):
        return self._enc_mode

    def get_checkpoint_policy(self):
        return {"save_checkpoint_steps": self.save_checkpoint_steps,
                "save_checkpoint_seconds": self.save_checkpoint_seconds,
                "keep_checkpoint_max": self.keep_checkpoint_max,
                "keep_checkpoint_per_n_minutes": self.keep_checkpoint_per_n_minutes,
                "saved_network": self.saved_network}


def _graph_text(network):
    """The IR text of the programs ``network`` has compiled (empty when there are none)."""
    from ...graph.printer import format_program
    cache = network.__dict__.get("_graph_cache") if isinstance(network, Cell) else None
    texts = []
    for compiled in cache.values() if cache is not None else ():
        entry = getattr(compiled, "entry", None)
        if entry is not None:
            texts.append(format_program(entry))
    return "\n".join(texts)


def _unique_prefix(directory, prefix):
    """``prefix``, or ``prefix_<n>`` when files of that prefix already exist (never overwrite)."""
    suffix = 0
    for filename in os.listdir(directory):
        if not filename.endswith(".ckpt") or not filename.startswith(prefix):
            continue
        rest = filename[len(prefix):]
        if not rest or rest[0].isalpha():
            continue
        dash = rest.find("-")
        if dash == 0:
            suffix = max(suffix, 1)
        elif dash > 0 and rest[1:dash].isdigit():
            suffix = max(suffix, int(rest[1:dash]) + 1)
    return f"{prefix}_{suffix}" if suffix else prefix


class ModelCheckpoint(Callback):
    """ModelCheckpoint(prefix='CKP', directory=None, config=None)"""

    def __init__(self, prefix="CKP", directory=None, config=None):
        super().__init__()
        if not isinstance(prefix, str) or "/" in prefix:
            raise ValueError(f"For 'ModelCheckpoint', the argument 'prefix' for checkpoint file "
                             f"name is invalid, it must be string that does not contain '/', but "
                             f"got {prefix}.")
        if config is None:
            config = CheckpointConfig()
        if not isinstance(config, CheckpointConfig):
            raise TypeError(f"For 'ModelCheckpoint', the type of argument 'config' should be "
                            f"'CheckpointConfig', but got {type(config)}.")
        self._directory = os.path.realpath(directory if directory is not None else os.getcwd())
        os.makedirs(self._directory, exist_ok=True)
        self._config = config
        self._prefix = _unique_prefix(self._directory, prefix)
        self._append_dict = dict(config.append_dict or {})
        self._last_triggered_step = 0
        self._last_time = time.time()
        self._latest_ckpt_file_name = ""
        self._graph_saved = False

    @property
    def latest_ckpt_file_name(self):
        return self._latest_ckpt_file_name

    def step_end(self, run_context):
        cb_params = run_context.original_args()
        if not self._graph_saved and is_graph_mode():
            self._save_graph(cb_params.train_network)
        self._save_ckpt(cb_params)

    def _save_graph(self, network):
        """Write ``<prefix>-graph.meta``: the IR of ``network``'s compiled graph."""
        path = os.path.join(self._directory, self._prefix + "-graph.meta")
        if os.path.isfile(path):
            os.remove(path)
        with open(path, "w", encoding="utf-8") as f:
            f.write(_graph_text(network))
        self._graph_saved = True

    def end(self, run_context):
        self._save_ckpt(run_context.original_args(), force_to_save=True)

    def _should_save(self, cb_params, force_to_save):
        config = self._config
        if config.save_checkpoint_steps and config.save_checkpoint_steps > 0:
            return force_to_save or \
                cb_params.cur_step_num >= self._last_triggered_step + config.save_checkpoint_steps
        if config.save_checkpoint_seconds and config.save_checkpoint_seconds > 0:
            now = time.time()
            if now - self._last_time > config.save_checkpoint_seconds or force_to_save:
                self._last_time = now
                return True
        return False

    def _existing_files(self):
        files = []
        for filename in os.listdir(self._directory):
            if filename.endswith(".ckpt") and filename.startswith(self._prefix + "-"):
                middle = filename[len(self._prefix):-len(".ckpt")]
                if not any(c.isalpha() for c in middle):
                    files.append(os.path.join(self._directory, filename))
        return files

    def _save_ckpt(self, cb_params, force_to_save=False):
        if cb_params.cur_step_num == self._last_triggered_step:
            return
        if not self._should_save(cb_params, force_to_save):
            return
        step_in_epoch = (cb_params.cur_step_num - 1) % cb_params.batch_num + 1
        filename = f"{self._prefix}-{cb_params.cur_epoch_num}_{step_in_epoch}.ckpt"
        existing = self._existing_files()
        keep = self._config.keep_checkpoint_max
        if keep and 0 < keep <= len(existing):
            oldest = sorted(existing, key=os.path.getmtime)[0]
            os.remove(oldest)
        self._last_triggered_step = cb_params.cur_step_num
        if "epoch_num" in self._append_dict:
            self._append_dict["epoch_num"] = cb_params.cur_epoch_num
        if "step_num" in self._append_dict:
            self._append_dict["step_num"] = cb_params.cur_step_num
        network = self._config.saved_network
        if network is None:
            network = cb_params.train_network
        path = os.path.join(self._directory, filename)
        save_checkpoint(network, path, append_dict=self._append_dict or None,
                        crc_check=self._config.crc_check)
        self._latest_ckpt_file_name = path
