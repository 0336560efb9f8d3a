// Constructs of real exports whose operands' layouts disagree, each resolved
// by an explicit redistribution (summa.relayout -> all-gather / local slice):
// a PyTorch-style [out, in] weight transposed before the product, a fused
// QKV product sliced into three along its split hidden dimension (factored:
// no redistribution), the same product read with linalg.index and then
// wanted whole by a softmax (gathered back in group order), a
// concatenation along a split dimension, a non-splat constant table, a
// softmax over a split dimension and a reduction whose accumulator is not
// the identity.
#id = affine_map<(d0, d1) -> (d0, d1)>
#col = affine_map<(d0, d1) -> (d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @reshard(%x: tensor<16x8xf32>, %w: tensor<24x8xf32>, %b: tensor<24xf32>) -> (tensor<16x16xf32>, tensor<16xf32>, tensor<16x24xf32>) {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %et = tensor.empty() : tensor<8x24xf32>
  %wt = linalg.transpose ins(%w : tensor<24x8xf32>) outs(%et : tensor<8x24xf32>) permutation = [1, 0]
  %e = tensor.empty() : tensor<16x24xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<16x24xf32>) -> tensor<16x24xf32>
  %mm = linalg.matmul ins(%x, %wt : tensor<16x8xf32>, tensor<8x24xf32>) outs(%f : tensor<16x24xf32>) -> tensor<16x24xf32>
  %qkv = linalg.generic {indexing_maps = [#id, #col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%mm, %b : tensor<16x24xf32>, tensor<24xf32>) outs(%e : tensor<16x24xf32>) {
  ^bb0(%a: f32, %c: f32, %o: f32):
    %r = arith.addf %a, %c : f32
    linalg.yield %r : f32
  } -> tensor<16x24xf32>
  %q = tensor.extract_slice %qkv[0, 0] [16, 8] [1, 1] : tensor<16x24xf32> to tensor<16x8xf32>
  %k = tensor.extract_slice %qkv[0, 8] [16, 8] [1, 1] : tensor<16x24xf32> to tensor<16x8xf32>
  %v = tensor.extract_slice %qkv[0, 16] [16, 8] [1, 1] : tensor<16x24xf32> to tensor<16x8xf32>
  %e8 = tensor.empty() : tensor<16x8xf32>
  %s = linalg.generic {indexing_maps = [#id, #id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%q, %k, %v : tensor<16x8xf32>, tensor<16x8xf32>, tensor<16x8xf32>) outs(%e8 : tensor<16x8xf32>) {
  ^bb0(%a: f32, %c: f32, %d: f32, %o: f32):
    %m = arith.mulf %a, %c : f32
    %r = arith.addf %m, %d : f32
    linalg.yield %r : f32
  } -> tensor<16x8xf32>
  %cat = tensor.concat dim(1) %s, %x : (tensor<16x8xf32>, tensor<16x8xf32>) -> tensor<16x16xf32>
  %table = arith.constant dense<[0.0, 0.7, 0.3, 1.0, 0.6, 0.2, 0.9, 0.5, 0.1, 0.8, 0.4, 0.0, 0.7, 0.3, 1.0, 0.6]> : tensor<16xf32>
  %e16 = tensor.empty() : tensor<16x16xf32>
  %t = linalg.generic {indexing_maps = [#id, #col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%cat, %table : tensor<16x16xf32>, tensor<16xf32>) outs(%e16 : tensor<16x16xf32>) {
  ^bb0(%a: f32, %c: f32, %o: f32):
    %r = arith.mulf %a, %c : f32
    linalg.yield %r : f32
  } -> tensor<16x16xf32>
  %p = linalg.softmax dimension(1) ins(%t : tensor<16x16xf32>) outs(%e16 : tensor<16x16xf32>) -> tensor<16x16xf32>
  %ev = tensor.empty() : tensor<16xf32>
  %acc = linalg.fill ins(%one : f32) outs(%ev : tensor<16xf32>) -> tensor<16xf32>
  %sum = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%t : tensor<16x16xf32>) outs(%acc : tensor<16xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.addf %a, %o : f32
    linalg.yield %r : f32
  } -> tensor<16xf32>
  %pos = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%qkv : tensor<16x24xf32>) outs(%e : tensor<16x24xf32>) {
  ^bb0(%a: f32, %o: f32):
    %j = linalg.index 1 : index
    %ji = arith.index_cast %j : index to i64
    %jf = arith.sitofp %ji : i64 to f32
    %c = arith.constant 0.125 : f32
    %js = arith.mulf %jf, %c : f32
    %r = arith.addf %a, %js : f32
    linalg.yield %r : f32
  } -> tensor<16x24xf32>
  %ppos = linalg.softmax dimension(1) ins(%pos : tensor<16x24xf32>) outs(%e : tensor<16x24xf32>) -> tensor<16x24xf32>
  return %p, %sum, %ppos : tensor<16x16xf32>, tensor<16xf32>, tensor<16x24xf32>
}
