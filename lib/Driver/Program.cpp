//===- Program.cpp - the entry's tensors for the runtime --------*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// What the generated main tells the runtime of each tensor of the entry
// function: its global and local shapes, its splits over the grid, how the
// driver fills it (weights scaled by 1/sqrt(fan-in), integers bounded by
// what they index) and which input an output updates.
//
//===----------------------------------------------------------------------===//

#include "Program.h"

#include "summa/Dialect/Summa/IR/LayoutRuleInterface.h"
#include "summa/Dialect/Summa/IR/SummaAttrNames.h"
#include "summa/Support/Functions.h"
#include "summa/Support/IndexCasts.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>
#include <limits>

using namespace mlir;
using namespace mlir::summa;
using namespace mlir::summa::driver;

LogicalResult driver::fail(const Twine &message) {
  llvm::errs() << "summa-compile: error: " << message << "\n";
  return failure();
}

func::FuncOp driver::findEntry(ModuleOp module, StringRef entryName) {
  SmallVector<func::FuncOp> selected =
      summa::selectFunctions(module, entryName);
  if (selected.size() == 1)
    return selected.front();
  if (selected.size() > 1)
    module.emitError() << "more than one public function; choose one "
                          "with --entry";
  else
    module.emitError() << (entryName.empty()
                               ? std::string("no public function to compile")
                               : "no function named @" + entryName);
  return {};
}

/// Reads the layouts that summa-assign-layouts wrote on the entry function.
static FailureOr<TensorInfo> describe(func::FuncOp func, Type type,
                                      DictionaryAttr attrs, std::string name) {
  TensorInfo info;
  info.name = std::move(name);
  if (auto label =
          attrs ? attrs.getAs<StringAttr>(summa::kNameAttrName) : nullptr)
    info.label = label.getValue().str();
  info.globalType = dyn_cast<RankedTensorType>(type);
  auto layout =
      attrs ? attrs.getAs<summa::LayoutAttr>(summa::kLayoutAttrName) : nullptr;
  if (!info.globalType || !layout)
    return func.emitError() << info.name << " has no layout";
  if (info.globalType.getRank() > 4)
    return func.emitError()
           << info.name << " has rank " << info.globalType.getRank()
           << "; the driver supports rank <= 4";
  summa::GridOp grid = summa::lookupGrid(func, layout.getGrid());
  FailureOr<SmallVector<int64_t>> local =
      summa::getLocalShape(info.globalType.getShape(), layout, grid);
  if (failed(local))
    return func.emitError() << info.name << " is not divisible by the grid";
  info.localShape = *local;
  for (unsigned d = 0; d < layout.getRank(); ++d) {
    info.splits.push_back(layout.getDimSplit(d));
    info.groups.push_back(layout.getDimGroups(d));
  }
  // Weights are scaled by 1/sqrt(fan-in) so activations stay O(1).
  if (layout.getRank() == 2 &&
      info.splits[0] == SmallVector<summa::GridAxis>{summa::GridAxis::row} &&
      info.splits[1] == SmallVector<summa::GridAxis>{summa::GridAxis::col})
    info.scale = 1.0 / std::sqrt(double(info.globalType.getDimSize(0)));
  // The dialect's verifier has checked the spelling.
  if (auto init = attrs.getAs<StringAttr>(summa::kInitAttrName)) {
    std::optional<summa::InitKind> kind =
        summa::symbolizeInitKind(init.getValue());
    info.nonnegative = kind == summa::InitKind::Nonnegative;
    info.zeros = kind == summa::InitKind::Zeros;
  }
  return info;
}

/// The values an integer argument may take, [0, bound): the smallest size of
/// a tensor dimension its elements index (an embedding lookup or a gather
/// of the target logits reads `tensor.extract %table[%id, ...]` with the id
/// cast to an index inside a generic); 2 if nothing indexes with it.
static int64_t integerInputBound(BlockArgument arg) {
  int64_t bound = std::numeric_limits<int64_t>::max();
  SmallVector<Value> work = {arg};
  llvm::SmallPtrSet<Value, 8> seen;
  while (!work.empty()) {
    Value v = work.pop_back_val();
    if (!seen.insert(v).second)
      continue;
    for (OpOperand &use : v.getUses()) {
      Operation *user = use.getOwner();
      if (auto generic = dyn_cast<linalg::GenericOp>(user)) {
        if (generic.isDpsInput(&use))
          work.push_back(generic.getMatchingBlockArgument(&use));
      } else if (isIntegerCast(user)) {
        work.push_back(user->getResult(0));
      } else if (std::optional<DataMove> move = getDataMove(user);
                 move && move->source == &use && !move->converts) {
        // The ids reshaped, sliced or reordered.
        work.push_back(user->getResult(0));
      } else if (auto extract = dyn_cast<tensor::ExtractOp>(user)) {
        for (auto [d, index] : llvm::enumerate(extract.getIndices()))
          if (index == v) {
            int64_t size = extract.getTensor().getType().getDimSize(d);
            if (!ShapedType::isDynamic(size))
              bound = std::min(bound, size);
          }
      }
    }
  }
  return bound == std::numeric_limits<int64_t>::max() ? 2 : bound;
}

FailureOr<ProgramInfo> driver::describeProgram(func::FuncOp func,
                                               bool halfTypes) {
  ProgramInfo program;
  program.entry = func.getSymName().str();
  for (unsigned i = 0; i < func.getNumArguments(); ++i) {
    FailureOr<TensorInfo> t =
        describe(func, func.getArgumentTypes()[i], func.getArgAttrDict(i),
                 "arg" + std::to_string(i));
    if (failed(t))
      return failure();
    if (isa<IntegerType>(t->globalType.getElementType()) && !t->zeros) {
      // Integers in [0, bound): the driver scales a value in [0, 1).
      t->scale = static_cast<double>(integerInputBound(func.getArgument(i)));
      t->nonnegative = true;
    }
    program.inputs.push_back(*t);
  }
  for (unsigned i = 0; i < func.getNumResults(); ++i) {
    FailureOr<TensorInfo> t =
        describe(func, func.getResultTypes()[i], func.getResultAttrDict(i),
                 "result" + std::to_string(i));
    if (failed(t))
      return failure();
    if (auto updates =
            func.getResultAttrOfType<IntegerAttr>(i, summa::kUpdatesAttrName)) {
      int64_t arg = updates.getInt();
      if (arg < 0 || arg >= func.getNumArguments() ||
          func.getArgumentTypes()[arg] != func.getResultTypes()[i])
        return func.emitError()
               << "result " << i << " has summa.updates = " << arg
               << ", which is not an argument of the same type";
      t->updates = arg + 1;
    }
    program.outputs.push_back(*t);
  }
  // Both drivers run f32, f64 and integers (token ids, labels); the GPU
  // driver also fills, gathers and compares f16 and bf16 tensors.
  for (const TensorInfo &t :
       llvm::concat<const TensorInfo>(program.inputs, program.outputs)) {
    Type type = t.globalType.getElementType();
    if (type.isF32() || type.isF64() || type.isSignlessInteger(64) ||
        type.isSignlessInteger(32) ||
        (halfTypes && (type.isF16() || type.isBF16())))
      continue;
    return func.emitError()
           << t.name << " has element type " << type
           << (halfTypes ? "; the GPU driver runs f32, f64, f16, bf16, i64 "
                           "and i32"
                         : "; the CPU driver runs f32, f64, i64 and i32 (f16 "
                           "and bf16 need --target=cuda)");
  }
  return program;
}

FailureOr<TensorInfo> driver::describeWhole(Operation *at, Type type,
                                            std::string name) {
  auto ranked = dyn_cast<RankedTensorType>(type);
  if (!ranked || !ranked.hasStaticShape() || ranked.getRank() > 4)
    return at->emitError() << name << " has type " << type
                           << "; the driver holds tensors of static shape "
                              "and rank <= 4";
  TensorInfo info;
  info.name = std::move(name);
  info.globalType = ranked;
  info.localShape.assign(ranked.getShape().begin(), ranked.getShape().end());
  info.splits.resize(ranked.getRank());
  info.groups.assign(ranked.getRank(), 1);
  return info;
}

void driver::keepOnlyFunctions(ModuleOp module, ArrayRef<std::string> keep) {
  // The kept functions and every function they refer to.
  llvm::StringSet<> live;
  SmallVector<StringRef> work(keep.begin(), keep.end());
  while (!work.empty()) {
    StringRef name = work.pop_back_val();
    auto func = module.lookupSymbol<func::FuncOp>(name);
    if (!func || !live.insert(name).second)
      continue;
    if (auto uses = SymbolTable::getSymbolUses(func))
      for (const SymbolTable::SymbolUse &use : *uses)
        work.push_back(use.getSymbolRef().getRootReference().getValue());
  }
  for (func::FuncOp func :
       llvm::make_early_inc_range(module.getOps<func::FuncOp>()))
    if (!live.contains(func.getSymName()))
      func.erase();
}

void driver::renameFunctions(ModuleOp module, StringRef suffix) {
  SymbolTable table(module);
  for (func::FuncOp func : llvm::to_vector(summa::definedFunctions(module))) {
    std::string newName = (func.getSymName() + suffix).str();
    (void)table.rename(func, StringAttr::get(module.getContext(), newName));
  }
}
