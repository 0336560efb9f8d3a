// summa-plan --generate: the prefill and the decode step derived from a
// causal LM's forward (GPT2LMHeadModel for logits, vocabulary 67: uneven
// on the grids), each planned on every grid of 4 ranks, then the grids by
// the time of the whole generation: the prefill, then one decode call per
// new token but the first. The prefill is planned in 2.5D SUMMA and
// weight-stationary, each grid taking the faster (a prompt of 2 x 4
// tokens moves less than SUMMA's weight panels on [2,2,1]: stationary
// there, as summa-compile --generate builds it). The decode step is
// weight-stationary: on [2,2,1] it moves activations only (no broadcast), 5464 bytes per rank
// and token, as the runtime counts them (generate-binary.mlir's
// generator moves these plus its sampler's candidates).
// RUN: summa-plan %S/../Integration/Inputs/generate/gpt2.mlir --generate --prompt-length 4 --ranks 4 | FileCheck %s
// RUN: summa-plan %S/../Integration/Inputs/generate/gpt2.mlir --generate --prompt-length 4 --new-tokens 2 --ranks 4 --grid 2,2,1 --json | %python -c "import json, sys; g = json.load(sys.stdin)['generation']; print(g['new_tokens'], g['best'], [(r['decode_bytes_per_token'], r['prefill_form']) for r in g['grids']])" | FileCheck %s --check-prefix=JSON
// RUN: not summa-plan %S/../Integration/Inputs/generate/gpt2.mlir --generate --prompt-length 4 --new-tokens 9 --ranks 4 2>&1 | FileCheck %s --check-prefix=LONG
// RUN: not summa-plan %S/../Integration/Inputs/generate/gpt2.mlir --prompt-length 4 --ranks 4 2>&1 | FileCheck %s --check-prefix=ALONE
// RUN: not summa-plan %summa_src/examples/mlp.mlir --generate --ranks 1 2>&1 | FileCheck %s --check-prefix=NOTLM

// CHECK: == prefill: @hf_gpt2_logits_prefill (4 prompt tokens per row, once; 2.5D SUMMA)
// CHECK: summa-plan: @hf_gpt2_logits_prefill (read from the IR): 8 tokens (2 sequences of 4, token ids i64)
// CHECK: == prefill: @hf_gpt2_logits_prefill (4 prompt tokens per row, once; weight-stationary)
// CHECK: == decode: @hf_gpt2_logits_decode (one token per row, once per new token; weight-stationary)
// CHECK: summa-plan: @hf_gpt2_logits_decode (read from the IR): 2 tokens (2 sequences of 1, token ids i64)
// CHECK: [2,2,1]: memory per rank
// CHECK-NOT: broadcast
// CHECK: == generation: 4 prompt tokens, 8 new tokens per row (the prefill, then 7 decode calls)
// CHECK-NEXT: strategy prefill as prefill decode/token decode bytes/token of which bcast total
// CHECK: [2,2,1] stationary {{.*}} us {{.*}} us 5464 0 {{.*}} us
// CHECK: prefill on [2,2,1]: weight-stationary, {{[0-9]+}} bytes per rank in {{.*}} against {{[0-9]+}} in {{.*}} with SUMMA's weight panels
// CHECK: best: [{{.*}}]: {{.*}} for the generation (prefill {{.*}}, decode {{.*}} per token;
// JSON: 2 [2,2,1] [(5464, 'weight-stationary')]
// LONG: summa-plan: error: --generate: --prompt-length 4 and --new-tokens 9 do not fit the export's sequence of 12
// ALONE: summa-plan: error: --prompt-length and --new-tokens go with --generate
// NOTLM: summa-derive-generation: argument 0 must be the token ids
