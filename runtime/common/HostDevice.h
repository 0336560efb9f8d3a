//===- HostDevice.h - functions for the host and the device -----*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// SUMMA_HOST_DEVICE marks a function both backends compile: __host__
// __device__ under nvcc, nothing for the host compiler.
//
//===----------------------------------------------------------------------===//

#ifndef SUMMA_RUNTIME_COMMON_HOSTDEVICE_H
#define SUMMA_RUNTIME_COMMON_HOSTDEVICE_H

#if defined(__CUDACC__)
#define SUMMA_HOST_DEVICE __host__ __device__
#else
#define SUMMA_HOST_DEVICE
#endif

#endif // SUMMA_RUNTIME_COMMON_HOSTDEVICE_H
