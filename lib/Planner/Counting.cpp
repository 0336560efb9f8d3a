//===- Counting.cpp - what the runtime counts -------------------*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// countPartitioned: what the runtime will count when it runs a partitioned
// function. The rules follow runtime/cpu/Collectives.cpp and
// runtime/common/Profile.h:
//
//  * one entry per (collective kind, axes mask), with the number of calls
//    and the summed size of the local buffer the runtime gets (the buffer
//    for broadcast / reduce / all_reduce, the source for all_gather, the
//    destination for reduce_scatter);
//  * a collective over a group of one rank is not counted;
//  * one GEMM per linalg.matmul execution, 2*m*n*k flops.
//
//
//===----------------------------------------------------------------------===//

#include "PlannerInternal.h"

#include "summa/Dialect/Summa/IR/SummaOps.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::summa;
using namespace mlir::summa::plan;
using namespace mlir::summa::plan::detail;

namespace {

class Counter {
public:
  Counter(ModuleOp module, GridOp grid, const PlanOptions &options,
          StrategyPlan &out)
      : module(module), grid(grid), options(options), out(out) {}

  LogicalResult countBlock(Block &block, int64_t times, int depth);
  CollectiveTable table;
  std::string error;

private:
  template <typename OpTy>
  void countCollective(OpTy op, StringRef name, Value buffer, int64_t times);
  LogicalResult fail(const Twine &message) {
    if (error.empty())
      error = message.str();
    return failure();
  }

  ModuleOp module;
  GridOp grid;
  const PlanOptions &options;
  StrategyPlan &out;
};

} // namespace

/// The buffer whose size a collective is counted by: reduce_scatter's
/// destination, every other collective's input.
template <typename OpTy>
static Value countedBuffer(OpTy op) {
  return op.getInput();
}
static Value countedBuffer(ReduceScatterOp op) {
  return op.getResult() ? Value(op.getResult()) : Value(op.getOutput());
}

template <typename OpTy>
void Counter::countCollective(OpTy op, StringRef name, Value buffer,
                              int64_t times) {
  SmallVector<int32_t> axes(op.getAxes().begin(), op.getAxes().end());
  int mask = 0;
  for (int32_t a : axes)
    mask |= 1 << a;
  GridOp g = lookupGrid(op, op.getGridAttr());
  int64_t size = g ? g.getGroupSize(axes) : 0;
  table.add(name, mask, groupName(axes), size, times,
            times * staticBytes(buffer.getType()));
}

LogicalResult Counter::countBlock(Block &block, int64_t times, int depth) {
  if (depth > 64)
    return fail("calls nest deeper than 64 levels");
  for (Operation &op : block) {
    if (auto loop = dyn_cast<scf::ForOp>(op)) {
      std::optional<int64_t> lb = getConstantIntValue(loop.getLowerBound());
      std::optional<int64_t> ub = getConstantIntValue(loop.getUpperBound());
      std::optional<int64_t> step = getConstantIntValue(loop.getStep());
      if (!lb || !ub || !step || *step <= 0)
        return fail("an scf.for without a static trip count encloses "
                    "communication or GEMMs");
      int64_t trips = *ub > *lb ? (*ub - *lb + *step - 1) / *step : 0;
      if (failed(countBlock(*loop.getBody(), times * trips, depth)))
        return failure();
      continue;
    }
    if (auto call = dyn_cast<func::CallOp>(op)) {
      auto callee = module.lookupSymbol<func::FuncOp>(call.getCallee());
      if (!callee || callee.isExternal())
        return fail("a call of @" + call.getCallee().str() +
                    ", which has no body, cannot be counted");
      if (failed(countBlock(callee.getBody().front(), times, depth + 1)))
        return failure();
      continue;
    }
    // A collective's row in the table is named after the op ("broadcast",
    // "reduce", ...).
    bool collective = llvm::TypeSwitch<Operation *, bool>(&op)
                          .Case<BroadcastOp, ReduceOp, AllReduceOp, AllGatherOp,
                                ReduceScatterOp>([&](auto c) {
                            countCollective(c, op.getName().stripDialect(),
                                            countedBuffer(c), times);
                            return true;
                          })
                          .Default([](Operation *) { return false; });
    if (collective)
      continue;
    if (auto mm = dyn_cast<linalg::MatmulOp>(op)) {
      int64_t flops = matmulFlops(mm);
      out.gemmCount += times;
      out.gemmFlops += times * flops;
      auto type = cast<ShapedType>(mm.getDpsInputOperand(0)->get().getType());
      int64_t bytes = staticBytes(mm.getDpsInputOperand(0)->get().getType()) +
                      staticBytes(mm.getDpsInputOperand(1)->get().getType()) +
                      staticBytes(mm->getResult(0).getType());
      out.gemmSeconds +=
          options.gemmSeconds(times, static_cast<double>(times * flops),
                              elementStorageBytes(type.getElementType()),
                              static_cast<double>(times * bytes));
      continue;
    }
    addLocalWork(
        out,
        getLocalWork(&op, [](Value v) { return staticBytes(v.getType()); }),
        times, resultElementBytes(&op), options);
    if (isa<summa::MatmulOp>(op))
      return fail("a summa.matmul was not expanded");
    if (op.getNumRegions() == 0)
      continue;
    // Other region ops (linalg bodies) must not hide communication or GEMMs.
    bool hidden = false;
    op.walk([&](Operation *n) {
      if (n != &op && !isa<summa::YieldOp>(n) &&
          (isa<SummaDialect>(n->getDialect()) ||
           isa<linalg::MatmulOp, func::CallOp>(n)))
        hidden = true;
    });
    if (hidden)
      return fail("'" + op.getName().getStringRef().str() +
                  "' encloses communication or GEMMs that cannot "
                  "be counted statically");
  }
  return success();
}

LogicalResult mlir::summa::plan::detail::countPartitioned(
    ModuleOp module, func::FuncOp func, const PlanOptions &options,
    StrategyPlan &out, std::string &error) {
  auto gridOp = module.lookupSymbol<GridOp>("grid");
  Counter counter(module, gridOp, options, out);
  if (failed(counter.countBlock(func.getBody().front(), 1, 0))) {
    error = counter.error;
    return failure();
  }
  out.collectives = counter.table.take();
  return success();
}
