// summa-plan on exports as the exporters write them: the tokens, hidden
// size and weight matrices come from the layouts summa-assign-layouts
// gives the arguments (a [batch, seq, hidden] activation, [out, in]
// weights, a mask buffer). On 9 ranks GPT-2's block (4 sequences, 4 heads)
// divides no grid evenly; its batch and heads keep the splits that divide
// them where reshapes merge them (assign-layouts-uneven-merge.mlir), and
// both grids are counted.
// RUN: summa-plan %summa_src/examples/fixtures/nanogpt_block.mlir --ranks 4 | FileCheck %s --check-prefix=NB
// RUN: summa-plan %summa_src/examples/fixtures/llama_layer.mlir --ranks 8 | FileCheck %s --check-prefix=LL
// RUN: summa-plan %summa_src/examples/fixtures/hf_gpt2_block.mlir --ranks 9 | FileCheck %s --check-prefix=NINE

// NB: @nanogpt_block (read from the IR): 32 tokens (4 sequences of 8), hidden 32, f32; 4 weight matrices (1 layer), 12768 parameter elements
// NB: [2,2,1]    counted
// LL: @llama_layer (read from the IR): 32 tokens (4 sequences of 8), hidden 32, f32; 7 weight matrices (1 layer)
// LL: [2,2,2]    counted
// NINE: * [1,1,9]    counted
// NINE-NEXT: [3,3,1]    counted
// NINE: best: [1,1,9]
