"""Back to PyTorch and Hugging Face: a summa checkpoint into an nn.Module
(`load`) and into a directory `from_pretrained` loads (`save_pretrained`).

A checkpoint is what a training job wrote (`--checkpoint DIR`: DIR/step<N>,
each rank its own blocks, any grid) or a whole safetensors file.
`summa-ckpt whole` joins the blocks into whole tensors named as the model's
state_dict (the export named every parameter so); the optimizer's state
(`<name>.exp_avg`, `step`, ...) is in it too and is left out.
"""

import os
import tempfile

from . import _tools
from ._tools import SummaError
from .train import TrainResult, newest_step


def _whole(checkpoint):
    """A whole safetensors file of `checkpoint` (a TrainResult, a step<N>
    folder, a folder of step<N>s (its newest) or a .safetensors file)."""
    if isinstance(checkpoint, TrainResult):
        checkpoint = checkpoint.checkpoint
    checkpoint = os.fspath(checkpoint)
    if os.path.isfile(checkpoint):
        return checkpoint
    if not os.path.isdir(checkpoint):
        raise SummaError(f"summa.load: no checkpoint at {checkpoint}")
    if not os.path.exists(os.path.join(checkpoint, "index.json")):
        step = newest_step(checkpoint)
        whole = os.path.join(checkpoint, f"step{step}.safetensors")
        if os.path.isfile(whole):
            return whole
        checkpoint = os.path.join(checkpoint, f"step{step}")
    out = os.path.join(tempfile.mkdtemp(prefix="summa-whole-"), "whole.safetensors")
    _tools.run(["summa-ckpt", "whole", checkpoint, out], f"joining the checkpoint {checkpoint}")
    return out


def load(model, checkpoint):
    """Puts the weights of `checkpoint` into `model` (in place) and returns
    it. Every parameter and buffer of the model's state_dict must be in the
    checkpoint, except a parameter tied to one that is (GPT-2's lm_head and
    its embedding: one tensor under one name) and buffers the export kept
    as constants; a checkpoint tensor of another shape is refused."""
    import torch
    from safetensors.torch import load_file

    stored = load_file(_whole(checkpoint))
    state = model.state_dict(keep_vars=True)
    params = {id(p): n for n, p in model.named_parameters()}
    missing, loaded = [], {}
    for name, tensor in state.items():
        source = name if name in stored else params.get(id(tensor))
        if source is None or source not in stored:
            if isinstance(tensor, torch.nn.Parameter):
                missing.append(name)
            continue
        value = stored[source]
        if tuple(value.shape) != tuple(tensor.shape):
            raise SummaError(f"summa.load: {source} is {list(value.shape)} in the checkpoint "
                             f"and {list(tensor.shape)} in the model")
        loaded[name] = value.to(tensor.dtype)
    if missing:
        raise SummaError("summa.load: the checkpoint lacks the model's parameters "
                         + ", ".join(missing[:8]) + (" ..." if len(missing) > 8 else ""))
    with torch.no_grad():
        for name, value in loaded.items():
            state[name].copy_(value)
    return model


def save_pretrained(checkpoint, model_or_config, directory, tokenizer=None):
    """Writes a directory `transformers.AutoModelForCausalLM.from_pretrained`
    (or the model's own class) loads: the model (`model_or_config`: the
    Hugging Face model that was exported, or its config, from which the
    model is built) with the weights of `checkpoint`, its config, and the
    tokenizer beside it when one is given. Returns the directory."""
    try:
        import transformers
    except ImportError as e:
        raise SummaError("summa.save_pretrained needs transformers") from e
    if isinstance(model_or_config, transformers.PretrainedConfig):
        model = transformers.AutoModelForCausalLM.from_config(model_or_config)
    elif isinstance(model_or_config, transformers.PreTrainedModel):
        model = model_or_config
    else:
        raise SummaError("summa.save_pretrained: expected a transformers model or config, got "
                         f"{type(model_or_config).__name__}")
    load(model, checkpoint)
    os.makedirs(directory, exist_ok=True)
    model.save_pretrained(directory)
    if tokenizer is not None:
        tokenizer.save_pretrained(directory)
    return directory
