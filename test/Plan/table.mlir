// The table for examples/gpt.mlir (256 tokens in 32 sequences, hidden 32,
// 4 heads, 2 layers). On 64 ranks [2,2,16] and [4,4,4] divide it; [1,1,64]
// (32 sequences over 64 ranks) and [8,8,1] (4 heads over 8 columns) split
// a dimension unevenly where a reshape merges it, keep there the axes that
// divide it and redistribute the rest (assign-layouts-uneven-merge.mlir),
// so they are counted too, and cost more; 1D splits the hidden size 64 ways
// and DP the 32 sequences, each in padded blocks (half the ranks hold
// padding), as summa itself pads. The planner picks [2,2,16], whose broadcasts all stay in a node of
// 8. On 8 ranks [1,1,8] (pure depth: no communication in a forward) beats
// [2,2,2]; its [2,2,2] rows show the SUMMA panels (Q, K and V share one
// SUMMA loop, so a layer broadcasts 4 activation panels and 6 weight panels
// per step). gpt_layer.mlir (batch 4, 32 tokens) on 128 ranks divides no
// grid evenly; every grid is counted and [4,4,8] is the best. A generated
// GPT of batch 64 and 8 heads divides on every grid of 64 ranks.
// RUN: summa-plan %summa_src/examples/gpt.mlir --ranks 64 | FileCheck %s --check-prefix=P64
// RUN: summa-plan %summa_src/examples/gpt.mlir --ranks 64 --json > %t.p64.json
// RUN: %python -m json.tool %t.p64.json | FileCheck %s --check-prefix=J64
// RUN: summa-plan %summa_src/examples/gpt_layer.mlir --ranks 128 | FileCheck %s --check-prefix=UNEVEN
// RUN: summa-plan %summa_src/examples/gpt_layer.mlir --ranks 128 --json > %t.uneven.json
// RUN: %python -m json.tool %t.uneven.json > /dev/null
// RUN: summa-plan %summa_src/examples/gpt.mlir --ranks 8 | FileCheck %s --check-prefix=P8
// RUN: summa-plan %summa_src/examples/gpt.mlir --ranks 16 | FileCheck %s --check-prefix=P16
// RUN: summa-plan %summa_src/examples/gpt.mlir --ranks 8 --json > %t.p8.json
// RUN: %python -m json.tool %t.p8.json | FileCheck %s --check-prefix=J8
// RUN: %python %summa_src/examples/generate.py gpt --layers 2 --batch 64 --seq 8 --hidden 64 --heads 8 -o %t.gpt64.mlir
// RUN: summa-plan %t.gpt64.mlir --ranks 64 | FileCheck %s --check-prefix=G64
// RUN: summa-plan %t.gpt64.mlir --ranks 64 --json > %t.g64.json
// RUN: %python -m json.tool %t.g64.json > /dev/null
// On nodes of 4 ranks, the groups of [4,4,4] along a column (ranks
// 16k + 4i + j, i varying) span 4 nodes; those along a row stay in one.
// RUN: summa-plan %t.gpt64.mlir --ranks 64 --grid 4,4,4 --gpus-per-node 4 | FileCheck %s --check-prefix=NODE

// P64: summa-plan: @gpt (read from the IR): 256 tokens (32 sequences of 8), hidden 32, f32; 12 weight matrices (2 layers), 25472 parameter elements
// P64: strategy   status        payload        wire   GEMMs      memory        comm        GEMM       local       total
// P64-NEXT: [1,1,64]   counted      3.00 KiB  378.00 KiB      12  229.00 KiB
// P64-NEXT: * [2,2,16]   counted     62.31 KiB  124.62 KiB      24   35.75 KiB
// P64-NEXT: [4,4,4]    counted     52.62 KiB  105.88 KiB      48   13.88 KiB
// P64-NEXT: [8,8,1]    counted     72.25 KiB  182.38 KiB      96   19.44 KiB
// P64-NEXT: 1D         model      128.00 KiB  504.00 KiB      12  165.52 KiB
// P64-NEXT: DP         model             0 B         0 B      12  105.00 KiB
// P64: [2,2,16]: memory per rank: parameters 25.75 KiB, activations 512 B, results 512 B, peak intermediates 9.00 KiB (SUMMA panels 6.00 KiB); 24 GEMMs, 196.61 KFLOP
// P64-NEXT: broadcast      row               2 ranks  nvlink       24 calls            49152 B
// P64-NEXT: broadcast      col               2 ranks  nvlink       16 calls            14336 B
// P64-NEXT: all_reduce     col               2 ranks  nvlink       10 calls              320 B
// P64: [4,4,4]: memory per rank: parameters 6.88 KiB
// P64-NEXT: broadcast      row               4 ranks  network      48 calls            24576 B
// P64-NEXT: broadcast      col               4 ranks  nvlink       32 calls            28672 B
// P64-NEXT: all_reduce     col               4 ranks  nvlink       10 calls              640 B
// P64: best: [2,2,16]: {{[0-9.]+}}x less predicted time than [4,4,4]

// J64: "best": "[2,2,16]"

// UNEVEN: [1,1,128]  counted
// UNEVEN-NEXT: [2,2,32]   counted
// UNEVEN-NEXT: * [4,4,8]    counted
// UNEVEN-NEXT: [8,8,2]    counted
// UNEVEN-NEXT: 1D         model        8.00 KiB   31.75 KiB       6   22.00 KiB
// UNEVEN-NEXT: DP         model             0 B         0 B       6   52.12 KiB
// UNEVEN: best: [4,4,8]

// P8: * [1,1,8]    counted           0 B         0 B      12
// P8-NEXT: [2,2,2]    counted    162.50 KiB  325.00 KiB      24   77.75 KiB
// P8: [2,2,2]: memory per rank: parameters 25.75 KiB, activations 4.00 KiB, results 4.00 KiB, peak intermediates 44.00 KiB (SUMMA panels 20.00 KiB); 24 GEMMs, 1.57 MFLOP
// P8-NEXT: broadcast      row               2 ranks  nvlink       24 calls            49152 B
// P8-NEXT: broadcast      col               2 ranks  nvlink       16 calls           114688 B
// P8-NEXT: all_reduce     col               2 ranks  nvlink       10 calls             2560 B
// P8: best: [1,1,8]: {{[0-9.]+}}x less predicted time than [2,2,2]

// P16: * [1,1,16]   counted
// P16-NEXT: [2,2,4]    counted
// P16-NEXT: [4,4,1]    counted
// P16: best: [1,1,16]

// J8: "best": "[1,1,8]"

// G64: * [1,1,64]   counted           0 B         0 B      12
// G64-NEXT: [2,2,16]   counted
// G64-NEXT: [4,4,4]    counted
// G64-NEXT: [8,8,1]    counted
// G64-NEXT: 1D         model      512.00 KiB    1.97 MiB      12  651.55 KiB
// G64-NEXT: DP         model             0 B         0 B      12
// G64: best: [1,1,64]: {{[0-9.]+}}x less predicted time than [2,2,16]

// NODE: [4,4,4]: memory per rank
// NODE-NEXT: broadcast      row           4 ranks  network      48 calls            98304 B
// NODE-NEXT: broadcast      col           4 ranks  nvlink       32 calls           114688 B
// NODE-NEXT: all_reduce     col           4 ranks  nvlink       10 calls             1280 B
