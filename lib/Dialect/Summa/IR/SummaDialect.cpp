//===- SummaDialect.cpp - summa dialect and attributes ----------*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//

#include "summa/Dialect/Summa/IR/SummaDialect.h"
#include "summa/Dialect/Summa/IR/ArgumentRole.h"
#include "summa/Dialect/Summa/IR/GradcheckAttr.h"
#include "summa/Dialect/Summa/IR/SummaOps.h"

#include "mlir/IR/DialectImplementation.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::summa;

#include "summa/Dialect/Summa/IR/SummaEnums.cpp.inc"
#include "summa/Dialect/Summa/IR/SummaOpsDialect.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "summa/Dialect/Summa/IR/SummaAttrs.cpp.inc"
#define GET_TYPEDEF_CLASSES
#include "summa/Dialect/Summa/IR/SummaTypes.cpp.inc"

void SummaDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "summa/Dialect/Summa/IR/SummaOps.cpp.inc"
      >();
  addAttributes<
#define GET_ATTRDEF_LIST
#include "summa/Dialect/Summa/IR/SummaAttrs.cpp.inc"
      >();
  addTypes<
#define GET_TYPEDEF_LIST
#include "summa/Dialect/Summa/IR/SummaTypes.cpp.inc"
      >();
}

Operation *SummaDialect::materializeConstant(OpBuilder &builder,
                                             Attribute value, Type type,
                                             Location loc) {
  return arith::ConstantOp::materialize(builder, value, type, loc);
}

//===----------------------------------------------------------------------===//
// Discardable attributes
//===----------------------------------------------------------------------===//

namespace {
/// Where a discardable attribute sits.
enum Place : unsigned { OnArgument = 1, OnResult = 2, OnOperation = 4 };

struct KnownAttr {
  StringLiteral name;
  unsigned places;
  /// What its value must be, for the message.
  StringLiteral what;
  bool (*accepts)(Attribute);
};

template <typename T>
bool isA(Attribute a) {
  return isa<T>(a);
}

/// summa.reduce_kinds: a kind (the ODS enum's attribute) per result.
bool isReductionKinds(Attribute a) {
  auto array = dyn_cast<ArrayAttr>(a);
  return array && llvm::all_of(array, llvm::IsaPred<ReductionKindAttr>);
}

const KnownAttr kKnownAttrs[] = {
    {kLayoutAttrName, OnArgument | OnResult, "a #summa.layout",
     isA<LayoutAttr>},
    {kRoleAttrName, OnArgument, "a string", isA<StringAttr>},
    {kInitAttrName, OnArgument, "a string", isA<StringAttr>},
    {kNameAttrName, OnArgument | OnResult | OnOperation, "a string",
     isA<StringAttr>},
    // Results become arguments in buffer-results-to-out-params, with
    // their attributes.
    {kUpdatesAttrName, OnResult | OnArgument, "an integer", isA<IntegerAttr>},
    {kPaddingIndexAttrName, OnArgument, "an integer", isA<IntegerAttr>},
    {kLayoutsAttrName, OnOperation, "an array", isA<ArrayAttr>},
    {kReduceAxesAttrName, OnOperation, "an array of i32",
     isA<DenseI32ArrayAttr>},
    {kReduceKindsAttrName, OnOperation, "an array of reduction kinds",
     isReductionKinds},
    {kGradcheckAttrName, OnOperation,
     "{loss = @function, gradients = @function, params = array<i64: ...>}",
     isGradcheckAttr},
    {kWeightStationaryAttrName, OnOperation, "a unit attribute", isA<UnitAttr>},
    {kDispatchAttrName, OnOperation, "a unit attribute", isA<UnitAttr>},
    {kBlockReductionAttrName, OnOperation, "a unit attribute", isA<UnitAttr>},
};

StringRef placeName(Place place) {
  return place == OnArgument ? "a function argument"
         : place == OnResult ? "a function result"
                             : "an operation";
}

/// A summa attribute at `place` of `op`: a known name, in a place it may
/// be, with a value of its type.
LogicalResult verifyDiscardable(Operation *op, NamedAttribute attr, Place place,
                                std::optional<unsigned> index = {}) {
  std::string where = index ? (" (#" + Twine(*index) + ")").str() : "";
  StringRef name = attr.getName().getValue();
  for (const KnownAttr &known : kKnownAttrs) {
    if (known.name != name)
      continue;
    if (!(known.places & place))
      return op->emitError() << "'" << name << "' is not an attribute of "
                             << placeName(place) << where;
    if (!known.accepts(attr.getValue()))
      return op->emitError() << "'" << name << "'" << where << " must be "
                             << known.what << ", not " << attr.getValue();
    return success();
  }
  std::string names;
  for (const KnownAttr &known : kKnownAttrs)
    if (known.places & place)
      names += (names.empty() ? "" : ", ") + known.name.str();
  return op->emitError() << "unknown attribute '" << name << "' on "
                         << placeName(place) << where << " (summa's are "
                         << names << ")";
}
} // namespace

LogicalResult SummaDialect::verifyOperationAttribute(Operation *op,
                                                     NamedAttribute attr) {
  return verifyDiscardable(op, attr, OnOperation);
}

LogicalResult SummaDialect::verifyRegionArgAttribute(Operation *op, unsigned,
                                                     unsigned argIndex,
                                                     NamedAttribute attr) {
  if (failed(verifyDiscardable(op, attr, OnArgument, argIndex)))
    return failure();
  // A role or an init kind is one of its enum's spellings.
  StringRef name = attr.getName().getValue();
  if (name == kRoleAttrName || name == kInitAttrName) {
    StringRef value = cast<StringAttr>(attr.getValue()).getValue();
    if (name == kRoleAttrName && !symbolizeArgumentRole(value))
      return op->emitError()
             << "argument " << argIndex << " has unknown " << kRoleAttrName
             << " \"" << value << "\" (expected " << listArgumentRoles() << ")";
    if (name == kInitAttrName && !symbolizeInitKind(value))
      return op->emitError()
             << "argument " << argIndex << " has unknown " << kInitAttrName
             << " \"" << value << "\" (expected nonnegative or zeros)";
    return success();
  }
  // A padding index names a row of a table (summa-differentiate checks it
  // against the table's size: here the type may be a rank's tile).
  auto function = dyn_cast<FunctionOpInterface>(op);
  if (attr.getName() != kPaddingIndexAttrName || !function)
    return success();
  int64_t row = cast<IntegerAttr>(attr.getValue()).getInt();
  auto type = dyn_cast<ShapedType>(function.getArgumentTypes()[argIndex]);
  if (!type || !type.hasRank() || type.getRank() == 0)
    return op->emitError() << "'" << kPaddingIndexAttrName << "' (#" << argIndex
                           << ") is on an argument that is not a table "
                              "(a tensor of rank 1 or more)";
  if (row < 0)
    return op->emitError() << "'" << kPaddingIndexAttrName << "' (#" << argIndex
                           << ") is " << row << ", not a row index";
  return success();
}

LogicalResult SummaDialect::verifyRegionResultAttribute(Operation *op, unsigned,
                                                        unsigned resultIndex,
                                                        NamedAttribute attr) {
  return verifyDiscardable(op, attr, OnResult, resultIndex);
}

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

StringRef mlir::summa::getAxisName(GridAxis axis) {
  return stringifyGridAxis(axis);
}

DenseI32ArrayAttr mlir::summa::getAxesAttr(MLIRContext *ctx,
                                           ArrayRef<GridAxis> axes) {
  SmallVector<int32_t> raw;
  for (GridAxis a : axes)
    raw.push_back(static_cast<int32_t>(a));
  return DenseI32ArrayAttr::get(ctx, raw);
}

std::string mlir::summa::formatAxes(ArrayRef<GridAxis> axes) {
  std::string s = "[";
  llvm::interleave(
      axes, [&](GridAxis a) { s += getAxisName(a).str(); }, [&] { s += ", "; });
  return s + "]";
}

//===----------------------------------------------------------------------===//
// LayoutAttr
//===----------------------------------------------------------------------===//

/// The attributes of per-dimension axes and groups (groups empty when no
/// dimension is factored).
static std::pair<ArrayAttr, DenseI64ArrayAttr>
encodeDims(MLIRContext *context, ArrayRef<DimLayout> dims) {
  SmallVector<Attribute> splits;
  SmallVector<int64_t> groups;
  bool factored = false;
  for (const DimLayout &dim : dims) {
    SmallVector<int32_t> raw;
    for (GridAxis a : dim.axes)
      raw.push_back(static_cast<int32_t>(a));
    splits.push_back(DenseI32ArrayAttr::get(context, raw));
    groups.push_back(dim.groups);
    factored |= dim.groups != 1;
  }
  if (!factored)
    groups.clear();
  return {ArrayAttr::get(context, splits),
          DenseI64ArrayAttr::get(context, groups)};
}

LayoutAttr LayoutAttr::get(MLIRContext *context, FlatSymbolRefAttr grid,
                           ArrayRef<SmallVector<GridAxis>> splits) {
  SmallVector<DimLayout> dims;
  for (const SmallVector<GridAxis> &axes : splits)
    dims.push_back(DimLayout(axes));
  return get(context, grid, dims);
}

LayoutAttr LayoutAttr::get(MLIRContext *context, FlatSymbolRefAttr grid,
                           ArrayRef<DimLayout> dims) {
  auto [splits, groups] = encodeDims(context, dims);
  return get(context, grid, splits, groups);
}

LayoutAttr LayoutAttr::getChecked(function_ref<InFlightDiagnostic()> emitError,
                                  MLIRContext *context, FlatSymbolRefAttr grid,
                                  ArrayRef<DimLayout> dims) {
  auto [splits, groups] = encodeDims(context, dims);
  return getChecked(emitError, context, grid, splits, groups);
}

SmallVector<GridAxis> LayoutAttr::getDimSplit(unsigned dim) const {
  SmallVector<GridAxis> axes;
  for (int32_t a : cast<DenseI32ArrayAttr>(getSplits()[dim]).asArrayRef())
    axes.push_back(static_cast<GridAxis>(a));
  return axes;
}

int64_t LayoutAttr::getDimGroups(unsigned dim) const {
  ArrayRef<int64_t> groups = getGroups().asArrayRef();
  return groups.empty() ? 1 : groups[dim];
}

DimLayout LayoutAttr::getDim(unsigned dim) const {
  return DimLayout(getDimSplit(dim), getDimGroups(dim));
}

SmallVector<DimLayout> LayoutAttr::getDims() const {
  SmallVector<DimLayout> dims;
  for (unsigned d = 0, e = getRank(); d < e; ++d)
    dims.push_back(getDim(d));
  return dims;
}

SmallVector<GridAxis> LayoutAttr::getSplitAxes() const {
  SmallVector<GridAxis> all;
  for (unsigned d = 0, e = getRank(); d < e; ++d)
    llvm::append_range(all, getDimSplit(d));
  return all;
}

LogicalResult LayoutAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                 FlatSymbolRefAttr grid, ArrayAttr splits,
                                 DenseI64ArrayAttr groups) {
  if (!grid)
    return emitError() << "layout needs a grid symbol";
  if (!groups)
    return emitError() << "layout needs a (possibly empty) list of groups";
  if (!groups.empty() && groups.size() != static_cast<int64_t>(splits.size()))
    return emitError() << "layout has " << groups.size() << " group counts for "
                       << splits.size() << " dimensions";
  llvm::SmallBitVector seen(3);
  for (auto [d, dim] : llvm::enumerate(splits)) {
    auto axes = dyn_cast<DenseI32ArrayAttr>(dim);
    if (!axes)
      return emitError() << "layout dimension must be a list of grid axes";
    if (!groups.empty()) {
      int64_t g = groups[d];
      if (g < 1)
        return emitError() << "dimension " << d << " has " << g
                           << " groups; expected at least 1";
      if (g > 1 && axes.empty())
        return emitError() << "dimension " << d << " is factored into " << g
                           << " groups but not split; groups need a split";
    }
    // Ranks are numbered depth-major, then row, then col; a dimension split
    // over several axes lists them in that order, so that its block index
    // is also the rank's index in the group spanning those axes.
    static constexpr int order[3] = {/*row*/ 1, /*col*/ 2, /*depth*/ 0};
    int last = -1;
    for (int32_t a : axes.asArrayRef()) {
      if (a < 0 || a > 2)
        return emitError() << "unknown grid axis " << a;
      if (order[a] < last)
        return emitError() << "the axes of one dimension must be listed in "
                              "the order depth, row, col";
      last = order[a];
      if (seen.test(a))
        return emitError() << "grid axis '"
                           << getAxisName(static_cast<GridAxis>(a))
                           << "' splits more than one dimension";
      seen.set(a);
    }
  }
  if (!groups.empty() &&
      llvm::all_of(groups.asArrayRef(), [](int64_t g) { return g == 1; }))
    return emitError() << "a layout without factored dimensions has an "
                          "empty list of groups";
  return success();
}

/// Parses `[row, col]` (possibly empty) into axis numbers.
static ParseResult parseAxisList(AsmParser &parser,
                                 SmallVectorImpl<int32_t> &axes) {
  return parser.parseCommaSeparatedList(
      AsmParser::Delimiter::Square, [&]() -> ParseResult {
        StringRef name;
        SMLoc loc = parser.getCurrentLocation();
        if (parser.parseKeyword(&name))
          return failure();
        std::optional<GridAxis> axis = symbolizeGridAxis(name);
        if (!axis)
          return parser.emitError(loc)
                 << "unknown grid axis '" << name
                 << "' (expected 'row', 'col' or 'depth')";
        axes.push_back(static_cast<int32_t>(*axis));
        return success();
      });
}

static void printAxisList(AsmPrinter &printer, ArrayRef<int32_t> axes) {
  printer << "[";
  llvm::interleaveComma(axes, printer, [&](int32_t a) {
    printer << getAxisName(static_cast<GridAxis>(a));
  });
  printer << "]";
}

Attribute LayoutAttr::parse(AsmParser &parser, Type) {
  FlatSymbolRefAttr grid;
  SmallVector<Attribute> dims;
  SmallVector<int64_t> groups;
  if (parser.parseLess() || parser.parseAttribute(grid) || parser.parseComma())
    return {};
  if (parser.parseCommaSeparatedList(
          AsmParser::Delimiter::Square,
          [&]() -> ParseResult {
            // `gx[axes]`: a dimension factored into g groups.
            int64_t g = 1;
            OptionalParseResult hasGroups = parser.parseOptionalInteger(g);
            if (hasGroups.has_value() &&
                (failed(*hasGroups) || parser.parseKeyword("x")))
              return failure();
            SmallVector<int32_t> axes;
            if (parseAxisList(parser, axes))
              return failure();
            dims.push_back(DenseI32ArrayAttr::get(parser.getContext(), axes));
            groups.push_back(g);
            return success();
          }) ||
      parser.parseGreater())
    return {};
  if (llvm::all_of(groups, [](int64_t g) { return g == 1; }))
    groups.clear();
  return parser.getChecked<LayoutAttr>(
      parser.getContext(), grid, ArrayAttr::get(parser.getContext(), dims),
      DenseI64ArrayAttr::get(parser.getContext(), groups));
}

void LayoutAttr::print(AsmPrinter &printer) const {
  printer << "<" << getGrid() << ", [";
  llvm::interleaveComma(llvm::enumerate(getSplits()), printer, [&](auto it) {
    int64_t g = getDimGroups(it.index());
    if (g != 1)
      printer << g << "x";
    printAxisList(printer, cast<DenseI32ArrayAttr>(it.value()).asArrayRef());
  });
  printer << "]>";
}

//===----------------------------------------------------------------------===//
// Custom directive used by the op assembly formats: `[row, col]`.
//===----------------------------------------------------------------------===//

namespace mlir::summa {
ParseResult parseGridAxes(OpAsmParser &parser, DenseI32ArrayAttr &axes) {
  SmallVector<int32_t> raw;
  if (parseAxisList(parser, raw))
    return failure();
  axes = DenseI32ArrayAttr::get(parser.getContext(), raw);
  return success();
}

void printGridAxes(OpAsmPrinter &printer, Operation *, DenseI32ArrayAttr axes) {
  printAxisList(printer, axes.asArrayRef());
}
} // namespace mlir::summa
