// summa-compile --generate: the prefill and the decode step derived from
// the forward users export (Inputs/generate/*.mlir, GPT2LMHeadModel and
// LlamaForCausalLM called for logits) in one executable that reads the
// weights and a prompt, chooses each token from the logits where they are
// split, and writes the sequences as Hugging Face's generate() returns
// them. Against Hugging Face's own greedy generate() (--expect: every id,
// and with --save-logits every new token's logits within 1e-4).
// RUN: summa-compile %S/Inputs/generate/gpt2.mlir --generate --prompt-length=4 --grid=1,1,1 -o %t.gpt2.111
// RUN: %mpirun -np 1 %t.gpt2.111 --inputs %S/Inputs/generate/gpt2.inputs.safetensors --prompt %S/Inputs/generate/gpt2.inputs.safetensors --save-logits --expect %S/Inputs/generate/gpt2.expect.safetensors --outputs %t.gpt2.111.safetensors | FileCheck %s --check-prefixes=GPT2,LOGITS
// A prefill of 2 tokens: the prompt's other 2 go through the decode step.
// The decode step moves no weight (no broadcast), nor does the prefill of
// 2 x 2 tokens: the planner predicts it faster weight-stationary than with
// SUMMA's weight panels on [2,2,1].
// RUN: summa-compile %S/Inputs/generate/gpt2.mlir --generate --prompt-length=2 --grid=2,2,1 -o %t.gpt2.221
// RUN: %mpirun -np 4 %t.gpt2.221 --inputs %S/Inputs/generate/gpt2.inputs.safetensors --prompt %S/Inputs/generate/gpt2.inputs.safetensors --expect %S/Inputs/generate/gpt2.expect.safetensors | FileCheck %s --check-prefixes=GPT2,STATIONARY
// The host code of --target=cuda (the position read through
// summaRtLoadScalar) with its kernels' loops on the CPU runtime
// (cuda-steps/generate.mlir compiles it for the GPU).
// RUN: summa-compile %S/Inputs/generate/gpt2.mlir --generate --prompt-length=2 --grid=2,2,1 --gpu-loops-on-host -o %t.gpt2.host
// RUN: %mpirun -np 4 %t.gpt2.host --inputs %S/Inputs/generate/gpt2.inputs.safetensors --prompt %S/Inputs/generate/gpt2.inputs.safetensors --save-logits --expect %S/Inputs/generate/gpt2.expect.safetensors | FileCheck %s --check-prefixes=GPT2,LOGITS
// Prompts of different lengths (Inputs/generate/*.padded.safetensors: row 0
// left-padded by 2, with its attention_mask, and Hugging Face's generate()
// on them): each row's positions count from its first token and no query
// weighs the padding, on [2,2,1] (a prefill of 2: the rest through the
// decode step) and Llama on [2,2,2].
// RUN: %mpirun -np 4 %t.gpt2.221 --inputs %S/Inputs/generate/gpt2.inputs.safetensors --prompt %S/Inputs/generate/gpt2.padded.safetensors --save-logits --expect %S/Inputs/generate/gpt2.padded.safetensors | FileCheck %s --check-prefixes=PADDED,LOGITS
// Llama (rotary, grouped key/value heads) on [2,2,2].
// RUN: summa-compile %S/Inputs/generate/llama.mlir --generate --prompt-length=4 --grid=2,2,2 -o %t.llama.222
// RUN: %mpirun -np 8 %t.llama.222 --inputs %S/Inputs/generate/llama.inputs.safetensors --prompt %S/Inputs/generate/llama.inputs.safetensors --save-logits --expect %S/Inputs/generate/llama.expect.safetensors | FileCheck %s --check-prefixes=LLAMA,LOGITS
// RUN: %mpirun -np 8 %t.llama.222 --inputs %S/Inputs/generate/llama.inputs.safetensors --prompt %S/Inputs/generate/llama.padded.safetensors --save-logits --expect %S/Inputs/generate/llama.padded.safetensors | FileCheck %s --check-prefixes=LLAMAPAD,LOGITS
// --eos 8: row 0 ends at its first new token (then pads with 8), row 1 at
// its sixth, where generation stops.
// RUN: %mpirun -np 8 %t.llama.222 --inputs %S/Inputs/generate/llama.inputs.safetensors --prompt %S/Inputs/generate/llama.inputs.safetensors --eos 8 | FileCheck %s --check-prefix=EOS
// Seeded sampling (temperature, top-k, top-p) draws the same tokens on one
// rank and on [2,2,2], where the vocabulary (67) is split unevenly.
// RUN: summa-compile %S/Inputs/generate/gpt2.mlir --generate --prompt-length=4 --grid=2,2,2 -o %t.gpt2.222
// RUN: %mpirun -np 1 %t.gpt2.111 --inputs %S/Inputs/generate/gpt2.inputs.safetensors --prompt %S/Inputs/generate/gpt2.inputs.safetensors --temperature 0.8 --top-k 20 --top-p 0.9 --seed 5 | grep '^sequence' > %t.sample.111
// RUN: %mpirun -np 8 %t.gpt2.222 --inputs %S/Inputs/generate/gpt2.inputs.safetensors --prompt %S/Inputs/generate/gpt2.inputs.safetensors --temperature 0.8 --top-k 20 --top-p 0.9 --seed 5 | grep '^sequence' > %t.sample.222
// RUN: diff %t.sample.111 %t.sample.222
// RUN: %mpirun -np 1 %t.gpt2.111 --inputs %S/Inputs/generate/gpt2.inputs.safetensors --prompt %S/Inputs/generate/gpt2.inputs.safetensors --temperature 1.5 --seed 9 | grep '^sequence' > %t.temp.111
// RUN: %mpirun -np 8 %t.gpt2.222 --inputs %S/Inputs/generate/gpt2.inputs.safetensors --prompt %S/Inputs/generate/gpt2.inputs.safetensors --temperature 1.5 --seed 9 | grep '^sequence' > %t.temp.222
// RUN: diff %t.temp.111 %t.temp.222
// Another seed draws other tokens.
// RUN: %mpirun -np 1 %t.gpt2.111 --inputs %S/Inputs/generate/gpt2.inputs.safetensors --prompt %S/Inputs/generate/gpt2.inputs.safetensors --temperature 1.5 --seed 10 | grep '^sequence' > %t.temp10.111
// RUN: not diff %t.temp.111 %t.temp10.111
// Train, then generate on another grid: nanoGPT's AdamW step on [1,1,2]
// (optimizer state split over depth) writes a sharded checkpoint; the same
// GPT exported for its logits, as a generator on [2,2,1], reads its weights
// from the checkpoint directory, and draws what the generator on one rank
// draws from the checkpoint made whole.
// RUN: summa-opt %summa_src/examples/fixtures/gpt_lm_torch.mlir --summa-differentiate="params=floats gradients=false optimizer=adamw lr=3e-3" -o %t.step.mlir
// RUN: summa-compile %t.step.mlir --entry=gpt_small_grad --grid=1,1,2 --zero -O0 -o %t.train
// RUN: %python %summa_src/examples/data/prepare.py %summa_src/examples/data/paradise_lost.txt %t.bin
// RUN: rm -rf %t.ckpt && %mpirun -np 2 %t.train --inputs %summa_src/examples/fixtures/gpt_lm_torch.init.safetensors --data %t.bin --vocab 256 --steps 2 --checkpoint %t.ckpt --save-every 2 --iters 0 --log-every 0
// RUN: summa-ckpt whole %t.ckpt/step2 %t.trained.safetensors
// RUN: %python %summa_src/examples/data/text.py prompt %t.prompt.safetensors "Of Mans First" "Sing Heav'nly Muse"
// RUN: summa-compile %summa_src/examples/fixtures/gpt_lm_torch_logits.mlir --generate --prompt-length=8 --grid=2,2,1 -o %t.gpt.221
// RUN: summa-compile %summa_src/examples/fixtures/gpt_lm_torch_logits.mlir --generate --prompt-length=8 --grid=1,1,1 -o %t.gpt.111
// RUN: %mpirun -np 4 %t.gpt.221 --inputs %t.ckpt/step2 --prompt %t.prompt.safetensors --temperature 0.8 --top-k 40 --seed 1 --outputs %t.ckpt.out.safetensors | FileCheck %s --check-prefix=TRAINED
// RUN: %mpirun -np 1 %t.gpt.111 --inputs %t.trained.safetensors --prompt %t.prompt.safetensors --temperature 0.8 --top-k 40 --seed 1 --outputs %t.whole.out.safetensors
// RUN: cmp %t.ckpt.out.safetensors %t.whole.out.safetensors
// RUN: %python %summa_src/examples/data/text.py show %t.ckpt.out.safetensors --prompt-length 18 | FileCheck %s --check-prefix=TEXT
// Refusals: more tokens than the export's sequence holds, a prompt shorter
// than the prefill, sampling filters without a temperature, a right-padded
// prompt.
// RUN: not %mpirun -np 1 %t.gpt2.111 --inputs %S/Inputs/generate/gpt2.inputs.safetensors --prompt %S/Inputs/generate/gpt2.inputs.safetensors --max-new-tokens 9 2>&1 | FileCheck %s --check-prefix=LONG
// RUN: summa-compile %S/Inputs/generate/gpt2.mlir --generate --prompt-length=5 --grid=1,1,1 -o %t.gpt2.p5
// RUN: not %mpirun -np 1 %t.gpt2.p5 --inputs %S/Inputs/generate/gpt2.inputs.safetensors --prompt %S/Inputs/generate/gpt2.inputs.safetensors 2>&1 | FileCheck %s --check-prefix=SHORT
// RUN: not %mpirun -np 1 %t.gpt2.111 --inputs %S/Inputs/generate/gpt2.inputs.safetensors --prompt %S/Inputs/generate/gpt2.inputs.safetensors --top-k 5 2>&1 | FileCheck %s --check-prefix=NOTEMP
// RUN: %python %summa_src/examples/data/text.py prompt %t.right.safetensors "Of Mans First" "Sing Heav'nly Muse" --padding-side right
// RUN: not %mpirun -np 1 %t.gpt.111 --inputs %t.trained.safetensors --prompt %t.right.safetensors 2>&1 | FileCheck %s --check-prefix=RIGHT
// The generator as a library (--emit=lib), driven from Python through
// ctypes (examples/lib/generate.py): by steps (summaGeneratorPrefill on 2
// tokens, the rest of the prompt and each new token through
// summaGeneratorDecode, summaGeneratorSample, summaGeneratorLogits) and in
// one summaGeneratorGenerate call, Hugging Face's ids and logits from the
// padded prompt; its seeded draws are the executable's.
// RUN: summa-compile %S/Inputs/generate/gpt2.mlir --generate --emit=lib --prompt-length=2 --grid=2,2,1 -o %t.libgen.so
// RUN: FileCheck %s --check-prefix=HEADER < %t.libgen.h
// RUN: %mpirun -np 4 %python %summa_src/examples/lib/generate.py %t.libgen.so --weights %S/Inputs/generate/gpt2.inputs.safetensors --prompt %S/Inputs/generate/gpt2.padded.safetensors --expect %S/Inputs/generate/gpt2.padded.safetensors --logits | FileCheck %s --check-prefixes=PADDED,LOGITS
// RUN: %mpirun -np 4 %python %summa_src/examples/lib/generate.py %t.libgen.so --weights %S/Inputs/generate/gpt2.inputs.safetensors --prompt %S/Inputs/generate/gpt2.padded.safetensors --expect %S/Inputs/generate/gpt2.padded.safetensors --whole | FileCheck %s --check-prefix=PADDED
// RUN: %mpirun -np 4 %python %summa_src/examples/lib/generate.py %t.libgen.so --weights %S/Inputs/generate/gpt2.inputs.safetensors --prompt %S/Inputs/generate/gpt2.inputs.safetensors --temperature 0.8 --top-k 20 --top-p 0.9 --seed 5 | grep '^sequence' > %t.sample.lib
// RUN: diff %t.sample.111 %t.sample.lib
// RUN: %mpirun -np 4 %python %summa_src/examples/lib/generate.py %t.libgen.so --weights %S/Inputs/generate/gpt2.inputs.safetensors --prompt %S/Inputs/generate/gpt2.inputs.safetensors --temperature 1.5 --seed 9 --whole | grep '^sequence' > %t.temp.lib
// RUN: diff %t.temp.111 %t.temp.lib
// RUN: not %mpirun -np 4 %python %summa_src/examples/lib/generate.py %t.libgen.so --weights %S/Inputs/generate/llama.inputs.safetensors --prompt %S/Inputs/generate/gpt2.inputs.safetensors 2>&1 | FileCheck %s --check-prefix=LIBWEIGHTS

// GPT2: generate: 2 rows, prompt 4, 8 new tokens
// GPT2: generate: prefill {{[0-9.]+}} ms, decode {{[0-9.]+}} ms/token, {{[0-9.]+}} tokens/s
// STATIONARY: generate: per rank, the prefill moved {{.*}} (broadcast 0 B, reduce 0 B,
// STATIONARY: generate: per rank and token, the decode moved {{.*}} (broadcast 0 B, reduce 0 B,
// GPT2: sequence 0: 44 39 42 51 8 38 38 38 38 38 38 38
// GPT2: sequence 1: 32 17 61 3 37 37 64 36 36 36 59 8
// GPT2: expect: sequences PASS
// LLAMA: sequence 0: 39 40 33 16 8 22 60 8 28 4 12 27
// LLAMA: sequence 1: 6 9 54 21 19 42 27 23 45 8 4 37
// LLAMA: expect: sequences PASS
// PADDED: sequence 0: 0 0 42 51 22 22 22 38 38 38 38 38
// PADDED: sequence 1: 32 17 61 3 37 37 64 36 36 36 59 8
// PADDED: expect: sequences PASS
// LLAMAPAD: sequence 0: 0 0 33 16 24 12 1 3 34 66 63 3
// LLAMAPAD: expect: sequences PASS
// LOGITS: expect: scores max_abs_err={{.*}} PASS
// EOS: generate: 2 rows, prompt 4, 6 new tokens
// EOS: sequence 0: 39 40 33 16 8 8 8 8 8 8
// EOS: sequence 1: 6 9 54 21 19 42 27 23 45 8
// LONG: --max-new-tokens 9: the prompt's 4 tokens leave room for 8 in the program's sequences of 12
// SHORT: the prompt has 4 tokens per row; this generator's prefill takes 5
// NOTEMP: --top-k and --top-p sample: give --temperature T (> 0) too
// HEADER: Prompt ids tensor<2x2xi64> for the prefill; sequences of at most 12 tokens.
// HEADER: model.transformer.wte.weight: tensor<67x32xf32>
// HEADER: const SummaGenerateDesc *summa_generator(void);
// LIBWEIGHTS: error: summaGeneratorLoad: '{{.*}}llama.inputs.safetensors' has no tensor named 'model.transformer.wte.weight'
// TRAINED: generate: 2 rows, prompt 18, 14 new tokens (grid [2,2,1])
// TEXT: [Of Mans First]
// TEXT: [Sing Heav'nly Muse]
// RIGHT: row 0 of the attention_mask is not left-padded (0s, then at least one 1)
