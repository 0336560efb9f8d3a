// Generation derived from the forward users export (GPT2LMHeadModel and
// LlamaForCausalLM called for logits, Inputs/generate/*.mlir, written with
// Hugging Face's own greedy generate() by examples/export/export_torch.py
// --save-generate): summa-derive-generation writes the prefill and the
// decode step; the prefill runs on the 4-token prompts (of the export's 12
// positions) and writes the decode step's state, the decode step runs
// --steps 7 from it, each step feeding its token, position, KV caches and
// generated ids back as its next inputs. Every id is Hugging Face's
// (--tol generated=0), on one rank and partitioned, and every step agrees
// with the unpartitioned reference (--check).
// RUN: summa-opt %S/Inputs/generate/gpt2.mlir --summa-derive-generation=prompt=4 -o %t.gpt2.mlir
// RUN: summa-compile %t.gpt2.mlir --entry hf_gpt2_logits_prefill --grid=1,1,1 -o %t.gpt2.prefill111
// RUN: summa-compile %t.gpt2.mlir --entry hf_gpt2_logits_decode --grid=1,1,1 -o %t.gpt2.decode111
// RUN: %mpirun -np 1 %t.gpt2.prefill111 --inputs %S/Inputs/generate/gpt2.inputs.safetensors --outputs %t.gpt2.state111.safetensors --iters 0 --check | FileCheck %s --check-prefix=PREFILL
// RUN: %mpirun -np 1 %t.gpt2.decode111 --inputs %S/Inputs/generate/gpt2.inputs.safetensors --inputs %t.gpt2.state111.safetensors --steps 7 --iters 0 --check --expect %S/Inputs/generate/gpt2.expect.safetensors --tol 'generated=0' | FileCheck %s
// RUN: summa-compile %t.gpt2.mlir --entry hf_gpt2_logits_prefill --grid=2,2,1 -o %t.gpt2.prefill221
// RUN: summa-compile %t.gpt2.mlir --entry hf_gpt2_logits_decode --grid=2,2,1 -o %t.gpt2.decode221
// RUN: %mpirun -np 4 %t.gpt2.prefill221 --inputs %S/Inputs/generate/gpt2.inputs.safetensors --outputs %t.gpt2.state221.safetensors --iters 0 --check | FileCheck %s --check-prefix=PREFILL
// RUN: %mpirun -np 4 %t.gpt2.decode221 --inputs %S/Inputs/generate/gpt2.inputs.safetensors --inputs %t.gpt2.state221.safetensors --steps 7 --iters 0 --check --expect %S/Inputs/generate/gpt2.expect.safetensors --tol 'generated=0' --metrics %t.gpt2.metrics221 | FileCheck %s
// The decode step's weights never move (summa.weight_stationary): no
// broadcast in any step, only the token's activations gathered and reduced.
// RUN: FileCheck %s --check-prefix=STATIONARY < %t.gpt2.metrics221
// Llama: rotary tables taken at the position, grouped key/value heads.
// RUN: summa-opt %S/Inputs/generate/llama.mlir --summa-derive-generation=prompt=4 -o %t.llama.mlir
// RUN: summa-compile %t.llama.mlir --entry hf_llama_logits_prefill --grid=2,2,2 -o %t.llama.prefill222
// RUN: summa-compile %t.llama.mlir --entry hf_llama_logits_decode --grid=2,2,2 -o %t.llama.decode222
// RUN: %mpirun -np 8 %t.llama.prefill222 --inputs %S/Inputs/generate/llama.inputs.safetensors --outputs %t.llama.state222.safetensors --iters 0 --check | FileCheck %s --check-prefix=PREFILL
// RUN: %mpirun -np 8 %t.llama.decode222 --inputs %S/Inputs/generate/llama.inputs.safetensors --inputs %t.llama.state222.safetensors --steps 7 --iters 0 --check --expect %S/Inputs/generate/llama.expect.safetensors --tol 'generated=0' | FileCheck %s
// A state file and the weights that both hold a tensor are refused.
// RUN: not %mpirun -np 1 %t.gpt2.decode111 --inputs %S/Inputs/generate/gpt2.inputs.safetensors --inputs %S/Inputs/generate/gpt2.inputs.safetensors --iters 0 2>&1 | FileCheck %s --check-prefix=TWICE
// STATIONARY-COUNT-7: "comm_bytes":{"broadcast":0,"reduce":0,
// PREFILL: check: PASS
// CHECK: check: PASS
// CHECK: expect: generated rel_err=0.000e+00 max_abs_err=0.000e+00
// CHECK: expect: PASS
// TWICE: --inputs: tensor 'input_ids' is in both '{{.*}}gpt2.inputs.safetensors' and '{{.*}}gpt2.inputs.safetensors' (each input comes from one file)
