//===- GemmEpilogues.cpp - a GEMM and its epilogue, one call ----*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// Implements convert-gemm-epilogues-to-runtime: a linalg.matmul that
// overwrites a zero-filled C, and the elementwise linalg.generic that alone
// reads that C, become one summaRtMatmulEpilogue where the generic was:
// D = act(op(A)·op(B) + R + bias). The sums that the generic's body computes
// first from C (a bias along the columns, a residual read at the same
// element) and, where asked, a GeLU of the result are taken into the call;
// the rest of the body, if any, stays a generic reading the call's result.
//
//===----------------------------------------------------------------------===//

#include "summa/Conversion/Passes.h"

#include "GemmOperands.h"
#include "RuntimeABI.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/TypeSwitch.h"

#include <cmath>

namespace mlir::summa {
#define GEN_PASS_DEF_CONVERTGEMMEPILOGUESTORUNTIME
#include "summa/Conversion/Passes.h.inc"
} // namespace mlir::summa

using namespace mlir;
using namespace mlir::summa;

namespace {

/// A GEMM and what of its epilogue goes into one runtime call.
struct Epilogue {
  linalg::MatmulOp matmul;
  linalg::FillOp fill;
  linalg::GenericOp generic;
  /// The generic's inputs: C, and the bias and residual taken into the call.
  unsigned c;
  std::optional<unsigned> bias, residual;
  /// The body's additions taken into the call, in order.
  SmallVector<arith::AddFOp> sums;
  bool gelu = false;
  /// Whether the call computes all of the generic (which then goes).
  bool whole = false;
  /// The SUMMA step loop the GEMM accumulates in, if it does: the sums
  /// then become C's initial value.
  scf::ForOp loop;
  /// The allocation of the generic's output, if the call writes it and it
  /// comes after the GEMM (it moves before it).
  memref::AllocOp allocation;
};

/// Row-major with unit stride along the last dimension (the runtime's
/// leading-dimension form), of rank `rank`.
bool isRowMajor(Value buffer, int64_t rank) {
  auto type = dyn_cast<MemRefType>(buffer.getType());
  SmallVector<int64_t> strides;
  int64_t offset;
  return type && type.getRank() == rank &&
         succeeded(type.getStridesAndOffset(strides, offset)) &&
         strides.back() == 1;
}

/// Whether `op` may touch one of `touched` or write one of `read` (roots
/// of buffers), or has effects that cannot be told: the epilogue's sums
/// cannot then be computed before it.
bool interferes(Operation *op, ArrayRef<Value> touched, ArrayRef<Value> read) {
  std::optional<SmallVector<MemoryEffects::EffectInstance>> effects =
      getEffectsRecursively(op);
  if (!effects)
    return true;
  for (const MemoryEffects::EffectInstance &effect : *effects) {
    if (isa<MemoryEffects::Allocate>(effect.getEffect()))
      continue;
    bool reads = isa<MemoryEffects::Read>(effect.getEffect());
    Value value = effect.getValue();
    if (!value) {
      if (reads)
        continue;
      return true;
    }
    Value root = rootBuffer(value);
    if (llvm::is_contained(touched, root) ||
        (!reads && llvm::is_contained(read, root)))
      return true;
  }
  return false;
}

/// Evaluates `v`, a scalar of the body that depends only on `x`, at `x =
/// at` in f64; nothing if it depends on anything else or on an op this
/// does not know.
std::optional<double> evaluate(Value v, Value x, double at,
                               llvm::DenseMap<Value, double> &memo) {
  if (v == x)
    return at;
  if (auto found = memo.find(v); found != memo.end())
    return found->second;
  Operation *op = v.getDefiningOp();
  if (!op || op->getNumResults() != 1)
    return std::nullopt;
  FloatAttr constant;
  if (matchPattern(v, m_Constant(&constant)))
    return constant.getValueAsDouble();
  IntegerAttr integer;
  if (matchPattern(v, m_Constant(&integer)))
    return static_cast<double>(integer.getInt());
  SmallVector<double, 2> in;
  for (Value operand : op->getOperands()) {
    std::optional<double> value = evaluate(operand, x, at, memo);
    if (!value)
      return std::nullopt;
    in.push_back(*value);
  }
  std::optional<double> out =
      llvm::TypeSwitch<Operation *, std::optional<double>>(op)
          .Case([&](arith::AddFOp) { return in[0] + in[1]; })
          .Case([&](arith::SubFOp) { return in[0] - in[1]; })
          .Case([&](arith::MulFOp) { return in[0] * in[1]; })
          .Case([&](arith::DivFOp) { return in[0] / in[1]; })
          .Case([&](arith::NegFOp) { return -in[0]; })
          .Case<arith::ExtFOp, arith::TruncFOp>([&](auto) { return in[0]; })
          .Case([&](math::TanhOp) { return std::tanh(in[0]); })
          .Case([&](math::ErfOp) { return std::erf(in[0]); })
          .Case([&](math::ExpOp) { return std::exp(in[0]); })
          .Case([&](math::SqrtOp) { return std::sqrt(in[0]); })
          .Case([&](math::AbsFOp) { return std::fabs(in[0]); })
          .Case<math::PowFOp, math::FPowIOp>(
              [&](auto) { return std::pow(in[0], in[1]); })
          .Default([](Operation *) { return std::nullopt; });
  if (out)
    memo[v] = *out;
  return out;
}

/// Whether `y` is GeLU's tanh form of `x` (the activation of cuBLASLt's
/// GELU epilogues), evaluated in f64 at 64 points of [-6, 6]: within an
/// eighth of the body's element type's epsilon of it (its constants are
/// rounded to that type: bf16's 0.796875 for sqrt(2/pi) moves it by up to
/// 3.4e-4), and nearer to it than to GeLU's erf form (4.7e-4 away at most,
/// within bf16's tolerance, so a tolerance alone would take it).
bool isTanhGelu(Value y, Value x) {
  double epsilon = std::ldexp(
      1.0,
      -static_cast<int>(cast<FloatType>(x.getType()).getFPMantissaWidth()));
  double tolerance = std::max(1e-6, epsilon / 8);
  double toTanh = 0, toErf = 0;
  for (int i = 0; i < 64; ++i) {
    double at = -6.0 + 12.0 * i / 63;
    llvm::DenseMap<Value, double> memo;
    std::optional<double> value = evaluate(y, x, at, memo);
    double gelu =
        0.5 * at *
        (1 + std::tanh(0.7978845608028654 * (at + 0.044715 * at * at * at)));
    double erfGelu = 0.5 * at * (1 + std::erf(at * 0.7071067811865476));
    if (!value || std::fabs(*value - gelu) > tolerance * std::max(1.0, gelu))
      return false;
    toTanh += (*value - gelu) * (*value - gelu);
    toErf += (*value - erfGelu) * (*value - erfGelu);
  }
  return toTanh < toErf;
}

/// The sums the epilogue's body computes first from C: `+ bias` along the
/// columns and `+ R` at the same element, each at most once, in any order.
void matchSums(Epilogue &e) {
  linalg::GenericOp g = e.generic;
  Block &body = g.getRegion().front();
  SmallVector<AffineMap> maps = g.getIndexingMapsArray();
  MLIRContext *ctx = g.getContext();
  AffineMap column = AffineMap::get(2, 0, getAffineDimExpr(1, ctx));
  Value out = g.getDpsInitOperand(0)->get();
  Value v = body.getArgument(e.c);
  while (v.hasOneUse()) {
    auto add = dyn_cast<arith::AddFOp>(*v.getUsers().begin());
    if (!add)
      return;
    Value other = add.getLhs() == v ? add.getRhs() : add.getLhs();
    auto arg = dyn_cast<BlockArgument>(other);
    if (other == v || !arg || arg.getOwner() != &body ||
        arg.getArgNumber() >= g.getNumDpsInputs())
      return;
    unsigned input = arg.getArgNumber();
    Value operand = g.getDpsInputOperand(input)->get();
    if (!e.bias && maps[input] == column && isRowMajor(operand, 1) &&
        rootBuffer(operand) != rootBuffer(out))
      e.bias = input;
    else if (!e.residual && input != e.c && maps[input].isIdentity() &&
             isRowMajor(operand, 2) &&
             (operand == out || rootBuffer(operand) != rootBuffer(out)))
      e.residual = input;
    else
      return;
    e.sums.push_back(add);
    v = add.getResult();
  }
}

/// The zero fill of all of C right before `loop`, in which `matmul` is the
/// only op that touches C; null if there is none.
linalg::FillOp zeroFillBeforeLoop(linalg::MatmulOp matmul, scf::ForOp loop) {
  Value c = matmul.getDpsInitOperand(0)->get();
  for (Operation *user : c.getUsers())
    if (user != matmul && loop->isAncestor(user))
      return {};
  Operation *op = loop->getPrevNode();
  while (op && !llvm::is_contained(op->getOperands(), c))
    op = op->getPrevNode();
  auto fill = dyn_cast_or_null<linalg::FillOp>(op);
  if (!fill || fill.getDpsInitOperand(0)->get() != c || !isZeroFill(fill))
    return {};
  return fill;
}

/// Finds `e`'s epilogue, the first op after `producer` (the GEMM or its
/// loop) that reads C, and checks that it is elementwise from C into a
/// buffer of C's shape and that nothing else reads the product.
LogicalResult findEpilogueOp(Epilogue &e, Operation *producer,
                             std::string &why) {
  linalg::MatmulOp matmul = e.matmul;
  Value c = matmul.getDpsInitOperand(0)->get();
  // The epilogue: the first op after the producer that reads C.
  for (Operation *op = producer->getNextNode(); op && !e.generic;
       op = op->getNextNode())
    if (llvm::is_contained(op->getOperands(), c))
      e.generic = dyn_cast<linalg::GenericOp>(op);
  linalg::GenericOp g = e.generic;
  why = "its epilogue is not an elementwise op of C into a buffer of C's "
        "shape";
  if (!g || g.getNumLoops() != 2 || g.getNumParallelLoops() != 2 ||
      g.getNumDpsInits() != 1)
    return failure();
  SmallVector<Value> inputs = g.getDpsInputs();
  if (llvm::count(inputs, c) != 1)
    return failure();
  e.c = llvm::find(inputs, c) - inputs.begin();
  Value out = g.getDpsInitOperand(0)->get();
  Block &body = g.getRegion().front();
  bool inPlace = out == c;
  if (!g.getMatchingIndexingMap(g.getDpsInputOperand(e.c)).isIdentity() ||
      !g.getMatchingIndexingMap(g.getDpsInitOperand(0)).isIdentity() ||
      out.getType() != c.getType() || !isRowMajor(out, 2) ||
      (!inPlace && rootBuffer(out) == rootBuffer(c)) ||
      !body.getArgument(g.getNumDpsInputs()).use_empty())
    return failure();
  // Nothing but the epilogue may read the product: C is a buffer of its
  // own, or the epilogue writes its result back into C (later readers then
  // read the same value).
  for (Operation *user : c.getUsers()) {
    Operation *at = e.fill->getBlock()->findAncestorOpInBlock(*user);
    bool before = at && at->isBeforeInBlock(e.fill);
    bool later = at && g->isBeforeInBlock(at);
    if (user == matmul || user == e.fill || user == g || before ||
        isa<memref::DeallocOp>(user) || (inPlace && later))
      continue;
    why = "C is read by another op than its epilogue";
    return failure();
  }
  if (!inPlace && !c.getDefiningOp<memref::AllocOp>()) {
    why = "C outlives its epilogue (a buffer it does not allocate)";
    return failure();
  }
  return success();
}

/// Checks that what the call (or C's initial value) takes of the epilogue
/// is there and final where it goes.
LogicalResult checkPlacement(Epilogue &e, std::string &why) {
  linalg::MatmulOp matmul = e.matmul;
  linalg::GenericOp g = e.generic;
  Value c = matmul.getDpsInitOperand(0)->get();
  Value out = g.getDpsInitOperand(0)->get();
  bool inPlace = out == c;
  // The call goes where the GEMM is (its operands may be freed right
  // after it), the initial value where the fill was: what they take of the
  // epilogue must be there and final then. The output may be allocated
  // after the GEMM (the allocation moves).
  Operation *at = e.loop ? e.fill.getOperation() : matmul.getOperation();
  SmallVector<Value> touched = {c}, read;
  for (std::optional<unsigned> input : {e.bias, e.residual})
    if (input)
      read.push_back(g.getDpsInputOperand(*input)->get());
  auto madeAfter = [&](Value v) {
    Operation *def = v.getDefiningOp();
    return def && def->getBlock() == at->getBlock() && at->isBeforeInBlock(def);
  };
  if (llvm::any_of(read, madeAfter)) {
    why = "its epilogue reads a value computed after it";
    return failure();
  }
  // A whole epilogue's output is written at `at` (by the call, or, for a
  // loop, as the buffer the steps accumulate into in place of C).
  bool moveOutput = e.whole && !inPlace;
  SmallVector<Value> inLoop;
  if (moveOutput)
    inLoop.push_back(rootBuffer(out));
  if (e.whole) {
    touched.push_back(rootBuffer(out));
    if (madeAfter(out)) {
      e.allocation = out.getDefiningOp<memref::AllocOp>();
      if (!e.allocation || e.allocation->getNumOperands()) {
        why = "its epilogue writes a buffer made after it";
        return failure();
      }
    }
  }
  for (Value &v : read)
    v = rootBuffer(v);
  for (Operation *op = at->getNextNode(); op != g; op = op->getNextNode()) {
    // The loop touches C through the GEMM alone (zeroFillBeforeLoop).
    bool interfering = op == e.loop ? interferes(op, inLoop, read)
                                    : interferes(op, touched, read);
    if (op != e.allocation && op != matmul && interfering) {
      why = "an op between it and its epilogue touches the epilogue's "
            "buffers";
      return failure();
    }
  }
  return success();
}

/// The epilogue of `matmul` that one runtime call computes, or why there
/// is none. A GEMM that accumulates in a loop (SUMMA steps) from a zero
/// fill takes its epilogue's sums as C's initial value instead.
FailureOr<Epilogue> matchEpilogue(linalg::MatmulOp matmul, bool gelu,
                                  std::string &why) {
  Epilogue e;
  e.matmul = matmul;
  if (!matmul.hasPureBufferSemantics() || failed(checkRuntimeGemm(matmul))) {
    why = "not a GEMM the runtime takes";
    return failure();
  }
  // The op whose result the epilogue reads: the GEMM, or its loop.
  Operation *producer = matmul;
  e.fill = zeroFillBefore(matmul);
  if (!e.fill)
    if (auto loop = dyn_cast<scf::ForOp>(matmul->getParentOp()))
      if ((e.fill = zeroFillBeforeLoop(matmul, loop)))
        producer = e.loop = loop;
  if (!e.fill) {
    why = "it accumulates into a C that is not zero-filled before it (or "
          "before its loop)";
    return failure();
  }
  if (failed(findEpilogueOp(e, producer, why)))
    return failure();
  linalg::GenericOp g = e.generic;
  Block &body = g.getRegion().front();
  matchSums(e);
  Value v = e.sums.empty() ? body.getArgument(e.c) : e.sums.back().getResult();
  Value yielded = body.getTerminator()->getOperand(0);
  e.whole = yielded == v && v.hasOneUse();
  if (!e.whole && gelu && !e.loop && isTanhGelu(yielded, v))
    e.gelu = e.whole = true;
  if ((!e.whole || e.loop) && e.sums.empty()) {
    why = "its epilogue does not begin with a bias or residual sum";
    return failure();
  }
  if (failed(checkPlacement(e, why)))
    return failure();
  return e;
}

/// C's initial value for a GEMM that accumulates in a loop: the sums its
/// epilogue took (bias along the columns, residual), where the zero fill
/// was. If they were all of an epilogue into another buffer, the steps
/// accumulate into that buffer instead, and C and the epilogue go.
void emitInitialValue(Epilogue &e) {
  linalg::GenericOp g = e.generic;
  Value c = e.matmul.getDpsInitOperand(0)->get();
  Value out = g.getDpsInitOperand(0)->get();
  bool intoOutput = e.whole && out != c;
  if (e.allocation)
    e.allocation->moveBefore(e.fill);
  OpBuilder b(e.fill);
  Location loc = e.fill.getLoc();
  Value target = intoOutput ? out : c;
  MLIRContext *ctx = b.getContext();
  SmallVector<Value> inputs;
  SmallVector<AffineMap> maps;
  for (std::optional<unsigned> input : {e.bias, e.residual})
    if (input) {
      inputs.push_back(g.getDpsInputOperand(*input)->get());
      maps.push_back(g.getIndexingMapsArray()[*input]);
    }
  maps.push_back(AffineMap::getMultiDimIdentityMap(2, ctx));
  linalg::GenericOp::create(
      b, loc, TypeRange(), inputs, ValueRange{target}, maps,
      SmallVector<utils::IteratorType>(2, utils::IteratorType::parallel),
      [&](OpBuilder &nb, Location loc, ValueRange args) {
        Value sum = args[0];
        if (inputs.size() == 2)
          sum = arith::AddFOp::create(nb, loc, args[0], args[1]);
        linalg::YieldOp::create(nb, loc, sum);
      });
  e.fill.erase();
}

/// `g` without the inputs whose block arguments are no longer used.
void dropUnusedInputs(linalg::GenericOp g) {
  Block &body = g.getRegion().front();
  SmallVector<Value> inputs;
  SmallVector<AffineMap> maps;
  SmallVector<unsigned> unused;
  for (unsigned i = 0; i < g.getNumDpsInputs(); ++i) {
    if (body.getArgument(i).use_empty()) {
      unused.push_back(i);
      continue;
    }
    inputs.push_back(g.getDpsInputOperand(i)->get());
    maps.push_back(g.getIndexingMapsArray()[i]);
  }
  if (unused.empty())
    return;
  maps.push_back(g.getIndexingMapsArray().back());
  OpBuilder b(g);
  auto lean = linalg::GenericOp::create(
      b, g.getLoc(), TypeRange(), inputs, g.getDpsInits(), maps,
      g.getIteratorTypesArray(), /*doc=*/"", /*libraryCall=*/"");
  lean->setDiscardableAttrs(g->getDiscardableAttrDictionary());
  lean.getRegion().takeBody(g.getRegion());
  for (unsigned i : llvm::reverse(unused))
    lean.getRegion().front().eraseArgument(i);
  g.erase();
}

/// Erases C's allocation if it is now only allocated and freed.
void eraseIfUnused(Value c) {
  SmallVector<Operation *> users(c.getUsers());
  if (!c.getDefiningOp<memref::AllocOp>() ||
      !llvm::all_of(users, llvm::IsaPred<memref::DeallocOp>))
    return;
  for (Operation *user : users)
    user->erase();
  c.getDefiningOp()->erase();
}

/// The epilogue without the sums taken out of it: the rest of its body
/// reads C where it read them; nothing if that leaves C written onto
/// itself.
void keepRest(Epilogue &e) {
  linalg::GenericOp g = e.generic;
  Block &body = g.getRegion().front();
  Value c = body.getArgument(e.c);
  e.sums.back().getResult().replaceAllUsesWith(c);
  for (arith::AddFOp sum : llvm::reverse(e.sums))
    sum.erase();
  if (g.getDpsInitOperand(0)->get() == g.getDpsInputOperand(e.c)->get() &&
      body.getTerminator()->getOperand(0) == c) {
    g.erase();
    return;
  }
  dropUnusedInputs(g);
}

/// Replaces the GEMM and what `e` takes of its epilogue by one call of
/// summaRtMatmulEpilogue at the epilogue.
void emitCall(Epilogue &e, ModuleOp module) {
  if (e.loop) {
    emitInitialValue(e);
    Value c = e.matmul.getDpsInitOperand(0)->get();
    Value out = e.generic.getDpsInitOperand(0)->get();
    if (!e.whole || out == c) {
      keepRest(e);
      return;
    }
    e.matmul.getDpsInitOperand(0)->set(out);
    e.generic.erase();
    eraseIfUnused(c);
    return;
  }
  linalg::GenericOp g = e.generic;
  // The output's allocation, if it comes after the GEMM, goes before it.
  if (e.allocation)
    e.allocation->moveBefore(e.matmul);
  OpBuilder b(e.matmul);
  Location loc = e.matmul.getLoc();
  Value c = e.matmul.getDpsInitOperand(0)->get();
  GemmArgs gemm = getGemmArgs(b, loc, e.matmul);
  auto i32 = [&](int64_t v) -> Value {
    return arith::ConstantIntOp::create(b, loc, v, 32);
  };
  Value none = arith::ConstantIndexOp::create(b, loc, 0);
  BufferArgs d = decompose(b, loc, e.whole ? g.getDpsInitOperand(0)->get() : c);
  // An absent residual or bias: a null base (the residual's leading
  // dimension then D's).
  Value ldd = leadingDimension(b, loc, d), ldr = ldd;
  BufferArgs bias = {none, none, {}, {}}, r = {none, none, {}, {}};
  if (e.residual) {
    r = decompose(b, loc, g.getDpsInputOperand(*e.residual)->get());
    ldr = leadingDimension(b, loc, r);
  }
  Value lda = leadingDimension(b, loc, gemm.a);
  Value ldb = leadingDimension(b, loc, gemm.b);
  if (e.bias)
    bias = decompose(b, loc, g.getDpsInputOperand(*e.bias)->get());
  abi::createCall(b, loc, module, abi::kMatmulEpilogue,
                  {i32(gemm.dtype),
                   gemm.a.base,
                   gemm.a.offset,
                   lda,
                   gemm.b.base,
                   gemm.b.offset,
                   ldb,
                   r.base,
                   r.offset,
                   ldr,
                   bias.base,
                   bias.offset,
                   d.base,
                   d.offset,
                   ldd,
                   gemm.m,
                   gemm.n,
                   gemm.k,
                   i32(gemm.transA),
                   i32(gemm.transB),
                   i32(e.gelu ? 1 : 0)});
  e.matmul.erase();
  e.fill.erase();
  if (e.whole) {
    g.erase();
    eraseIfUnused(c);
    return;
  }
  keepRest(e);
}

/// What the remark says was taken of the epilogue, and what is left of it.
std::string describe(const Epilogue &e) {
  SmallVector<std::string> parts;
  if (e.bias)
    parts.push_back("bias");
  if (e.residual)
    parts.push_back("residual");
  if (e.gelu)
    parts.push_back("GeLU");
  std::string text = parts.empty() ? "no sum" : llvm::join(parts, ", ");
  if (e.loop)
    text += " as the initial value of the C it accumulates into over its "
            "loop";
  return text + (e.whole ? " (the whole epilogue)"
                         : " (the rest of the epilogue generated)");
}

struct ConvertGemmEpiloguesToRuntimePass
    : summa::impl::ConvertGemmEpiloguesToRuntimeBase<
          ConvertGemmEpiloguesToRuntimePass> {
  using Base::Base;
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<linalg::MatmulOp> matmuls;
    module.walk([&](linalg::MatmulOp op) { matmuls.push_back(op); });
    // All matched first: each match is checked against the ops as they
    // were, and one call must not hide another's zero fill.
    SmallVector<Epilogue> epilogues;
    for (linalg::MatmulOp matmul : matmuls) {
      std::string why;
      Location loc = matmul.getLoc();
      FailureOr<Epilogue> e = matchEpilogue(matmul, gelu, why);
      if (failed(e)) {
        if (emitRemarks)
          emitRemark(loc) << "GEMM epilogue not fused: " << why;
        continue;
      }
      if (emitRemarks && e->loop)
        emitRemark(loc) << "GEMM epilogue: " << describe(*e);
      else if (emitRemarks)
        emitRemark(loc) << "library: linalg.matmul with " << describe(*e)
                        << " in one runtime GEMM (summaRtMatmulEpilogue: "
                           "cuBLASLt epilogue on the GPU, BLAS on the CPU)";
      epilogues.push_back(*e);
    }
    for (Epilogue &e : epilogues)
      emitCall(e, module);
  }
};

} // namespace
