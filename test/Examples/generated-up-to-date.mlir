// The generated examples are exactly what examples/generate.py writes with
// the command in their header (line 3, which names the output file, aside),
// so they cannot go stale.
// RUN: cd %summa_src && %python examples/generate.py layer --batch 4 --seq 8 --hidden 32 --heads 4 --ffn 128 --dtype f32 --softmax decomposed --gelu tanh -o %t.layer && tail -n +4 %t.layer > %t.layer.body && tail -n +4 examples/gpt_layer.mlir > %t.layer.want && diff %t.layer.body %t.layer.want
// RUN: cd %summa_src && %python examples/generate.py gpt --layers 2 --batch 32 --seq 8 --hidden 32 --heads 4 --ffn 128 --dtype f32 --softmax decomposed --gelu tanh -o %t.gpt && tail -n +4 %t.gpt > %t.gpt.body && tail -n +4 examples/gpt.mlir > %t.gpt.want && diff %t.gpt.body %t.gpt.want
// RUN: cd %summa_src && %python examples/generate.py attention --batch 4 --seq 8 --hidden 32 --heads 4 --dtype f32 --softmax decomposed -o %t.att && tail -n +4 %t.att > %t.att.body && tail -n +4 examples/attention.mlir > %t.att.want && diff %t.att.body %t.att.want
// RUN: cd %summa_src && %python examples/generate.py mlp --batch 4 --seq 12 --hidden 24 --ffn 96 --dtype f32 --gelu erf -o %t.erf && tail -n +4 %t.erf > %t.erf.body && tail -n +4 examples/mlp_erf.mlir > %t.erf.want && diff %t.erf.body %t.erf.want
// RUN: cd %summa_src && %python examples/generate.py mlp_train --batch 4 --seq 12 --hidden 24 --ffn 96 --dtype f32 --gelu tanh --optimizer sgd --lr 0.01 --loss mse -o %t.mtr && tail -n +4 %t.mtr > %t.mtr.body && tail -n +4 examples/mlp_train_step.mlir > %t.mtr.want && diff %t.mtr.body %t.mtr.want
// RUN: cd %summa_src && %python examples/generate.py mlp_train --batch 4 --seq 12 --hidden 24 --ffn 96 --dtype f32 --gelu tanh --optimizer adam --lr 0.001 --loss mse -o %t.mad && tail -n +4 %t.mad > %t.mad.body && tail -n +4 examples/mlp_train_adam.mlir > %t.mad.want && diff %t.mad.body %t.mad.want
// RUN: cd %summa_src && %python examples/generate.py gpt_train --layers 2 --batch 4 --seq 8 --hidden 32 --heads 4 --ffn 128 --dtype f32 --softmax decomposed --gelu tanh --optimizer sgd --lr 0.01 --loss mse -o %t.gtr && tail -n +4 %t.gtr > %t.gtr.body && tail -n +4 examples/gpt_train_step.mlir > %t.gtr.want && diff %t.gtr.body %t.gtr.want
// RUN: cd %summa_src && %python examples/generate.py mlp_train --batch 4 --seq 12 --hidden 24 --ffn 96 --dtype f32 --gelu tanh --loss mse --forward-only -o %t.ml && tail -n +4 %t.ml > %t.ml.body && tail -n +4 examples/mlp_loss.mlir > %t.ml.want && diff %t.ml.body %t.ml.want
// RUN: cd %summa_src && %python examples/generate.py gpt_train --layers 2 --batch 4 --seq 8 --hidden 32 --heads 4 --ffn 128 --dtype f32 --softmax decomposed --gelu tanh --loss mse --forward-only -o %t.gl && tail -n +4 %t.gl > %t.gl.body && tail -n +4 examples/gpt_loss.mlir > %t.gl.want && diff %t.gl.body %t.gl.want
// Every kind and element type the generator writes parses and gets layouts.
// RUN: %python %summa_src/examples/generate.py gpt --layers 3 --dtype bf16 --softmax named --gelu erf | summa-opt --summa-assign-layouts="grid=2,2,2" --summa-partition -o /dev/null
// RUN: %python %summa_src/examples/generate.py layer --dtype f16 | summa-opt --summa-assign-layouts="grid=2,2,1" --summa-partition -o /dev/null
// RUN: not %python %summa_src/examples/generate.py layer --hidden 30 --heads 4 2>&1 | FileCheck %s
// CHECK: hidden
