"""summa.export: any torch.nn.Module to the MLIR summa compiles.

The module is called on example arguments the way the user calls it and
exported by torch-mlir's FX importer (`torch_mlir.fx.export_and_import`,
output "linalg-on-tensors"): torch.export, torch-mlir's decompositions and
its linalg backend pipeline. The model's parameters are the function's
arguments after the inputs, each named by its `state_dict` name
(`summa.name`); a tied parameter (GPT-2's `lm_head.weight` and
`transformer.wte.weight`) is one argument under the name
`named_parameters()` gives it first; buffers stay constants. An
`nn.Embedding` with a `padding_idx` gets `summa.padding_idx`, so that its
derived gradient leaves that row alone as PyTorch's does.

What the export fixes for Hugging Face models (settings a user would miss):
the KV cache off (`use_cache=False`), the experts of a mixture of experts in
the `batched_mm` form torch-mlir imports, attention in its eager form, and the model in eval mode (summa's training step has no dropout: a
config with dropout is trained without it, and the export says so).
"""

import inspect
import json
import math
import os
import re
import tempfile
import warnings
from dataclasses import dataclass, field

from ._tools import SummaError


@dataclass
class Exported:
    """What summa.export wrote: the MLIR module (`mlir`), its function
    (`function`), the model's parameters by name (`weights`, safetensors),
    the names of the function's inputs and parameters, in argument order,
    and the example inputs (`examples`, safetensors)."""

    mlir: str
    function: str
    weights: str
    examples: str
    input_names: list
    param_names: list
    directory: str
    loss: str = ""
    config: dict = field(default_factory=dict)

    @property
    def names(self):
        return list(self.input_names) + list(self.param_names)


class _Program:
    """forward(*inputs, *params): the model called through
    torch.func.functional_call with `params` as its parameters, then
    `call` (the loss or the output the user chose). The model is kept out of
    nn.Module's registry so that torch.export sees every weight as an
    input."""

    def __new__(cls, model, n_inputs, param_names, call):
        import torch.nn as nn
        from torch.func import functional_call

        class Program(nn.Module):
            def __init__(self):
                super().__init__()
                object.__setattr__(self, "_model", model)

            def forward(self, *args):
                inputs = args[:n_inputs]
                params = dict(zip(param_names, args[n_inputs:]))

                def forward(*a, **k):
                    return functional_call(model, params, a, k)

                return call(forward, *inputs)

        return Program()


def _is_hf(model):
    return hasattr(model, "config") and hasattr(model.config, "to_dict")


def _output(out):
    """The tensor a model's output stands for: a Hugging Face ModelOutput's
    loss where it computed one, else its logits (or first field); a tuple's
    first element."""
    import torch

    if isinstance(out, torch.Tensor):
        return out
    if hasattr(out, "loss") and getattr(out, "loss", None) is not None:
        return out.loss
    if hasattr(out, "logits") and getattr(out, "logits", None) is not None:
        return out.logits
    if isinstance(out, (tuple, list)) and out and isinstance(out[0], torch.Tensor):
        return out[0]
    if hasattr(out, "to_tuple"):
        return out.to_tuple()[0]
    raise SummaError(f"summa.export: the model returned {type(out).__name__}; summa compiles "
                     "a function of one tensor result (give loss= to choose it)")


def _call_for(model, loss):
    """(call, input names): how the program calls the model and what its
    result is."""
    kwargs = {"use_cache": False} if _is_hf(model) else {}
    if loss is None:
        def call(forward, *inputs):
            return _output(forward(*inputs, **kwargs))
        return call, None
    if loss == "causal_lm":
        if not _is_hf(model):
            raise SummaError("summa.export: loss='causal_lm' is Hugging Face's next-token loss "
                             "(model(input_ids, labels=input_ids).loss); this model is not a "
                             "transformers model: pass a function loss(output, *inputs)")

        def call(forward, input_ids):
            return forward(input_ids=input_ids, labels=input_ids, **kwargs).loss
        return call, ["input_ids"]
    if loss == "logits":
        def call(forward, *inputs):
            out = forward(*inputs, **kwargs)
            return out.logits if hasattr(out, "logits") else _output(out)
        return call, None
    if callable(loss):
        def call(forward, *inputs):
            return loss(forward(*inputs, **kwargs), *inputs)
        return call, None
    raise SummaError(f"summa.export: loss={loss!r}: expected None (the model's output), "
                     "'causal_lm', 'logits' or a function loss(output, *inputs)")


def _prepare_hf(model):
    """The Hugging Face settings an export needs (module docstring)."""
    config = model.config
    # Eager attention: torch.export's SDPA decomposition views a transposed
    # tensor as a matrix, which torch-mlir refuses.
    if getattr(config, "_attn_implementation", None) != "eager":
        if not hasattr(model, "set_attn_implementation"):
            raise SummaError("summa.export: this transformers version cannot set the model's "
                             "attention to eager")
        model.set_attn_implementation("eager")
    if getattr(config, "num_local_experts", 0) or getattr(config, "num_experts", 0):
        if hasattr(model, "set_experts_implementation"):
            try:
                model.set_experts_implementation("batched_mm")
            except (ValueError, AttributeError):
                pass
    dropouts = {k: v for k, v in config.to_dict().items()
                if ("dropout" in k or k.endswith("_pdrop")) and not k.startswith("summary")
                and isinstance(v, float) and v > 0}
    if dropouts:
        warnings.warn("summa.export: the model's dropout (" + ", ".join(
            f"{k}={v}" for k, v in sorted(dropouts.items())) + ") is left out: summa's "
            "training step computes the model in eval mode", stacklevel=3)


def _unsupported(err, diagnostics=()):
    """A message naming the op torch-mlir or torch.export could not take
    (from the error and torch-mlir's diagnostics)."""
    text = "\n".join([str(err)] + list(diagnostics))
    ops = re.findall(r"['\"](torch\.(?:aten|prims|prim)\.[\w.]+)['\"]", text)
    ops += re.findall(r"(torch\.ops\.\w+\.[\w.]+)", text)
    first = (diagnostics[0] if diagnostics else str(err)).strip()
    first = first.splitlines()[0] if first else type(err).__name__
    if len(first) > 300:
        first = first[:300] + " ..."
    if ops:
        seen = list(dict.fromkeys(ops))
        return (f"summa.export: the op {', '.join(seen)} is not supported by torch-mlir's "
                f"linalg export ({first})")
    return f"summa.export: torch-mlir could not export the model: {first}"


def _gelu(x, approximate="none"):
    """aten.gelu as PyTorch computes it. torch-mlir's own lowering of the
    tanh form multiplies by 0.797724 where √(2/π) = 0.7978846 (an error of
    5e-5 at |x| = 2, 2e-5 relative: a model with F.gelu(approximate="tanh"),
    Gemma's and GPTBigCode's, would train a different function); the exact
    form is decomposed the same way for one rule."""
    import torch

    if approximate == "tanh":
        inner = math.sqrt(2.0 / math.pi) * (x + 0.044715 * x * x * x)
        return 0.5 * x * (1.0 + torch.tanh(inner))
    return 0.5 * x * (1.0 + torch.erf(x * math.sqrt(0.5)))


def decompositions():
    """torch-mlir's decomposition table with aten.gelu as PyTorch computes
    it (_gelu); examples/export's scripts export with it too."""
    import torch
    from torch_mlir.extras.fx_decomp_util import get_decomposition_table

    table = dict(get_decomposition_table())
    table[torch.ops.aten.gelu.default] = _gelu
    return table


def _param_state(model):
    """{name: parameter}: named_parameters(), a tied parameter once."""
    return dict(model.named_parameters())


def _padding_indices(model, params):
    import torch.nn as nn

    padding = {id(m.weight): m.padding_idx for m in model.modules()
               if isinstance(m, nn.Embedding) and m.padding_idx is not None}
    return {name: padding[id(t)] for name, t in params.items() if id(t) in padding}


def export(model, *example_args, loss=None, name=None, input_names=None, out=None):
    """Exports `model` called on `example_args` for summa.

    loss: None (the model's output: a tensor, or a Hugging Face output's
    loss where labels were given, else its logits), "causal_lm" (Hugging
    Face's next-token cross-entropy of a causal LM on its own ids: the one
    example argument is input_ids [batch, seq]), "logits" (a causal LM's
    logits, the forward summa-compile --generate takes) or a function
    loss(output, *example_args) -> scalar tensor.
    name: the MLIR function's name (default: the model's class, snake case).
    input_names: the inputs' summa.name (default: the forward's parameter
    names). out: the folder the files go to (default: a new temporary one).
    Returns an Exported."""
    import torch
    from safetensors.torch import save_file

    try:
        from torch_mlir import fx, ir
    except ImportError as e:
        raise SummaError("summa.export needs torch-mlir: pip install -r "
                         "examples/export/requirements-torch.txt") from e

    if not isinstance(model, torch.nn.Module):
        raise SummaError(f"summa.export: expected a torch.nn.Module, got {type(model).__name__}")
    for i, a in enumerate(example_args):
        if not isinstance(a, torch.Tensor):
            raise SummaError(f"summa.export: example argument {i} is a {type(a).__name__}; "
                             "summa's inputs are tensors")
    model.eval()
    hf = _is_hf(model)
    if hf:
        _prepare_hf(model)
    call, names = _call_for(model, loss)
    if names is not None and len(names) != len(example_args):
        raise SummaError(f"summa.export: loss={loss!r} takes {len(names)} example argument(s) "
                         f"({', '.join(names)}), got {len(example_args)}")
    if input_names is not None:
        names = list(input_names)
    if names is None:
        params = [p for p in inspect.signature(model.forward).parameters.values()
                  if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
        names = [p.name for p in params[:len(example_args)]]
        names += [f"arg{i}" for i in range(len(names), len(example_args))]
    if len(names) != len(example_args):
        raise SummaError(f"summa.export: {len(names)} input names for "
                         f"{len(example_args)} example arguments")
    if name is None:
        name = re.sub(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])", "_",
                      type(model).__name__).lower()
    if not re.fullmatch(r"[A-Za-z_][\w]*", name):
        raise SummaError(f"summa.export: name {name!r} is not a function name")

    state = _param_state(model)
    clash = set(names) & set(state)
    if clash:
        raise SummaError(f"summa.export: input names {sorted(clash)} are parameter names too")
    program = _Program(model, len(example_args), list(state.keys()), call)
    args = tuple(example_args) + tuple(t.detach() for t in state.values())
    with torch.no_grad():
        expected = call(lambda *a, **k: model(*a, **k), *example_args)
        got = program(*args)
    if not isinstance(got, torch.Tensor):
        raise SummaError(f"summa.export: the exported function returns {type(got).__name__}, "
                         "not a tensor")
    if not torch.equal(got, expected):
        raise SummaError("summa.export: calling the model with its parameters as arguments "
                         "changes its result (the model reads a parameter other than through "
                         "its modules?)")

    # torch-mlir's own context, with a handler that keeps its diagnostics
    # (which name the op it could not lower) for the error.
    from torch_mlir.dialects import torch as torch_dialect
    from torch_mlir.extras.fx_importer import FxImporter

    context = ir.Context()
    torch_dialect.register_dialect(context)
    diagnostics = []

    def keep(diagnostic):
        diagnostics.append(str(diagnostic))
        return True

    handler = context.attach_diagnostic_handler(keep)
    try:
        module = fx.export_and_import(program, *args, output_type="linalg-on-tensors",
                                      func_name=name, fx_importer=FxImporter(context=context),
                                      decomposition_table=decompositions())
    except Exception as e:  # torch.export's and torch-mlir's errors have no common base
        raise SummaError(_unsupported(e, diagnostics)) from e
    finally:
        handler.detach()

    padding = _padding_indices(model, state)
    arg_names = list(names) + list(state.keys())
    with module.context:
        funcs = [op for op in module.body.operations if op.operation.name == "func.func"]
        if len(funcs) != 1:
            raise SummaError(f"summa.export: torch-mlir made {len(funcs)} functions, expected 1")
        func = funcs[0]
        n_args = len(func.regions[0].blocks[0].arguments)
        if n_args != len(arg_names):
            raise SummaError(f"summa.export: the function has {n_args} arguments, expected "
                             f"{len(arg_names)} (inputs and parameters)")
        i64 = ir.IntegerType.get_signless(64)
        attrs = []
        for n in arg_names:
            d = {"summa.name": ir.StringAttr.get(n)}
            if n in padding:
                d["summa.padding_idx"] = ir.IntegerAttr.get(i64, padding[n])
            attrs.append(ir.DictAttr.get(d))
        func.attributes["arg_attrs"] = ir.ArrayAttr.get(attrs)
        module.operation.verify()
        text = module.operation.get_asm(print_generic_op_form=False)

    directory = out or tempfile.mkdtemp(prefix=f"summa-{name}-")
    os.makedirs(directory, exist_ok=True)
    paths = {k: os.path.join(directory, f"{name}.{k}") for k in
             ("mlir", "weights.safetensors", "examples.safetensors", "summa.json")}
    with open(paths["mlir"], "w") as f:
        f.write(f"// {name}: {type(model).__module__}.{type(model).__name__} exported by "
                f"summa.export (torch-mlir's FX importer, linalg on tensors)\n")
        f.write(text)
    save_file({n: t.detach().contiguous() for n, t in state.items()},
              paths["weights.safetensors"])
    save_file({n: t.detach().contiguous() for n, t in zip(names, example_args)},
              paths["examples.safetensors"])
    config = model.config.to_dict() if hf else {}
    exported = Exported(mlir=paths["mlir"], function=name, weights=paths["weights.safetensors"],
                        examples=paths["examples.safetensors"], input_names=list(names),
                        param_names=list(state.keys()), directory=directory,
                        loss=loss if isinstance(loss, str) else ("" if loss is None else "custom"),
                        config=config)
    with open(paths["summa.json"], "w") as f:
        json.dump({k: getattr(exported, k) for k in
                   ("mlir", "function", "weights", "examples", "input_names", "param_names",
                    "loss")}, f, indent=1)
    return exported
