"""summa.train: a compiled training step run as a job.

The job is `summa-run` (mpirun, or srun inside a Slurm allocation; a rank
that dies is restarted from the last complete checkpoint) running the
compiled step `steps` times, each step on a new batch drawn from the token
file (runtime/tooling/DataLoader.h: the same batches on every grid, a
resumed run goes on with the next ones). Its progress lines are read as
they come and drawn as a progress bar with the loss.
"""

import json
import os
import re
import subprocess
import sys
from dataclasses import dataclass, field

from . import _tools
from ._tools import SummaError

STEP_LINE = re.compile(r"^step (\d+)/(\d+)(?: loss (\S+))?")


@dataclass
class TrainResult:
    """A finished job: its checkpoint folder (`checkpoint`, the state after
    the last step in `checkpoint/step<N>`), the losses by step (`losses`,
    from its metrics file) and the metrics file itself."""

    checkpoint: str
    last_step: int
    losses: list = field(default_factory=list)
    metrics: str = ""

    @property
    def final(self):
        """The folder of the state after the last step (weights and
        optimizer state), which --inputs, summa.load and summa-ckpt take."""
        return os.path.join(self.checkpoint, f"step{self.last_step}")


def write_tokens(ids, path):
    """Writes token ids as the 1-D int32 .npy file --data reads."""
    import numpy as np

    arr = np.asarray(ids if not hasattr(ids, "numpy") else ids.numpy()).reshape(-1)
    if arr.size == 0 or not np.issubdtype(arr.dtype, np.integer):
        raise SummaError("summa.train: data= takes token ids (integers), at least one batch")
    if arr.min() < 0 or arr.max() >= 2**31:
        raise SummaError("summa.train: token ids must be in [0, 2^31)")
    np.save(path, arr.astype(np.int32))
    return path


class _Bar:
    def __init__(self, total, enabled):
        self.total, self.enabled = total, enabled and sys.stderr.isatty()
        self.last = ""

    def update(self, step, total, loss):
        # Steps count from the start of training: a run resumed from a
        # checkpoint of step S ends at S + steps.
        self.total = total
        line = f"step {step}/{total}" + (f" loss {loss}" if loss is not None else "")
        self.last = line
        if self.enabled:
            done = int(30 * step / max(self.total, 1))
            sys.stderr.write(f"\r[{'#' * done}{'.' * (30 - done)}] {line}")
            sys.stderr.flush()

    def close(self):
        if self.enabled:
            sys.stderr.write("\n")
        elif self.last:
            print(f"summa: {self.last}", file=sys.stderr)


def train(compiled, data, steps, checkpoint=None, weights=None, metrics=None, save_every=None,
          seed=42, vocab=None, log_every=1, max_restarts=3, progress=True, launcher_args=None):
    """Trains: `compiled` (summa.compile with train=) for `steps` steps on
    token ids `data` (a list/array/tensor, or a token file: raw uint16 or a
    1-D integer .npy), from `weights` (default: the exported model's; a
    checkpoint folder continues a run). The state is saved every
    `save_every` steps (default: at the end) in `checkpoint` (default:
    beside the binary); `metrics` (default: in the checkpoint folder) gets a
    JSON line per step. Returns a TrainResult."""
    if compiled.train is None:
        raise SummaError("summa.train: the program was compiled without train=: it is not a "
                         "training step")
    if steps < 1:
        raise SummaError("summa.train: steps must be at least 1")
    base = os.path.join(os.path.dirname(compiled.binary), os.path.basename(compiled.binary))
    checkpoint = checkpoint or base + ".ckpt"
    os.makedirs(checkpoint, exist_ok=True)
    if not isinstance(data, (str, os.PathLike)):
        data = write_tokens(data, os.path.join(checkpoint, "data.npy"))
    elif not os.path.exists(data):
        raise SummaError(f"summa.train: the token file {data} does not exist")
    metrics = metrics or os.path.join(checkpoint, "metrics.jsonl")
    save_every = save_every or steps
    weights = weights or compiled.exported.weights
    argv = [_tools.tool("summa-run"), "-np", str(compiled.ranks),
            "--max-restarts", str(max_restarts)]
    if launcher_args:
        argv += ["--launcher-args", launcher_args]
    argv += ["--", compiled.binary, "--inputs", weights, "--data", data,
             "--steps", str(steps), "--checkpoint", checkpoint, "--save-every", str(save_every),
             "--metrics", metrics, "--log-every", str(log_every), "--iters", "0",
             "--seed", str(seed)]
    if vocab:
        argv += ["--vocab", str(vocab)]
    bar = _Bar(steps, progress)
    output = []
    with subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          text=True) as proc:
        for line in proc.stdout:
            output.append(line)
            m = STEP_LINE.match(line)
            if m:
                bar.update(int(m.group(1)), int(m.group(2)), m.group(3))
            elif line.startswith("summa-run:") and progress:
                print(line, end="", file=sys.stderr)
        status = proc.wait()
    bar.close()
    if status != 0:
        tail = "".join(output[-40:])
        raise SummaError(f"summa.train: the job failed (exit status {status}):\n"
                         f"  $ {' '.join(argv)}\n{tail}")
    losses = []
    with open(metrics) as f:
        for line in f:
            record = json.loads(line)
            if "loss" in record:
                losses.append(record["loss"])
    return TrainResult(checkpoint=checkpoint, last_step=newest_step(checkpoint), losses=losses,
                       metrics=metrics)


def newest_step(checkpoint):
    """The newest complete step<N> of a checkpoint folder (a folder with
    its index.json, or a whole step<N>.safetensors)."""
    steps = []
    for entry in os.listdir(checkpoint):
        m = re.fullmatch(r"step(\d+)(\.safetensors)?", entry)
        path = os.path.join(checkpoint, entry)
        if m and (m.group(2) or os.path.exists(os.path.join(path, "index.json"))):
            steps.append(int(m.group(1)))
    if not steps:
        raise SummaError(f"summa: {checkpoint} holds no complete checkpoint (step<N>)")
    return max(steps)
