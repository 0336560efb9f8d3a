//===- SaveConstants.cpp - lifted constants to a tensor file ----*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//

#include "SaveConstants.h"

#include "TensorFile.h"
#include "summa/Runtime/SummaRuntime.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectResourceBlobManager.h"

using namespace mlir;
using namespace mlir::summa;

/// The runtime's element type code of `type`, or -1.
static int32_t dtypeOf(Type type) {
  if (type.isF32())
    return SUMMA_DT_F32;
  if (type.isF64())
    return SUMMA_DT_F64;
  if (type.isF16())
    return SUMMA_DT_F16;
  if (type.isBF16())
    return SUMMA_DT_BF16;
  return -1;
}

/// The row-major bytes of `value`, or none.
static std::optional<ArrayRef<char>> bytesOf(ElementsAttr value) {
  if (auto resource = dyn_cast<DenseResourceElementsAttr>(value)) {
    AsmResourceBlob *blob = resource.getRawHandle().getBlob();
    if (!blob)
      return std::nullopt;
    return blob->getData();
  }
  if (auto dense = dyn_cast<DenseElementsAttr>(value);
      dense && !dense.isSplat())
    return dense.getRawData();
  return std::nullopt;
}

LogicalResult mlir::summa::saveConstants(StringRef path,
                                         ArrayRef<LiftedConstant> constants,
                                         Location fileLoc) {
  std::vector<::summa::rt::driver::TensorToWrite> records;
  for (const LiftedConstant &constant : constants) {
    auto type = cast<ShapedType>(constant.value.getType());
    int32_t dtype = dtypeOf(type.getElementType());
    std::optional<ArrayRef<char>> bytes = bytesOf(constant.value);
    size_t want = type.getNumElements() * (type.getElementTypeBitWidth() / 8);
    if (dtype < 0 || !bytes || bytes->size() != want)
      return emitError(fileLoc)
             << "--save-constants: the value of constant '" << constant.name
             << "' (" << type << ") cannot be written"
             << (bytes ? "" : " (its resource blob is not in the file)");
    ::summa::rt::driver::TensorToWrite record;
    record.name = constant.name;
    record.dtype = dtype;
    record.shape.assign(type.getShape().begin(), type.getShape().end());
    record.data = bytes->data();
    record.bytes = bytes->size();
    records.push_back(std::move(record));
  }
  std::string error;
  if (!::summa::rt::driver::writeSafetensors(path.str(), records, error))
    return emitError(fileLoc) << "--save-constants: " << error;
  return success();
}
