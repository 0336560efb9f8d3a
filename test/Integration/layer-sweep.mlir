// The differential sweep: one small model per layer kind summa accepts
// (examples/export/export_layers.py: random weights, PyTorch's forward and
// its autograd SGD step committed in Inputs/layers; no torch here), each
// forward and derived step on [2,2,1], [1,1,2] and [2,2,2], against
// PyTorch (--expect, 1e-4), the unpartitioned program (--check) and, for
// the steps, finite differences of the loss (--gradcheck). No [1,1,1]: each
// of those runs checks what a one-rank run would (the rules against PyTorch
// and finite differences) besides the partitioning. Every float
// argument is a parameter of the step (params=floats), the layer's input
// included: a convolution's input gradient is its transposed window.
//
// Convolutions (conv1d and conv2d, strided, padded, with and without bias,
// depthwise) and pooling (max, average) are partitioned with their windowed
// dimensions whole on every rank (docs/Layouts.md, "Windowed dimensions").
// RUN: %python %S/Inputs/layer_sweep.py --opt summa-opt --compile summa-compile --mpirun "%mpirun" --fixtures %S/Inputs/layers --work %t.conv conv2d_k2s1 conv2d_k2s2_nobias conv2d_k3p1 conv1d_k3s2p1 conv2d_depthwise maxpool avgpool | FileCheck %s --check-prefix=CONV
// CONV-NOT: FAIL
// CONV: conv2d_k2s1 forward [2,2,2] PASS
// CONV: conv2d_k2s1 step [2,2,2] PASS check: PASS {{.*}} expect: PASS {{.*}} gradcheck: PASS
// CONV: sweep: 42 passed, 0 failed
//
// The layers of a transformer: a linear layer, an embedding with a padding
// index, LayerNorm and RMSNorm, causal attention with as many key/value
// heads as query heads and with half (grouped-query), and a routed mixture
// of experts (top-2 of 4, the experts' weights gathered per token).
// RUN: %python %S/Inputs/layer_sweep.py --opt summa-opt --compile summa-compile --mpirun "%mpirun" --fixtures %S/Inputs/layers --work %t.lm linear embedding layernorm rmsnorm attention attention_gqa moe_top2 | FileCheck %s --check-prefix=LM
// LM-NOT: FAIL
// LM: moe_top2 step [2,2,2] PASS check: PASS {{.*}} expect: PASS {{.*}} gradcheck: PASS
// LM: sweep: 42 passed, 0 failed
//
// Hugging Face's ViTForImageClassification (patch embedding by a strided
// convolution, class token, position embeddings, two layers; its own
// cross-entropy with labels), batches of 4 and 2. A batch of 2 images of 5
// tokens on [2,2,2] keeps [depth] on the batch where it merges with the
// sequence (assign-layouts-uneven-merge.mlir).
// RUN: %python %S/Inputs/layer_sweep.py --opt summa-opt --compile summa-compile --mpirun "%mpirun" --fixtures %S/Inputs/layers --work %t.vit vit_b4 vit_b2 | FileCheck %s --check-prefix=VIT
// VIT-NOT: FAIL
// VIT: vit_b4 forward [2,2,2] PASS
// VIT: vit_b4 step [2,2,2] PASS check: PASS {{.*}} expect: PASS {{.*}} gradcheck: PASS
// VIT: vit_b2 forward [2,2,2] PASS
// VIT: vit_b2 step [2,2,2] PASS check: PASS {{.*}} expect: PASS {{.*}} gradcheck: PASS
// VIT: sweep: 12 passed, 0 failed
