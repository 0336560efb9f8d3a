// summa-plan on exports as the exporters write them: the tokens, hidden
// size and weight matrices come from the layouts summa-assign-layouts
// gives the arguments (a [batch, seq, hidden] activation, [out, in]
// weights, a mask buffer), and no grid is an exit status of 2.
// RUN: summa-plan %summa_src/examples/fixtures/nanogpt_block.mlir --ranks 4 | FileCheck %s --check-prefix=NB
// RUN: summa-plan %summa_src/examples/fixtures/llama_layer.mlir --ranks 8 | FileCheck %s --check-prefix=LL
// RUN: not summa-plan %summa_src/examples/fixtures/hf_gpt2_block.mlir --ranks 9 | FileCheck %s --check-prefix=NONE

// NB: @nanogpt_block (read from the IR): 32 tokens (4 sequences of 8), hidden 32, f32; 4 weight matrices (1 layer), 12768 parameter elements
// NB: [2,2,1]    counted
// LL: @llama_layer (read from the IR): 32 tokens (4 sequences of 8), hidden 32, f32; 7 weight matrices (1 layer)
// LL: [2,2,2]    counted
// NONE: [3,3,1]    no: {{.*}}uneven blocks on grid [3, 3, 1]
// NONE: no grid: no grid of 9 ranks can partition the model
