//===- TMTensor.h - torch-mlir's tm_tensor ops ------------------*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//

#ifndef SUMMA_DIALECT_TMTENSOR_IR_TMTENSOR_H
#define SUMMA_DIALECT_TMTENSOR_IR_TMTENSOR_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "summa/Dialect/TMTensor/IR/TMTensorOpsDialect.h.inc"

#define GET_OP_CLASSES
#include "summa/Dialect/TMTensor/IR/TMTensorOps.h.inc"

#endif // SUMMA_DIALECT_TMTENSOR_IR_TMTENSOR_H
