# Inputs and PyTorch's answer for test/Integration/Inputs/pad.mlir: the loss
# sum(F.pad(x @ w, (2, 6)) ** 2) and its gradient with respect to w, by
# torch's autograd.
import os

import torch
from safetensors.torch import save_file

torch.manual_seed(0)
x = torch.randn(8, 8)
w = torch.randn(8, 8, requires_grad=True)
padded = torch.nn.functional.pad(x @ w, (2, 6, 0, 0))
loss = (padded * padded).sum()
loss.backward()
d = os.path.dirname(os.path.abspath(__file__)) + "/"
save_file({"arg0": x, "arg1": w.detach().clone()}, d + "pad.inputs.safetensors")
save_file({"result0": loss.detach().reshape(1), "result1": w.grad},
          d + "pad.expect.safetensors")
