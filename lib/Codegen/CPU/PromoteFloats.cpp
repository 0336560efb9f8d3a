//===- PromoteFloats.cpp - compute a module in f64 --------------*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// Implements summa-promote-floats (see the pass description in Passes.td):
// every f16, bf16 and f32 of a module becomes f64, for --check's reference.
// The promotion works on a copy of the module, which replaces the module's
// body only once it verifies.
//
//===----------------------------------------------------------------------===//

#include "summa/Codegen/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/AttrTypeSubElements.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/Verifier.h"

namespace mlir::summa {
#define GEN_PASS_DEF_SUMMAPROMOTEFLOATS
#include "summa/Codegen/Passes.h.inc"
} // namespace mlir::summa

using namespace mlir;

/// Whether `type` is a float type the pass widens.
static bool isPromoted(Type type) {
  return type.isF16() || type.isBF16() || type.isF32();
}

/// The data of a dense_resource of f16, bf16 or f32 as f64; null when its
/// blob is not available (an elided resource) or has the wrong size.
static DenseElementsAttr widenResource(DenseResourceElementsAttr resource,
                                       ShapedType newType) {
  auto oldType = cast<ShapedType>(resource.getType());
  auto elementType = cast<FloatType>(oldType.getElementType());
  AsmResourceBlob *blob = resource.getRawHandle().getBlob();
  if (!blob)
    return {};
  ArrayRef<char> data = blob->getData();
  unsigned width = elementType.getWidth() / 8;
  int64_t count = oldType.getNumElements();
  if (static_cast<int64_t>(data.size()) != count * width)
    return {};
  SmallVector<double> values;
  values.reserve(count);
  for (int64_t i = 0; i < count; ++i) {
    uint64_t bits = 0;
    std::memcpy(&bits, data.data() + i * width, width);
    APFloat value(elementType.getFloatSemantics(),
                  APInt(elementType.getWidth(), bits));
    values.push_back(value.convertToDouble());
  }
  return DenseElementsAttr::get(newType, ArrayRef<double>(values));
}

/// Replaces every promoted float type and float attribute in `module`.
/// Returns the first op whose attribute could not be widened (null: none).
static Operation *promote(ModuleOp module) {
  MLIRContext *ctx = module.getContext();
  Type f64 = Float64Type::get(ctx);
  Operation *unsupported = nullptr;
  Operation *current = nullptr;
  AttrTypeReplacer replacer;
  replacer.addReplacement([&](FloatType type) -> std::optional<Type> {
    if (isPromoted(type))
      return f64;
    return std::nullopt;
  });
  // Attributes that hold values, not just a type: their data is widened
  // here and their sub-elements are not visited again.
  using Replaced = std::optional<std::pair<Attribute, WalkResult>>;
  replacer.addReplacement([&](FloatAttr attr) -> Replaced {
    if (!isPromoted(attr.getType()))
      return std::nullopt;
    return std::make_pair(FloatAttr::get(f64, attr.getValueAsDouble()),
                          WalkResult::skip());
  });
  replacer.addReplacement([&](DenseFPElementsAttr attr) -> Replaced {
    if (!isPromoted(attr.getElementType()))
      return std::nullopt;
    auto newType = cast<ShapedType>(attr.getType()).clone(f64);
    if (attr.isSplat())
      return std::make_pair(
          DenseElementsAttr::get(
              newType, attr.getSplatValue<APFloat>().convertToDouble()),
          WalkResult::skip());
    SmallVector<double> values;
    for (const APFloat &value : attr.getValues<APFloat>())
      values.push_back(value.convertToDouble());
    return std::make_pair(DenseElementsAttr::get(newType, ArrayRef(values)),
                          WalkResult::skip());
  });
  replacer.addReplacement([&](DenseResourceElementsAttr attr) -> Replaced {
    auto type = cast<ShapedType>(attr.getType());
    if (!isPromoted(type.getElementType()))
      return std::nullopt;
    DenseElementsAttr widened = widenResource(attr, type.clone(f64));
    if (!widened) {
      if (!unsupported)
        unsupported = current;
      return std::make_pair(attr, WalkResult::skip());
    }
    return std::make_pair(widened, WalkResult::skip());
  });
  module.walk([&](Operation *op) {
    current = op;
    replacer.replaceElementsIn(op, /*replaceAttrs=*/true,
                               /*replaceLocs=*/false, /*replaceTypes=*/true);
  });
  // A widening or narrowing of a float that is now f64 on both sides is the
  // value itself.
  module.walk([](Operation *op) {
    if (!isa<arith::ExtFOp, arith::TruncFOp>(op) ||
        op->getOperand(0).getType() != op->getResult(0).getType())
      return;
    op->getResult(0).replaceAllUsesWith(op->getOperand(0));
    op->erase();
  });
  return unsupported;
}

namespace {
struct SummaPromoteFloatsPass
    : summa::impl::SummaPromoteFloatsBase<SummaPromoteFloatsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    OwningOpRef<ModuleOp> copy = module.clone();
    if (Operation *op = promote(*copy)) {
      emitError(op->getLoc(),
                "summa-promote-floats: this constant's data is not available "
                "(an elided resource?), so the module cannot be computed in "
                "f64");
      return signalPassFailure();
    }
    // The first op the promotion made invalid, as the reason.
    std::optional<Diagnostic> reason;
    LogicalResult verified = success();
    {
      ScopedDiagnosticHandler handler(&getContext(), [&](Diagnostic &diag) {
        if (!reason && diag.getSeverity() == DiagnosticSeverity::Error)
          reason.emplace(std::move(diag));
        return success();
      });
      verified = verify(*copy);
    }
    if (failed(verified)) {
      InFlightDiagnostic error =
          emitError(reason ? reason->getLocation() : module.getLoc(),
                    "summa-promote-floats: the module cannot be computed in "
                    "f64");
      if (reason)
        error << ": " << reason->str();
      return signalPassFailure();
    }
    module.getBodyRegion().takeBody(copy->getBodyRegion());
  }
};
} // namespace
