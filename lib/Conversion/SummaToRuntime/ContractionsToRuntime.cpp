//===- ContractionsToRuntime.cpp - batched GEMMs from generics --*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// Implements convert-contractions-to-runtime: a linalg.generic on buffers
// computing out[.., m, .., n] += a[.., m, .., k] * b[.., k, .., n] (any order
// of the dimensions, batch dimensions in all three operands) becomes one
// summaRtMatmulBatched over the innermost batch dimension on strided views
// of the three buffers, in a loop nest over the other batch dimensions (a
// batch of one when there is no batch dimension). The runtime counts these
// GEMMs apart from summaRtMatmul's (the profile's local_matmul).
//
//===----------------------------------------------------------------------===//

#include "summa/Conversion/Passes.h"

#include "RuntimeABI.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"

#include <array>

namespace mlir::summa {
#define GEN_PASS_DEF_CONVERTCONTRACTIONSTORUNTIME
#include "summa/Conversion/Passes.h.inc"
} // namespace mlir::summa

using namespace mlir;
using namespace mlir::summa;

namespace {

/// The loop dimensions of a contraction: each of M, N and K may span
/// several loops (a grouped-query attention's query groups and rows), which
/// the GEMM takes as one where every operand lays them out contiguously.
struct Contraction {
  SmallVector<unsigned> m, n, k;
  SmallVector<unsigned> batch;
};

/// Whether the body is `yield out + a * b` (either operand order).
bool isMulAdd(linalg::GenericOp op) {
  Block &body = op.getRegion().front();
  if (body.getNumArguments() != 3 || body.getOperations().size() != 3)
    return false;
  auto yield = cast<linalg::YieldOp>(body.getTerminator());
  auto add = yield.getOperand(0).getDefiningOp<arith::AddFOp>();
  if (!add)
    return false;
  Value acc = body.getArgument(2);
  Value product = add.getLhs() == acc ? add.getRhs() : add.getLhs();
  if ((add.getLhs() == acc) == (add.getRhs() == acc))
    return false;
  auto mul = product.getDefiningOp<arith::MulFOp>();
  if (!mul)
    return false;
  Value a = body.getArgument(0), b = body.getArgument(1);
  return (mul.getLhs() == a && mul.getRhs() == b) ||
         (mul.getLhs() == b && mul.getRhs() == a);
}

std::optional<Contraction> matchContraction(linalg::GenericOp op) {
  if (!op.hasPureBufferSemantics() || op.getNumDpsInputs() != 2 ||
      op.getNumDpsInits() != 1 || op.getNumReductionLoops() == 0 ||
      !isMulAdd(op))
    return std::nullopt;
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  if (!llvm::all_of(maps,
                    [](AffineMap m) { return m.isProjectedPermutation(); }))
    return std::nullopt;
  Contraction result;
  for (unsigned d = 0; d < op.getNumLoops(); ++d) {
    auto in = [&](unsigned operand) {
      return maps[operand]
          .getResultPosition(getAffineDimExpr(d, op.getContext()))
          .has_value();
    };
    bool inA = in(0), inB = in(1), inC = in(2);
    bool reduction =
        op.getIteratorTypesArray()[d] == utils::IteratorType::reduction;
    if (reduction && inA && inB && !inC)
      result.k.push_back(d);
    else if (!reduction && inA && inB && inC)
      result.batch.push_back(d);
    else if (!reduction && inA && !inB && inC)
      result.m.push_back(d);
    else if (!reduction && !inA && inB && inC)
      result.n.push_back(d);
    else
      return std::nullopt;
  }
  if (result.m.empty() || result.n.empty() || result.k.empty())
    return std::nullopt;
  return result;
}

/// Per operand, the static stride of each loop dimension in its buffer
/// (none for a dimension the operand does not index or a dynamic stride).
SmallVector<SmallVector<std::optional<int64_t>>>
loopStrides(linalg::GenericOp op) {
  SmallVector<SmallVector<std::optional<int64_t>>> table;
  for (auto [operand, map] :
       llvm::zip(op->getOperands(), op.getIndexingMapsArray())) {
    SmallVector<std::optional<int64_t>> &byLoop =
        table.emplace_back(op.getNumLoops(), std::nullopt);
    SmallVector<int64_t> strides;
    int64_t offset;
    if (failed(cast<MemRefType>(operand.getType())
                   .getStridesAndOffset(strides, offset)))
      continue;
    for (unsigned pos = 0; pos < map.getNumResults(); ++pos)
      if (!ShapedType::isDynamic(strides[pos]))
        byLoop[map.getDimPosition(pos)] = strides[pos];
  }
  return table;
}

/// A contraction as the runtime's batched GEMM takes it.
struct Gemm {
  Contraction c;
  /// The generic's inputs in the GEMM's order: {0, 1}, or {1, 0} where the
  /// output is contiguous along the first input's own dimension (it is
  /// then computed as Cᵀ = Bᵀ·Aᵀ read row by row, the same buffer).
  std::array<unsigned, 2> inputs = {0, 1};
  /// The innermost loop of M, N and K, and the extent of each (its loops'
  /// product).
  unsigned m = 0, n = 0, k = 0;
  int64_t mSize = 0, nSize = 0, kSize = 0;
  int32_t dtype = -1;
  SmallVector<int64_t> ranges;
  bool transA = false, transB = false;
  int64_t lda = 0, ldb = 0, ldc = 0;
  /// Per operand (A, B, C), its stride along each batch dimension.
  SmallVector<SmallVector<int64_t>> batchStrides;
};

/// `op` as a batched GEMM if it is a contraction whose batches are strided
/// (transposed) row-major matrices; otherwise says why not in `why`.
FailureOr<Gemm> matchGemm(linalg::GenericOp op, std::string &why) {
  std::optional<Contraction> c = matchContraction(op);
  if (!c) {
    why = op.getNumReductionLoops() == 0
              ? "elementwise"
              : "a reduction that is not a product summed over one dimension";
    return failure();
  }
  Gemm g;
  g.c = *c;
  for (Value v : op->getOperands()) {
    int32_t code =
        getFloatDTypeCode(cast<MemRefType>(v.getType()).getElementType());
    if (code < 0 || (g.dtype >= 0 && code != g.dtype)) {
      why = "an element type the GEMM does not take, or mixed types";
      return failure();
    }
    g.dtype = code;
  }
  g.ranges = op.getStaticLoopRanges();
  if (llvm::any_of(g.ranges, ShapedType::isDynamic)) {
    why = "dynamic sizes";
    return failure();
  }
  SmallVector<SmallVector<std::optional<int64_t>>> strides = loopStrides(op);
  // Each of M, N and K as one dimension of every operand that holds it:
  // its loops outer to inner (by stride), each the next one's extent apart.
  auto collapse = [&](ArrayRef<unsigned> group, ArrayRef<unsigned> operands,
                      unsigned &inner, int64_t &size) {
    SmallVector<unsigned> order;
    for (unsigned operand : operands) {
      SmallVector<unsigned> dims(group);
      if (llvm::any_of(dims, [&](unsigned d) { return !strides[operand][d]; }))
        return false;
      llvm::stable_sort(dims, [&](unsigned a, unsigned b) {
        return *strides[operand][a] > *strides[operand][b];
      });
      for (size_t i = 0; i + 1 < dims.size(); ++i)
        if (*strides[operand][dims[i]] !=
            *strides[operand][dims[i + 1]] * g.ranges[dims[i + 1]])
          return false;
      if (!order.empty() && order != dims)
        return false;
      order = dims;
    }
    inner = order.back();
    size = 1;
    for (unsigned d : group)
      size *= g.ranges[d];
    return true;
  };
  why = "M, N or K spans loops that an operand does not lay out contiguously";
  if (!collapse(c->m, {0, 2}, g.m, g.mSize) ||
      !collapse(c->n, {1, 2}, g.n, g.nSize) ||
      !collapse(c->k, {0, 1}, g.k, g.kSize))
    return failure();
  if (strides[2][g.n] != 1 && strides[2][g.m] == 1) {
    // The output is contiguous along the first input's dimension: the
    // inputs swap roles (an attention backward's dK = dSᵀ·Q as torch
    // writes it).
    std::swap(g.m, g.n);
    std::swap(g.mSize, g.nSize);
    g.inputs = {1, 0};
  }
  auto stride = [&](unsigned operand, unsigned d) {
    return strides[operand < 2 ? g.inputs[operand] : operand][d];
  };
  std::optional<int64_t> aM = stride(0, g.m), aK = stride(0, g.k),
                         bK = stride(1, g.k), bN = stride(1, g.n),
                         cM = stride(2, g.m), cN = stride(2, g.n);
  why = "operand strides that are not a (transposed) row-major matrix";
  if (!aM || !aK || !bK || !bN || !cM || !cN || *cN != 1)
    return failure();
  // Row-major op(A)[m, k]: A itself (unit stride along k) or Aᵀ stored
  // [k, m] (unit stride along m); likewise op(B)[k, n].
  g.transA = *aK != 1;
  g.transB = *bN != 1;
  if ((g.transA && *aM != 1) || (g.transB && *bK != 1))
    return failure();
  g.lda = g.transA ? *aK : *aM;
  g.ldb = g.transB ? *bN : *bK;
  g.ldc = *cM;
  // One row: its stride says nothing (a reshape may leave 1), and the
  // libraries want at least the row's length (leadingDimension).
  auto atLeastRow = [](int64_t &ld, int64_t rows, int64_t cols) {
    if (rows == 1)
      ld = std::max({ld, cols, int64_t(1)});
  };
  atLeastRow(g.lda, g.transA ? g.kSize : g.mSize, g.transA ? g.mSize : g.kSize);
  atLeastRow(g.ldb, g.transB ? g.nSize : g.kSize, g.transB ? g.kSize : g.nSize);
  atLeastRow(g.ldc, g.mSize, g.nSize);
  g.batchStrides.resize(3);
  for (unsigned d : g.c.batch)
    for (unsigned operand = 0; operand < 3; ++operand) {
      std::optional<int64_t> s = stride(operand, d);
      if (!s)
        return failure();
      g.batchStrides[operand].push_back(*s);
    }
  return g;
}

/// Replaces `op` by calls of summaRtMatmulBatched: the innermost batch
/// dimension is the runtime's batch (one call runs all of it), outer batch
/// dimensions become loops; no batch dimension is a batch of one, so that
/// the runtime counts it among the local GEMMs, apart from the SUMMA GEMMs
/// of summaRtMatmul.
void emitGemm(linalg::GenericOp op, ModuleOp module, const Gemm &g) {
  OpBuilder b(op);
  Location loc = op.getLoc();
  SmallVector<Value> bases, offsets;
  Value a = op.getDpsInputs()[g.inputs[0]], b0 = op.getDpsInputs()[g.inputs[1]];
  for (Value v : {a, b0, op.getDpsInits()[0]}) {
    bases.push_back(memref::ExtractAlignedPointerAsIndexOp::create(b, loc, v));
    offsets.push_back(
        memref::ExtractStridedMetadataOp::create(b, loc, v).getOffset());
  }
  ArrayRef<unsigned> batch = g.c.batch;
  unsigned loops = batch.empty() ? 0 : batch.size() - 1;
  SmallVector<Value> lbs, ubs, steps;
  for (unsigned d : batch.take_front(loops)) {
    lbs.push_back(arith::ConstantIndexOp::create(b, loc, 0));
    ubs.push_back(arith::ConstantIndexOp::create(b, loc, g.ranges[d]));
    steps.push_back(arith::ConstantIndexOp::create(b, loc, 1));
  }
  scf::buildLoopNest(
      b, loc, lbs, ubs, steps,
      [&](OpBuilder &nb, Location loc, ValueRange ivs) {
        auto index = [&](int64_t v) -> Value {
          return arith::ConstantIndexOp::create(nb, loc, v);
        };
        auto i32 = [&](int64_t v) -> Value {
          return arith::ConstantIntOp::create(nb, loc, v, 32);
        };
        SmallVector<Value> at(offsets);
        for (unsigned operand = 0; operand < 3; ++operand)
          for (auto [iv, s] : llvm::zip(ivs, g.batchStrides[operand]))
            at[operand] = arith::AddIOp::create(
                nb, loc, at[operand],
                arith::MulIOp::create(nb, loc, iv, index(s)));
        // The runtime's batch: the innermost batch dimension, or one.
        auto batchStride = [&](unsigned operand) {
          return batch.empty() ? 0 : g.batchStrides[operand].back();
        };
        int64_t count = batch.empty() ? 1 : g.ranges[batch.back()];
        // The scalar arguments first, the leading dimensions and strides in
        // the call's order (tests read the constants in this order).
        Value dt = i32(g.dtype), m = index(g.mSize), n = index(g.nSize),
              k = index(g.kSize), ta = i32(g.transA), tb = i32(g.transB),
              acc = i32(1);
        abi::createCall(nb, loc, module, abi::kMatmulBatched,
                        {dt,
                         bases[0],
                         at[0],
                         index(g.lda),
                         index(batchStride(0)),
                         bases[1],
                         at[1],
                         index(g.ldb),
                         index(batchStride(1)),
                         bases[2],
                         at[2],
                         index(g.ldc),
                         index(batchStride(2)),
                         m,
                         n,
                         k,
                         index(count),
                         ta,
                         tb,
                         acc});
      });
  op.erase();
}

/// Lowers `op` if it is a contraction whose batches are strided GEMMs;
/// otherwise says why not in `why`.
LogicalResult lowerContraction(linalg::GenericOp op, ModuleOp module,
                               std::string &why) {
  FailureOr<Gemm> gemm = matchGemm(op, why);
  if (failed(gemm))
    return failure();
  emitGemm(op, module, *gemm);
  return success();
}

struct ConvertContractionsToRuntimePass
    : summa::impl::ConvertContractionsToRuntimeBase<
          ConvertContractionsToRuntimePass> {
  using ConvertContractionsToRuntimeBase::ConvertContractionsToRuntimeBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<linalg::LinalgOp> ops;
    module.walk([&](linalg::LinalgOp op) { ops.push_back(op); });
    for (linalg::LinalgOp op : ops) {
      std::string why = "not a contraction";
      auto generic = dyn_cast<linalg::GenericOp>(op.getOperation());
      Location loc = op->getLoc();
      StringRef name = op->getName().getStringRef();
      if (generic && succeeded(lowerContraction(generic, module, why))) {
        if (emitRemarks)
          emitRemark(loc) << "library: " << name
                          << " to the runtime's batched GEMM "
                             "(summaRtMatmulBatched: OpenBLAS on the CPU, "
                             "cuBLAS on the GPU)";
        continue;
      }
      if (emitRemarks)
        emitRemark(loc) << "generated: " << name << " (" << why
                        << "): loops on the CPU, a kernel on the GPU";
    }
  }
};

} // namespace
