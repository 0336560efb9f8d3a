//===- MapParallelLoops.cpp - scf.parallel onto blocks and threads -*- C++
//-*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// Implements summa-map-parallel-loops: each outermost scf.parallel of a host
// function is collapsed into one dimension and tiled by the block size; the
// tile loop is mapped to block_x and the loop inside a tile to thread_x, so
// that convert-parallel-loops-to-gpu makes a kernel of `block-size` threads
// with one thread per iteration whatever the op's rank.
//
//===----------------------------------------------------------------------===//

#include "summa/Codegen/Passes.h"

#include "HostCode.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/ParallelLoopMapper.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/Transforms.h"
#include "mlir/Dialect/SCF/Utils/Utils.h"
#include "mlir/IR/PatternMatch.h"
#include "summa/Dialect/Summa/IR/SummaAttrNames.h"

#include <numeric>

namespace mlir::summa {
#define GEN_PASS_DEF_SUMMAMAPPARALLELLOOPS
#include "summa/Codegen/Passes.h.inc"
} // namespace mlir::summa

using namespace mlir;

namespace {

/// Collapses all dimensions of `loop` into one; returns the new loop.
scf::ParallelOp collapseToOneDim(IRRewriter &rewriter, scf::ParallelOp loop) {
  unsigned rank = loop.getNumLoops();
  if (rank == 1)
    return loop;
  std::vector<unsigned> all(rank);
  std::iota(all.begin(), all.end(), 0);
  Operation *next = loop->getNextNode();
  rewriter.setInsertionPoint(loop);
  collapseParallelLoops(rewriter, loop, {all});
  // The collapsed loop is the last scf.parallel created before `next`.
  for (Operation *op = next->getPrevNode(); op; op = op->getPrevNode())
    if (auto collapsed = dyn_cast<scf::ParallelOp>(op))
      return collapsed;
  llvm_unreachable("collapseParallelLoops created no loop");
}

LogicalResult mapLoop(scf::ParallelOp loop, gpu::Processor processor) {
  MLIRContext *ctx = loop.getContext();
  AffineMap id = AffineMap::getMultiDimIdentityMap(1, ctx);
  SmallVector<gpu::ParallelLoopDimMappingAttr> dims(
      loop.getNumLoops(),
      gpu::ParallelLoopDimMappingAttr::get(ctx, processor, id, id));
  return gpu::setMappingAttr(loop, dims);
}

/// A loop of summa-block-reductions: one block per iteration of the
/// (collapsed) outer loop, the nested reduction loop on the block's threads.
LogicalResult mapBlockReduction(IRRewriter &rewriter, scf::ParallelOp loop) {
  loop->removeAttr(summa::kBlockReductionAttrName);
  scf::ParallelOp flat = collapseToOneDim(rewriter, loop);
  SmallVector<scf::ParallelOp> threads;
  for (auto nested : flat.getBody()->getOps<scf::ParallelOp>())
    threads.push_back(nested);
  if (threads.size() != 1 || threads.front().getNumLoops() != 1 ||
      failed(mapLoop(flat, gpu::Processor::BlockX)) ||
      failed(mapLoop(threads.front(), gpu::Processor::ThreadX)))
    return flat.emitError("summa-map-parallel-loops: a block reduction "
                          "needs one nested one-dimensional reduction loop");
  return success();
}

struct SummaMapParallelLoopsPass
    : summa::BlockSizePass<SummaMapParallelLoopsPass,
                           summa::impl::SummaMapParallelLoopsBase> {
  using BlockSizePass::BlockSizePass;

  void runOnHostCode() {
    SmallVector<scf::ParallelOp> outermost =
        summa::collectHostOps<scf::ParallelOp>(getOperation());
    llvm::erase_if(outermost, [](scf::ParallelOp loop) {
      return loop->getParentOfType<scf::ParallelOp>() ||
             loop.getNumReductions();
    });
    IRRewriter rewriter(&getContext());
    for (scf::ParallelOp loop : outermost) {
      if (loop->hasAttr(summa::kBlockReductionAttrName)) {
        if (failed(mapBlockReduction(rewriter, loop)))
          return signalPassFailure();
        continue;
      }
      scf::ParallelOp flat = collapseToOneDim(rewriter, loop);
      auto [blocks, threads] =
          scf::tileParallelLoop(flat, {blockSize}, /*noMinMaxBounds=*/true);
      bool ok = succeeded(mapLoop(blocks, gpu::Processor::BlockX)) &&
                succeeded(mapLoop(threads, gpu::Processor::ThreadX));
      threads.getBody()->walk([&](scf::ParallelOp nested) {
        ok &= succeeded(mapLoop(nested, gpu::Processor::Sequential));
      });
      if (!ok) {
        blocks.emitError("summa-map-parallel-loops: cannot map this loop "
                         "onto GPU blocks and threads");
        return signalPassFailure();
      }
    }
  }
};

} // namespace
