"""summa.compile: an exported model to a program for a [q, q, d] grid.

With `train=TrainingOptions(...)`, summa-opt's summa-differentiate first
derives the training step from the exported loss (the forward, its
backward by summa's derivative rules, the optimizer's update; every float
parameter trained), and summa-compile compiles the step
(`<function>_grad`); without it the exported function itself is compiled.
"""

import os
from dataclasses import dataclass, fields

from . import _tools
from ._tools import SummaError


@dataclass
class TrainingOptions:
    """The step summa-differentiate derives (docs/Training.md): the optimizer
    as torch.optim has it (sgd, momentum, adamw: defaults are AdamW's),
    gradient clipping (clip_norm, 0: none), the learning-rate schedule
    (constant, cosine, linear: nanoGPT's get_lr), gradient accumulation,
    activation recompute (none, layers, attention), the products' precision
    (f32, bf16 as torch.autocast) and the optimizer state split over the
    grid's depth (zero)."""

    optimizer: str = "adamw"
    lr: float = 1e-3
    beta1: float = 0.9
    beta2: float = 0.999
    eps: float = 1e-8
    weight_decay: float = 0.01
    momentum: float = 0.9
    clip_norm: float = 0.0
    schedule: str = "constant"
    warmup: int = 0
    decay_steps: int = 0
    min_lr: float = 0.0
    accumulate: int = 1
    recompute: str = "none"
    precision: str = "f32"
    zero: bool = False

    def pass_options(self):
        """summa-differentiate's option string."""
        if self.optimizer not in ("sgd", "momentum", "adamw"):
            raise SummaError(f"summa.TrainingOptions: optimizer={self.optimizer!r}: expected "
                             "sgd, momentum or adamw")
        if self.lr <= 0:
            raise SummaError(f"summa.TrainingOptions: lr={self.lr} must be positive")
        opts = ["params=floats", "gradients=false", f"optimizer={self.optimizer}"]
        for f in fields(self):
            if f.name in ("optimizer", "zero"):
                continue
            value = getattr(self, f.name)
            if self.optimizer != "adamw" and f.name in ("beta1", "beta2", "eps",
                                                        "weight_decay"):
                continue
            if self.optimizer != "momentum" and f.name == "momentum":
                continue
            opts.append(f"{f.name.replace('_', '-')}={value}")
        return " ".join(opts)


def _grid(grid):
    if isinstance(grid, str):
        grid = grid.split(",")
    try:
        q, q2, d = (int(x) for x in grid)
    except (TypeError, ValueError):
        raise SummaError(f"summa.compile: grid={grid!r}: expected (q, q, d)") from None
    if q != q2 or q < 1 or d < 1:
        raise SummaError(f"summa.compile: grid=({q}, {q2}, {d}): summa's grids are [q, q, d] "
                         "with q, d >= 1")
    return (q, q, d)


class Compiled:
    """A compiled program: `binary` for `grid` (`ranks` = q·q·d MPI ranks),
    `source` the MLIR it was compiled from and `entry` its function."""

    def __init__(self, exported, grid, binary, source, entry, train, target, generator=False):
        self.exported = exported
        self.generator = generator
        self.grid = grid
        self.ranks = grid[0] * grid[1] * grid[2]
        self.binary = binary
        self.source = source
        self.entry = entry
        self.train = train
        self.target = target

    def __repr__(self):
        return (f"summa.Compiled({self.entry} on grid {list(self.grid)}, {self.ranks} ranks, "
                f"{self.binary})")

    def plan(self, ranks=None, machine=None):
        """summa-plan's table for this program: the grids of `ranks` (default
        this program's) with their predicted time, bytes by collective and
        memory (`machine`: a machine file of summa-plan --calibrate)."""
        argv = ["summa-plan", self.source, f"--entry={self.entry}",
                f"--ranks={ranks or self.ranks}"]
        if machine:
            argv.append(f"--machine={machine}")
        return _tools.run(argv, "summa-plan")

    def _launch(self):
        """summa-run's command line for one launch of the binary on its
        ranks, no restart (its options follow)."""
        return ["summa-run", "-np", str(self.ranks), "--max-restarts", "0", "--", self.binary]

    def _stem(self):
        return os.path.join(os.path.dirname(self.binary), os.path.basename(self.binary) + ".run")

    def _weights_file(self, weights):
        """A safetensors file of the parameters `weights` stands for (see
        run)."""
        from safetensors.torch import load_file, save_file

        if weights is None:
            return self.exported.weights
        if not isinstance(weights, dict) and os.path.isdir(weights):
            # A checkpoint holds the step's other inputs too (the batch, the
            # optimizer's state): its parameters only.
            from .hf import _whole

            stored = load_file(_whole(weights))
            missing = [n for n in self.exported.param_names if n not in stored]
            if missing:
                raise SummaError(f"summa: the checkpoint {weights} lacks {', '.join(missing[:8])}")
            weights = {n: stored[n] for n in self.exported.param_names}
        if isinstance(weights, dict):
            path = self._stem() + ".weights.safetensors"
            save_file({k: v.detach().contiguous() for k, v in weights.items()}, path)
            return path
        return os.fspath(weights)

    def run(self, inputs, weights=None, steps=0, outputs=None):
        """Runs the program once on its ranks (summa-run, mpirun) and returns
        its outputs {name: tensor}. `inputs`: {name: tensor} or a tuple in
        the export's input order; `weights`: a safetensors file, a
        checkpoint (a step<N> folder) or {name: tensor} (default: the
        exported model's own); `steps` > 0 runs that many training steps."""
        import torch
        from safetensors.torch import load_file, save_file

        if self.generator:
            raise SummaError("summa: a generator runs with .generate(prompt)")
        names = self.exported.input_names
        if not isinstance(inputs, dict):
            inputs = tuple(inputs) if isinstance(inputs, (tuple, list)) else (inputs,)
            if len(inputs) != len(names):
                raise SummaError(f"summa: {self.entry} takes {len(names)} input(s) "
                                 f"({', '.join(names)}), got {len(inputs)}")
            inputs = dict(zip(names, inputs))
        stem = self._stem()
        save_file({k: torch.as_tensor(v).contiguous() for k, v in inputs.items()},
                  stem + ".inputs.safetensors")
        weights = self._weights_file(weights)
        out = outputs or stem + ".outputs.safetensors"
        argv = self._launch() + ["--inputs", weights, "--inputs", stem + ".inputs.safetensors",
                                 "--iters", "0", "--outputs", out]
        if steps:
            argv += ["--steps", str(steps)]
        _tools.run(argv, f"running {self.entry} on {self.ranks} ranks")
        return load_file(out)

    def loss(self, inputs, weights=None):
        """The program's scalar result (a loss) on `inputs` as a float."""
        return float(self.run(inputs, weights=weights)["result0"])

    def generate(self, prompt, max_new_tokens=None, weights=None, temperature=0.0, top_k=0,
                 top_p=1.0, seed=0, eos=None, pad=None, attention_mask=None,
                 return_logits=False):
        """Text from a generator (compile(..., generate=True)): the prompt's
        ids [batch, length] (the compiled batch; at least the compiled
        prompt length; `attention_mask` left-pads rows of different
        lengths as Hugging Face does) continued by `max_new_tokens` ids
        each, greedily (temperature 0) or sampled (temperature, top_k,
        top_p, seed: the same ids on every grid), stopping a row at `eos`.
        Returns the sequences [batch, length + new] (int64); with
        `return_logits`, (sequences, the logits of every new token
        [new, batch, vocab])."""
        import torch
        from safetensors.torch import load_file, save_file

        if not self.generator:
            raise SummaError("summa: .generate needs a program compiled with generate=True "
                             "from a causal LM's logits (summa.export(..., loss='logits'))")
        stem = self._stem()
        prompt_file = {"input_ids": torch.as_tensor(prompt, dtype=torch.long).contiguous()}
        if attention_mask is not None:
            prompt_file["attention_mask"] = torch.as_tensor(attention_mask,
                                                            dtype=torch.long).contiguous()
        save_file(prompt_file, stem + ".prompt.safetensors")
        out = stem + ".sequences.safetensors"
        argv = self._launch() + [
            "--inputs", self._weights_file(weights),
            "--prompt", stem + ".prompt.safetensors", "--outputs", out,
            "--temperature", str(temperature), "--top-k", str(top_k),
            "--top-p", str(top_p), "--seed", str(seed)]
        if max_new_tokens is not None:
            argv += ["--max-new-tokens", str(max_new_tokens)]
        if eos is not None:
            argv += ["--eos", str(eos)] + (["--pad", str(pad)] if pad is not None else [])
        if return_logits:
            argv.append("--save-logits")
        _tools.run(argv, f"generating with {self.entry} on {self.ranks} ranks")
        result = load_file(out)
        if return_logits:
            return result["sequences"], result["scores"]
        return result["sequences"]


def compile(exported, grid=(1, 1, 1), train=None, target="cpu", out=None, options=(),
            generate=False, prompt_length=None):
    """Compiles `exported` (summa.export's) for `grid` (q, q, d).

    train: TrainingOptions to compile its training step, None for the
    function itself. generate: a generator instead (summa-compile
    --generate: the prefill and KV-cached decode summa derives from a
    causal LM's logits, exported with loss="logits"; prompts of at least
    `prompt_length` ids, default half the exported length). target: "cpu"
    (MPI + BLAS) or "cuda" (NCCL + cuBLAS). out: the binary's path
    (default: beside the export). options: more summa-compile options.
    Returns a Compiled."""
    grid = _grid(grid)
    if generate and train is not None:
        raise SummaError("summa.compile: generate=True and train= are two programs; compile "
                         "each from its own export")
    if target not in ("cpu", "cuda"):
        raise SummaError(f"summa.compile: target={target!r}: expected cpu or cuda")
    source, entry = exported.mlir, exported.function
    tag = "x".join(str(g) for g in grid)
    if train is not None:
        if not isinstance(train, TrainingOptions):
            raise SummaError("summa.compile: train= takes a summa.TrainingOptions")
        source = os.path.join(exported.directory, f"{exported.function}.step.mlir")
        _tools.run(["summa-opt", exported.mlir, "-o", source,
                    f"--summa-differentiate={train.pass_options()}"],
                   f"deriving the training step of {exported.function} (summa-differentiate)")
        entry = f"{exported.function}_grad"
    kind = ".step" if train else ".gen" if generate else ""
    binary = out or os.path.join(exported.directory, f"{exported.function}{kind}.{tag}")
    argv = ["summa-compile", source, f"--entry={entry}", f"--grid={','.join(map(str, grid))}",
            f"--target={target}", "-o", binary]
    if generate:
        argv.append("--generate")
        if prompt_length:
            argv.append(f"--prompt-length={prompt_length}")
    if train is not None and train.zero:
        argv.append("--zero")
    argv += list(options)
    _tools.run(argv, f"compiling {entry} for grid {list(grid)} (summa-compile)")
    return Compiled(exported, grid, binary, source, entry, train, target, generator=generate)
