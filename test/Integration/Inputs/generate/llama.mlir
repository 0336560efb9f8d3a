// hf_llama_logits exported from PyTorch by torch-mlir's FX importer. Generated, do not edit:
//   python3 examples/export/export_torch.py hf_llama_logits --batch 2 --seq 12 --hidden 32 --heads 4 --kv-heads 2 --ffn 128 --layers 2 --vocab 67 --seed 0 --save-generate test/Integration/Inputs/generate/llama --prompt 4 -o test/Integration/Inputs/generate/llama.mlir
// with torch 2.15.0, torch-mlir 20261001, transformers 5.24.0:
//   torch_mlir.fx.export_and_import(..., output_type="linalg-on-tensors", func_name="hf_llama_logits")
// then only the function name and the summa.name / summa.role argument attributes are set.
// Weights are arguments: parameters and persistent buffers (state_dict) via torch.func.functional_call.
// Arguments:
//   %arg0 = input_ids [2x12] int64
//   %arg1 = model.model.embed_tokens.weight [67x32] float32
//   %arg2 = model.model.layers.0.self_attn.q_proj.weight [32x32] float32
//   %arg3 = model.model.layers.0.self_attn.k_proj.weight [16x32] float32
//   %arg4 = model.model.layers.0.self_attn.v_proj.weight [16x32] float32
//   %arg5 = model.model.layers.0.self_attn.o_proj.weight [32x32] float32
//   %arg6 = model.model.layers.0.mlp.gate_proj.weight [128x32] float32
//   %arg7 = model.model.layers.0.mlp.up_proj.weight [128x32] float32
//   %arg8 = model.model.layers.0.mlp.down_proj.weight [32x128] float32
//   %arg9 = model.model.layers.0.input_layernorm.weight [32] float32
//   %arg10 = model.model.layers.0.post_attention_layernorm.weight [32] float32
//   %arg11 = model.model.layers.1.self_attn.q_proj.weight [32x32] float32
//   %arg12 = model.model.layers.1.self_attn.k_proj.weight [16x32] float32
//   %arg13 = model.model.layers.1.self_attn.v_proj.weight [16x32] float32
//   %arg14 = model.model.layers.1.self_attn.o_proj.weight [32x32] float32
//   %arg15 = model.model.layers.1.mlp.gate_proj.weight [128x32] float32
//   %arg16 = model.model.layers.1.mlp.up_proj.weight [128x32] float32
//   %arg17 = model.model.layers.1.mlp.down_proj.weight [32x128] float32
//   %arg18 = model.model.layers.1.input_layernorm.weight [32] float32
//   %arg19 = model.model.layers.1.post_attention_layernorm.weight [32] float32
//   %arg20 = model.model.norm.weight [32] float32
//   %arg21 = model.lm_head.weight [67x32] float32
#map = affine_map<(d0, d1, d2) -> (d0, d1)>
#map1 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#map2 = affine_map<(d0) -> (d0)>
#map3 = affine_map<(d0, d1) -> (d1)>
#map4 = affine_map<(d0, d1) -> (d0, d1)>
#map5 = affine_map<(d0, d1, d2, d3) -> (d0, 0, 0, 0)>
#map6 = affine_map<(d0, d1, d2, d3) -> (0, 0, d2, 0)>
#map7 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#map8 = affine_map<(d0, d1, d2, d3) -> (0, 0, 0, d3)>
#map9 = affine_map<(d0, d1, d2, d3) -> (d0, d1, 0, d3)>
#map10 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>
#map11 = affine_map<(d0, d1, d2, d3) -> ()>
#map12 = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
#map13 = affine_map<(d0, d1, d2) -> (d2)>
#map14 = affine_map<(d0, d1, d2, d3) -> (0, 0, d2, d3)>
#map15 = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3, d4)>
#map16 = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>
#map17 = affine_map<(d0, d1, d2, d3) -> (d0, 0, d2, d3)>
#map18 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
#map19 = affine_map<(d0, d1, d2) -> (d1, d2)>
module {
  func.func @hf_llama_logits(%arg0: tensor<2x12xi64> {summa.name = "input_ids"}, %arg1: tensor<67x32xf32> {summa.name = "model.model.embed_tokens.weight", summa.padding_idx = 0 : i64}, %arg2: tensor<32x32xf32> {summa.name = "model.model.layers.0.self_attn.q_proj.weight"}, %arg3: tensor<16x32xf32> {summa.name = "model.model.layers.0.self_attn.k_proj.weight"}, %arg4: tensor<16x32xf32> {summa.name = "model.model.layers.0.self_attn.v_proj.weight"}, %arg5: tensor<32x32xf32> {summa.name = "model.model.layers.0.self_attn.o_proj.weight"}, %arg6: tensor<128x32xf32> {summa.name = "model.model.layers.0.mlp.gate_proj.weight"}, %arg7: tensor<128x32xf32> {summa.name = "model.model.layers.0.mlp.up_proj.weight"}, %arg8: tensor<32x128xf32> {summa.name = "model.model.layers.0.mlp.down_proj.weight"}, %arg9: tensor<32xf32> {summa.name = "model.model.layers.0.input_layernorm.weight"}, %arg10: tensor<32xf32> {summa.name = "model.model.layers.0.post_attention_layernorm.weight"}, %arg11: tensor<32x32xf32> {summa.name = "model.model.layers.1.self_attn.q_proj.weight"}, %arg12: tensor<16x32xf32> {summa.name = "model.model.layers.1.self_attn.k_proj.weight"}, %arg13: tensor<16x32xf32> {summa.name = "model.model.layers.1.self_attn.v_proj.weight"}, %arg14: tensor<32x32xf32> {summa.name = "model.model.layers.1.self_attn.o_proj.weight"}, %arg15: tensor<128x32xf32> {summa.name = "model.model.layers.1.mlp.gate_proj.weight"}, %arg16: tensor<128x32xf32> {summa.name = "model.model.layers.1.mlp.up_proj.weight"}, %arg17: tensor<32x128xf32> {summa.name = "model.model.layers.1.mlp.down_proj.weight"}, %arg18: tensor<32xf32> {summa.name = "model.model.layers.1.input_layernorm.weight"}, %arg19: tensor<32xf32> {summa.name = "model.model.layers.1.post_attention_layernorm.weight"}, %arg20: tensor<32xf32> {summa.name = "model.model.norm.weight"}, %arg21: tensor<67x32xf32> {summa.name = "model.lm_head.weight"}) -> tensor<2x12x67xf32> {
    %c0_i64 = arith.constant 0 : i64
    %c2_i64 = arith.constant 2 : i64
    %c1_i64 = arith.constant 1 : i64
    %c12_i64 = arith.constant 12 : i64
    %c67 = arith.constant 67 : index
    %cst = arith.constant 0.000000e+00 : f32
    %cst_0 = arith.constant 0xFF800000 : f32
    %true = arith.constant true
    %cst_1 = arith.constant 1.000000e+00 : f32
    %cst_2 = arith.constant dense<0.000000e+00> : tensor<2x4x12x12xf32>
    %cst_3 = arith.constant dense<0.000000e+00> : tensor<f32>
    %cst_4 = arith.constant dense<0xFF800000> : tensor<f32>
    %cst_5 = arith.constant dense<true> : tensor<i1>
    %cst_6 = arith.constant 0.59460355750136051 : f64
    %cst_7 = arith.constant 0xFFF0000000000000 : f64
    %cst_8 = arith.constant 9.9999999999999995E-7 : f64
    %cst_9 = arith.constant dense_resource<torch_tensor_4_torch.float32> : tensor<4xf32>
    %cst_10 = arith.constant 3.200000e+01 : f32
    %0 = tensor.empty() : tensor<2x12x32xf32>
    %1 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%arg0 : tensor<2x12xi64>) outs(%0 : tensor<2x12x32xf32>) {
    ^bb0(%in: i64, %out: f32):
      %184 = arith.index_cast %in : i64 to index
      %185 = linalg.index 2 : index
      %186 = arith.cmpi slt, %184, %c67 : index
      cf.assert %186, "index must be smaller than dim size"
      %187 = arith.cmpi sge, %in, %c0_i64 : i64
      cf.assert %187, "index must be larger or equal to 0"
      %extracted = tensor.extract %arg1[%184, %185] : tensor<67x32xf32>
      linalg.yield %extracted : f32
    } -> tensor<2x12x32xf32>
    %2 = tensor.empty() : tensor<12xi64>
    %3 = linalg.generic {indexing_maps = [#map2], iterator_types = ["parallel"]} outs(%2 : tensor<12xi64>) {
    ^bb0(%out: i64):
      %184 = linalg.index 0 : index
      %185 = arith.index_cast %184 : index to i64
      linalg.yield %185 : i64
    } -> tensor<12xi64>
    %4 = tensor.empty() : tensor<2x12xi64>
    %5 = linalg.generic {indexing_maps = [#map3, #map4], iterator_types = ["parallel", "parallel"]} ins(%3 : tensor<12xi64>) outs(%4 : tensor<2x12xi64>) {
    ^bb0(%in: i64, %out: i64):
      linalg.yield %in : i64
    } -> tensor<2x12xi64>
    %extracted_slice = tensor.extract_slice %5[0, 0] [2, 1] [1, 1] : tensor<2x12xi64> to tensor<2x1xi64>
    %6 = tensor.empty() : tensor<2x1xi64>
    %7 = linalg.generic {indexing_maps = [#map4, #map4], iterator_types = ["parallel", "parallel"]} ins(%extracted_slice : tensor<2x1xi64>) outs(%6 : tensor<2x1xi64>) {
    ^bb0(%in: i64, %out: i64):
      %184 = arith.subi %in, %c1_i64 : i64
      linalg.yield %184 : i64
    } -> tensor<2x1xi64>
    %concat = tensor.concat dim(1) %7, %5 : (tensor<2x1xi64>, tensor<2x12xi64>) -> tensor<2x13xi64>
    %extracted_slice_11 = tensor.extract_slice %concat[0, 0] [2, 12] [1, 1] : tensor<2x13xi64> to tensor<2x12xi64>
    %extracted_slice_12 = tensor.extract_slice %concat[0, 1] [2, 12] [1, 1] : tensor<2x13xi64> to tensor<2x12xi64>
    %8 = linalg.generic {indexing_maps = [#map4, #map4, #map4], iterator_types = ["parallel", "parallel"]} ins(%extracted_slice_12, %extracted_slice_11 : tensor<2x12xi64>, tensor<2x12xi64>) outs(%4 : tensor<2x12xi64>) {
    ^bb0(%in: i64, %in_92: i64, %out: i64):
      %184 = arith.subi %in, %in_92 : i64
      linalg.yield %184 : i64
    } -> tensor<2x12xi64>
    %9 = tensor.empty() : tensor<2x12xi1>
    %10 = linalg.generic {indexing_maps = [#map4, #map4], iterator_types = ["parallel", "parallel"]} ins(%8 : tensor<2x12xi64>) outs(%9 : tensor<2x12xi1>) {
    ^bb0(%in: i64, %out: i1):
      %184 = arith.cmpi ne, %in, %c1_i64 : i64
      linalg.yield %184 : i1
    } -> tensor<2x12xi1>
    %11 = linalg.generic {indexing_maps = [#map4, #map4], iterator_types = ["parallel", "parallel"]} ins(%10 : tensor<2x12xi1>) outs(%4 : tensor<2x12xi64>) {
    ^bb0(%in: i1, %out: i64):
      %184 = arith.extui %in : i1 to i64
      linalg.yield %184 : i64
    } -> tensor<2x12xi64>
    %12 = linalg.fill ins(%c0_i64 : i64) outs(%4 : tensor<2x12xi64>) -> tensor<2x12xi64>
    %13 = tensor.empty() : tensor<2xi64>
    %14 = linalg.fill ins(%c0_i64 : i64) outs(%13 : tensor<2xi64>) -> tensor<2xi64>
    %15:2 = tm_tensor.scan dimension(1) inclusive(true) ins(%11 : tensor<2x12xi64>) outs(%12, %14 : tensor<2x12xi64>, tensor<2xi64>) {
    ^bb0(%arg22: i64, %arg23: i64):
      %184 = arith.addi %arg22, %arg23 : i64
      tm_tensor.yield %184 : i64
    } -> tensor<2x12xi64>, tensor<2xi64>
    %16 = linalg.generic {indexing_maps = [#map2], iterator_types = ["parallel"]} outs(%13 : tensor<2xi64>) {
    ^bb0(%out: i64):
      %184 = linalg.index 0 : index
      %185 = arith.index_cast %184 : index to i64
      linalg.yield %185 : i64
    } -> tensor<2xi64>
    %expanded = tensor.expand_shape %16 [[0, 1, 2, 3]] output_shape [2, 1, 1, 1] : tensor<2xi64> into tensor<2x1x1x1xi64>
    %expanded_13 = tensor.expand_shape %3 [[0, 1, 2, 3]] output_shape [1, 1, 12, 1] : tensor<12xi64> into tensor<1x1x12x1xi64>
    %expanded_14 = tensor.expand_shape %3 [[0, 1, 2, 3]] output_shape [1, 1, 1, 12] : tensor<12xi64> into tensor<1x1x1x12xi64>
    %17 = tensor.empty() : tensor<2x1x12x1xi64>
    %18 = linalg.generic {indexing_maps = [#map5, #map6, #map7], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%expanded, %expanded_13 : tensor<2x1x1x1xi64>, tensor<1x1x12x1xi64>) outs(%17 : tensor<2x1x12x1xi64>) {
    ^bb0(%in: i64, %in_92: i64, %out: i64):
      %184 = arith.cmpi slt, %in, %c0_i64 : i64
      %185 = arith.addi %in, %c2_i64 : i64
      %186 = arith.select %184, %185, %in : i64
      %187 = arith.index_cast %186 : i64 to index
      %188 = arith.cmpi slt, %in_92, %c0_i64 : i64
      %189 = arith.addi %in_92, %c12_i64 : i64
      %190 = arith.select %188, %189, %in_92 : i64
      %191 = arith.index_cast %190 : i64 to index
      %extracted = tensor.extract %5[%187, %191] : tensor<2x12xi64>
      linalg.yield %extracted : i64
    } -> tensor<2x1x12x1xi64>
    %19 = tensor.empty() : tensor<2x1x1x12xi64>
    %20 = linalg.generic {indexing_maps = [#map5, #map8, #map7], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%expanded, %expanded_14 : tensor<2x1x1x1xi64>, tensor<1x1x1x12xi64>) outs(%19 : tensor<2x1x1x12xi64>) {
    ^bb0(%in: i64, %in_92: i64, %out: i64):
      %184 = arith.cmpi slt, %in, %c0_i64 : i64
      %185 = arith.addi %in, %c2_i64 : i64
      %186 = arith.select %184, %185, %in : i64
      %187 = arith.index_cast %186 : i64 to index
      %188 = arith.cmpi slt, %in_92, %c0_i64 : i64
      %189 = arith.addi %in_92, %c12_i64 : i64
      %190 = arith.select %188, %189, %in_92 : i64
      %191 = arith.index_cast %190 : i64 to index
      %extracted = tensor.extract %5[%187, %191] : tensor<2x12xi64>
      linalg.yield %extracted : i64
    } -> tensor<2x1x1x12xi64>
    %21 = tensor.empty() : tensor<2x1x12x12xi1>
    %22 = linalg.generic {indexing_maps = [#map9, #map10, #map7], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%20, %18 : tensor<2x1x1x12xi64>, tensor<2x1x12x1xi64>) outs(%21 : tensor<2x1x12x12xi1>) {
    ^bb0(%in: i64, %in_92: i64, %out: i1):
      %184 = arith.cmpi sle, %in, %in_92 : i64
      linalg.yield %184 : i1
    } -> tensor<2x1x12x12xi1>
    %23 = linalg.generic {indexing_maps = [#map11, #map7, #map7], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%cst_5, %22 : tensor<i1>, tensor<2x1x12x12xi1>) outs(%21 : tensor<2x1x12x12xi1>) {
    ^bb0(%in: i1, %in_92: i1, %out: i1):
      %184 = arith.andi %in, %in_92 : i1
      linalg.yield %184 : i1
    } -> tensor<2x1x12x12xi1>
    %24 = linalg.generic {indexing_maps = [#map5, #map6, #map7], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%expanded, %expanded_13 : tensor<2x1x1x1xi64>, tensor<1x1x12x1xi64>) outs(%17 : tensor<2x1x12x1xi64>) {
    ^bb0(%in: i64, %in_92: i64, %out: i64):
      %184 = arith.cmpi slt, %in, %c0_i64 : i64
      %185 = arith.addi %in, %c2_i64 : i64
      %186 = arith.select %184, %185, %in : i64
      %187 = arith.index_cast %186 : i64 to index
      %188 = arith.cmpi slt, %in_92, %c0_i64 : i64
      %189 = arith.addi %in_92, %c12_i64 : i64
      %190 = arith.select %188, %189, %in_92 : i64
      %191 = arith.index_cast %190 : i64 to index
      %extracted = tensor.extract %15#0[%187, %191] : tensor<2x12xi64>
      linalg.yield %extracted : i64
    } -> tensor<2x1x12x1xi64>
    %25 = linalg.generic {indexing_maps = [#map5, #map8, #map7], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%expanded, %expanded_14 : tensor<2x1x1x1xi64>, tensor<1x1x1x12xi64>) outs(%19 : tensor<2x1x1x12xi64>) {
    ^bb0(%in: i64, %in_92: i64, %out: i64):
      %184 = arith.cmpi slt, %in, %c0_i64 : i64
      %185 = arith.addi %in, %c2_i64 : i64
      %186 = arith.select %184, %185, %in : i64
      %187 = arith.index_cast %186 : i64 to index
      %188 = arith.cmpi slt, %in_92, %c0_i64 : i64
      %189 = arith.addi %in_92, %c12_i64 : i64
      %190 = arith.select %188, %189, %in_92 : i64
      %191 = arith.index_cast %190 : i64 to index
      %extracted = tensor.extract %15#0[%187, %191] : tensor<2x12xi64>
      linalg.yield %extracted : i64
    } -> tensor<2x1x1x12xi64>
    %26 = linalg.generic {indexing_maps = [#map10, #map9, #map7], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%24, %25 : tensor<2x1x12x1xi64>, tensor<2x1x1x12xi64>) outs(%21 : tensor<2x1x12x12xi1>) {
    ^bb0(%in: i64, %in_92: i64, %out: i1):
      %184 = arith.cmpi eq, %in, %in_92 : i64
      linalg.yield %184 : i1
    } -> tensor<2x1x12x12xi1>
    %27 = linalg.generic {indexing_maps = [#map7, #map7, #map7], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%23, %26 : tensor<2x1x12x12xi1>, tensor<2x1x12x12xi1>) outs(%21 : tensor<2x1x12x12xi1>) {
    ^bb0(%in: i1, %in_92: i1, %out: i1):
      %184 = arith.andi %in, %in_92 : i1
      linalg.yield %184 : i1
    } -> tensor<2x1x12x12xi1>
    %expanded_15 = tensor.expand_shape %3 [[0, 1, 2]] output_shape [1, 12, 1] : tensor<12xi64> into tensor<1x12x1xi64>
    %28 = tensor.empty() : tensor<1x12x1xf32>
    %29 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%expanded_15 : tensor<1x12x1xi64>) outs(%28 : tensor<1x12x1xf32>) {
    ^bb0(%in: i64, %out: f32):
      %184 = arith.sitofp %in : i64 to f32
      linalg.yield %184 : f32
    } -> tensor<1x12x1xf32>
    %30 = tensor.empty() : tensor<1x12x4xf32>
    %31 = linalg.generic {indexing_maps = [#map12, #map13, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%29, %cst_9 : tensor<1x12x1xf32>, tensor<4xf32>) outs(%30 : tensor<1x12x4xf32>) {
    ^bb0(%in: f32, %in_92: f32, %out: f32):
      %184 = arith.mulf %in, %in_92 : f32
      linalg.yield %184 : f32
    } -> tensor<1x12x4xf32>
    %concat_16 = tensor.concat dim(2) %31, %31 : (tensor<1x12x4xf32>, tensor<1x12x4xf32>) -> tensor<1x12x8xf32>
    %32 = tensor.empty() : tensor<1x12x8xf32>
    %33 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%concat_16 : tensor<1x12x8xf32>) outs(%32 : tensor<1x12x8xf32>) {
    ^bb0(%in: f32, %out: f32):
      %184 = math.cos %in : f32
      linalg.yield %184 : f32
    } -> tensor<1x12x8xf32>
    %34 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%concat_16 : tensor<1x12x8xf32>) outs(%32 : tensor<1x12x8xf32>) {
    ^bb0(%in: f32, %out: f32):
      %184 = math.sin %in : f32
      linalg.yield %184 : f32
    } -> tensor<1x12x8xf32>
    %35 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%1 : tensor<2x12x32xf32>) outs(%0 : tensor<2x12x32xf32>) {
    ^bb0(%in: f32, %out: f32):
      %184 = math.fpowi %in, %c2_i64 : f32, i64
      linalg.yield %184 : f32
    } -> tensor<2x12x32xf32>
    %36 = tensor.empty() : tensor<2x12x1xf32>
    %37 = linalg.fill ins(%cst : f32) outs(%36 : tensor<2x12x1xf32>) -> tensor<2x12x1xf32>
    %38 = linalg.generic {indexing_maps = [#map1, #map12], iterator_types = ["parallel", "parallel", "reduction"]} ins(%35 : tensor<2x12x32xf32>) outs(%37 : tensor<2x12x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %184 = arith.addf %in, %out : f32
      linalg.yield %184 : f32
    } -> tensor<2x12x1xf32>
    %39 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%38 : tensor<2x12x1xf32>) outs(%36 : tensor<2x12x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %184 = arith.divf %in, %cst_10 : f32
      linalg.yield %184 : f32
    } -> tensor<2x12x1xf32>
    %40 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%39 : tensor<2x12x1xf32>) outs(%36 : tensor<2x12x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %184 = arith.truncf %cst_8 : f64 to f32
      %185 = arith.addf %in, %184 : f32
      linalg.yield %185 : f32
    } -> tensor<2x12x1xf32>
    %41 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%40 : tensor<2x12x1xf32>) outs(%36 : tensor<2x12x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %184 = math.rsqrt %in : f32
      linalg.yield %184 : f32
    } -> tensor<2x12x1xf32>
    %42 = linalg.generic {indexing_maps = [#map1, #map12, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%1, %41 : tensor<2x12x32xf32>, tensor<2x12x1xf32>) outs(%0 : tensor<2x12x32xf32>) {
    ^bb0(%in: f32, %in_92: f32, %out: f32):
      %184 = arith.mulf %in, %in_92 : f32
      linalg.yield %184 : f32
    } -> tensor<2x12x32xf32>
    %43 = linalg.generic {indexing_maps = [#map13, #map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%arg9, %42 : tensor<32xf32>, tensor<2x12x32xf32>) outs(%0 : tensor<2x12x32xf32>) {
    ^bb0(%in: f32, %in_92: f32, %out: f32):
      %184 = arith.mulf %in, %in_92 : f32
      linalg.yield %184 : f32
    } -> tensor<2x12x32xf32>
    %44 = tensor.empty() : tensor<32x32xf32>
    %transposed = linalg.transpose ins(%arg2 : tensor<32x32xf32>) outs(%44 : tensor<32x32xf32>) permutation = [1, 0] 
    %collapsed = tensor.collapse_shape %43 [[0, 1], [2]] : tensor<2x12x32xf32> into tensor<24x32xf32>
    %45 = tensor.empty() : tensor<24x32xf32>
    %46 = linalg.fill ins(%cst : f32) outs(%45 : tensor<24x32xf32>) -> tensor<24x32xf32>
    %47 = linalg.matmul ins(%collapsed, %transposed : tensor<24x32xf32>, tensor<32x32xf32>) outs(%46 : tensor<24x32xf32>) -> tensor<24x32xf32>
    %expanded_17 = tensor.expand_shape %47 [[0, 1], [2, 3]] output_shape [2, 12, 4, 8] : tensor<24x32xf32> into tensor<2x12x4x8xf32>
    %48 = tensor.empty() : tensor<2x4x12x8xf32>
    %transposed_18 = linalg.transpose ins(%expanded_17 : tensor<2x12x4x8xf32>) outs(%48 : tensor<2x4x12x8xf32>) permutation = [0, 2, 1, 3] 
    %49 = tensor.empty() : tensor<32x16xf32>
    %transposed_19 = linalg.transpose ins(%arg3 : tensor<16x32xf32>) outs(%49 : tensor<32x16xf32>) permutation = [1, 0] 
    %50 = tensor.empty() : tensor<24x16xf32>
    %51 = linalg.fill ins(%cst : f32) outs(%50 : tensor<24x16xf32>) -> tensor<24x16xf32>
    %52 = linalg.matmul ins(%collapsed, %transposed_19 : tensor<24x32xf32>, tensor<32x16xf32>) outs(%51 : tensor<24x16xf32>) -> tensor<24x16xf32>
    %expanded_20 = tensor.expand_shape %52 [[0, 1], [2, 3]] output_shape [2, 12, 2, 8] : tensor<24x16xf32> into tensor<2x12x2x8xf32>
    %53 = tensor.empty() : tensor<2x2x12x8xf32>
    %transposed_21 = linalg.transpose ins(%expanded_20 : tensor<2x12x2x8xf32>) outs(%53 : tensor<2x2x12x8xf32>) permutation = [0, 2, 1, 3] 
    %transposed_22 = linalg.transpose ins(%arg4 : tensor<16x32xf32>) outs(%49 : tensor<32x16xf32>) permutation = [1, 0] 
    %54 = linalg.matmul ins(%collapsed, %transposed_22 : tensor<24x32xf32>, tensor<32x16xf32>) outs(%51 : tensor<24x16xf32>) -> tensor<24x16xf32>
    %expanded_23 = tensor.expand_shape %54 [[0, 1], [2, 3]] output_shape [2, 12, 2, 8] : tensor<24x16xf32> into tensor<2x12x2x8xf32>
    %transposed_24 = linalg.transpose ins(%expanded_23 : tensor<2x12x2x8xf32>) outs(%53 : tensor<2x2x12x8xf32>) permutation = [0, 2, 1, 3] 
    %expanded_25 = tensor.expand_shape %33 [[0], [1, 2], [3]] output_shape [1, 1, 12, 8] : tensor<1x12x8xf32> into tensor<1x1x12x8xf32>
    %expanded_26 = tensor.expand_shape %34 [[0], [1, 2], [3]] output_shape [1, 1, 12, 8] : tensor<1x12x8xf32> into tensor<1x1x12x8xf32>
    %55 = linalg.generic {indexing_maps = [#map7, #map14, #map7], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%transposed_18, %expanded_25 : tensor<2x4x12x8xf32>, tensor<1x1x12x8xf32>) outs(%48 : tensor<2x4x12x8xf32>) {
    ^bb0(%in: f32, %in_92: f32, %out: f32):
      %184 = arith.mulf %in, %in_92 : f32
      linalg.yield %184 : f32
    } -> tensor<2x4x12x8xf32>
    %extracted_slice_27 = tensor.extract_slice %transposed_18[0, 0, 0, 0] [2, 4, 12, 4] [1, 1, 1, 1] : tensor<2x4x12x8xf32> to tensor<2x4x12x4xf32>
    %extracted_slice_28 = tensor.extract_slice %transposed_18[0, 0, 0, 4] [2, 4, 12, 4] [1, 1, 1, 1] : tensor<2x4x12x8xf32> to tensor<2x4x12x4xf32>
    %56 = tensor.empty() : tensor<2x4x12x4xf32>
    %57 = linalg.generic {indexing_maps = [#map7, #map7], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%extracted_slice_28 : tensor<2x4x12x4xf32>) outs(%56 : tensor<2x4x12x4xf32>) {
    ^bb0(%in: f32, %out: f32):
      %184 = arith.negf %in : f32
      linalg.yield %184 : f32
    } -> tensor<2x4x12x4xf32>
    %concat_29 = tensor.concat dim(3) %57, %extracted_slice_27 : (tensor<2x4x12x4xf32>, tensor<2x4x12x4xf32>) -> tensor<2x4x12x8xf32>
    %58 = linalg.generic {indexing_maps = [#map7, #map14, #map7], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%concat_29, %expanded_26 : tensor<2x4x12x8xf32>, tensor<1x1x12x8xf32>) outs(%48 : tensor<2x4x12x8xf32>) {
    ^bb0(%in: f32, %in_92: f32, %out: f32):
      %184 = arith.mulf %in, %in_92 : f32
      linalg.yield %184 : f32
    } -> tensor<2x4x12x8xf32>
    %59 = linalg.generic {indexing_maps = [#map7, #map7, #map7], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%55, %58 : tensor<2x4x12x8xf32>, tensor<2x4x12x8xf32>) outs(%48 : tensor<2x4x12x8xf32>) {
    ^bb0(%in: f32, %in_92: f32, %out: f32):
      %184 = arith.addf %in, %in_92 : f32
      linalg.yield %184 : f32
    } -> tensor<2x4x12x8xf32>
    %60 = linalg.generic {indexing_maps = [#map7, #map14, #map7], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%transposed_21, %expanded_25 : tensor<2x2x12x8xf32>, tensor<1x1x12x8xf32>) outs(%53 : tensor<2x2x12x8xf32>) {
    ^bb0(%in: f32, %in_92: f32, %out: f32):
      %184 = arith.mulf %in, %in_92 : f32
      linalg.yield %184 : f32
    } -> tensor<2x2x12x8xf32>
    %extracted_slice_30 = tensor.extract_slice %transposed_21[0, 0, 0, 0] [2, 2, 12, 4] [1, 1, 1, 1] : tensor<2x2x12x8xf32> to tensor<2x2x12x4xf32>
    %extracted_slice_31 = tensor.extract_slice %transposed_21[0, 0, 0, 4] [2, 2, 12, 4] [1, 1, 1, 1] : tensor<2x2x12x8xf32> to tensor<2x2x12x4xf32>
    %61 = tensor.empty() : tensor<2x2x12x4xf32>
    %62 = linalg.generic {indexing_maps = [#map7, #map7], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%extracted_slice_31 : tensor<2x2x12x4xf32>) outs(%61 : tensor<2x2x12x4xf32>) {
    ^bb0(%in: f32, %out: f32):
      %184 = arith.negf %in : f32
      linalg.yield %184 : f32
    } -> tensor<2x2x12x4xf32>
    %concat_32 = tensor.concat dim(3) %62, %extracted_slice_30 : (tensor<2x2x12x4xf32>, tensor<2x2x12x4xf32>) -> tensor<2x2x12x8xf32>
    %63 = linalg.generic {indexing_maps = [#map7, #map14, #map7], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%concat_32, %expanded_26 : tensor<2x2x12x8xf32>, tensor<1x1x12x8xf32>) outs(%53 : tensor<2x2x12x8xf32>) {
    ^bb0(%in: f32, %in_92: f32, %out: f32):
      %184 = arith.mulf %in, %in_92 : f32
      linalg.yield %184 : f32
    } -> tensor<2x2x12x8xf32>
    %64 = linalg.generic {indexing_maps = [#map7, #map7, #map7], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%60, %63 : tensor<2x2x12x8xf32>, tensor<2x2x12x8xf32>) outs(%53 : tensor<2x2x12x8xf32>) {
    ^bb0(%in: f32, %in_92: f32, %out: f32):
      %184 = arith.addf %in, %in_92 : f32
      linalg.yield %184 : f32
    } -> tensor<2x2x12x8xf32>
    %65 = tensor.empty() : tensor<2x2x2x12x8xf32>
    %66 = linalg.generic {indexing_maps = [#map15, #map16], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%64 : tensor<2x2x12x8xf32>) outs(%65 : tensor<2x2x2x12x8xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<2x2x2x12x8xf32>
    %collapsed_33 = tensor.collapse_shape %66 [[0], [1, 2], [3], [4]] : tensor<2x2x2x12x8xf32> into tensor<2x4x12x8xf32>
    %67 = linalg.generic {indexing_maps = [#map15, #map16], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%transposed_24 : tensor<2x2x12x8xf32>) outs(%65 : tensor<2x2x2x12x8xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<2x2x2x12x8xf32>
    %68 = tensor.empty() : tensor<2x1x12x12xf32>
    %69 = linalg.generic {indexing_maps = [#map7, #map11, #map11, #map7], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%27, %cst_3, %cst_4 : tensor<2x1x12x12xi1>, tensor<f32>, tensor<f32>) outs(%68 : tensor<2x1x12x12xf32>) {
    ^bb0(%in: i1, %in_92: f32, %in_93: f32, %out: f32):
      %184 = arith.select %in, %in_92, %in_93 : f32
      linalg.yield %184 : f32
    } -> tensor<2x1x12x12xf32>
    %70 = linalg.generic {indexing_maps = [#map7, #map7], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%59 : tensor<2x4x12x8xf32>) outs(%48 : tensor<2x4x12x8xf32>) {
    ^bb0(%in: f32, %out: f32):
      %184 = arith.truncf %cst_6 : f64 to f32
      %185 = arith.mulf %in, %184 : f32
      linalg.yield %185 : f32
    } -> tensor<2x4x12x8xf32>
    %71 = tensor.empty() : tensor<2x4x8x12xf32>
    %transposed_34 = linalg.transpose ins(%collapsed_33 : tensor<2x4x12x8xf32>) outs(%71 : tensor<2x4x8x12xf32>) permutation = [0, 1, 3, 2] 
    %72 = linalg.generic {indexing_maps = [#map7, #map7], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%transposed_34 : tensor<2x4x8x12xf32>) outs(%71 : tensor<2x4x8x12xf32>) {
    ^bb0(%in: f32, %out: f32):
      %184 = arith.truncf %cst_6 : f64 to f32
      %185 = arith.mulf %in, %184 : f32
      linalg.yield %185 : f32
    } -> tensor<2x4x8x12xf32>
    %collapsed_35 = tensor.collapse_shape %70 [[0, 1], [2], [3]] : tensor<2x4x12x8xf32> into tensor<8x12x8xf32>
    %collapsed_36 = tensor.collapse_shape %72 [[0, 1], [2], [3]] : tensor<2x4x8x12xf32> into tensor<8x8x12xf32>
    %73 = tensor.empty() : tensor<8x12x12xf32>
    %74 = linalg.fill ins(%cst : f32) outs(%73 : tensor<8x12x12xf32>) -> tensor<8x12x12xf32>
    %75 = linalg.batch_matmul ins(%collapsed_35, %collapsed_36 : tensor<8x12x8xf32>, tensor<8x8x12xf32>) outs(%74 : tensor<8x12x12xf32>) -> tensor<8x12x12xf32>
    %expanded_37 = tensor.expand_shape %75 [[0, 1], [2], [3]] output_shape [2, 4, 12, 12] : tensor<8x12x12xf32> into tensor<2x4x12x12xf32>
    %76 = tensor.empty() : tensor<2x4x12x12xf32>
    %77 = linalg.generic {indexing_maps = [#map7, #map17, #map7], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%expanded_37, %69 : tensor<2x4x12x12xf32>, tensor<2x1x12x12xf32>) outs(%76 : tensor<2x4x12x12xf32>) {
    ^bb0(%in: f32, %in_92: f32, %out: f32):
      %184 = arith.addf %in, %in_92 : f32
      linalg.yield %184 : f32
    } -> tensor<2x4x12x12xf32>
    %78 = tensor.empty() : tensor<2x4x12xi64>
    %79 = linalg.fill ins(%c0_i64 : i64) outs(%78 : tensor<2x4x12xi64>) -> tensor<2x4x12xi64>
    %80 = tensor.empty() : tensor<2x4x12xf32>
    %81 = linalg.fill ins(%cst_0 : f32) outs(%80 : tensor<2x4x12xf32>) -> tensor<2x4x12xf32>
    %82:2 = linalg.generic {indexing_maps = [#map7, #map18, #map18], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%77 : tensor<2x4x12x12xf32>) outs(%81, %79 : tensor<2x4x12xf32>, tensor<2x4x12xi64>) {
    ^bb0(%in: f32, %out: f32, %out_92: i64):
      %184 = linalg.index 3 : index
      %185 = arith.index_cast %184 : index to i64
      %186 = arith.maximumf %in, %out : f32
      %187 = arith.cmpf ogt, %in, %out : f32
      %188 = arith.select %187, %185, %out_92 : i64
      linalg.yield %186, %188 : f32, i64
    } -> (tensor<2x4x12xf32>, tensor<2x4x12xi64>)
    %expanded_38 = tensor.expand_shape %82#0 [[0], [1], [2, 3]] output_shape [2, 4, 12, 1] : tensor<2x4x12xf32> into tensor<2x4x12x1xf32>
    %83 = linalg.generic {indexing_maps = [#map7, #map10, #map7], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%77, %expanded_38 : tensor<2x4x12x12xf32>, tensor<2x4x12x1xf32>) outs(%76 : tensor<2x4x12x12xf32>) {
    ^bb0(%in: f32, %in_92: f32, %out: f32):
      %184 = arith.subf %in, %in_92 : f32
      linalg.yield %184 : f32
    } -> tensor<2x4x12x12xf32>
    %84 = linalg.generic {indexing_maps = [#map7, #map7], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%83 : tensor<2x4x12x12xf32>) outs(%76 : tensor<2x4x12x12xf32>) {
    ^bb0(%in: f32, %out: f32):
      %184 = math.exp %in : f32
      linalg.yield %184 : f32
    } -> tensor<2x4x12x12xf32>
    %85 = tensor.empty() : tensor<2x4x12x1xf32>
    %86 = linalg.fill ins(%cst : f32) outs(%85 : tensor<2x4x12x1xf32>) -> tensor<2x4x12x1xf32>
    %87 = linalg.generic {indexing_maps = [#map7, #map10], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%84 : tensor<2x4x12x12xf32>) outs(%86 : tensor<2x4x12x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %184 = arith.addf %in, %out : f32
      linalg.yield %184 : f32
    } -> tensor<2x4x12x1xf32>
    %88 = linalg.generic {indexing_maps = [#map7, #map10, #map7], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%84, %87 : tensor<2x4x12x12xf32>, tensor<2x4x12x1xf32>) outs(%76 : tensor<2x4x12x12xf32>) {
    ^bb0(%in: f32, %in_92: f32, %out: f32):
      %184 = arith.divf %in, %in_92 : f32
      linalg.yield %184 : f32
    } -> tensor<2x4x12x12xf32>
    %89 = tensor.empty() : tensor<2x4x12x12xi1>
    %90 = linalg.generic {indexing_maps = [#map7, #map7], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%77 : tensor<2x4x12x12xf32>) outs(%89 : tensor<2x4x12x12xi1>) {
    ^bb0(%in: f32, %out: i1):
      %184 = arith.extf %in : f32 to f64
      %185 = arith.cmpf oeq, %184, %cst_7 : f64
      linalg.yield %185 : i1
    } -> tensor<2x4x12x12xi1>
    %91 = tensor.empty() : tensor<2x4x12x1xi1>
    %92 = linalg.fill ins(%true : i1) outs(%91 : tensor<2x4x12x1xi1>) -> tensor<2x4x12x1xi1>
    %93 = linalg.generic {indexing_maps = [#map7, #map10], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%90 : tensor<2x4x12x12xi1>) outs(%92 : tensor<2x4x12x1xi1>) {
    ^bb0(%in: i1, %out: i1):
      %184 = arith.andi %in, %out : i1
      linalg.yield %184 : i1
    } -> tensor<2x4x12x1xi1>
    %94 = linalg.generic {indexing_maps = [#map10, #map7, #map7, #map7], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%93, %cst_2, %88 : tensor<2x4x12x1xi1>, tensor<2x4x12x12xf32>, tensor<2x4x12x12xf32>) outs(%76 : tensor<2x4x12x12xf32>) {
    ^bb0(%in: i1, %in_92: f32, %in_93: f32, %out: f32):
      %184 = arith.select %in, %in_92, %in_93 : f32
      linalg.yield %184 : f32
    } -> tensor<2x4x12x12xf32>
    %collapsed_39 = tensor.collapse_shape %94 [[0, 1], [2], [3]] : tensor<2x4x12x12xf32> into tensor<8x12x12xf32>
    %collapsed_40 = tensor.collapse_shape %67 [[0, 1, 2], [3], [4]] : tensor<2x2x2x12x8xf32> into tensor<8x12x8xf32>
    %95 = tensor.empty() : tensor<8x12x8xf32>
    %96 = linalg.fill ins(%cst : f32) outs(%95 : tensor<8x12x8xf32>) -> tensor<8x12x8xf32>
    %97 = linalg.batch_matmul ins(%collapsed_39, %collapsed_40 : tensor<8x12x12xf32>, tensor<8x12x8xf32>) outs(%96 : tensor<8x12x8xf32>) -> tensor<8x12x8xf32>
    %expanded_41 = tensor.expand_shape %97 [[0, 1], [2], [3]] output_shape [2, 4, 12, 8] : tensor<8x12x8xf32> into tensor<2x4x12x8xf32>
    %98 = tensor.empty() : tensor<2x12x4x8xf32>
    %transposed_42 = linalg.transpose ins(%expanded_41 : tensor<2x4x12x8xf32>) outs(%98 : tensor<2x12x4x8xf32>) permutation = [0, 2, 1, 3] 
    %collapsed_43 = tensor.collapse_shape %transposed_42 [[0], [1], [2, 3]] : tensor<2x12x4x8xf32> into tensor<2x12x32xf32>
    %transposed_44 = linalg.transpose ins(%arg5 : tensor<32x32xf32>) outs(%44 : tensor<32x32xf32>) permutation = [1, 0] 
    %99 = tensor.empty() : tensor<2x32x32xf32>
    %100 = linalg.generic {indexing_maps = [#map19, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%transposed_44 : tensor<32x32xf32>) outs(%99 : tensor<2x32x32xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<2x32x32xf32>
    %101 = linalg.fill ins(%cst : f32) outs(%0 : tensor<2x12x32xf32>) -> tensor<2x12x32xf32>
    %102 = linalg.batch_matmul ins(%collapsed_43, %100 : tensor<2x12x32xf32>, tensor<2x32x32xf32>) outs(%101 : tensor<2x12x32xf32>) -> tensor<2x12x32xf32>
    %103 = linalg.generic {indexing_maps = [#map1, #map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%1, %102 : tensor<2x12x32xf32>, tensor<2x12x32xf32>) outs(%0 : tensor<2x12x32xf32>) {
    ^bb0(%in: f32, %in_92: f32, %out: f32):
      %184 = arith.addf %in, %in_92 : f32
      linalg.yield %184 : f32
    } -> tensor<2x12x32xf32>
    %104 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%103 : tensor<2x12x32xf32>) outs(%0 : tensor<2x12x32xf32>) {
    ^bb0(%in: f32, %out: f32):
      %184 = math.fpowi %in, %c2_i64 : f32, i64
      linalg.yield %184 : f32
    } -> tensor<2x12x32xf32>
    %105 = linalg.generic {indexing_maps = [#map1, #map12], iterator_types = ["parallel", "parallel", "reduction"]} ins(%104 : tensor<2x12x32xf32>) outs(%37 : tensor<2x12x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %184 = arith.addf %in, %out : f32
      linalg.yield %184 : f32
    } -> tensor<2x12x1xf32>
    %106 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%105 : tensor<2x12x1xf32>) outs(%36 : tensor<2x12x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %184 = arith.divf %in, %cst_10 : f32
      linalg.yield %184 : f32
    } -> tensor<2x12x1xf32>
    %107 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%106 : tensor<2x12x1xf32>) outs(%36 : tensor<2x12x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %184 = arith.truncf %cst_8 : f64 to f32
      %185 = arith.addf %in, %184 : f32
      linalg.yield %185 : f32
    } -> tensor<2x12x1xf32>
    %108 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%107 : tensor<2x12x1xf32>) outs(%36 : tensor<2x12x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %184 = math.rsqrt %in : f32
      linalg.yield %184 : f32
    } -> tensor<2x12x1xf32>
    %109 = linalg.generic {indexing_maps = [#map1, #map12, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%103, %108 : tensor<2x12x32xf32>, tensor<2x12x1xf32>) outs(%0 : tensor<2x12x32xf32>) {
    ^bb0(%in: f32, %in_92: f32, %out: f32):
      %184 = arith.mulf %in, %in_92 : f32
      linalg.yield %184 : f32
    } -> tensor<2x12x32xf32>
    %110 = linalg.generic {indexing_maps = [#map13, #map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%arg10, %109 : tensor<32xf32>, tensor<2x12x32xf32>) outs(%0 : tensor<2x12x32xf32>) {
    ^bb0(%in: f32, %in_92: f32, %out: f32):
      %184 = arith.mulf %in, %in_92 : f32
      linalg.yield %184 : f32
    } -> tensor<2x12x32xf32>
    %111 = tensor.empty() : tensor<32x128xf32>
    %transposed_45 = linalg.transpose ins(%arg6 : tensor<128x32xf32>) outs(%111 : tensor<32x128xf32>) permutation = [1, 0] 
    %collapsed_46 = tensor.collapse_shape %110 [[0, 1], [2]] : tensor<2x12x32xf32> into tensor<24x32xf32>
    %112 = tensor.empty() : tensor<24x128xf32>
    %113 = linalg.fill ins(%cst : f32) outs(%112 : tensor<24x128xf32>) -> tensor<24x128xf32>
    %114 = linalg.matmul ins(%collapsed_46, %transposed_45 : tensor<24x32xf32>, tensor<32x128xf32>) outs(%113 : tensor<24x128xf32>) -> tensor<24x128xf32>
    %expanded_47 = tensor.expand_shape %114 [[0, 1], [2]] output_shape [2, 12, 128] : tensor<24x128xf32> into tensor<2x12x128xf32>
    %115 = tensor.empty() : tensor<2x12x128xf32>
    %116 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%expanded_47 : tensor<2x12x128xf32>) outs(%115 : tensor<2x12x128xf32>) {
    ^bb0(%in: f32, %out: f32):
      %184 = arith.negf %in : f32
      %185 = math.exp %184 : f32
      %186 = arith.addf %185, %cst_1 : f32
      %187 = arith.divf %cst_1, %186 : f32
      linalg.yield %187 : f32
    } -> tensor<2x12x128xf32>
    %117 = linalg.generic {indexing_maps = [#map1, #map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%expanded_47, %116 : tensor<2x12x128xf32>, tensor<2x12x128xf32>) outs(%115 : tensor<2x12x128xf32>) {
    ^bb0(%in: f32, %in_92: f32, %out: f32):
      %184 = arith.mulf %in, %in_92 : f32
      linalg.yield %184 : f32
    } -> tensor<2x12x128xf32>
    %transposed_48 = linalg.transpose ins(%arg7 : tensor<128x32xf32>) outs(%111 : tensor<32x128xf32>) permutation = [1, 0] 
    %118 = linalg.matmul ins(%collapsed_46, %transposed_48 : tensor<24x32xf32>, tensor<32x128xf32>) outs(%113 : tensor<24x128xf32>) -> tensor<24x128xf32>
    %expanded_49 = tensor.expand_shape %118 [[0, 1], [2]] output_shape [2, 12, 128] : tensor<24x128xf32> into tensor<2x12x128xf32>
    %119 = linalg.generic {indexing_maps = [#map1, #map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%117, %expanded_49 : tensor<2x12x128xf32>, tensor<2x12x128xf32>) outs(%115 : tensor<2x12x128xf32>) {
    ^bb0(%in: f32, %in_92: f32, %out: f32):
      %184 = arith.mulf %in, %in_92 : f32
      linalg.yield %184 : f32
    } -> tensor<2x12x128xf32>
    %120 = tensor.empty() : tensor<128x32xf32>
    %transposed_50 = linalg.transpose ins(%arg8 : tensor<32x128xf32>) outs(%120 : tensor<128x32xf32>) permutation = [1, 0] 
    %collapsed_51 = tensor.collapse_shape %119 [[0, 1], [2]] : tensor<2x12x128xf32> into tensor<24x128xf32>
    %121 = linalg.matmul ins(%collapsed_51, %transposed_50 : tensor<24x128xf32>, tensor<128x32xf32>) outs(%46 : tensor<24x32xf32>) -> tensor<24x32xf32>
    %expanded_52 = tensor.expand_shape %121 [[0, 1], [2]] output_shape [2, 12, 32] : tensor<24x32xf32> into tensor<2x12x32xf32>
    %122 = linalg.generic {indexing_maps = [#map1, #map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%103, %expanded_52 : tensor<2x12x32xf32>, tensor<2x12x32xf32>) outs(%0 : tensor<2x12x32xf32>) {
    ^bb0(%in: f32, %in_92: f32, %out: f32):
      %184 = arith.addf %in, %in_92 : f32
      linalg.yield %184 : f32
    } -> tensor<2x12x32xf32>
    %123 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%122 : tensor<2x12x32xf32>) outs(%0 : tensor<2x12x32xf32>) {
    ^bb0(%in: f32, %out: f32):
      %184 = math.fpowi %in, %c2_i64 : f32, i64
      linalg.yield %184 : f32
    } -> tensor<2x12x32xf32>
    %124 = linalg.generic {indexing_maps = [#map1, #map12], iterator_types = ["parallel", "parallel", "reduction"]} ins(%123 : tensor<2x12x32xf32>) outs(%37 : tensor<2x12x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %184 = arith.addf %in, %out : f32
      linalg.yield %184 : f32
    } -> tensor<2x12x1xf32>
    %125 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%124 : tensor<2x12x1xf32>) outs(%36 : tensor<2x12x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %184 = arith.divf %in, %cst_10 : f32
      linalg.yield %184 : f32
    } -> tensor<2x12x1xf32>
    %126 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%125 : tensor<2x12x1xf32>) outs(%36 : tensor<2x12x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %184 = arith.truncf %cst_8 : f64 to f32
      %185 = arith.addf %in, %184 : f32
      linalg.yield %185 : f32
    } -> tensor<2x12x1xf32>
    %127 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%126 : tensor<2x12x1xf32>) outs(%36 : tensor<2x12x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %184 = math.rsqrt %in : f32
      linalg.yield %184 : f32
    } -> tensor<2x12x1xf32>
    %128 = linalg.generic {indexing_maps = [#map1, #map12, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%122, %127 : tensor<2x12x32xf32>, tensor<2x12x1xf32>) outs(%0 : tensor<2x12x32xf32>) {
    ^bb0(%in: f32, %in_92: f32, %out: f32):
      %184 = arith.mulf %in, %in_92 : f32
      linalg.yield %184 : f32
    } -> tensor<2x12x32xf32>
    %129 = linalg.generic {indexing_maps = [#map13, #map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%arg18, %128 : tensor<32xf32>, tensor<2x12x32xf32>) outs(%0 : tensor<2x12x32xf32>) {
    ^bb0(%in: f32, %in_92: f32, %out: f32):
      %184 = arith.mulf %in, %in_92 : f32
      linalg.yield %184 : f32
    } -> tensor<2x12x32xf32>
    %transposed_53 = linalg.transpose ins(%arg11 : tensor<32x32xf32>) outs(%44 : tensor<32x32xf32>) permutation = [1, 0] 
    %collapsed_54 = tensor.collapse_shape %129 [[0, 1], [2]] : tensor<2x12x32xf32> into tensor<24x32xf32>
    %130 = linalg.matmul ins(%collapsed_54, %transposed_53 : tensor<24x32xf32>, tensor<32x32xf32>) outs(%46 : tensor<24x32xf32>) -> tensor<24x32xf32>
    %expanded_55 = tensor.expand_shape %130 [[0, 1], [2, 3]] output_shape [2, 12, 4, 8] : tensor<24x32xf32> into tensor<2x12x4x8xf32>
    %transposed_56 = linalg.transpose ins(%expanded_55 : tensor<2x12x4x8xf32>) outs(%48 : tensor<2x4x12x8xf32>) permutation = [0, 2, 1, 3] 
    %transposed_57 = linalg.transpose ins(%arg12 : tensor<16x32xf32>) outs(%49 : tensor<32x16xf32>) permutation = [1, 0] 
    %131 = linalg.matmul ins(%collapsed_54, %transposed_57 : tensor<24x32xf32>, tensor<32x16xf32>) outs(%51 : tensor<24x16xf32>) -> tensor<24x16xf32>
    %expanded_58 = tensor.expand_shape %131 [[0, 1], [2, 3]] output_shape [2, 12, 2, 8] : tensor<24x16xf32> into tensor<2x12x2x8xf32>
    %transposed_59 = linalg.transpose ins(%expanded_58 : tensor<2x12x2x8xf32>) outs(%53 : tensor<2x2x12x8xf32>) permutation = [0, 2, 1, 3] 
    %transposed_60 = linalg.transpose ins(%arg13 : tensor<16x32xf32>) outs(%49 : tensor<32x16xf32>) permutation = [1, 0] 
    %132 = linalg.matmul ins(%collapsed_54, %transposed_60 : tensor<24x32xf32>, tensor<32x16xf32>) outs(%51 : tensor<24x16xf32>) -> tensor<24x16xf32>
    %expanded_61 = tensor.expand_shape %132 [[0, 1], [2, 3]] output_shape [2, 12, 2, 8] : tensor<24x16xf32> into tensor<2x12x2x8xf32>
    %transposed_62 = linalg.transpose ins(%expanded_61 : tensor<2x12x2x8xf32>) outs(%53 : tensor<2x2x12x8xf32>) permutation = [0, 2, 1, 3] 
    %133 = linalg.generic {indexing_maps = [#map7, #map14, #map7], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%transposed_56, %expanded_25 : tensor<2x4x12x8xf32>, tensor<1x1x12x8xf32>) outs(%48 : tensor<2x4x12x8xf32>) {
    ^bb0(%in: f32, %in_92: f32, %out: f32):
      %184 = arith.mulf %in, %in_92 : f32
      linalg.yield %184 : f32
    } -> tensor<2x4x12x8xf32>
    %extracted_slice_63 = tensor.extract_slice %transposed_56[0, 0, 0, 0] [2, 4, 12, 4] [1, 1, 1, 1] : tensor<2x4x12x8xf32> to tensor<2x4x12x4xf32>
    %extracted_slice_64 = tensor.extract_slice %transposed_56[0, 0, 0, 4] [2, 4, 12, 4] [1, 1, 1, 1] : tensor<2x4x12x8xf32> to tensor<2x4x12x4xf32>
    %134 = linalg.generic {indexing_maps = [#map7, #map7], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%extracted_slice_64 : tensor<2x4x12x4xf32>) outs(%56 : tensor<2x4x12x4xf32>) {
    ^bb0(%in: f32, %out: f32):
      %184 = arith.negf %in : f32
      linalg.yield %184 : f32
    } -> tensor<2x4x12x4xf32>
    %concat_65 = tensor.concat dim(3) %134, %extracted_slice_63 : (tensor<2x4x12x4xf32>, tensor<2x4x12x4xf32>) -> tensor<2x4x12x8xf32>
    %135 = linalg.generic {indexing_maps = [#map7, #map14, #map7], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%concat_65, %expanded_26 : tensor<2x4x12x8xf32>, tensor<1x1x12x8xf32>) outs(%48 : tensor<2x4x12x8xf32>) {
    ^bb0(%in: f32, %in_92: f32, %out: f32):
      %184 = arith.mulf %in, %in_92 : f32
      linalg.yield %184 : f32
    } -> tensor<2x4x12x8xf32>
    %136 = linalg.generic {indexing_maps = [#map7, #map7, #map7], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%133, %135 : tensor<2x4x12x8xf32>, tensor<2x4x12x8xf32>) outs(%48 : tensor<2x4x12x8xf32>) {
    ^bb0(%in: f32, %in_92: f32, %out: f32):
      %184 = arith.addf %in, %in_92 : f32
      linalg.yield %184 : f32
    } -> tensor<2x4x12x8xf32>
    %137 = linalg.generic {indexing_maps = [#map7, #map14, #map7], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%transposed_59, %expanded_25 : tensor<2x2x12x8xf32>, tensor<1x1x12x8xf32>) outs(%53 : tensor<2x2x12x8xf32>) {
    ^bb0(%in: f32, %in_92: f32, %out: f32):
      %184 = arith.mulf %in, %in_92 : f32
      linalg.yield %184 : f32
    } -> tensor<2x2x12x8xf32>
    %extracted_slice_66 = tensor.extract_slice %transposed_59[0, 0, 0, 0] [2, 2, 12, 4] [1, 1, 1, 1] : tensor<2x2x12x8xf32> to tensor<2x2x12x4xf32>
    %extracted_slice_67 = tensor.extract_slice %transposed_59[0, 0, 0, 4] [2, 2, 12, 4] [1, 1, 1, 1] : tensor<2x2x12x8xf32> to tensor<2x2x12x4xf32>
    %138 = linalg.generic {indexing_maps = [#map7, #map7], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%extracted_slice_67 : tensor<2x2x12x4xf32>) outs(%61 : tensor<2x2x12x4xf32>) {
    ^bb0(%in: f32, %out: f32):
      %184 = arith.negf %in : f32
      linalg.yield %184 : f32
    } -> tensor<2x2x12x4xf32>
    %concat_68 = tensor.concat dim(3) %138, %extracted_slice_66 : (tensor<2x2x12x4xf32>, tensor<2x2x12x4xf32>) -> tensor<2x2x12x8xf32>
    %139 = linalg.generic {indexing_maps = [#map7, #map14, #map7], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%concat_68, %expanded_26 : tensor<2x2x12x8xf32>, tensor<1x1x12x8xf32>) outs(%53 : tensor<2x2x12x8xf32>) {
    ^bb0(%in: f32, %in_92: f32, %out: f32):
      %184 = arith.mulf %in, %in_92 : f32
      linalg.yield %184 : f32
    } -> tensor<2x2x12x8xf32>
    %140 = linalg.generic {indexing_maps = [#map7, #map7, #map7], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%137, %139 : tensor<2x2x12x8xf32>, tensor<2x2x12x8xf32>) outs(%53 : tensor<2x2x12x8xf32>) {
    ^bb0(%in: f32, %in_92: f32, %out: f32):
      %184 = arith.addf %in, %in_92 : f32
      linalg.yield %184 : f32
    } -> tensor<2x2x12x8xf32>
    %141 = linalg.generic {indexing_maps = [#map15, #map16], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%140 : tensor<2x2x12x8xf32>) outs(%65 : tensor<2x2x2x12x8xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<2x2x2x12x8xf32>
    %collapsed_69 = tensor.collapse_shape %141 [[0], [1, 2], [3], [4]] : tensor<2x2x2x12x8xf32> into tensor<2x4x12x8xf32>
    %142 = linalg.generic {indexing_maps = [#map15, #map16], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%transposed_62 : tensor<2x2x12x8xf32>) outs(%65 : tensor<2x2x2x12x8xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<2x2x2x12x8xf32>
    %143 = linalg.generic {indexing_maps = [#map7, #map7], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%136 : tensor<2x4x12x8xf32>) outs(%48 : tensor<2x4x12x8xf32>) {
    ^bb0(%in: f32, %out: f32):
      %184 = arith.truncf %cst_6 : f64 to f32
      %185 = arith.mulf %in, %184 : f32
      linalg.yield %185 : f32
    } -> tensor<2x4x12x8xf32>
    %transposed_70 = linalg.transpose ins(%collapsed_69 : tensor<2x4x12x8xf32>) outs(%71 : tensor<2x4x8x12xf32>) permutation = [0, 1, 3, 2] 
    %144 = linalg.generic {indexing_maps = [#map7, #map7], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%transposed_70 : tensor<2x4x8x12xf32>) outs(%71 : tensor<2x4x8x12xf32>) {
    ^bb0(%in: f32, %out: f32):
      %184 = arith.truncf %cst_6 : f64 to f32
      %185 = arith.mulf %in, %184 : f32
      linalg.yield %185 : f32
    } -> tensor<2x4x8x12xf32>
    %collapsed_71 = tensor.collapse_shape %143 [[0, 1], [2], [3]] : tensor<2x4x12x8xf32> into tensor<8x12x8xf32>
    %collapsed_72 = tensor.collapse_shape %144 [[0, 1], [2], [3]] : tensor<2x4x8x12xf32> into tensor<8x8x12xf32>
    %145 = linalg.batch_matmul ins(%collapsed_71, %collapsed_72 : tensor<8x12x8xf32>, tensor<8x8x12xf32>) outs(%74 : tensor<8x12x12xf32>) -> tensor<8x12x12xf32>
    %expanded_73 = tensor.expand_shape %145 [[0, 1], [2], [3]] output_shape [2, 4, 12, 12] : tensor<8x12x12xf32> into tensor<2x4x12x12xf32>
    %146 = linalg.generic {indexing_maps = [#map7, #map17, #map7], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%expanded_73, %69 : tensor<2x4x12x12xf32>, tensor<2x1x12x12xf32>) outs(%76 : tensor<2x4x12x12xf32>) {
    ^bb0(%in: f32, %in_92: f32, %out: f32):
      %184 = arith.addf %in, %in_92 : f32
      linalg.yield %184 : f32
    } -> tensor<2x4x12x12xf32>
    %147:2 = linalg.generic {indexing_maps = [#map7, #map18, #map18], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%146 : tensor<2x4x12x12xf32>) outs(%81, %79 : tensor<2x4x12xf32>, tensor<2x4x12xi64>) {
    ^bb0(%in: f32, %out: f32, %out_92: i64):
      %184 = linalg.index 3 : index
      %185 = arith.index_cast %184 : index to i64
      %186 = arith.maximumf %in, %out : f32
      %187 = arith.cmpf ogt, %in, %out : f32
      %188 = arith.select %187, %185, %out_92 : i64
      linalg.yield %186, %188 : f32, i64
    } -> (tensor<2x4x12xf32>, tensor<2x4x12xi64>)
    %expanded_74 = tensor.expand_shape %147#0 [[0], [1], [2, 3]] output_shape [2, 4, 12, 1] : tensor<2x4x12xf32> into tensor<2x4x12x1xf32>
    %148 = linalg.generic {indexing_maps = [#map7, #map10, #map7], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%146, %expanded_74 : tensor<2x4x12x12xf32>, tensor<2x4x12x1xf32>) outs(%76 : tensor<2x4x12x12xf32>) {
    ^bb0(%in: f32, %in_92: f32, %out: f32):
      %184 = arith.subf %in, %in_92 : f32
      linalg.yield %184 : f32
    } -> tensor<2x4x12x12xf32>
    %149 = linalg.generic {indexing_maps = [#map7, #map7], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%148 : tensor<2x4x12x12xf32>) outs(%76 : tensor<2x4x12x12xf32>) {
    ^bb0(%in: f32, %out: f32):
      %184 = math.exp %in : f32
      linalg.yield %184 : f32
    } -> tensor<2x4x12x12xf32>
    %150 = linalg.generic {indexing_maps = [#map7, #map10], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%149 : tensor<2x4x12x12xf32>) outs(%86 : tensor<2x4x12x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %184 = arith.addf %in, %out : f32
      linalg.yield %184 : f32
    } -> tensor<2x4x12x1xf32>
    %151 = linalg.generic {indexing_maps = [#map7, #map10, #map7], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%149, %150 : tensor<2x4x12x12xf32>, tensor<2x4x12x1xf32>) outs(%76 : tensor<2x4x12x12xf32>) {
    ^bb0(%in: f32, %in_92: f32, %out: f32):
      %184 = arith.divf %in, %in_92 : f32
      linalg.yield %184 : f32
    } -> tensor<2x4x12x12xf32>
    %152 = linalg.generic {indexing_maps = [#map7, #map7], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%146 : tensor<2x4x12x12xf32>) outs(%89 : tensor<2x4x12x12xi1>) {
    ^bb0(%in: f32, %out: i1):
      %184 = arith.extf %in : f32 to f64
      %185 = arith.cmpf oeq, %184, %cst_7 : f64
      linalg.yield %185 : i1
    } -> tensor<2x4x12x12xi1>
    %153 = linalg.generic {indexing_maps = [#map7, #map10], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%152 : tensor<2x4x12x12xi1>) outs(%92 : tensor<2x4x12x1xi1>) {
    ^bb0(%in: i1, %out: i1):
      %184 = arith.andi %in, %out : i1
      linalg.yield %184 : i1
    } -> tensor<2x4x12x1xi1>
    %154 = linalg.generic {indexing_maps = [#map10, #map7, #map7, #map7], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%153, %cst_2, %151 : tensor<2x4x12x1xi1>, tensor<2x4x12x12xf32>, tensor<2x4x12x12xf32>) outs(%76 : tensor<2x4x12x12xf32>) {
    ^bb0(%in: i1, %in_92: f32, %in_93: f32, %out: f32):
      %184 = arith.select %in, %in_92, %in_93 : f32
      linalg.yield %184 : f32
    } -> tensor<2x4x12x12xf32>
    %collapsed_75 = tensor.collapse_shape %154 [[0, 1], [2], [3]] : tensor<2x4x12x12xf32> into tensor<8x12x12xf32>
    %collapsed_76 = tensor.collapse_shape %142 [[0, 1, 2], [3], [4]] : tensor<2x2x2x12x8xf32> into tensor<8x12x8xf32>
    %155 = linalg.batch_matmul ins(%collapsed_75, %collapsed_76 : tensor<8x12x12xf32>, tensor<8x12x8xf32>) outs(%96 : tensor<8x12x8xf32>) -> tensor<8x12x8xf32>
    %expanded_77 = tensor.expand_shape %155 [[0, 1], [2], [3]] output_shape [2, 4, 12, 8] : tensor<8x12x8xf32> into tensor<2x4x12x8xf32>
    %transposed_78 = linalg.transpose ins(%expanded_77 : tensor<2x4x12x8xf32>) outs(%98 : tensor<2x12x4x8xf32>) permutation = [0, 2, 1, 3] 
    %collapsed_79 = tensor.collapse_shape %transposed_78 [[0], [1], [2, 3]] : tensor<2x12x4x8xf32> into tensor<2x12x32xf32>
    %transposed_80 = linalg.transpose ins(%arg14 : tensor<32x32xf32>) outs(%44 : tensor<32x32xf32>) permutation = [1, 0] 
    %156 = linalg.generic {indexing_maps = [#map19, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%transposed_80 : tensor<32x32xf32>) outs(%99 : tensor<2x32x32xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<2x32x32xf32>
    %157 = linalg.batch_matmul ins(%collapsed_79, %156 : tensor<2x12x32xf32>, tensor<2x32x32xf32>) outs(%101 : tensor<2x12x32xf32>) -> tensor<2x12x32xf32>
    %158 = linalg.generic {indexing_maps = [#map1, #map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%122, %157 : tensor<2x12x32xf32>, tensor<2x12x32xf32>) outs(%0 : tensor<2x12x32xf32>) {
    ^bb0(%in: f32, %in_92: f32, %out: f32):
      %184 = arith.addf %in, %in_92 : f32
      linalg.yield %184 : f32
    } -> tensor<2x12x32xf32>
    %159 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%158 : tensor<2x12x32xf32>) outs(%0 : tensor<2x12x32xf32>) {
    ^bb0(%in: f32, %out: f32):
      %184 = math.fpowi %in, %c2_i64 : f32, i64
      linalg.yield %184 : f32
    } -> tensor<2x12x32xf32>
    %160 = linalg.generic {indexing_maps = [#map1, #map12], iterator_types = ["parallel", "parallel", "reduction"]} ins(%159 : tensor<2x12x32xf32>) outs(%37 : tensor<2x12x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %184 = arith.addf %in, %out : f32
      linalg.yield %184 : f32
    } -> tensor<2x12x1xf32>
    %161 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%160 : tensor<2x12x1xf32>) outs(%36 : tensor<2x12x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %184 = arith.divf %in, %cst_10 : f32
      linalg.yield %184 : f32
    } -> tensor<2x12x1xf32>
    %162 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%161 : tensor<2x12x1xf32>) outs(%36 : tensor<2x12x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %184 = arith.truncf %cst_8 : f64 to f32
      %185 = arith.addf %in, %184 : f32
      linalg.yield %185 : f32
    } -> tensor<2x12x1xf32>
    %163 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%162 : tensor<2x12x1xf32>) outs(%36 : tensor<2x12x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %184 = math.rsqrt %in : f32
      linalg.yield %184 : f32
    } -> tensor<2x12x1xf32>
    %164 = linalg.generic {indexing_maps = [#map1, #map12, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%158, %163 : tensor<2x12x32xf32>, tensor<2x12x1xf32>) outs(%0 : tensor<2x12x32xf32>) {
    ^bb0(%in: f32, %in_92: f32, %out: f32):
      %184 = arith.mulf %in, %in_92 : f32
      linalg.yield %184 : f32
    } -> tensor<2x12x32xf32>
    %165 = linalg.generic {indexing_maps = [#map13, #map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%arg19, %164 : tensor<32xf32>, tensor<2x12x32xf32>) outs(%0 : tensor<2x12x32xf32>) {
    ^bb0(%in: f32, %in_92: f32, %out: f32):
      %184 = arith.mulf %in, %in_92 : f32
      linalg.yield %184 : f32
    } -> tensor<2x12x32xf32>
    %transposed_81 = linalg.transpose ins(%arg15 : tensor<128x32xf32>) outs(%111 : tensor<32x128xf32>) permutation = [1, 0] 
    %collapsed_82 = tensor.collapse_shape %165 [[0, 1], [2]] : tensor<2x12x32xf32> into tensor<24x32xf32>
    %166 = linalg.matmul ins(%collapsed_82, %transposed_81 : tensor<24x32xf32>, tensor<32x128xf32>) outs(%113 : tensor<24x128xf32>) -> tensor<24x128xf32>
    %expanded_83 = tensor.expand_shape %166 [[0, 1], [2]] output_shape [2, 12, 128] : tensor<24x128xf32> into tensor<2x12x128xf32>
    %167 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%expanded_83 : tensor<2x12x128xf32>) outs(%115 : tensor<2x12x128xf32>) {
    ^bb0(%in: f32, %out: f32):
      %184 = arith.negf %in : f32
      %185 = math.exp %184 : f32
      %186 = arith.addf %185, %cst_1 : f32
      %187 = arith.divf %cst_1, %186 : f32
      linalg.yield %187 : f32
    } -> tensor<2x12x128xf32>
    %168 = linalg.generic {indexing_maps = [#map1, #map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%expanded_83, %167 : tensor<2x12x128xf32>, tensor<2x12x128xf32>) outs(%115 : tensor<2x12x128xf32>) {
    ^bb0(%in: f32, %in_92: f32, %out: f32):
      %184 = arith.mulf %in, %in_92 : f32
      linalg.yield %184 : f32
    } -> tensor<2x12x128xf32>
    %transposed_84 = linalg.transpose ins(%arg16 : tensor<128x32xf32>) outs(%111 : tensor<32x128xf32>) permutation = [1, 0] 
    %169 = linalg.matmul ins(%collapsed_82, %transposed_84 : tensor<24x32xf32>, tensor<32x128xf32>) outs(%113 : tensor<24x128xf32>) -> tensor<24x128xf32>
    %expanded_85 = tensor.expand_shape %169 [[0, 1], [2]] output_shape [2, 12, 128] : tensor<24x128xf32> into tensor<2x12x128xf32>
    %170 = linalg.generic {indexing_maps = [#map1, #map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%168, %expanded_85 : tensor<2x12x128xf32>, tensor<2x12x128xf32>) outs(%115 : tensor<2x12x128xf32>) {
    ^bb0(%in: f32, %in_92: f32, %out: f32):
      %184 = arith.mulf %in, %in_92 : f32
      linalg.yield %184 : f32
    } -> tensor<2x12x128xf32>
    %transposed_86 = linalg.transpose ins(%arg17 : tensor<32x128xf32>) outs(%120 : tensor<128x32xf32>) permutation = [1, 0] 
    %collapsed_87 = tensor.collapse_shape %170 [[0, 1], [2]] : tensor<2x12x128xf32> into tensor<24x128xf32>
    %171 = linalg.matmul ins(%collapsed_87, %transposed_86 : tensor<24x128xf32>, tensor<128x32xf32>) outs(%46 : tensor<24x32xf32>) -> tensor<24x32xf32>
    %expanded_88 = tensor.expand_shape %171 [[0, 1], [2]] output_shape [2, 12, 32] : tensor<24x32xf32> into tensor<2x12x32xf32>
    %172 = linalg.generic {indexing_maps = [#map1, #map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%158, %expanded_88 : tensor<2x12x32xf32>, tensor<2x12x32xf32>) outs(%0 : tensor<2x12x32xf32>) {
    ^bb0(%in: f32, %in_92: f32, %out: f32):
      %184 = arith.addf %in, %in_92 : f32
      linalg.yield %184 : f32
    } -> tensor<2x12x32xf32>
    %173 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%172 : tensor<2x12x32xf32>) outs(%0 : tensor<2x12x32xf32>) {
    ^bb0(%in: f32, %out: f32):
      %184 = math.fpowi %in, %c2_i64 : f32, i64
      linalg.yield %184 : f32
    } -> tensor<2x12x32xf32>
    %174 = linalg.generic {indexing_maps = [#map1, #map12], iterator_types = ["parallel", "parallel", "reduction"]} ins(%173 : tensor<2x12x32xf32>) outs(%37 : tensor<2x12x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %184 = arith.addf %in, %out : f32
      linalg.yield %184 : f32
    } -> tensor<2x12x1xf32>
    %175 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%174 : tensor<2x12x1xf32>) outs(%36 : tensor<2x12x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %184 = arith.divf %in, %cst_10 : f32
      linalg.yield %184 : f32
    } -> tensor<2x12x1xf32>
    %176 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%175 : tensor<2x12x1xf32>) outs(%36 : tensor<2x12x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %184 = arith.truncf %cst_8 : f64 to f32
      %185 = arith.addf %in, %184 : f32
      linalg.yield %185 : f32
    } -> tensor<2x12x1xf32>
    %177 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%176 : tensor<2x12x1xf32>) outs(%36 : tensor<2x12x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %184 = math.rsqrt %in : f32
      linalg.yield %184 : f32
    } -> tensor<2x12x1xf32>
    %178 = linalg.generic {indexing_maps = [#map1, #map12, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%172, %177 : tensor<2x12x32xf32>, tensor<2x12x1xf32>) outs(%0 : tensor<2x12x32xf32>) {
    ^bb0(%in: f32, %in_92: f32, %out: f32):
      %184 = arith.mulf %in, %in_92 : f32
      linalg.yield %184 : f32
    } -> tensor<2x12x32xf32>
    %179 = linalg.generic {indexing_maps = [#map13, #map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%arg20, %178 : tensor<32xf32>, tensor<2x12x32xf32>) outs(%0 : tensor<2x12x32xf32>) {
    ^bb0(%in: f32, %in_92: f32, %out: f32):
      %184 = arith.mulf %in, %in_92 : f32
      linalg.yield %184 : f32
    } -> tensor<2x12x32xf32>
    %180 = tensor.empty() : tensor<32x67xf32>
    %transposed_89 = linalg.transpose ins(%arg21 : tensor<67x32xf32>) outs(%180 : tensor<32x67xf32>) permutation = [1, 0] 
    %collapsed_90 = tensor.collapse_shape %179 [[0, 1], [2]] : tensor<2x12x32xf32> into tensor<24x32xf32>
    %181 = tensor.empty() : tensor<24x67xf32>
    %182 = linalg.fill ins(%cst : f32) outs(%181 : tensor<24x67xf32>) -> tensor<24x67xf32>
    %183 = linalg.matmul ins(%collapsed_90, %transposed_89 : tensor<24x32xf32>, tensor<32x67xf32>) outs(%182 : tensor<24x67xf32>) -> tensor<24x67xf32>
    %expanded_91 = tensor.expand_shape %183 [[0, 1], [2]] output_shape [2, 12, 67] : tensor<24x67xf32> into tensor<2x12x67xf32>
    return %expanded_91 : tensor<2x12x67xf32>
  }
}

{-#
  dialect_resources: {
    builtin: {
      torch_tensor_4_torch.float32: "0x040000000000803FCDCCCC3D0AD7233C6F12833A"
    }
  }
#-}
