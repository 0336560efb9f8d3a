//===- SaveConstants.cpp - lifted constants to a tensor file ----*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//

#include "SaveConstants.h"

#include "TensorFile.h"
#include "summa/Runtime/SummaRuntime.h"
#include "summa/Support/RuntimeDType.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectResourceBlobManager.h"

using namespace mlir;
using namespace mlir::summa;

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
    int32_t dtype = getFloatDTypeCode(type.getElementType());
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
