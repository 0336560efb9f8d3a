//===- ContractionsToRuntime.cpp - batched GEMMs from generics --*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// Implements summa-contractions-to-runtime: a linalg.generic on buffers
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
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"

namespace mlir::summa {
#define GEN_PASS_DEF_SUMMACONTRACTIONSTORUNTIME
#include "summa/Conversion/Passes.h.inc"
} // namespace mlir::summa

using namespace mlir;
using namespace mlir::summa;

namespace {

/// The loop dimensions of a contraction.
struct Contraction {
  unsigned m, n, k;
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
      op.getNumDpsInits() != 1 || op.getNumReductionLoops() != 1 ||
      !isMulAdd(op))
    return std::nullopt;
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  if (!llvm::all_of(maps,
                    [](AffineMap m) { return m.isProjectedPermutation(); }))
    return std::nullopt;
  std::optional<Contraction> result = Contraction();
  SmallVector<bool> seen(3, false); // m, n, k
  for (unsigned d = 0; d < op.getNumLoops(); ++d) {
    bool inA = maps[0]
                   .getResultPosition(getAffineDimExpr(d, op.getContext()))
                   .has_value(),
         inB = maps[1]
                   .getResultPosition(getAffineDimExpr(d, op.getContext()))
                   .has_value(),
         inC = maps[2]
                   .getResultPosition(getAffineDimExpr(d, op.getContext()))
                   .has_value();
    bool reduction =
        op.getIteratorTypesArray()[d] == utils::IteratorType::reduction;
    unsigned *slot = nullptr;
    int which = -1;
    if (reduction && inA && inB && !inC)
      slot = &result->k, which = 2;
    else if (!reduction && inA && inB && inC)
      result->batch.push_back(d);
    else if (!reduction && inA && !inB && inC)
      slot = &result->m, which = 0;
    else if (!reduction && !inA && inB && inC)
      slot = &result->n, which = 1;
    else
      return std::nullopt;
    if (slot) {
      if (seen[which])
        return std::nullopt; // two m (or n) dimensions: not one GEMM
      seen[which] = true;
      *slot = d;
    }
  }
  if (!seen[0] || !seen[1] || !seen[2])
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

/// Lowers `op` if it is a contraction whose batches are strided GEMMs;
/// otherwise says why not in `why`.
LogicalResult lowerContraction(linalg::GenericOp op, ModuleOp module,
                               std::string &why) {
  std::optional<Contraction> c = matchContraction(op);
  if (!c) {
    why = op.getNumReductionLoops() == 0
              ? "elementwise"
              : "a reduction that is not a product summed over one dimension";
    return failure();
  }
  int32_t dtype = -1;
  for (Value v : op->getOperands()) {
    int32_t code =
        abi::getDTypeCode(cast<MemRefType>(v.getType()).getElementType());
    if (code < 0 || (dtype >= 0 && code != dtype)) {
      why = "an element type the GEMM does not take, or mixed types";
      return failure();
    }
    dtype = code;
  }
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  if (llvm::any_of(ranges, ShapedType::isDynamic)) {
    why = "dynamic sizes";
    return failure();
  }
  SmallVector<SmallVector<std::optional<int64_t>>> strides = loopStrides(op);
  auto stride = [&](unsigned operand, unsigned d) {
    return strides[operand][d];
  };
  std::optional<int64_t> aM = stride(0, c->m), aK = stride(0, c->k),
                         bK = stride(1, c->k), bN = stride(1, c->n),
                         cM = stride(2, c->m), cN = stride(2, c->n);
  why = "operand strides that are not a (transposed) row-major matrix";
  if (!aM || !aK || !bK || !bN || !cM || !cN || *cN != 1)
    return failure();
  // Row-major op(A)[m, k]: A itself (unit stride along k) or Aᵀ stored
  // [k, m] (unit stride along m); likewise op(B)[k, n].
  bool transA = *aK != 1, transB = *bN != 1;
  if ((transA && *aM != 1) || (transB && *bK != 1))
    return failure();
  int64_t lda = transA ? *aK : *aM, ldb = transB ? *bN : *bK, ldc = *cM;
  SmallVector<SmallVector<int64_t>> batchStrides(3);
  for (unsigned d : c->batch)
    for (unsigned operand = 0; operand < 3; ++operand) {
      std::optional<int64_t> s = stride(operand, d);
      if (!s)
        return failure();
      batchStrides[operand].push_back(*s);
    }

  OpBuilder b(op);
  Location loc = op.getLoc();
  SmallVector<Value> bases, offsets;
  for (Value v : op->getOperands()) {
    bases.push_back(memref::ExtractAlignedPointerAsIndexOp::create(b, loc, v));
    offsets.push_back(
        memref::ExtractStridedMetadataOp::create(b, loc, v).getOffset());
  }
  auto index = [&](int64_t v) -> Value {
    return arith::ConstantIndexOp::create(b, loc, v);
  };
  auto i32 = [&](OpBuilder &builder, int64_t v) -> Value {
    return arith::ConstantIntOp::create(builder, loc, v, 32);
  };
  // The innermost batch dimension is the runtime's batch (one call runs
  // all of it); outer batch dimensions become loops.
  unsigned loops = c->batch.empty() ? 0 : c->batch.size() - 1;
  SmallVector<Value> lbs, ubs, steps;
  for (unsigned d : ArrayRef<unsigned>(c->batch).take_front(loops)) {
    lbs.push_back(index(0));
    ubs.push_back(index(ranges[d]));
    steps.push_back(index(1));
  }
  scf::buildLoopNest(
      b, loc, lbs, ubs, steps,
      [&](OpBuilder &nb, Location loc, ValueRange ivs) {
        SmallVector<Value> at(offsets);
        for (unsigned operand = 0; operand < 3; ++operand)
          for (auto [iv, s] : llvm::zip(ivs, batchStrides[operand])) {
            Value step = arith::MulIOp::create(
                nb, loc, iv, arith::ConstantIndexOp::create(nb, loc, s));
            at[operand] = arith::AddIOp::create(nb, loc, at[operand], step);
          }
        auto constant = [&](int64_t v) -> Value {
          return arith::ConstantIndexOp::create(nb, loc, v);
        };
        Value dt = i32(nb, dtype), mv = constant(ranges[c->m]),
              nv = constant(ranges[c->n]), kv = constant(ranges[c->k]),
              ta = i32(nb, transA), tb = i32(nb, transB), acc = i32(nb, 1);
        if (c->batch.empty()) {
          // A batch of one, so that the runtime counts it among the local
          // GEMMs, apart from the SUMMA GEMMs of summaRtMatmul.
          abi::createCall(nb, loc, module, abi::kMatmulBatched,
                          {dt,          bases[0], at[0], constant(lda),
                           constant(0), bases[1], at[1], constant(ldb),
                           constant(0), bases[2], at[2], constant(ldc),
                           constant(0), mv,       nv,    kv,
                           constant(1), ta,       tb,    acc});
          return;
        }
        unsigned inner = c->batch.back();
        abi::createCall(nb, loc, module, abi::kMatmulBatched,
                        {dt,
                         bases[0],
                         at[0],
                         constant(lda),
                         constant(batchStrides[0].back()),
                         bases[1],
                         at[1],
                         constant(ldb),
                         constant(batchStrides[1].back()),
                         bases[2],
                         at[2],
                         constant(ldc),
                         constant(batchStrides[2].back()),
                         mv,
                         nv,
                         kv,
                         constant(ranges[inner]),
                         ta,
                         tb,
                         acc});
      });
  op.erase();
  return success();
}

struct SummaContractionsToRuntimePass
    : summa::impl::SummaContractionsToRuntimeBase<
          SummaContractionsToRuntimePass> {
  using SummaContractionsToRuntimeBase::SummaContractionsToRuntimeBase;

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
