//===- TMTensorOps.cpp - torch-mlir's tm_tensor ops -------------*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//

#include "summa/Dialect/TMTensor/IR/TMTensor.h"

#include "mlir/IR/TypeUtilities.h"

using namespace mlir;
using namespace mlir::summa::tm_tensor;

#include "summa/Dialect/TMTensor/IR/TMTensorOpsDialect.cpp.inc"

void TMTensorDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "summa/Dialect/TMTensor/IR/TMTensorOps.cpp.inc"
      >();
}

std::optional<Dialect::ParseOpHook>
TMTensorDialect::getParseOperationHook(StringRef opName) const {
  // Only names the dialect does not define reach here; the parser's
  // message begins with the op's name.
  return ParseOpHook([](OpAsmParser &parser, OperationState &) {
    return parser.emitError(parser.getNameLoc())
           << "is not read by summa yet (of torch-mlir's tm_tensor ops, "
              "summa reads scan and sort); the README's 'What is not "
              "supported yet' lists what an export may need instead";
  });
}

LogicalResult ScanOp::verify() {
  if (getInputs().size() != 1 || getOutputs().size() != 2)
    return emitOpError("takes one input and two outputs (the output and the "
                       "accumulator), not ")
           << getInputs().size() << " and " << getOutputs().size();
  if (getResults().size() != 2 ||
      getResults().getTypes() != getOutputs().getTypes())
    return emitOpError("results must have the outputs' types");
  auto input = cast<RankedTensorType>(getInput().getType());
  int64_t dim = getDimension();
  if (dim < 0 || dim >= input.getRank())
    return emitOpError("dimension ")
           << dim << " is not a dimension of the rank-" << input.getRank()
           << " input";
  if (getOutput().getType() != input)
    return emitOpError("output type ")
           << getOutput().getType() << " differs from the input's " << input;
  SmallVector<int64_t> accShape(input.getShape());
  accShape.erase(accShape.begin() + dim);
  RankedTensorType expectedAcc = input.clone(accShape);
  if (getAccumulator().getType() != expectedAcc)
    return emitOpError("accumulator type ")
           << getAccumulator().getType() << " is not the input's without "
           << "dimension " << dim << ", " << expectedAcc;
  Block &body = getRegion().front();
  Type element = input.getElementType();
  if (body.getNumArguments() != 2 ||
      llvm::any_of(body.getArgumentTypes(),
                   [&](Type t) { return t != element; }))
    return emitOpError("region must take two ") << element << " arguments";
  auto yield = dyn_cast_or_null<YieldOp>(body.empty() ? nullptr : &body.back());
  if (!yield || yield.getOperands().size() != 1 ||
      yield.getOperands()[0].getType() != element)
    return emitOpError("region must yield one ") << element;
  return success();
}

LogicalResult SortOp::verify() {
  if (!getInputs().empty())
    return emitOpError("takes no inputs (the outputs are sorted in place), "
                       "not ")
           << getInputs().size();
  if (getOutputs().empty())
    return emitOpError("needs at least one output");
  if (getResults().getTypes() != getOutputs().getTypes())
    return emitOpError("results must have the outputs' types");
  auto first = cast<RankedTensorType>(getOutputs()[0].getType());
  int64_t dim = getDimension();
  if (dim < 0 || dim >= first.getRank())
    return emitOpError("dimension ")
           << dim << " is not a dimension of the rank-" << first.getRank()
           << " outputs";
  SmallVector<Type> elements;
  for (Value output : getOutputs()) {
    auto type = cast<RankedTensorType>(output.getType());
    if (type.getShape() != first.getShape())
      return emitOpError("outputs must have one shape; ")
             << type << " differs from " << first;
    elements.append(2, type.getElementType());
  }
  if (first.isDynamicDim(dim))
    return emitOpError("sorts dimension ")
           << dim << " of dynamic size; summa takes static shapes only";
  Block &body = getRegion().front();
  if (body.getArgumentTypes() != TypeRange(elements))
    return emitOpError("region must take two arguments of each output's "
                       "element type, ")
           << elements.size() << " in all";
  auto yield = dyn_cast_or_null<YieldOp>(body.empty() ? nullptr : &body.back());
  if (!yield || yield.getOperands().size() != 1 ||
      !yield.getOperands()[0].getType().isInteger(1))
    return emitOpError("region must yield one i1 (whether its first "
                       "elements come before its second)");
  return success();
}

#define GET_OP_CLASSES
#include "summa/Dialect/TMTensor/IR/TMTensorOps.cpp.inc"
