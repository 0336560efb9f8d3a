# Inputs and numpy's answer for test/Integration/Inputs/topk.mlir: the router
# weight is the identity (so the scores are the input exactly), with ties.
import os

import numpy as np
from safetensors.numpy import save_file
rng = np.random.default_rng(7)
x = rng.standard_normal((16, 4)).astype(np.float32)
x[3, 2] = x[3, 1] = 3.0    # a tie at the top: the lower index comes first
x[5, :] = 0.5              # a row of ties
x[9, 0] = x[9, 3] = 2.0    # the two largest tie
w = np.eye(4, dtype=np.float32)
order = np.argsort(-x, axis=1, kind="stable")[:, :2]
top = np.take_along_axis(x, order, axis=1)
d = os.path.dirname(os.path.abspath(__file__)) + "/"
save_file({"scores": x, "router": w}, d + "topk.inputs.safetensors")
save_file({"result0": top, "result1": order.astype(np.int64)}, d + "topk.expect.safetensors")
