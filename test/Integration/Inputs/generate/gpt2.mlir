// hf_gpt2_logits exported from PyTorch by torch-mlir's FX importer. Generated, do not edit:
//   python3 examples/export/export_torch.py hf_gpt2_logits --batch 2 --seq 12 --hidden 32 --heads 4 --ffn 128 --layers 2 --vocab 67 --seed 0 --save-generate test/Integration/Inputs/generate/gpt2 --prompt 4 -o test/Integration/Inputs/generate/gpt2.mlir
// with torch 2.15.0, torch-mlir 20261001, transformers 5.24.0:
//   torch_mlir.fx.export_and_import(..., output_type="linalg-on-tensors", func_name="hf_gpt2_logits")
// then only the function name and the summa.name / summa.role argument attributes are set.
// Weights are arguments: parameters and persistent buffers (state_dict) via torch.func.functional_call.
// Arguments:
//   %arg0 = input_ids [2x12] int64
//   %arg1 = model.transformer.wte.weight [67x32] float32
//   %arg2 = model.transformer.wpe.weight [12x32] float32
//   %arg3 = model.transformer.h.0.ln_1.weight [32] float32
//   %arg4 = model.transformer.h.0.ln_1.bias [32] float32
//   %arg5 = model.transformer.h.0.attn.c_attn.weight [32x96] float32
//   %arg6 = model.transformer.h.0.attn.c_attn.bias [96] float32
//   %arg7 = model.transformer.h.0.attn.c_proj.weight [32x32] float32
//   %arg8 = model.transformer.h.0.attn.c_proj.bias [32] float32
//   %arg9 = model.transformer.h.0.ln_2.weight [32] float32
//   %arg10 = model.transformer.h.0.ln_2.bias [32] float32
//   %arg11 = model.transformer.h.0.mlp.c_fc.weight [32x128] float32
//   %arg12 = model.transformer.h.0.mlp.c_fc.bias [128] float32
//   %arg13 = model.transformer.h.0.mlp.c_proj.weight [128x32] float32
//   %arg14 = model.transformer.h.0.mlp.c_proj.bias [32] float32
//   %arg15 = model.transformer.h.1.ln_1.weight [32] float32
//   %arg16 = model.transformer.h.1.ln_1.bias [32] float32
//   %arg17 = model.transformer.h.1.attn.c_attn.weight [32x96] float32
//   %arg18 = model.transformer.h.1.attn.c_attn.bias [96] float32
//   %arg19 = model.transformer.h.1.attn.c_proj.weight [32x32] float32
//   %arg20 = model.transformer.h.1.attn.c_proj.bias [32] float32
//   %arg21 = model.transformer.h.1.ln_2.weight [32] float32
//   %arg22 = model.transformer.h.1.ln_2.bias [32] float32
//   %arg23 = model.transformer.h.1.mlp.c_fc.weight [32x128] float32
//   %arg24 = model.transformer.h.1.mlp.c_fc.bias [128] float32
//   %arg25 = model.transformer.h.1.mlp.c_proj.weight [128x32] float32
//   %arg26 = model.transformer.h.1.mlp.c_proj.bias [32] float32
//   %arg27 = model.transformer.ln_f.weight [32] float32
//   %arg28 = model.transformer.ln_f.bias [32] float32
#map = affine_map<(d0, d1, d2) -> (d0, d1)>
#map1 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#map2 = affine_map<(d0) -> (d0)>
#map3 = affine_map<(d0, d1, d2) -> (0, d1, d2)>
#map4 = affine_map<(d0, d1) -> (d1)>
#map5 = affine_map<(d0, d1) -> (d0, d1)>
#map6 = affine_map<(d0, d1, d2, d3) -> (d0, 0, 0, 0)>
#map7 = affine_map<(d0, d1, d2, d3) -> (0, 0, d2, 0)>
#map8 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#map9 = affine_map<(d0, d1, d2, d3) -> (0, 0, 0, d3)>
#map10 = affine_map<(d0, d1, d2, d3) -> (d0, d1, 0, d3)>
#map11 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>
#map12 = affine_map<(d0, d1, d2, d3) -> ()>
#map13 = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
#map14 = affine_map<(d0, d1, d2) -> (d2)>
#map15 = affine_map<(d0, d1, d2, d3) -> (d0, 0, d2, d3)>
#map16 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
module {
  func.func @hf_gpt2_logits(%arg0: tensor<2x12xi64> {summa.name = "input_ids"}, %arg1: tensor<67x32xf32> {summa.name = "model.transformer.wte.weight"}, %arg2: tensor<12x32xf32> {summa.name = "model.transformer.wpe.weight"}, %arg3: tensor<32xf32> {summa.name = "model.transformer.h.0.ln_1.weight"}, %arg4: tensor<32xf32> {summa.name = "model.transformer.h.0.ln_1.bias"}, %arg5: tensor<32x96xf32> {summa.name = "model.transformer.h.0.attn.c_attn.weight"}, %arg6: tensor<96xf32> {summa.name = "model.transformer.h.0.attn.c_attn.bias"}, %arg7: tensor<32x32xf32> {summa.name = "model.transformer.h.0.attn.c_proj.weight"}, %arg8: tensor<32xf32> {summa.name = "model.transformer.h.0.attn.c_proj.bias"}, %arg9: tensor<32xf32> {summa.name = "model.transformer.h.0.ln_2.weight"}, %arg10: tensor<32xf32> {summa.name = "model.transformer.h.0.ln_2.bias"}, %arg11: tensor<32x128xf32> {summa.name = "model.transformer.h.0.mlp.c_fc.weight"}, %arg12: tensor<128xf32> {summa.name = "model.transformer.h.0.mlp.c_fc.bias"}, %arg13: tensor<128x32xf32> {summa.name = "model.transformer.h.0.mlp.c_proj.weight"}, %arg14: tensor<32xf32> {summa.name = "model.transformer.h.0.mlp.c_proj.bias"}, %arg15: tensor<32xf32> {summa.name = "model.transformer.h.1.ln_1.weight"}, %arg16: tensor<32xf32> {summa.name = "model.transformer.h.1.ln_1.bias"}, %arg17: tensor<32x96xf32> {summa.name = "model.transformer.h.1.attn.c_attn.weight"}, %arg18: tensor<96xf32> {summa.name = "model.transformer.h.1.attn.c_attn.bias"}, %arg19: tensor<32x32xf32> {summa.name = "model.transformer.h.1.attn.c_proj.weight"}, %arg20: tensor<32xf32> {summa.name = "model.transformer.h.1.attn.c_proj.bias"}, %arg21: tensor<32xf32> {summa.name = "model.transformer.h.1.ln_2.weight"}, %arg22: tensor<32xf32> {summa.name = "model.transformer.h.1.ln_2.bias"}, %arg23: tensor<32x128xf32> {summa.name = "model.transformer.h.1.mlp.c_fc.weight"}, %arg24: tensor<128xf32> {summa.name = "model.transformer.h.1.mlp.c_fc.bias"}, %arg25: tensor<128x32xf32> {summa.name = "model.transformer.h.1.mlp.c_proj.weight"}, %arg26: tensor<32xf32> {summa.name = "model.transformer.h.1.mlp.c_proj.bias"}, %arg27: tensor<32xf32> {summa.name = "model.transformer.ln_f.weight"}, %arg28: tensor<32xf32> {summa.name = "model.transformer.ln_f.bias"}) -> tensor<2x12x67xf32> {
    %c0_i64 = arith.constant 0 : i64
    %c3_i64 = arith.constant 3 : i64
    %c2_i64 = arith.constant 2 : i64
    %c1_i64 = arith.constant 1 : i64
    %c12_i64 = arith.constant 12 : i64
    %c12 = arith.constant 12 : index
    %c67 = arith.constant 67 : index
    %cst = arith.constant 0.000000e+00 : f64
    %cst_0 = arith.constant 0.000000e+00 : f32
    %cst_1 = arith.constant 0xFF800000 : f32
    %cst_2 = arith.constant dense<-3.40282347E+38> : tensor<f32>
    %cst_3 = arith.constant dense<0.000000e+00> : tensor<f32>
    %cst_4 = arith.constant dense<true> : tensor<i1>
    %cst_5 = arith.constant 0.79788456080286541 : f64
    %cst_6 = arith.constant 4.471500e-02 : f64
    %cst_7 = arith.constant 0.35355339059327379 : f64
    %cst_8 = arith.constant 1.000000e-05 : f64
    %cst_9 = arith.constant 3.200000e+01 : f64
    %cst_10 = arith.constant 3.200000e+01 : f32
    %cst_11 = arith.constant 5.000000e-01 : f32
    %cst_12 = arith.constant 1.000000e+00 : f32
    %0 = tensor.empty() : tensor<2x12x32xf32>
    %1 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%arg0 : tensor<2x12xi64>) outs(%0 : tensor<2x12x32xf32>) {
    ^bb0(%in: i64, %out: f32):
      %205 = arith.index_cast %in : i64 to index
      %206 = linalg.index 2 : index
      %207 = arith.cmpi slt, %205, %c67 : index
      cf.assert %207, "index must be smaller than dim size"
      %208 = arith.cmpi sge, %in, %c0_i64 : i64
      cf.assert %208, "index must be larger or equal to 0"
      %extracted = tensor.extract %arg1[%205, %206] : tensor<67x32xf32>
      linalg.yield %extracted : f32
    } -> tensor<2x12x32xf32>
    %2 = tensor.empty() : tensor<12xi64>
    %3 = linalg.generic {indexing_maps = [#map2], iterator_types = ["parallel"]} outs(%2 : tensor<12xi64>) {
    ^bb0(%out: i64):
      %205 = linalg.index 0 : index
      %206 = arith.index_cast %205 : index to i64
      linalg.yield %206 : i64
    } -> tensor<12xi64>
    %expanded = tensor.expand_shape %3 [[0, 1]] output_shape [1, 12] : tensor<12xi64> into tensor<1x12xi64>
    %4 = tensor.empty() : tensor<1x12x32xf32>
    %5 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%expanded : tensor<1x12xi64>) outs(%4 : tensor<1x12x32xf32>) {
    ^bb0(%in: i64, %out: f32):
      %205 = arith.index_cast %in : i64 to index
      %206 = linalg.index 2 : index
      %207 = arith.cmpi slt, %205, %c12 : index
      cf.assert %207, "index must be smaller than dim size"
      %208 = arith.cmpi sge, %in, %c0_i64 : i64
      cf.assert %208, "index must be larger or equal to 0"
      %extracted = tensor.extract %arg2[%205, %206] : tensor<12x32xf32>
      linalg.yield %extracted : f32
    } -> tensor<1x12x32xf32>
    %6 = linalg.generic {indexing_maps = [#map1, #map3, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%1, %5 : tensor<2x12x32xf32>, tensor<1x12x32xf32>) outs(%0 : tensor<2x12x32xf32>) {
    ^bb0(%in: f32, %in_69: f32, %out: f32):
      %205 = arith.addf %in, %in_69 : f32
      linalg.yield %205 : f32
    } -> tensor<2x12x32xf32>
    %7 = tensor.empty() : tensor<2x12xi64>
    %8 = linalg.generic {indexing_maps = [#map4, #map5], iterator_types = ["parallel", "parallel"]} ins(%3 : tensor<12xi64>) outs(%7 : tensor<2x12xi64>) {
    ^bb0(%in: i64, %out: i64):
      linalg.yield %in : i64
    } -> tensor<2x12xi64>
    %extracted_slice = tensor.extract_slice %8[0, 0] [2, 1] [1, 1] : tensor<2x12xi64> to tensor<2x1xi64>
    %9 = tensor.empty() : tensor<2x1xi64>
    %10 = linalg.generic {indexing_maps = [#map5, #map5], iterator_types = ["parallel", "parallel"]} ins(%extracted_slice : tensor<2x1xi64>) outs(%9 : tensor<2x1xi64>) {
    ^bb0(%in: i64, %out: i64):
      %205 = arith.subi %in, %c1_i64 : i64
      linalg.yield %205 : i64
    } -> tensor<2x1xi64>
    %concat = tensor.concat dim(1) %10, %8 : (tensor<2x1xi64>, tensor<2x12xi64>) -> tensor<2x13xi64>
    %extracted_slice_13 = tensor.extract_slice %concat[0, 0] [2, 12] [1, 1] : tensor<2x13xi64> to tensor<2x12xi64>
    %extracted_slice_14 = tensor.extract_slice %concat[0, 1] [2, 12] [1, 1] : tensor<2x13xi64> to tensor<2x12xi64>
    %11 = linalg.generic {indexing_maps = [#map5, #map5, #map5], iterator_types = ["parallel", "parallel"]} ins(%extracted_slice_14, %extracted_slice_13 : tensor<2x12xi64>, tensor<2x12xi64>) outs(%7 : tensor<2x12xi64>) {
    ^bb0(%in: i64, %in_69: i64, %out: i64):
      %205 = arith.subi %in, %in_69 : i64
      linalg.yield %205 : i64
    } -> tensor<2x12xi64>
    %12 = tensor.empty() : tensor<2x12xi1>
    %13 = linalg.generic {indexing_maps = [#map5, #map5], iterator_types = ["parallel", "parallel"]} ins(%11 : tensor<2x12xi64>) outs(%12 : tensor<2x12xi1>) {
    ^bb0(%in: i64, %out: i1):
      %205 = arith.cmpi ne, %in, %c1_i64 : i64
      linalg.yield %205 : i1
    } -> tensor<2x12xi1>
    %14 = linalg.generic {indexing_maps = [#map5, #map5], iterator_types = ["parallel", "parallel"]} ins(%13 : tensor<2x12xi1>) outs(%7 : tensor<2x12xi64>) {
    ^bb0(%in: i1, %out: i64):
      %205 = arith.extui %in : i1 to i64
      linalg.yield %205 : i64
    } -> tensor<2x12xi64>
    %15 = linalg.fill ins(%c0_i64 : i64) outs(%7 : tensor<2x12xi64>) -> tensor<2x12xi64>
    %16 = tensor.empty() : tensor<2xi64>
    %17 = linalg.fill ins(%c0_i64 : i64) outs(%16 : tensor<2xi64>) -> tensor<2xi64>
    %18:2 = tm_tensor.scan dimension(1) inclusive(true) ins(%14 : tensor<2x12xi64>) outs(%15, %17 : tensor<2x12xi64>, tensor<2xi64>) {
    ^bb0(%arg29: i64, %arg30: i64):
      %205 = arith.addi %arg29, %arg30 : i64
      tm_tensor.yield %205 : i64
    } -> tensor<2x12xi64>, tensor<2xi64>
    %19 = linalg.generic {indexing_maps = [#map2], iterator_types = ["parallel"]} outs(%16 : tensor<2xi64>) {
    ^bb0(%out: i64):
      %205 = linalg.index 0 : index
      %206 = arith.index_cast %205 : index to i64
      linalg.yield %206 : i64
    } -> tensor<2xi64>
    %expanded_15 = tensor.expand_shape %19 [[0, 1, 2, 3]] output_shape [2, 1, 1, 1] : tensor<2xi64> into tensor<2x1x1x1xi64>
    %expanded_16 = tensor.expand_shape %3 [[0, 1, 2, 3]] output_shape [1, 1, 12, 1] : tensor<12xi64> into tensor<1x1x12x1xi64>
    %expanded_17 = tensor.expand_shape %3 [[0, 1, 2, 3]] output_shape [1, 1, 1, 12] : tensor<12xi64> into tensor<1x1x1x12xi64>
    %20 = tensor.empty() : tensor<2x1x12x1xi64>
    %21 = linalg.generic {indexing_maps = [#map6, #map7, #map8], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%expanded_15, %expanded_16 : tensor<2x1x1x1xi64>, tensor<1x1x12x1xi64>) outs(%20 : tensor<2x1x12x1xi64>) {
    ^bb0(%in: i64, %in_69: i64, %out: i64):
      %205 = arith.cmpi slt, %in, %c0_i64 : i64
      %206 = arith.addi %in, %c2_i64 : i64
      %207 = arith.select %205, %206, %in : i64
      %208 = arith.index_cast %207 : i64 to index
      %209 = arith.cmpi slt, %in_69, %c0_i64 : i64
      %210 = arith.addi %in_69, %c12_i64 : i64
      %211 = arith.select %209, %210, %in_69 : i64
      %212 = arith.index_cast %211 : i64 to index
      %extracted = tensor.extract %8[%208, %212] : tensor<2x12xi64>
      linalg.yield %extracted : i64
    } -> tensor<2x1x12x1xi64>
    %22 = tensor.empty() : tensor<2x1x1x12xi64>
    %23 = linalg.generic {indexing_maps = [#map6, #map9, #map8], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%expanded_15, %expanded_17 : tensor<2x1x1x1xi64>, tensor<1x1x1x12xi64>) outs(%22 : tensor<2x1x1x12xi64>) {
    ^bb0(%in: i64, %in_69: i64, %out: i64):
      %205 = arith.cmpi slt, %in, %c0_i64 : i64
      %206 = arith.addi %in, %c2_i64 : i64
      %207 = arith.select %205, %206, %in : i64
      %208 = arith.index_cast %207 : i64 to index
      %209 = arith.cmpi slt, %in_69, %c0_i64 : i64
      %210 = arith.addi %in_69, %c12_i64 : i64
      %211 = arith.select %209, %210, %in_69 : i64
      %212 = arith.index_cast %211 : i64 to index
      %extracted = tensor.extract %8[%208, %212] : tensor<2x12xi64>
      linalg.yield %extracted : i64
    } -> tensor<2x1x1x12xi64>
    %24 = tensor.empty() : tensor<2x1x12x12xi1>
    %25 = linalg.generic {indexing_maps = [#map10, #map11, #map8], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%23, %21 : tensor<2x1x1x12xi64>, tensor<2x1x12x1xi64>) outs(%24 : tensor<2x1x12x12xi1>) {
    ^bb0(%in: i64, %in_69: i64, %out: i1):
      %205 = arith.cmpi sle, %in, %in_69 : i64
      linalg.yield %205 : i1
    } -> tensor<2x1x12x12xi1>
    %26 = linalg.generic {indexing_maps = [#map12, #map8, #map8], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%cst_4, %25 : tensor<i1>, tensor<2x1x12x12xi1>) outs(%24 : tensor<2x1x12x12xi1>) {
    ^bb0(%in: i1, %in_69: i1, %out: i1):
      %205 = arith.andi %in, %in_69 : i1
      linalg.yield %205 : i1
    } -> tensor<2x1x12x12xi1>
    %27 = linalg.generic {indexing_maps = [#map6, #map7, #map8], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%expanded_15, %expanded_16 : tensor<2x1x1x1xi64>, tensor<1x1x12x1xi64>) outs(%20 : tensor<2x1x12x1xi64>) {
    ^bb0(%in: i64, %in_69: i64, %out: i64):
      %205 = arith.cmpi slt, %in, %c0_i64 : i64
      %206 = arith.addi %in, %c2_i64 : i64
      %207 = arith.select %205, %206, %in : i64
      %208 = arith.index_cast %207 : i64 to index
      %209 = arith.cmpi slt, %in_69, %c0_i64 : i64
      %210 = arith.addi %in_69, %c12_i64 : i64
      %211 = arith.select %209, %210, %in_69 : i64
      %212 = arith.index_cast %211 : i64 to index
      %extracted = tensor.extract %18#0[%208, %212] : tensor<2x12xi64>
      linalg.yield %extracted : i64
    } -> tensor<2x1x12x1xi64>
    %28 = linalg.generic {indexing_maps = [#map6, #map9, #map8], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%expanded_15, %expanded_17 : tensor<2x1x1x1xi64>, tensor<1x1x1x12xi64>) outs(%22 : tensor<2x1x1x12xi64>) {
    ^bb0(%in: i64, %in_69: i64, %out: i64):
      %205 = arith.cmpi slt, %in, %c0_i64 : i64
      %206 = arith.addi %in, %c2_i64 : i64
      %207 = arith.select %205, %206, %in : i64
      %208 = arith.index_cast %207 : i64 to index
      %209 = arith.cmpi slt, %in_69, %c0_i64 : i64
      %210 = arith.addi %in_69, %c12_i64 : i64
      %211 = arith.select %209, %210, %in_69 : i64
      %212 = arith.index_cast %211 : i64 to index
      %extracted = tensor.extract %18#0[%208, %212] : tensor<2x12xi64>
      linalg.yield %extracted : i64
    } -> tensor<2x1x1x12xi64>
    %29 = linalg.generic {indexing_maps = [#map11, #map10, #map8], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%27, %28 : tensor<2x1x12x1xi64>, tensor<2x1x1x12xi64>) outs(%24 : tensor<2x1x12x12xi1>) {
    ^bb0(%in: i64, %in_69: i64, %out: i1):
      %205 = arith.cmpi eq, %in, %in_69 : i64
      linalg.yield %205 : i1
    } -> tensor<2x1x12x12xi1>
    %30 = linalg.generic {indexing_maps = [#map8, #map8, #map8], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%26, %29 : tensor<2x1x12x12xi1>, tensor<2x1x12x12xi1>) outs(%24 : tensor<2x1x12x12xi1>) {
    ^bb0(%in: i1, %in_69: i1, %out: i1):
      %205 = arith.andi %in, %in_69 : i1
      linalg.yield %205 : i1
    } -> tensor<2x1x12x12xi1>
    %31 = tensor.empty() : tensor<2x1x12x12xf32>
    %32 = linalg.generic {indexing_maps = [#map8, #map12, #map12, #map8], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%30, %cst_3, %cst_2 : tensor<2x1x12x12xi1>, tensor<f32>, tensor<f32>) outs(%31 : tensor<2x1x12x12xf32>) {
    ^bb0(%in: i1, %in_69: f32, %in_70: f32, %out: f32):
      %205 = arith.select %in, %in_69, %in_70 : f32
      linalg.yield %205 : f32
    } -> tensor<2x1x12x12xf32>
    %33 = tensor.empty() : tensor<2x12x32xf64>
    %34 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%6 : tensor<2x12x32xf32>) outs(%33 : tensor<2x12x32xf64>) {
    ^bb0(%in: f32, %out: f64):
      %205 = arith.extf %in : f32 to f64
      linalg.yield %205 : f64
    } -> tensor<2x12x32xf64>
    %35 = tensor.empty() : tensor<2x12x1xf64>
    %36 = linalg.fill ins(%cst : f64) outs(%35 : tensor<2x12x1xf64>) -> tensor<2x12x1xf64>
    %37 = linalg.generic {indexing_maps = [#map1, #map13], iterator_types = ["parallel", "parallel", "reduction"]} ins(%34 : tensor<2x12x32xf64>) outs(%36 : tensor<2x12x1xf64>) {
    ^bb0(%in: f64, %out: f64):
      %205 = arith.addf %in, %out : f64
      linalg.yield %205 : f64
    } -> tensor<2x12x1xf64>
    %38 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%37 : tensor<2x12x1xf64>) outs(%35 : tensor<2x12x1xf64>) {
    ^bb0(%in: f64, %out: f64):
      %205 = arith.divf %in, %cst_9 : f64
      linalg.yield %205 : f64
    } -> tensor<2x12x1xf64>
    %39 = linalg.generic {indexing_maps = [#map1, #map13, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%34, %38 : tensor<2x12x32xf64>, tensor<2x12x1xf64>) outs(%33 : tensor<2x12x32xf64>) {
    ^bb0(%in: f64, %in_69: f64, %out: f64):
      %205 = arith.subf %in, %in_69 : f64
      linalg.yield %205 : f64
    } -> tensor<2x12x32xf64>
    %40 = linalg.generic {indexing_maps = [#map1, #map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%39, %39 : tensor<2x12x32xf64>, tensor<2x12x32xf64>) outs(%33 : tensor<2x12x32xf64>) {
    ^bb0(%in: f64, %in_69: f64, %out: f64):
      %205 = arith.mulf %in, %in_69 : f64
      linalg.yield %205 : f64
    } -> tensor<2x12x32xf64>
    %41 = linalg.generic {indexing_maps = [#map1, #map13], iterator_types = ["parallel", "parallel", "reduction"]} ins(%40 : tensor<2x12x32xf64>) outs(%36 : tensor<2x12x1xf64>) {
    ^bb0(%in: f64, %out: f64):
      %205 = arith.addf %in, %out : f64
      linalg.yield %205 : f64
    } -> tensor<2x12x1xf64>
    %42 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%41 : tensor<2x12x1xf64>) outs(%35 : tensor<2x12x1xf64>) {
    ^bb0(%in: f64, %out: f64):
      %205 = arith.divf %in, %cst_9 : f64
      linalg.yield %205 : f64
    } -> tensor<2x12x1xf64>
    %43 = tensor.empty() : tensor<2x12x1xf32>
    %44 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%42 : tensor<2x12x1xf64>) outs(%43 : tensor<2x12x1xf32>) {
    ^bb0(%in: f64, %out: f32):
      %205 = arith.truncf %in : f64 to f32
      linalg.yield %205 : f32
    } -> tensor<2x12x1xf32>
    %45 = linalg.fill ins(%cst_0 : f32) outs(%43 : tensor<2x12x1xf32>) -> tensor<2x12x1xf32>
    %46 = linalg.generic {indexing_maps = [#map1, #map13], iterator_types = ["parallel", "parallel", "reduction"]} ins(%6 : tensor<2x12x32xf32>) outs(%45 : tensor<2x12x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %205 = arith.addf %in, %out : f32
      linalg.yield %205 : f32
    } -> tensor<2x12x1xf32>
    %47 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%46 : tensor<2x12x1xf32>) outs(%43 : tensor<2x12x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %205 = arith.divf %in, %cst_10 : f32
      linalg.yield %205 : f32
    } -> tensor<2x12x1xf32>
    %48 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%44 : tensor<2x12x1xf32>) outs(%43 : tensor<2x12x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %205 = arith.truncf %cst_8 : f64 to f32
      %206 = arith.addf %in, %205 : f32
      linalg.yield %206 : f32
    } -> tensor<2x12x1xf32>
    %49 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%48 : tensor<2x12x1xf32>) outs(%43 : tensor<2x12x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %205 = math.rsqrt %in : f32
      linalg.yield %205 : f32
    } -> tensor<2x12x1xf32>
    %50 = linalg.generic {indexing_maps = [#map1, #map13, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%6, %47 : tensor<2x12x32xf32>, tensor<2x12x1xf32>) outs(%0 : tensor<2x12x32xf32>) {
    ^bb0(%in: f32, %in_69: f32, %out: f32):
      %205 = arith.subf %in, %in_69 : f32
      linalg.yield %205 : f32
    } -> tensor<2x12x32xf32>
    %51 = linalg.generic {indexing_maps = [#map1, #map13, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%50, %49 : tensor<2x12x32xf32>, tensor<2x12x1xf32>) outs(%0 : tensor<2x12x32xf32>) {
    ^bb0(%in: f32, %in_69: f32, %out: f32):
      %205 = arith.mulf %in, %in_69 : f32
      linalg.yield %205 : f32
    } -> tensor<2x12x32xf32>
    %52 = linalg.generic {indexing_maps = [#map1, #map14, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%51, %arg3 : tensor<2x12x32xf32>, tensor<32xf32>) outs(%0 : tensor<2x12x32xf32>) {
    ^bb0(%in: f32, %in_69: f32, %out: f32):
      %205 = arith.mulf %in, %in_69 : f32
      linalg.yield %205 : f32
    } -> tensor<2x12x32xf32>
    %53 = linalg.generic {indexing_maps = [#map1, #map14, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%52, %arg4 : tensor<2x12x32xf32>, tensor<32xf32>) outs(%0 : tensor<2x12x32xf32>) {
    ^bb0(%in: f32, %in_69: f32, %out: f32):
      %205 = arith.addf %in, %in_69 : f32
      linalg.yield %205 : f32
    } -> tensor<2x12x32xf32>
    %collapsed = tensor.collapse_shape %53 [[0, 1], [2]] : tensor<2x12x32xf32> into tensor<24x32xf32>
    %54 = tensor.empty() : tensor<24x96xf32>
    %55 = linalg.fill ins(%cst_0 : f32) outs(%54 : tensor<24x96xf32>) -> tensor<24x96xf32>
    %56 = linalg.matmul ins(%collapsed, %arg5 : tensor<24x32xf32>, tensor<32x96xf32>) outs(%55 : tensor<24x96xf32>) -> tensor<24x96xf32>
    %57 = linalg.generic {indexing_maps = [#map4, #map5], iterator_types = ["parallel", "parallel"]} ins(%arg6 : tensor<96xf32>) outs(%54 : tensor<24x96xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<24x96xf32>
    %58 = linalg.generic {indexing_maps = [#map5, #map5, #map5], iterator_types = ["parallel", "parallel"]} ins(%56, %57 : tensor<24x96xf32>, tensor<24x96xf32>) outs(%54 : tensor<24x96xf32>) {
    ^bb0(%in: f32, %in_69: f32, %out: f32):
      %205 = arith.addf %in, %in_69 : f32
      linalg.yield %205 : f32
    } -> tensor<24x96xf32>
    %expanded_18 = tensor.expand_shape %58 [[0, 1], [2]] output_shape [2, 12, 96] : tensor<24x96xf32> into tensor<2x12x96xf32>
    %extracted_slice_19 = tensor.extract_slice %expanded_18[0, 0, 0] [2, 12, 32] [1, 1, 1] : tensor<2x12x96xf32> to tensor<2x12x32xf32>
    %extracted_slice_20 = tensor.extract_slice %expanded_18[0, 0, 32] [2, 12, 32] [1, 1, 1] : tensor<2x12x96xf32> to tensor<2x12x32xf32>
    %extracted_slice_21 = tensor.extract_slice %expanded_18[0, 0, 64] [2, 12, 32] [1, 1, 1] : tensor<2x12x96xf32> to tensor<2x12x32xf32>
    %expanded_22 = tensor.expand_shape %extracted_slice_20 [[0], [1], [2, 3]] output_shape [2, 12, 4, 8] : tensor<2x12x32xf32> into tensor<2x12x4x8xf32>
    %expanded_23 = tensor.expand_shape %extracted_slice_21 [[0], [1], [2, 3]] output_shape [2, 12, 4, 8] : tensor<2x12x32xf32> into tensor<2x12x4x8xf32>
    %59 = tensor.empty() : tensor<2x4x12x8xf32>
    %transposed = linalg.transpose ins(%expanded_23 : tensor<2x12x4x8xf32>) outs(%59 : tensor<2x4x12x8xf32>) permutation = [0, 2, 1, 3] 
    %expanded_24 = tensor.expand_shape %extracted_slice_19 [[0], [1], [2, 3]] output_shape [2, 12, 4, 8] : tensor<2x12x32xf32> into tensor<2x12x4x8xf32>
    %transposed_25 = linalg.transpose ins(%expanded_24 : tensor<2x12x4x8xf32>) outs(%59 : tensor<2x4x12x8xf32>) permutation = [0, 2, 1, 3] 
    %60 = tensor.empty() : tensor<2x4x8x12xf32>
    %transposed_26 = linalg.transpose ins(%expanded_22 : tensor<2x12x4x8xf32>) outs(%60 : tensor<2x4x8x12xf32>) permutation = [0, 2, 3, 1] 
    %collapsed_27 = tensor.collapse_shape %transposed_25 [[0, 1], [2], [3]] : tensor<2x4x12x8xf32> into tensor<8x12x8xf32>
    %collapsed_28 = tensor.collapse_shape %transposed_26 [[0, 1], [2], [3]] : tensor<2x4x8x12xf32> into tensor<8x8x12xf32>
    %61 = tensor.empty() : tensor<8x12x12xf32>
    %62 = linalg.fill ins(%cst_0 : f32) outs(%61 : tensor<8x12x12xf32>) -> tensor<8x12x12xf32>
    %63 = linalg.batch_matmul ins(%collapsed_27, %collapsed_28 : tensor<8x12x8xf32>, tensor<8x8x12xf32>) outs(%62 : tensor<8x12x12xf32>) -> tensor<8x12x12xf32>
    %expanded_29 = tensor.expand_shape %63 [[0, 1], [2], [3]] output_shape [2, 4, 12, 12] : tensor<8x12x12xf32> into tensor<2x4x12x12xf32>
    %64 = tensor.empty() : tensor<2x4x12x12xf32>
    %65 = linalg.generic {indexing_maps = [#map8, #map8], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%expanded_29 : tensor<2x4x12x12xf32>) outs(%64 : tensor<2x4x12x12xf32>) {
    ^bb0(%in: f32, %out: f32):
      %205 = arith.truncf %cst_7 : f64 to f32
      %206 = arith.mulf %in, %205 : f32
      linalg.yield %206 : f32
    } -> tensor<2x4x12x12xf32>
    %66 = linalg.generic {indexing_maps = [#map8, #map15, #map8], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%65, %32 : tensor<2x4x12x12xf32>, tensor<2x1x12x12xf32>) outs(%64 : tensor<2x4x12x12xf32>) {
    ^bb0(%in: f32, %in_69: f32, %out: f32):
      %205 = arith.addf %in, %in_69 : f32
      linalg.yield %205 : f32
    } -> tensor<2x4x12x12xf32>
    %67 = tensor.empty() : tensor<2x4x12xi64>
    %68 = linalg.fill ins(%c0_i64 : i64) outs(%67 : tensor<2x4x12xi64>) -> tensor<2x4x12xi64>
    %69 = tensor.empty() : tensor<2x4x12xf32>
    %70 = linalg.fill ins(%cst_1 : f32) outs(%69 : tensor<2x4x12xf32>) -> tensor<2x4x12xf32>
    %71:2 = linalg.generic {indexing_maps = [#map8, #map16, #map16], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%66 : tensor<2x4x12x12xf32>) outs(%70, %68 : tensor<2x4x12xf32>, tensor<2x4x12xi64>) {
    ^bb0(%in: f32, %out: f32, %out_69: i64):
      %205 = linalg.index 3 : index
      %206 = arith.index_cast %205 : index to i64
      %207 = arith.maximumf %in, %out : f32
      %208 = arith.cmpf ogt, %in, %out : f32
      %209 = arith.select %208, %206, %out_69 : i64
      linalg.yield %207, %209 : f32, i64
    } -> (tensor<2x4x12xf32>, tensor<2x4x12xi64>)
    %expanded_30 = tensor.expand_shape %71#0 [[0], [1], [2, 3]] output_shape [2, 4, 12, 1] : tensor<2x4x12xf32> into tensor<2x4x12x1xf32>
    %72 = linalg.generic {indexing_maps = [#map8, #map11, #map8], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%66, %expanded_30 : tensor<2x4x12x12xf32>, tensor<2x4x12x1xf32>) outs(%64 : tensor<2x4x12x12xf32>) {
    ^bb0(%in: f32, %in_69: f32, %out: f32):
      %205 = arith.subf %in, %in_69 : f32
      linalg.yield %205 : f32
    } -> tensor<2x4x12x12xf32>
    %73 = linalg.generic {indexing_maps = [#map8, #map8], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%72 : tensor<2x4x12x12xf32>) outs(%64 : tensor<2x4x12x12xf32>) {
    ^bb0(%in: f32, %out: f32):
      %205 = math.exp %in : f32
      linalg.yield %205 : f32
    } -> tensor<2x4x12x12xf32>
    %74 = tensor.empty() : tensor<2x4x12x1xf32>
    %75 = linalg.fill ins(%cst_0 : f32) outs(%74 : tensor<2x4x12x1xf32>) -> tensor<2x4x12x1xf32>
    %76 = linalg.generic {indexing_maps = [#map8, #map11], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%73 : tensor<2x4x12x12xf32>) outs(%75 : tensor<2x4x12x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %205 = arith.addf %in, %out : f32
      linalg.yield %205 : f32
    } -> tensor<2x4x12x1xf32>
    %77 = linalg.generic {indexing_maps = [#map8, #map11, #map8], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%73, %76 : tensor<2x4x12x12xf32>, tensor<2x4x12x1xf32>) outs(%64 : tensor<2x4x12x12xf32>) {
    ^bb0(%in: f32, %in_69: f32, %out: f32):
      %205 = arith.divf %in, %in_69 : f32
      linalg.yield %205 : f32
    } -> tensor<2x4x12x12xf32>
    %collapsed_31 = tensor.collapse_shape %77 [[0, 1], [2], [3]] : tensor<2x4x12x12xf32> into tensor<8x12x12xf32>
    %collapsed_32 = tensor.collapse_shape %transposed [[0, 1], [2], [3]] : tensor<2x4x12x8xf32> into tensor<8x12x8xf32>
    %78 = tensor.empty() : tensor<8x12x8xf32>
    %79 = linalg.fill ins(%cst_0 : f32) outs(%78 : tensor<8x12x8xf32>) -> tensor<8x12x8xf32>
    %80 = linalg.batch_matmul ins(%collapsed_31, %collapsed_32 : tensor<8x12x12xf32>, tensor<8x12x8xf32>) outs(%79 : tensor<8x12x8xf32>) -> tensor<8x12x8xf32>
    %expanded_33 = tensor.expand_shape %80 [[0, 1], [2], [3]] output_shape [2, 4, 12, 8] : tensor<8x12x8xf32> into tensor<2x4x12x8xf32>
    %81 = tensor.empty() : tensor<2x12x4x8xf32>
    %transposed_34 = linalg.transpose ins(%expanded_33 : tensor<2x4x12x8xf32>) outs(%81 : tensor<2x12x4x8xf32>) permutation = [0, 2, 1, 3] 
    %collapsed_35 = tensor.collapse_shape %transposed_34 [[0, 1], [2, 3]] : tensor<2x12x4x8xf32> into tensor<24x32xf32>
    %82 = tensor.empty() : tensor<24x32xf32>
    %83 = linalg.fill ins(%cst_0 : f32) outs(%82 : tensor<24x32xf32>) -> tensor<24x32xf32>
    %84 = linalg.matmul ins(%collapsed_35, %arg7 : tensor<24x32xf32>, tensor<32x32xf32>) outs(%83 : tensor<24x32xf32>) -> tensor<24x32xf32>
    %85 = linalg.generic {indexing_maps = [#map4, #map5], iterator_types = ["parallel", "parallel"]} ins(%arg8 : tensor<32xf32>) outs(%82 : tensor<24x32xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<24x32xf32>
    %86 = linalg.generic {indexing_maps = [#map5, #map5, #map5], iterator_types = ["parallel", "parallel"]} ins(%84, %85 : tensor<24x32xf32>, tensor<24x32xf32>) outs(%82 : tensor<24x32xf32>) {
    ^bb0(%in: f32, %in_69: f32, %out: f32):
      %205 = arith.addf %in, %in_69 : f32
      linalg.yield %205 : f32
    } -> tensor<24x32xf32>
    %expanded_36 = tensor.expand_shape %86 [[0, 1], [2]] output_shape [2, 12, 32] : tensor<24x32xf32> into tensor<2x12x32xf32>
    %87 = linalg.generic {indexing_maps = [#map1, #map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%expanded_36, %6 : tensor<2x12x32xf32>, tensor<2x12x32xf32>) outs(%0 : tensor<2x12x32xf32>) {
    ^bb0(%in: f32, %in_69: f32, %out: f32):
      %205 = arith.addf %in, %in_69 : f32
      linalg.yield %205 : f32
    } -> tensor<2x12x32xf32>
    %88 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%87 : tensor<2x12x32xf32>) outs(%33 : tensor<2x12x32xf64>) {
    ^bb0(%in: f32, %out: f64):
      %205 = arith.extf %in : f32 to f64
      linalg.yield %205 : f64
    } -> tensor<2x12x32xf64>
    %89 = linalg.generic {indexing_maps = [#map1, #map13], iterator_types = ["parallel", "parallel", "reduction"]} ins(%88 : tensor<2x12x32xf64>) outs(%36 : tensor<2x12x1xf64>) {
    ^bb0(%in: f64, %out: f64):
      %205 = arith.addf %in, %out : f64
      linalg.yield %205 : f64
    } -> tensor<2x12x1xf64>
    %90 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%89 : tensor<2x12x1xf64>) outs(%35 : tensor<2x12x1xf64>) {
    ^bb0(%in: f64, %out: f64):
      %205 = arith.divf %in, %cst_9 : f64
      linalg.yield %205 : f64
    } -> tensor<2x12x1xf64>
    %91 = linalg.generic {indexing_maps = [#map1, #map13, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%88, %90 : tensor<2x12x32xf64>, tensor<2x12x1xf64>) outs(%33 : tensor<2x12x32xf64>) {
    ^bb0(%in: f64, %in_69: f64, %out: f64):
      %205 = arith.subf %in, %in_69 : f64
      linalg.yield %205 : f64
    } -> tensor<2x12x32xf64>
    %92 = linalg.generic {indexing_maps = [#map1, #map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%91, %91 : tensor<2x12x32xf64>, tensor<2x12x32xf64>) outs(%33 : tensor<2x12x32xf64>) {
    ^bb0(%in: f64, %in_69: f64, %out: f64):
      %205 = arith.mulf %in, %in_69 : f64
      linalg.yield %205 : f64
    } -> tensor<2x12x32xf64>
    %93 = linalg.generic {indexing_maps = [#map1, #map13], iterator_types = ["parallel", "parallel", "reduction"]} ins(%92 : tensor<2x12x32xf64>) outs(%36 : tensor<2x12x1xf64>) {
    ^bb0(%in: f64, %out: f64):
      %205 = arith.addf %in, %out : f64
      linalg.yield %205 : f64
    } -> tensor<2x12x1xf64>
    %94 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%93 : tensor<2x12x1xf64>) outs(%35 : tensor<2x12x1xf64>) {
    ^bb0(%in: f64, %out: f64):
      %205 = arith.divf %in, %cst_9 : f64
      linalg.yield %205 : f64
    } -> tensor<2x12x1xf64>
    %95 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%94 : tensor<2x12x1xf64>) outs(%43 : tensor<2x12x1xf32>) {
    ^bb0(%in: f64, %out: f32):
      %205 = arith.truncf %in : f64 to f32
      linalg.yield %205 : f32
    } -> tensor<2x12x1xf32>
    %96 = linalg.generic {indexing_maps = [#map1, #map13], iterator_types = ["parallel", "parallel", "reduction"]} ins(%87 : tensor<2x12x32xf32>) outs(%45 : tensor<2x12x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %205 = arith.addf %in, %out : f32
      linalg.yield %205 : f32
    } -> tensor<2x12x1xf32>
    %97 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%96 : tensor<2x12x1xf32>) outs(%43 : tensor<2x12x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %205 = arith.divf %in, %cst_10 : f32
      linalg.yield %205 : f32
    } -> tensor<2x12x1xf32>
    %98 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%95 : tensor<2x12x1xf32>) outs(%43 : tensor<2x12x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %205 = arith.truncf %cst_8 : f64 to f32
      %206 = arith.addf %in, %205 : f32
      linalg.yield %206 : f32
    } -> tensor<2x12x1xf32>
    %99 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%98 : tensor<2x12x1xf32>) outs(%43 : tensor<2x12x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %205 = math.rsqrt %in : f32
      linalg.yield %205 : f32
    } -> tensor<2x12x1xf32>
    %100 = linalg.generic {indexing_maps = [#map1, #map13, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%87, %97 : tensor<2x12x32xf32>, tensor<2x12x1xf32>) outs(%0 : tensor<2x12x32xf32>) {
    ^bb0(%in: f32, %in_69: f32, %out: f32):
      %205 = arith.subf %in, %in_69 : f32
      linalg.yield %205 : f32
    } -> tensor<2x12x32xf32>
    %101 = linalg.generic {indexing_maps = [#map1, #map13, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%100, %99 : tensor<2x12x32xf32>, tensor<2x12x1xf32>) outs(%0 : tensor<2x12x32xf32>) {
    ^bb0(%in: f32, %in_69: f32, %out: f32):
      %205 = arith.mulf %in, %in_69 : f32
      linalg.yield %205 : f32
    } -> tensor<2x12x32xf32>
    %102 = linalg.generic {indexing_maps = [#map1, #map14, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%101, %arg9 : tensor<2x12x32xf32>, tensor<32xf32>) outs(%0 : tensor<2x12x32xf32>) {
    ^bb0(%in: f32, %in_69: f32, %out: f32):
      %205 = arith.mulf %in, %in_69 : f32
      linalg.yield %205 : f32
    } -> tensor<2x12x32xf32>
    %103 = linalg.generic {indexing_maps = [#map1, #map14, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%102, %arg10 : tensor<2x12x32xf32>, tensor<32xf32>) outs(%0 : tensor<2x12x32xf32>) {
    ^bb0(%in: f32, %in_69: f32, %out: f32):
      %205 = arith.addf %in, %in_69 : f32
      linalg.yield %205 : f32
    } -> tensor<2x12x32xf32>
    %collapsed_37 = tensor.collapse_shape %103 [[0, 1], [2]] : tensor<2x12x32xf32> into tensor<24x32xf32>
    %104 = tensor.empty() : tensor<24x128xf32>
    %105 = linalg.fill ins(%cst_0 : f32) outs(%104 : tensor<24x128xf32>) -> tensor<24x128xf32>
    %106 = linalg.matmul ins(%collapsed_37, %arg11 : tensor<24x32xf32>, tensor<32x128xf32>) outs(%105 : tensor<24x128xf32>) -> tensor<24x128xf32>
    %107 = linalg.generic {indexing_maps = [#map4, #map5], iterator_types = ["parallel", "parallel"]} ins(%arg12 : tensor<128xf32>) outs(%104 : tensor<24x128xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<24x128xf32>
    %108 = linalg.generic {indexing_maps = [#map5, #map5, #map5], iterator_types = ["parallel", "parallel"]} ins(%106, %107 : tensor<24x128xf32>, tensor<24x128xf32>) outs(%104 : tensor<24x128xf32>) {
    ^bb0(%in: f32, %in_69: f32, %out: f32):
      %205 = arith.addf %in, %in_69 : f32
      linalg.yield %205 : f32
    } -> tensor<24x128xf32>
    %expanded_38 = tensor.expand_shape %108 [[0, 1], [2]] output_shape [2, 12, 128] : tensor<24x128xf32> into tensor<2x12x128xf32>
    %109 = tensor.empty() : tensor<2x12x128xf32>
    %110 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%expanded_38 : tensor<2x12x128xf32>) outs(%109 : tensor<2x12x128xf32>) {
    ^bb0(%in: f32, %out: f32):
      %205 = arith.mulf %in, %cst_11 : f32
      linalg.yield %205 : f32
    } -> tensor<2x12x128xf32>
    %111 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%expanded_38 : tensor<2x12x128xf32>) outs(%109 : tensor<2x12x128xf32>) {
    ^bb0(%in: f32, %out: f32):
      %205 = math.fpowi %in, %c3_i64 : f32, i64
      linalg.yield %205 : f32
    } -> tensor<2x12x128xf32>
    %112 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%111 : tensor<2x12x128xf32>) outs(%109 : tensor<2x12x128xf32>) {
    ^bb0(%in: f32, %out: f32):
      %205 = arith.truncf %cst_6 : f64 to f32
      %206 = arith.mulf %in, %205 : f32
      linalg.yield %206 : f32
    } -> tensor<2x12x128xf32>
    %113 = linalg.generic {indexing_maps = [#map1, #map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%expanded_38, %112 : tensor<2x12x128xf32>, tensor<2x12x128xf32>) outs(%109 : tensor<2x12x128xf32>) {
    ^bb0(%in: f32, %in_69: f32, %out: f32):
      %205 = arith.addf %in, %in_69 : f32
      linalg.yield %205 : f32
    } -> tensor<2x12x128xf32>
    %114 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%113 : tensor<2x12x128xf32>) outs(%109 : tensor<2x12x128xf32>) {
    ^bb0(%in: f32, %out: f32):
      %205 = arith.truncf %cst_5 : f64 to f32
      %206 = arith.mulf %in, %205 : f32
      linalg.yield %206 : f32
    } -> tensor<2x12x128xf32>
    %115 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%114 : tensor<2x12x128xf32>) outs(%109 : tensor<2x12x128xf32>) {
    ^bb0(%in: f32, %out: f32):
      %205 = math.tanh %in : f32
      linalg.yield %205 : f32
    } -> tensor<2x12x128xf32>
    %116 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%115 : tensor<2x12x128xf32>) outs(%109 : tensor<2x12x128xf32>) {
    ^bb0(%in: f32, %out: f32):
      %205 = arith.addf %in, %cst_12 : f32
      linalg.yield %205 : f32
    } -> tensor<2x12x128xf32>
    %117 = linalg.generic {indexing_maps = [#map1, #map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%110, %116 : tensor<2x12x128xf32>, tensor<2x12x128xf32>) outs(%109 : tensor<2x12x128xf32>) {
    ^bb0(%in: f32, %in_69: f32, %out: f32):
      %205 = arith.mulf %in, %in_69 : f32
      linalg.yield %205 : f32
    } -> tensor<2x12x128xf32>
    %collapsed_39 = tensor.collapse_shape %117 [[0, 1], [2]] : tensor<2x12x128xf32> into tensor<24x128xf32>
    %118 = linalg.matmul ins(%collapsed_39, %arg13 : tensor<24x128xf32>, tensor<128x32xf32>) outs(%83 : tensor<24x32xf32>) -> tensor<24x32xf32>
    %119 = linalg.generic {indexing_maps = [#map4, #map5], iterator_types = ["parallel", "parallel"]} ins(%arg14 : tensor<32xf32>) outs(%82 : tensor<24x32xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<24x32xf32>
    %120 = linalg.generic {indexing_maps = [#map5, #map5, #map5], iterator_types = ["parallel", "parallel"]} ins(%118, %119 : tensor<24x32xf32>, tensor<24x32xf32>) outs(%82 : tensor<24x32xf32>) {
    ^bb0(%in: f32, %in_69: f32, %out: f32):
      %205 = arith.addf %in, %in_69 : f32
      linalg.yield %205 : f32
    } -> tensor<24x32xf32>
    %expanded_40 = tensor.expand_shape %120 [[0, 1], [2]] output_shape [2, 12, 32] : tensor<24x32xf32> into tensor<2x12x32xf32>
    %121 = linalg.generic {indexing_maps = [#map1, #map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%87, %expanded_40 : tensor<2x12x32xf32>, tensor<2x12x32xf32>) outs(%0 : tensor<2x12x32xf32>) {
    ^bb0(%in: f32, %in_69: f32, %out: f32):
      %205 = arith.addf %in, %in_69 : f32
      linalg.yield %205 : f32
    } -> tensor<2x12x32xf32>
    %122 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%121 : tensor<2x12x32xf32>) outs(%33 : tensor<2x12x32xf64>) {
    ^bb0(%in: f32, %out: f64):
      %205 = arith.extf %in : f32 to f64
      linalg.yield %205 : f64
    } -> tensor<2x12x32xf64>
    %123 = linalg.generic {indexing_maps = [#map1, #map13], iterator_types = ["parallel", "parallel", "reduction"]} ins(%122 : tensor<2x12x32xf64>) outs(%36 : tensor<2x12x1xf64>) {
    ^bb0(%in: f64, %out: f64):
      %205 = arith.addf %in, %out : f64
      linalg.yield %205 : f64
    } -> tensor<2x12x1xf64>
    %124 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%123 : tensor<2x12x1xf64>) outs(%35 : tensor<2x12x1xf64>) {
    ^bb0(%in: f64, %out: f64):
      %205 = arith.divf %in, %cst_9 : f64
      linalg.yield %205 : f64
    } -> tensor<2x12x1xf64>
    %125 = linalg.generic {indexing_maps = [#map1, #map13, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%122, %124 : tensor<2x12x32xf64>, tensor<2x12x1xf64>) outs(%33 : tensor<2x12x32xf64>) {
    ^bb0(%in: f64, %in_69: f64, %out: f64):
      %205 = arith.subf %in, %in_69 : f64
      linalg.yield %205 : f64
    } -> tensor<2x12x32xf64>
    %126 = linalg.generic {indexing_maps = [#map1, #map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%125, %125 : tensor<2x12x32xf64>, tensor<2x12x32xf64>) outs(%33 : tensor<2x12x32xf64>) {
    ^bb0(%in: f64, %in_69: f64, %out: f64):
      %205 = arith.mulf %in, %in_69 : f64
      linalg.yield %205 : f64
    } -> tensor<2x12x32xf64>
    %127 = linalg.generic {indexing_maps = [#map1, #map13], iterator_types = ["parallel", "parallel", "reduction"]} ins(%126 : tensor<2x12x32xf64>) outs(%36 : tensor<2x12x1xf64>) {
    ^bb0(%in: f64, %out: f64):
      %205 = arith.addf %in, %out : f64
      linalg.yield %205 : f64
    } -> tensor<2x12x1xf64>
    %128 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%127 : tensor<2x12x1xf64>) outs(%35 : tensor<2x12x1xf64>) {
    ^bb0(%in: f64, %out: f64):
      %205 = arith.divf %in, %cst_9 : f64
      linalg.yield %205 : f64
    } -> tensor<2x12x1xf64>
    %129 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%128 : tensor<2x12x1xf64>) outs(%43 : tensor<2x12x1xf32>) {
    ^bb0(%in: f64, %out: f32):
      %205 = arith.truncf %in : f64 to f32
      linalg.yield %205 : f32
    } -> tensor<2x12x1xf32>
    %130 = linalg.generic {indexing_maps = [#map1, #map13], iterator_types = ["parallel", "parallel", "reduction"]} ins(%121 : tensor<2x12x32xf32>) outs(%45 : tensor<2x12x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %205 = arith.addf %in, %out : f32
      linalg.yield %205 : f32
    } -> tensor<2x12x1xf32>
    %131 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%130 : tensor<2x12x1xf32>) outs(%43 : tensor<2x12x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %205 = arith.divf %in, %cst_10 : f32
      linalg.yield %205 : f32
    } -> tensor<2x12x1xf32>
    %132 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%129 : tensor<2x12x1xf32>) outs(%43 : tensor<2x12x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %205 = arith.truncf %cst_8 : f64 to f32
      %206 = arith.addf %in, %205 : f32
      linalg.yield %206 : f32
    } -> tensor<2x12x1xf32>
    %133 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%132 : tensor<2x12x1xf32>) outs(%43 : tensor<2x12x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %205 = math.rsqrt %in : f32
      linalg.yield %205 : f32
    } -> tensor<2x12x1xf32>
    %134 = linalg.generic {indexing_maps = [#map1, #map13, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%121, %131 : tensor<2x12x32xf32>, tensor<2x12x1xf32>) outs(%0 : tensor<2x12x32xf32>) {
    ^bb0(%in: f32, %in_69: f32, %out: f32):
      %205 = arith.subf %in, %in_69 : f32
      linalg.yield %205 : f32
    } -> tensor<2x12x32xf32>
    %135 = linalg.generic {indexing_maps = [#map1, #map13, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%134, %133 : tensor<2x12x32xf32>, tensor<2x12x1xf32>) outs(%0 : tensor<2x12x32xf32>) {
    ^bb0(%in: f32, %in_69: f32, %out: f32):
      %205 = arith.mulf %in, %in_69 : f32
      linalg.yield %205 : f32
    } -> tensor<2x12x32xf32>
    %136 = linalg.generic {indexing_maps = [#map1, #map14, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%135, %arg15 : tensor<2x12x32xf32>, tensor<32xf32>) outs(%0 : tensor<2x12x32xf32>) {
    ^bb0(%in: f32, %in_69: f32, %out: f32):
      %205 = arith.mulf %in, %in_69 : f32
      linalg.yield %205 : f32
    } -> tensor<2x12x32xf32>
    %137 = linalg.generic {indexing_maps = [#map1, #map14, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%136, %arg16 : tensor<2x12x32xf32>, tensor<32xf32>) outs(%0 : tensor<2x12x32xf32>) {
    ^bb0(%in: f32, %in_69: f32, %out: f32):
      %205 = arith.addf %in, %in_69 : f32
      linalg.yield %205 : f32
    } -> tensor<2x12x32xf32>
    %collapsed_41 = tensor.collapse_shape %137 [[0, 1], [2]] : tensor<2x12x32xf32> into tensor<24x32xf32>
    %138 = linalg.matmul ins(%collapsed_41, %arg17 : tensor<24x32xf32>, tensor<32x96xf32>) outs(%55 : tensor<24x96xf32>) -> tensor<24x96xf32>
    %139 = linalg.generic {indexing_maps = [#map4, #map5], iterator_types = ["parallel", "parallel"]} ins(%arg18 : tensor<96xf32>) outs(%54 : tensor<24x96xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<24x96xf32>
    %140 = linalg.generic {indexing_maps = [#map5, #map5, #map5], iterator_types = ["parallel", "parallel"]} ins(%138, %139 : tensor<24x96xf32>, tensor<24x96xf32>) outs(%54 : tensor<24x96xf32>) {
    ^bb0(%in: f32, %in_69: f32, %out: f32):
      %205 = arith.addf %in, %in_69 : f32
      linalg.yield %205 : f32
    } -> tensor<24x96xf32>
    %expanded_42 = tensor.expand_shape %140 [[0, 1], [2]] output_shape [2, 12, 96] : tensor<24x96xf32> into tensor<2x12x96xf32>
    %extracted_slice_43 = tensor.extract_slice %expanded_42[0, 0, 0] [2, 12, 32] [1, 1, 1] : tensor<2x12x96xf32> to tensor<2x12x32xf32>
    %extracted_slice_44 = tensor.extract_slice %expanded_42[0, 0, 32] [2, 12, 32] [1, 1, 1] : tensor<2x12x96xf32> to tensor<2x12x32xf32>
    %extracted_slice_45 = tensor.extract_slice %expanded_42[0, 0, 64] [2, 12, 32] [1, 1, 1] : tensor<2x12x96xf32> to tensor<2x12x32xf32>
    %expanded_46 = tensor.expand_shape %extracted_slice_44 [[0], [1], [2, 3]] output_shape [2, 12, 4, 8] : tensor<2x12x32xf32> into tensor<2x12x4x8xf32>
    %expanded_47 = tensor.expand_shape %extracted_slice_45 [[0], [1], [2, 3]] output_shape [2, 12, 4, 8] : tensor<2x12x32xf32> into tensor<2x12x4x8xf32>
    %transposed_48 = linalg.transpose ins(%expanded_47 : tensor<2x12x4x8xf32>) outs(%59 : tensor<2x4x12x8xf32>) permutation = [0, 2, 1, 3] 
    %expanded_49 = tensor.expand_shape %extracted_slice_43 [[0], [1], [2, 3]] output_shape [2, 12, 4, 8] : tensor<2x12x32xf32> into tensor<2x12x4x8xf32>
    %transposed_50 = linalg.transpose ins(%expanded_49 : tensor<2x12x4x8xf32>) outs(%59 : tensor<2x4x12x8xf32>) permutation = [0, 2, 1, 3] 
    %transposed_51 = linalg.transpose ins(%expanded_46 : tensor<2x12x4x8xf32>) outs(%60 : tensor<2x4x8x12xf32>) permutation = [0, 2, 3, 1] 
    %collapsed_52 = tensor.collapse_shape %transposed_50 [[0, 1], [2], [3]] : tensor<2x4x12x8xf32> into tensor<8x12x8xf32>
    %collapsed_53 = tensor.collapse_shape %transposed_51 [[0, 1], [2], [3]] : tensor<2x4x8x12xf32> into tensor<8x8x12xf32>
    %141 = linalg.batch_matmul ins(%collapsed_52, %collapsed_53 : tensor<8x12x8xf32>, tensor<8x8x12xf32>) outs(%62 : tensor<8x12x12xf32>) -> tensor<8x12x12xf32>
    %expanded_54 = tensor.expand_shape %141 [[0, 1], [2], [3]] output_shape [2, 4, 12, 12] : tensor<8x12x12xf32> into tensor<2x4x12x12xf32>
    %142 = linalg.generic {indexing_maps = [#map8, #map8], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%expanded_54 : tensor<2x4x12x12xf32>) outs(%64 : tensor<2x4x12x12xf32>) {
    ^bb0(%in: f32, %out: f32):
      %205 = arith.truncf %cst_7 : f64 to f32
      %206 = arith.mulf %in, %205 : f32
      linalg.yield %206 : f32
    } -> tensor<2x4x12x12xf32>
    %143 = linalg.generic {indexing_maps = [#map8, #map15, #map8], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%142, %32 : tensor<2x4x12x12xf32>, tensor<2x1x12x12xf32>) outs(%64 : tensor<2x4x12x12xf32>) {
    ^bb0(%in: f32, %in_69: f32, %out: f32):
      %205 = arith.addf %in, %in_69 : f32
      linalg.yield %205 : f32
    } -> tensor<2x4x12x12xf32>
    %144:2 = linalg.generic {indexing_maps = [#map8, #map16, #map16], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%143 : tensor<2x4x12x12xf32>) outs(%70, %68 : tensor<2x4x12xf32>, tensor<2x4x12xi64>) {
    ^bb0(%in: f32, %out: f32, %out_69: i64):
      %205 = linalg.index 3 : index
      %206 = arith.index_cast %205 : index to i64
      %207 = arith.maximumf %in, %out : f32
      %208 = arith.cmpf ogt, %in, %out : f32
      %209 = arith.select %208, %206, %out_69 : i64
      linalg.yield %207, %209 : f32, i64
    } -> (tensor<2x4x12xf32>, tensor<2x4x12xi64>)
    %expanded_55 = tensor.expand_shape %144#0 [[0], [1], [2, 3]] output_shape [2, 4, 12, 1] : tensor<2x4x12xf32> into tensor<2x4x12x1xf32>
    %145 = linalg.generic {indexing_maps = [#map8, #map11, #map8], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%143, %expanded_55 : tensor<2x4x12x12xf32>, tensor<2x4x12x1xf32>) outs(%64 : tensor<2x4x12x12xf32>) {
    ^bb0(%in: f32, %in_69: f32, %out: f32):
      %205 = arith.subf %in, %in_69 : f32
      linalg.yield %205 : f32
    } -> tensor<2x4x12x12xf32>
    %146 = linalg.generic {indexing_maps = [#map8, #map8], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%145 : tensor<2x4x12x12xf32>) outs(%64 : tensor<2x4x12x12xf32>) {
    ^bb0(%in: f32, %out: f32):
      %205 = math.exp %in : f32
      linalg.yield %205 : f32
    } -> tensor<2x4x12x12xf32>
    %147 = linalg.generic {indexing_maps = [#map8, #map11], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%146 : tensor<2x4x12x12xf32>) outs(%75 : tensor<2x4x12x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %205 = arith.addf %in, %out : f32
      linalg.yield %205 : f32
    } -> tensor<2x4x12x1xf32>
    %148 = linalg.generic {indexing_maps = [#map8, #map11, #map8], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%146, %147 : tensor<2x4x12x12xf32>, tensor<2x4x12x1xf32>) outs(%64 : tensor<2x4x12x12xf32>) {
    ^bb0(%in: f32, %in_69: f32, %out: f32):
      %205 = arith.divf %in, %in_69 : f32
      linalg.yield %205 : f32
    } -> tensor<2x4x12x12xf32>
    %collapsed_56 = tensor.collapse_shape %148 [[0, 1], [2], [3]] : tensor<2x4x12x12xf32> into tensor<8x12x12xf32>
    %collapsed_57 = tensor.collapse_shape %transposed_48 [[0, 1], [2], [3]] : tensor<2x4x12x8xf32> into tensor<8x12x8xf32>
    %149 = linalg.batch_matmul ins(%collapsed_56, %collapsed_57 : tensor<8x12x12xf32>, tensor<8x12x8xf32>) outs(%79 : tensor<8x12x8xf32>) -> tensor<8x12x8xf32>
    %expanded_58 = tensor.expand_shape %149 [[0, 1], [2], [3]] output_shape [2, 4, 12, 8] : tensor<8x12x8xf32> into tensor<2x4x12x8xf32>
    %transposed_59 = linalg.transpose ins(%expanded_58 : tensor<2x4x12x8xf32>) outs(%81 : tensor<2x12x4x8xf32>) permutation = [0, 2, 1, 3] 
    %collapsed_60 = tensor.collapse_shape %transposed_59 [[0, 1], [2, 3]] : tensor<2x12x4x8xf32> into tensor<24x32xf32>
    %150 = linalg.matmul ins(%collapsed_60, %arg19 : tensor<24x32xf32>, tensor<32x32xf32>) outs(%83 : tensor<24x32xf32>) -> tensor<24x32xf32>
    %151 = linalg.generic {indexing_maps = [#map4, #map5], iterator_types = ["parallel", "parallel"]} ins(%arg20 : tensor<32xf32>) outs(%82 : tensor<24x32xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<24x32xf32>
    %152 = linalg.generic {indexing_maps = [#map5, #map5, #map5], iterator_types = ["parallel", "parallel"]} ins(%150, %151 : tensor<24x32xf32>, tensor<24x32xf32>) outs(%82 : tensor<24x32xf32>) {
    ^bb0(%in: f32, %in_69: f32, %out: f32):
      %205 = arith.addf %in, %in_69 : f32
      linalg.yield %205 : f32
    } -> tensor<24x32xf32>
    %expanded_61 = tensor.expand_shape %152 [[0, 1], [2]] output_shape [2, 12, 32] : tensor<24x32xf32> into tensor<2x12x32xf32>
    %153 = linalg.generic {indexing_maps = [#map1, #map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%expanded_61, %121 : tensor<2x12x32xf32>, tensor<2x12x32xf32>) outs(%0 : tensor<2x12x32xf32>) {
    ^bb0(%in: f32, %in_69: f32, %out: f32):
      %205 = arith.addf %in, %in_69 : f32
      linalg.yield %205 : f32
    } -> tensor<2x12x32xf32>
    %154 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%153 : tensor<2x12x32xf32>) outs(%33 : tensor<2x12x32xf64>) {
    ^bb0(%in: f32, %out: f64):
      %205 = arith.extf %in : f32 to f64
      linalg.yield %205 : f64
    } -> tensor<2x12x32xf64>
    %155 = linalg.generic {indexing_maps = [#map1, #map13], iterator_types = ["parallel", "parallel", "reduction"]} ins(%154 : tensor<2x12x32xf64>) outs(%36 : tensor<2x12x1xf64>) {
    ^bb0(%in: f64, %out: f64):
      %205 = arith.addf %in, %out : f64
      linalg.yield %205 : f64
    } -> tensor<2x12x1xf64>
    %156 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%155 : tensor<2x12x1xf64>) outs(%35 : tensor<2x12x1xf64>) {
    ^bb0(%in: f64, %out: f64):
      %205 = arith.divf %in, %cst_9 : f64
      linalg.yield %205 : f64
    } -> tensor<2x12x1xf64>
    %157 = linalg.generic {indexing_maps = [#map1, #map13, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%154, %156 : tensor<2x12x32xf64>, tensor<2x12x1xf64>) outs(%33 : tensor<2x12x32xf64>) {
    ^bb0(%in: f64, %in_69: f64, %out: f64):
      %205 = arith.subf %in, %in_69 : f64
      linalg.yield %205 : f64
    } -> tensor<2x12x32xf64>
    %158 = linalg.generic {indexing_maps = [#map1, #map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%157, %157 : tensor<2x12x32xf64>, tensor<2x12x32xf64>) outs(%33 : tensor<2x12x32xf64>) {
    ^bb0(%in: f64, %in_69: f64, %out: f64):
      %205 = arith.mulf %in, %in_69 : f64
      linalg.yield %205 : f64
    } -> tensor<2x12x32xf64>
    %159 = linalg.generic {indexing_maps = [#map1, #map13], iterator_types = ["parallel", "parallel", "reduction"]} ins(%158 : tensor<2x12x32xf64>) outs(%36 : tensor<2x12x1xf64>) {
    ^bb0(%in: f64, %out: f64):
      %205 = arith.addf %in, %out : f64
      linalg.yield %205 : f64
    } -> tensor<2x12x1xf64>
    %160 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%159 : tensor<2x12x1xf64>) outs(%35 : tensor<2x12x1xf64>) {
    ^bb0(%in: f64, %out: f64):
      %205 = arith.divf %in, %cst_9 : f64
      linalg.yield %205 : f64
    } -> tensor<2x12x1xf64>
    %161 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%160 : tensor<2x12x1xf64>) outs(%43 : tensor<2x12x1xf32>) {
    ^bb0(%in: f64, %out: f32):
      %205 = arith.truncf %in : f64 to f32
      linalg.yield %205 : f32
    } -> tensor<2x12x1xf32>
    %162 = linalg.generic {indexing_maps = [#map1, #map13], iterator_types = ["parallel", "parallel", "reduction"]} ins(%153 : tensor<2x12x32xf32>) outs(%45 : tensor<2x12x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %205 = arith.addf %in, %out : f32
      linalg.yield %205 : f32
    } -> tensor<2x12x1xf32>
    %163 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%162 : tensor<2x12x1xf32>) outs(%43 : tensor<2x12x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %205 = arith.divf %in, %cst_10 : f32
      linalg.yield %205 : f32
    } -> tensor<2x12x1xf32>
    %164 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%161 : tensor<2x12x1xf32>) outs(%43 : tensor<2x12x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %205 = arith.truncf %cst_8 : f64 to f32
      %206 = arith.addf %in, %205 : f32
      linalg.yield %206 : f32
    } -> tensor<2x12x1xf32>
    %165 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%164 : tensor<2x12x1xf32>) outs(%43 : tensor<2x12x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %205 = math.rsqrt %in : f32
      linalg.yield %205 : f32
    } -> tensor<2x12x1xf32>
    %166 = linalg.generic {indexing_maps = [#map1, #map13, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%153, %163 : tensor<2x12x32xf32>, tensor<2x12x1xf32>) outs(%0 : tensor<2x12x32xf32>) {
    ^bb0(%in: f32, %in_69: f32, %out: f32):
      %205 = arith.subf %in, %in_69 : f32
      linalg.yield %205 : f32
    } -> tensor<2x12x32xf32>
    %167 = linalg.generic {indexing_maps = [#map1, #map13, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%166, %165 : tensor<2x12x32xf32>, tensor<2x12x1xf32>) outs(%0 : tensor<2x12x32xf32>) {
    ^bb0(%in: f32, %in_69: f32, %out: f32):
      %205 = arith.mulf %in, %in_69 : f32
      linalg.yield %205 : f32
    } -> tensor<2x12x32xf32>
    %168 = linalg.generic {indexing_maps = [#map1, #map14, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%167, %arg21 : tensor<2x12x32xf32>, tensor<32xf32>) outs(%0 : tensor<2x12x32xf32>) {
    ^bb0(%in: f32, %in_69: f32, %out: f32):
      %205 = arith.mulf %in, %in_69 : f32
      linalg.yield %205 : f32
    } -> tensor<2x12x32xf32>
    %169 = linalg.generic {indexing_maps = [#map1, #map14, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%168, %arg22 : tensor<2x12x32xf32>, tensor<32xf32>) outs(%0 : tensor<2x12x32xf32>) {
    ^bb0(%in: f32, %in_69: f32, %out: f32):
      %205 = arith.addf %in, %in_69 : f32
      linalg.yield %205 : f32
    } -> tensor<2x12x32xf32>
    %collapsed_62 = tensor.collapse_shape %169 [[0, 1], [2]] : tensor<2x12x32xf32> into tensor<24x32xf32>
    %170 = linalg.matmul ins(%collapsed_62, %arg23 : tensor<24x32xf32>, tensor<32x128xf32>) outs(%105 : tensor<24x128xf32>) -> tensor<24x128xf32>
    %171 = linalg.generic {indexing_maps = [#map4, #map5], iterator_types = ["parallel", "parallel"]} ins(%arg24 : tensor<128xf32>) outs(%104 : tensor<24x128xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<24x128xf32>
    %172 = linalg.generic {indexing_maps = [#map5, #map5, #map5], iterator_types = ["parallel", "parallel"]} ins(%170, %171 : tensor<24x128xf32>, tensor<24x128xf32>) outs(%104 : tensor<24x128xf32>) {
    ^bb0(%in: f32, %in_69: f32, %out: f32):
      %205 = arith.addf %in, %in_69 : f32
      linalg.yield %205 : f32
    } -> tensor<24x128xf32>
    %expanded_63 = tensor.expand_shape %172 [[0, 1], [2]] output_shape [2, 12, 128] : tensor<24x128xf32> into tensor<2x12x128xf32>
    %173 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%expanded_63 : tensor<2x12x128xf32>) outs(%109 : tensor<2x12x128xf32>) {
    ^bb0(%in: f32, %out: f32):
      %205 = arith.mulf %in, %cst_11 : f32
      linalg.yield %205 : f32
    } -> tensor<2x12x128xf32>
    %174 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%expanded_63 : tensor<2x12x128xf32>) outs(%109 : tensor<2x12x128xf32>) {
    ^bb0(%in: f32, %out: f32):
      %205 = math.fpowi %in, %c3_i64 : f32, i64
      linalg.yield %205 : f32
    } -> tensor<2x12x128xf32>
    %175 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%174 : tensor<2x12x128xf32>) outs(%109 : tensor<2x12x128xf32>) {
    ^bb0(%in: f32, %out: f32):
      %205 = arith.truncf %cst_6 : f64 to f32
      %206 = arith.mulf %in, %205 : f32
      linalg.yield %206 : f32
    } -> tensor<2x12x128xf32>
    %176 = linalg.generic {indexing_maps = [#map1, #map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%expanded_63, %175 : tensor<2x12x128xf32>, tensor<2x12x128xf32>) outs(%109 : tensor<2x12x128xf32>) {
    ^bb0(%in: f32, %in_69: f32, %out: f32):
      %205 = arith.addf %in, %in_69 : f32
      linalg.yield %205 : f32
    } -> tensor<2x12x128xf32>
    %177 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%176 : tensor<2x12x128xf32>) outs(%109 : tensor<2x12x128xf32>) {
    ^bb0(%in: f32, %out: f32):
      %205 = arith.truncf %cst_5 : f64 to f32
      %206 = arith.mulf %in, %205 : f32
      linalg.yield %206 : f32
    } -> tensor<2x12x128xf32>
    %178 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%177 : tensor<2x12x128xf32>) outs(%109 : tensor<2x12x128xf32>) {
    ^bb0(%in: f32, %out: f32):
      %205 = math.tanh %in : f32
      linalg.yield %205 : f32
    } -> tensor<2x12x128xf32>
    %179 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%178 : tensor<2x12x128xf32>) outs(%109 : tensor<2x12x128xf32>) {
    ^bb0(%in: f32, %out: f32):
      %205 = arith.addf %in, %cst_12 : f32
      linalg.yield %205 : f32
    } -> tensor<2x12x128xf32>
    %180 = linalg.generic {indexing_maps = [#map1, #map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%173, %179 : tensor<2x12x128xf32>, tensor<2x12x128xf32>) outs(%109 : tensor<2x12x128xf32>) {
    ^bb0(%in: f32, %in_69: f32, %out: f32):
      %205 = arith.mulf %in, %in_69 : f32
      linalg.yield %205 : f32
    } -> tensor<2x12x128xf32>
    %collapsed_64 = tensor.collapse_shape %180 [[0, 1], [2]] : tensor<2x12x128xf32> into tensor<24x128xf32>
    %181 = linalg.matmul ins(%collapsed_64, %arg25 : tensor<24x128xf32>, tensor<128x32xf32>) outs(%83 : tensor<24x32xf32>) -> tensor<24x32xf32>
    %182 = linalg.generic {indexing_maps = [#map4, #map5], iterator_types = ["parallel", "parallel"]} ins(%arg26 : tensor<32xf32>) outs(%82 : tensor<24x32xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<24x32xf32>
    %183 = linalg.generic {indexing_maps = [#map5, #map5, #map5], iterator_types = ["parallel", "parallel"]} ins(%181, %182 : tensor<24x32xf32>, tensor<24x32xf32>) outs(%82 : tensor<24x32xf32>) {
    ^bb0(%in: f32, %in_69: f32, %out: f32):
      %205 = arith.addf %in, %in_69 : f32
      linalg.yield %205 : f32
    } -> tensor<24x32xf32>
    %expanded_65 = tensor.expand_shape %183 [[0, 1], [2]] output_shape [2, 12, 32] : tensor<24x32xf32> into tensor<2x12x32xf32>
    %184 = linalg.generic {indexing_maps = [#map1, #map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%153, %expanded_65 : tensor<2x12x32xf32>, tensor<2x12x32xf32>) outs(%0 : tensor<2x12x32xf32>) {
    ^bb0(%in: f32, %in_69: f32, %out: f32):
      %205 = arith.addf %in, %in_69 : f32
      linalg.yield %205 : f32
    } -> tensor<2x12x32xf32>
    %185 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%184 : tensor<2x12x32xf32>) outs(%33 : tensor<2x12x32xf64>) {
    ^bb0(%in: f32, %out: f64):
      %205 = arith.extf %in : f32 to f64
      linalg.yield %205 : f64
    } -> tensor<2x12x32xf64>
    %186 = linalg.generic {indexing_maps = [#map1, #map13], iterator_types = ["parallel", "parallel", "reduction"]} ins(%185 : tensor<2x12x32xf64>) outs(%36 : tensor<2x12x1xf64>) {
    ^bb0(%in: f64, %out: f64):
      %205 = arith.addf %in, %out : f64
      linalg.yield %205 : f64
    } -> tensor<2x12x1xf64>
    %187 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%186 : tensor<2x12x1xf64>) outs(%35 : tensor<2x12x1xf64>) {
    ^bb0(%in: f64, %out: f64):
      %205 = arith.divf %in, %cst_9 : f64
      linalg.yield %205 : f64
    } -> tensor<2x12x1xf64>
    %188 = linalg.generic {indexing_maps = [#map1, #map13, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%185, %187 : tensor<2x12x32xf64>, tensor<2x12x1xf64>) outs(%33 : tensor<2x12x32xf64>) {
    ^bb0(%in: f64, %in_69: f64, %out: f64):
      %205 = arith.subf %in, %in_69 : f64
      linalg.yield %205 : f64
    } -> tensor<2x12x32xf64>
    %189 = linalg.generic {indexing_maps = [#map1, #map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%188, %188 : tensor<2x12x32xf64>, tensor<2x12x32xf64>) outs(%33 : tensor<2x12x32xf64>) {
    ^bb0(%in: f64, %in_69: f64, %out: f64):
      %205 = arith.mulf %in, %in_69 : f64
      linalg.yield %205 : f64
    } -> tensor<2x12x32xf64>
    %190 = linalg.generic {indexing_maps = [#map1, #map13], iterator_types = ["parallel", "parallel", "reduction"]} ins(%189 : tensor<2x12x32xf64>) outs(%36 : tensor<2x12x1xf64>) {
    ^bb0(%in: f64, %out: f64):
      %205 = arith.addf %in, %out : f64
      linalg.yield %205 : f64
    } -> tensor<2x12x1xf64>
    %191 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%190 : tensor<2x12x1xf64>) outs(%35 : tensor<2x12x1xf64>) {
    ^bb0(%in: f64, %out: f64):
      %205 = arith.divf %in, %cst_9 : f64
      linalg.yield %205 : f64
    } -> tensor<2x12x1xf64>
    %192 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%191 : tensor<2x12x1xf64>) outs(%43 : tensor<2x12x1xf32>) {
    ^bb0(%in: f64, %out: f32):
      %205 = arith.truncf %in : f64 to f32
      linalg.yield %205 : f32
    } -> tensor<2x12x1xf32>
    %193 = linalg.generic {indexing_maps = [#map1, #map13], iterator_types = ["parallel", "parallel", "reduction"]} ins(%184 : tensor<2x12x32xf32>) outs(%45 : tensor<2x12x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %205 = arith.addf %in, %out : f32
      linalg.yield %205 : f32
    } -> tensor<2x12x1xf32>
    %194 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%193 : tensor<2x12x1xf32>) outs(%43 : tensor<2x12x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %205 = arith.divf %in, %cst_10 : f32
      linalg.yield %205 : f32
    } -> tensor<2x12x1xf32>
    %195 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%192 : tensor<2x12x1xf32>) outs(%43 : tensor<2x12x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %205 = arith.truncf %cst_8 : f64 to f32
      %206 = arith.addf %in, %205 : f32
      linalg.yield %206 : f32
    } -> tensor<2x12x1xf32>
    %196 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%195 : tensor<2x12x1xf32>) outs(%43 : tensor<2x12x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %205 = math.rsqrt %in : f32
      linalg.yield %205 : f32
    } -> tensor<2x12x1xf32>
    %197 = linalg.generic {indexing_maps = [#map1, #map13, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%184, %194 : tensor<2x12x32xf32>, tensor<2x12x1xf32>) outs(%0 : tensor<2x12x32xf32>) {
    ^bb0(%in: f32, %in_69: f32, %out: f32):
      %205 = arith.subf %in, %in_69 : f32
      linalg.yield %205 : f32
    } -> tensor<2x12x32xf32>
    %198 = linalg.generic {indexing_maps = [#map1, #map13, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%197, %196 : tensor<2x12x32xf32>, tensor<2x12x1xf32>) outs(%0 : tensor<2x12x32xf32>) {
    ^bb0(%in: f32, %in_69: f32, %out: f32):
      %205 = arith.mulf %in, %in_69 : f32
      linalg.yield %205 : f32
    } -> tensor<2x12x32xf32>
    %199 = linalg.generic {indexing_maps = [#map1, #map14, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%198, %arg27 : tensor<2x12x32xf32>, tensor<32xf32>) outs(%0 : tensor<2x12x32xf32>) {
    ^bb0(%in: f32, %in_69: f32, %out: f32):
      %205 = arith.mulf %in, %in_69 : f32
      linalg.yield %205 : f32
    } -> tensor<2x12x32xf32>
    %200 = linalg.generic {indexing_maps = [#map1, #map14, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%199, %arg28 : tensor<2x12x32xf32>, tensor<32xf32>) outs(%0 : tensor<2x12x32xf32>) {
    ^bb0(%in: f32, %in_69: f32, %out: f32):
      %205 = arith.addf %in, %in_69 : f32
      linalg.yield %205 : f32
    } -> tensor<2x12x32xf32>
    %201 = tensor.empty() : tensor<32x67xf32>
    %transposed_66 = linalg.transpose ins(%arg1 : tensor<67x32xf32>) outs(%201 : tensor<32x67xf32>) permutation = [1, 0] 
    %collapsed_67 = tensor.collapse_shape %200 [[0, 1], [2]] : tensor<2x12x32xf32> into tensor<24x32xf32>
    %202 = tensor.empty() : tensor<24x67xf32>
    %203 = linalg.fill ins(%cst_0 : f32) outs(%202 : tensor<24x67xf32>) -> tensor<24x67xf32>
    %204 = linalg.matmul ins(%collapsed_67, %transposed_66 : tensor<24x32xf32>, tensor<32x67xf32>) outs(%203 : tensor<24x67xf32>) -> tensor<24x67xf32>
    %expanded_68 = tensor.expand_shape %204 [[0, 1], [2]] output_shape [2, 12, 67] : tensor<24x67xf32> into tensor<2x12x67xf32>
    return %expanded_68 : tensor<2x12x67xf32>
  }
}
