"""summa from Python: export a PyTorch or Hugging Face model, compile it for
a [q, q, d] grid, train it as a job, and hand the weights back.

    import summa, torch, transformers
    model = transformers.GPT2LMHeadModel(config)
    exported = summa.export(model, torch.zeros(4, 64, dtype=torch.long), loss="causal_lm")
    compiled = summa.compile(exported, grid=(2, 2, 1), train=summa.TrainingOptions(lr=1e-3))
    run = summa.train(compiled, data=ids, steps=100)
    summa.save_pretrained(run, model, "out")   # from_pretrained("out") loads it

docs/Python.md says more; the C++ tools are the repository's build
(`scripts/demo.sh` or `scripts/test.sh` makes them).
"""

from ._tools import SummaError
from .compile import Compiled, TrainingOptions, compile
from .export import Exported, export
from .hf import load, save_pretrained
from .text import tokenize, train_tokenizer
from .train import TrainResult, train

__all__ = ["SummaError", "Compiled", "TrainingOptions", "compile", "Exported", "export", "load",
           "save_pretrained", "tokenize", "train_tokenizer", "TrainResult", "train"]
