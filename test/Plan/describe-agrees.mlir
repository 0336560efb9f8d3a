// --describe plans a GPT from closed formulas; they agree with what the IR
// planner counts on the generated examples: collectives, GEMMs, memory and
// seconds of every strategy, for several numbers of ranks (and so grids).
// gpt_layer.mlir is one layer without the final LayerNorm; gpt.mlir two
// layers and a final LayerNorm (batch 4 and 32, seq 8, hidden 32, heads 4, ffn 128).
// --describe models the grids and 1D/DP rows that divide the model evenly;
// the others (gpt_layer's batch of 4 on [1,1,8] and in DP over 8 ranks, its
// 4 heads in 1D over 8, gpt's 32 sequences on [1,1,64] and 4 heads on
// [8,8,1]) the IR planner counts in padded blocks, and they are left out of
// the comparison ("not modelled").
// RUN: summa-plan %summa_src/examples/gpt_layer.mlir --ranks 4 --json > %t.l4.ir
// RUN: summa-plan --describe layers=1,batch=4,seq=8,hidden=32,heads=4,ffn=128,dtype=f32,final_ln=0 --ranks 4 --json > %t.l4.d
// RUN: %python %S/compare_plans.py %t.l4.ir %t.l4.d | FileCheck %s --check-prefix=L4
// RUN: summa-plan %summa_src/examples/gpt_layer.mlir --ranks 8 --json > %t.l8.ir
// RUN: summa-plan --describe layers=1,batch=4,seq=8,hidden=32,heads=4,ffn=128,dtype=f32,final_ln=0 --ranks 8 --json > %t.l8.d
// RUN: %python %S/compare_plans.py %t.l8.ir %t.l8.d | FileCheck %s --check-prefix=L8
// RUN: summa-plan %summa_src/examples/gpt.mlir --ranks 2 --json > %t.g2.ir
// RUN: summa-plan --describe layers=2,batch=32,seq=8,hidden=32,heads=4,ffn=128,dtype=f32 --ranks 2 --json > %t.g2.d
// RUN: %python %S/compare_plans.py %t.g2.ir %t.g2.d | FileCheck %s --check-prefix=G2
// RUN: summa-plan %summa_src/examples/gpt.mlir --ranks 4 --json > %t.g4.ir
// RUN: summa-plan --describe layers=2,batch=32,seq=8,hidden=32,heads=4,ffn=128,dtype=f32 --ranks 4 --json > %t.g4.d
// RUN: %python %S/compare_plans.py %t.g4.ir %t.g4.d | FileCheck %s --check-prefix=G4
// RUN: summa-plan %summa_src/examples/gpt.mlir --ranks 16 --json > %t.g16.ir
// RUN: summa-plan --describe layers=2,batch=32,seq=8,hidden=32,heads=4,ffn=128,dtype=f32 --ranks 16 --json > %t.g16.d
// RUN: %python %S/compare_plans.py %t.g16.ir %t.g16.d | FileCheck %s --check-prefix=G16
// Nodes of 2 ranks: link classes must agree too.
// RUN: summa-plan %summa_src/examples/gpt.mlir --ranks 8 --gpus-per-node 2 --json > %t.g8.ir
// RUN: summa-plan --describe layers=2,batch=32,seq=8,hidden=32,heads=4,ffn=128,dtype=f32 --ranks 8 --gpus-per-node 2 --json > %t.g8.d
// RUN: %python %S/compare_plans.py %t.g8.ir %t.g8.d | FileCheck %s --check-prefix=G8
// RUN: summa-plan %summa_src/examples/gpt.mlir --ranks 64 --json > %t.g64.ir
// RUN: summa-plan --describe layers=2,batch=32,seq=8,hidden=32,heads=4,ffn=128,dtype=f32 --ranks 64 --json > %t.g64.d
// RUN: %python %S/compare_plans.py %t.g64.ir %t.g64.d | FileCheck %s --check-prefix=G64
// A larger generated model, bf16, 3 layers, 64 ranks (four feasible grids).
// RUN: %python %summa_src/examples/generate.py gpt --layers 3 --batch 64 --seq 4 --hidden 64 --heads 8 --ffn 192 --dtype bf16 -o %t.big.mlir
// RUN: summa-plan %t.big.mlir --ranks 64 --json > %t.big.ir
// RUN: summa-plan --describe layers=3,batch=64,seq=4,hidden=64,heads=8,ffn=192,dtype=bf16 --ranks 64 --json > %t.big.d
// RUN: %python %S/compare_plans.py %t.big.ir %t.big.d | FileCheck %s --check-prefix=BIG

// L4: agree: 4 ranks, 4 strategies, 4 feasible, best [1,1,4]
// L8: agree: 8 ranks, 4 strategies, 1 feasible (3 not modelled), best [2,2,2]
// G2: agree: 2 ranks, 3 strategies, 3 feasible, best [1,1,2]
// G4: agree: 4 ranks, 4 strategies, 4 feasible, best [1,1,4]
// G16: agree: 16 ranks, 5 strategies, 4 feasible (1 not modelled), best [1,1,16]
// G8: agree: 8 ranks, 4 strategies, 3 feasible (1 not modelled), best [1,1,8]
// G64: agree: 64 ranks, 6 strategies, 2 feasible (4 not modelled), best [2,2,16]
// BIG: agree: 64 ranks, 6 strategies, 5 feasible (1 not modelled), best [1,1,64]
