//===- Optimizer.cpp - the update a derived training step ends with ------===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// SGD, SGD with momentum and AdamW as torch.optim computes them, global-norm
// clipping as torch.nn.utils.clip_grad_norm_, nanoGPT's learning-rate
// schedule (get_lr), written as linalg on tensors: scalars as 0-d tensors
// computed once, one elementwise generic per parameter that writes the new
// parameter and its new state together.
//
//===----------------------------------------------------------------------===//

#include "summa/Transforms/Optimizer.h"

#include "summa/Dialect/Summa/IR/ArgumentRole.h"
#include "summa/Dialect/Summa/IR/SummaAttrNames.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

#include <cmath>

using namespace mlir;
using namespace mlir::summa;

std::string OptimizerOptions::validate() const {
  if (kind != "sgd" && kind != "momentum" && kind != "adamw")
    return "optimizer=" + kind + " is not sgd, momentum or adamw";
  if (schedule != "constant" && schedule != "cosine" && schedule != "linear")
    return "schedule=" + schedule + " is not constant, cosine or linear";
  if (!(lr > 0))
    return "the learning rate must be positive (lr=, or sgd-lr=)";
  if (kind == "adamw" &&
      !(beta1 >= 0 && beta1 < 1 && beta2 >= 0 && beta2 < 1 && eps > 0))
    return "adamw needs 0 <= beta1, beta2 < 1 and eps > 0";
  if (weightDecay < 0 || clipNorm < 0 || minLr < 0 || warmup < 0 ||
      decaySteps < 0)
    return "weight-decay, clip-norm, min-lr, warmup and decay-steps must not "
           "be negative";
  if (schedule != "constant" && decaySteps <= warmup)
    return "a schedule needs decay-steps > warmup";
  if (weightDecay > 0 && kind == "momentum")
    return "weight-decay is decoupled (AdamW's): use optimizer=adamw";
  return "";
}

namespace {

/// Builds the step at a builder's insertion point.
class OptimizerBuilder {
public:
  OptimizerBuilder(OpBuilder &b, func::FuncOp func,
                   const OptimizerOptions &options)
      : b(b), func(func), o(options), loc(func.getLoc()) {}
  FailureOr<OptimizerResults> build(ArrayRef<unsigned> params,
                                    ArrayRef<Value> grads);

private:
  /// A 0-d tensor computed by `fn` from the scalars of `inputs`.
  Value scalar(Type element, ValueRange inputs,
               function_ref<Value(OpBuilder &, Location, ValueRange)> fn);
  Value constant(OpBuilder &nb, Location nl, Type t, double v) {
    return arith::ConstantOp::create(nb, nl, nb.getFloatAttr(t, v));
  }
  /// Appends an argument of `type` named `name` (zeros when not given).
  unsigned addArgument(Type type, StringRef name, ArgumentRole role);
  /// nanoGPT's get_lr(it), in f64, from the step counter.
  Value learningRate(Value step);
  /// The global L2 norm of `grads` (f32) and the coefficient they are
  /// scaled by, min(1, max_norm / (norm + 1e-6)).
  std::pair<Value, Value> clipping(ArrayRef<Value> grads);
  /// The new parameter (and state) of parameter argument `p`.
  SmallVector<Value> update(Value p, Value g, ArrayRef<Value> state, bool decay,
                            ArrayRef<Value> scalars);
  /// The state arguments of each parameter (the momentum buffer; AdamW's
  /// moments), appended after every existing argument.
  SmallVector<SmallVector<unsigned>>
  addStateArguments(ArrayRef<unsigned> params);
  /// The f32 scalars every update reads: the learning rate, or AdamW's
  /// decay factor, step size and sqrt of the second bias correction.
  SmallVector<Value> stepScalars(Value lr, Value step);
  /// A 0-d f64 tensor narrowed to f32.
  Value toF32(Value x);
  StringRef nameOf(unsigned arg);

  OpBuilder &b;
  func::FuncOp func;
  const OptimizerOptions &o;
  Location loc;
};

} // namespace

Value OptimizerBuilder::scalar(
    Type element, ValueRange inputs,
    function_ref<Value(OpBuilder &, Location, ValueRange)> fn) {
  auto type = RankedTensorType::get({}, element);
  Value init = tensor::EmptyOp::create(b, loc, ArrayRef<int64_t>{}, element);
  SmallVector<AffineMap> maps(inputs.size() + 1,
                              AffineMap::get(0, 0, b.getContext()));
  return linalg::GenericOp::create(
             b, loc, TypeRange{type}, inputs, ValueRange{init}, maps,
             ArrayRef<utils::IteratorType>{},
             [&](OpBuilder &nb, Location nl, ValueRange args) {
               linalg::YieldOp::create(nb, nl, fn(nb, nl, args.drop_back()));
             })
      .getResult(0);
}

StringRef OptimizerBuilder::nameOf(unsigned arg) {
  if (auto name = func.getArgAttrOfType<StringAttr>(arg, kNameAttrName))
    return name.getValue();
  return {};
}

unsigned OptimizerBuilder::addArgument(Type type, StringRef name,
                                       ArgumentRole role) {
  unsigned index = func.getNumArguments();
  SmallVector<NamedAttribute> attrs = {
      b.getNamedAttr(kNameAttrName, b.getStringAttr(name)),
      b.getNamedAttr(kInitAttrName,
                     b.getStringAttr(stringifyInitKind(InitKind::Zeros))),
      b.getNamedAttr(kRoleAttrName,
                     b.getStringAttr(stringifyArgumentRole(role)))};
  (void)func.insertArgument(index, type, b.getDictionaryAttr(attrs), loc);
  return index;
}

Value OptimizerBuilder::learningRate(Value step) {
  Type f64 = b.getF64Type();
  return scalar(f64, step, [&](OpBuilder &nb, Location nl, ValueRange args) {
    Value it = arith::SIToFPOp::create(nb, nl, f64, args[0]);
    Value lr = constant(nb, nl, f64, o.lr);
    if (o.schedule == "constant")
      return lr;
    Value minLr = constant(nb, nl, f64, o.minLr);
    Value warmup = constant(nb, nl, f64, static_cast<double>(o.warmup));
    Value decaySteps = constant(nb, nl, f64, static_cast<double>(o.decaySteps));
    // it < warmup: lr * (it + 1) / warmup.
    Value warm = arith::DivFOp::create(
        nb, nl,
        arith::MulFOp::create(
            nb, nl, lr,
            arith::AddFOp::create(nb, nl, it, constant(nb, nl, f64, 1.0))),
        warmup);
    // Between: from lr down to min_lr, cosine or linear in the ratio.
    Value ratio = arith::DivFOp::create(
        nb, nl, arith::SubFOp::create(nb, nl, it, warmup),
        arith::SubFOp::create(nb, nl, decaySteps, warmup));
    Value coeff;
    if (o.schedule == "cosine") {
      Value angle =
          arith::MulFOp::create(nb, nl, constant(nb, nl, f64, M_PI), ratio);
      coeff = arith::MulFOp::create(
          nb, nl, constant(nb, nl, f64, 0.5),
          arith::AddFOp::create(nb, nl, constant(nb, nl, f64, 1.0),
                                math::CosOp::create(nb, nl, angle)));
    } else {
      coeff = arith::SubFOp::create(nb, nl, constant(nb, nl, f64, 1.0), ratio);
    }
    Value decayed = arith::AddFOp::create(
        nb, nl, minLr,
        arith::MulFOp::create(nb, nl, coeff,
                              arith::SubFOp::create(nb, nl, lr, minLr)));
    Value inWarmup =
        arith::CmpFOp::create(nb, nl, arith::CmpFPredicate::OLT, it, warmup);
    Value pastDecay = arith::CmpFOp::create(nb, nl, arith::CmpFPredicate::OGT,
                                            it, decaySteps);
    Value later = arith::SelectOp::create(nb, nl, pastDecay, minLr, decayed);
    Value first = o.warmup > 0 ? warm : later;
    return arith::SelectOp::create(nb, nl, inWarmup, first, later).getResult();
  });
}

std::pair<Value, Value> OptimizerBuilder::clipping(ArrayRef<Value> grads) {
  Type f32 = b.getF32Type();
  Value total;
  for (Value g : grads) {
    auto type = cast<RankedTensorType>(g.getType());
    Type element = type.getElementType();
    Value zero = arith::ConstantOp::create(b, loc, b.getFloatAttr(element, 0));
    Value acc =
        linalg::FillOp::create(b, loc, zero,
                               ValueRange{tensor::EmptyOp::create(
                                   b, loc, ArrayRef<int64_t>{}, element)})
            .getResult(0);
    unsigned rank = type.getRank();
    SmallVector<utils::IteratorType> reduction(rank,
                                               utils::IteratorType::reduction);
    Value squares =
        linalg::GenericOp::create(
            b, loc, TypeRange{acc.getType()}, ValueRange{g}, ValueRange{acc},
            ArrayRef<AffineMap>{b.getMultiDimIdentityMap(rank),
                                AffineMap::get(rank, 0, b.getContext())},
            reduction,
            [&](OpBuilder &nb, Location nl, ValueRange args) {
              Value sq = arith::MulFOp::create(nb, nl, args[0], args[0]);
              linalg::YieldOp::create(
                  nb, nl,
                  arith::AddFOp::create(nb, nl, sq, args[1]).getResult());
            })
            .getResult(0);
    // Each gradient's sum of squares, in f32 like torch's norms.
    Value sum = scalar(
        f32, squares,
        [&](OpBuilder &nb, Location nl, ValueRange args) -> Value {
          if (args[0].getType() == f32)
            return args[0];
          return args[0].getType().getIntOrFloatBitWidth() > 32
                     ? arith::TruncFOp::create(nb, nl, f32, args[0]).getResult()
                     : arith::ExtFOp::create(nb, nl, f32, args[0]).getResult();
        });
    total =
        total ? scalar(f32, ValueRange{total, sum},
                       [&](OpBuilder &nb, Location nl, ValueRange args) {
                         return arith::AddFOp::create(nb, nl, args[0], args[1])
                             .getResult();
                       })
              : sum;
  }
  Value norm =
      scalar(f32, total, [&](OpBuilder &nb, Location nl, ValueRange args) {
        return math::SqrtOp::create(nb, nl, args[0]).getResult();
      });
  Value coef =
      scalar(f32, norm, [&](OpBuilder &nb, Location nl, ValueRange args) {
        Value c = arith::DivFOp::create(
            nb, nl, constant(nb, nl, f32, o.clipNorm),
            arith::AddFOp::create(nb, nl, args[0],
                                  constant(nb, nl, f32, 1e-6)));
        return arith::MinimumFOp::create(nb, nl, c, constant(nb, nl, f32, 1.0))
            .getResult();
      });
  return {norm, coef};
}

SmallVector<Value> OptimizerBuilder::update(Value p, Value g,
                                            ArrayRef<Value> state, bool decay,
                                            ArrayRef<Value> scalars) {
  auto type = cast<RankedTensorType>(p.getType());
  unsigned rank = type.getRank();
  Type element = type.getElementType();
  SmallVector<Value> inputs = {p, g};
  llvm::append_range(inputs, state);
  unsigned firstScalar = inputs.size();
  llvm::append_range(inputs, scalars);
  SmallVector<Value> inits;
  SmallVector<Type> types;
  for (unsigned i = 0; i <= state.size(); ++i) {
    inits.push_back(tensor::EmptyOp::create(b, loc, type.getShape(), element));
    types.push_back(type);
  }
  AffineMap id = b.getMultiDimIdentityMap(rank);
  AffineMap none = AffineMap::get(rank, 0, b.getContext());
  SmallVector<AffineMap> maps;
  for (unsigned i = 0; i < inputs.size(); ++i)
    maps.push_back(i < firstScalar ? id : none);
  maps.append(inits.size(), id);
  SmallVector<utils::IteratorType> parallel(rank,
                                            utils::IteratorType::parallel);
  auto body = [&](OpBuilder &nb, Location nl, ValueRange args) {
    auto c = [&](double v) { return constant(nb, nl, element, v); };
    auto mul = [&](Value x, Value y) {
      return arith::MulFOp::create(nb, nl, x, y).getResult();
    };
    auto add = [&](Value x, Value y) {
      return arith::AddFOp::create(nb, nl, x, y).getResult();
    };
    auto sub = [&](Value x, Value y) {
      return arith::SubFOp::create(nb, nl, x, y).getResult();
    };
    Value param = args[0], grad = args[1];
    // The scalars (f32, as torch's step of f32 parameters takes them) in
    // the parameter's element type.
    SmallVector<Value> s;
    for (Value x : args.slice(firstScalar, scalars.size())) {
      unsigned from = x.getType().getIntOrFloatBitWidth();
      unsigned to = element.getIntOrFloatBitWidth();
      s.push_back(
          from == to ? x
          : from < to
              ? arith::ExtFOp::create(nb, nl, element, x).getResult()
              : arith::TruncFOp::create(nb, nl, element, x).getResult());
    }
    // Scalars: lr (sgd, momentum) or decay factor, step size, sqrt of the
    // second bias correction (adamw); then the clipping coefficient.
    if (o.clipNorm > 0)
      grad = mul(grad, s.back());
    SmallVector<Value> out;
    if (o.kind == "sgd") {
      out.push_back(sub(param, mul(s[0], grad)));
    } else if (o.kind == "momentum") {
      Value buf = add(mul(c(o.momentum), args[2]), grad);
      out = {sub(param, mul(s[0], buf)), buf};
    } else {
      Value m = args[2], v = args[3];
      Value decayed = decay ? mul(param, s[0]) : param;
      // exp_avg.lerp_(grad, 1 - beta1); exp_avg_sq.mul_(beta2)
      // .addcmul_(grad, grad, value=1 - beta2).
      Value m1 = add(m, mul(c(1.0 - o.beta1), sub(grad, m)));
      Value v1 =
          add(mul(v, c(o.beta2)), mul(c(1.0 - o.beta2), mul(grad, grad)));
      // denom = exp_avg_sq.sqrt() / sqrt(bias_correction2) + eps;
      // param.addcdiv_(exp_avg, denom, value=-step_size).
      Value denom = add(
          arith::DivFOp::create(nb, nl, math::SqrtOp::create(nb, nl, v1), s[2]),
          c(o.eps));
      Value stepped =
          sub(decayed, mul(s[1], arith::DivFOp::create(nb, nl, m1, denom)));
      out = {stepped, m1, v1};
    }
    linalg::YieldOp::create(nb, nl, out);
  };
  auto op = linalg::GenericOp::create(b, loc, types, inputs, inits, maps,
                                      parallel, body);
  return SmallVector<Value>(op->getResults());
}

SmallVector<SmallVector<unsigned>>
OptimizerBuilder::addStateArguments(ArrayRef<unsigned> params) {
  SmallVector<SmallVector<unsigned>> stateArgs(params.size());
  for (auto [i, p] : llvm::enumerate(params)) {
    Type type = func.getArgument(p).getType();
    std::string base = nameOf(p).str();
    if (base.empty())
      base = "arg" + std::to_string(p);
    if (o.kind == "momentum")
      stateArgs[i].push_back(
          addArgument(type, base + ".momentum_buffer", ArgumentRole::State));
    if (o.kind == "adamw") {
      stateArgs[i].push_back(
          addArgument(type, base + ".exp_avg", ArgumentRole::State));
      stateArgs[i].push_back(
          addArgument(type, base + ".exp_avg_sq", ArgumentRole::State));
    }
  }
  return stateArgs;
}

Value OptimizerBuilder::toF32(Value x) {
  return scalar(
      b.getF32Type(), x, [&](OpBuilder &nb, Location nl, ValueRange args) {
        return arith::TruncFOp::create(nb, nl, nb.getF32Type(), args[0])
            .getResult();
      });
}

SmallVector<Value> OptimizerBuilder::stepScalars(Value lr, Value step) {
  if (o.kind != "adamw")
    return {toF32(lr)};
  Type f64 = b.getF64Type();
  // t = step + 1; torch computes these in Python floats (f64).
  Value decayFactor =
      scalar(f64, lr, [&](OpBuilder &nb, Location nl, ValueRange args) {
        return arith::SubFOp::create(
                   nb, nl, constant(nb, nl, f64, 1.0),
                   arith::MulFOp::create(nb, nl, args[0],
                                         constant(nb, nl, f64, o.weightDecay)))
            .getResult();
      });
  auto biasCorrection = [&](OpBuilder &nb, Location nl, Value stepValue,
                            double beta) {
    Value t = arith::AddFOp::create(
        nb, nl, arith::SIToFPOp::create(nb, nl, f64, stepValue),
        constant(nb, nl, f64, 1.0));
    return arith::SubFOp::create(
               nb, nl, constant(nb, nl, f64, 1.0),
               math::PowFOp::create(nb, nl, constant(nb, nl, f64, beta), t))
        .getResult();
  };
  Value stepSize = scalar(f64, ValueRange{lr, step},
                          [&](OpBuilder &nb, Location nl, ValueRange args) {
                            return arith::DivFOp::create(
                                       nb, nl, args[0],
                                       biasCorrection(nb, nl, args[1], o.beta1))
                                .getResult();
                          });
  Value bc2Sqrt =
      scalar(f64, step, [&](OpBuilder &nb, Location nl, ValueRange args) {
        return math::SqrtOp::create(nb, nl,
                                    biasCorrection(nb, nl, args[0], o.beta2))
            .getResult();
      });
  return {toF32(decayFactor), toF32(stepSize), toF32(bc2Sqrt)};
}

FailureOr<OptimizerResults> OptimizerBuilder::build(ArrayRef<unsigned> params,
                                                    ArrayRef<Value> grads) {
  OptimizerResults results;
  auto updates = [&](unsigned arg) {
    NamedAttrList attrs;
    attrs.append(kUpdatesAttrName, b.getI64IntegerAttr(arg));
    return attrs;
  };
  Type f64 = b.getF64Type();
  SmallVector<SmallVector<unsigned>> stateArgs = addStateArguments(params);
  std::optional<unsigned> stepArg;
  if (o.needsStep())
    stepArg = addArgument(RankedTensorType::get({}, b.getI64Type()), "step",
                          ArgumentRole::Replicated);
  Value step = stepArg ? func.getArgument(*stepArg) : Value();
  // Scalars, once.
  Value lr = step
                 ? learningRate(step)
                 : scalar(f64, {}, [&](OpBuilder &nb, Location nl, ValueRange) {
                     return constant(nb, nl, f64, o.lr);
                   });
  SmallVector<Value> scalars = stepScalars(lr, step);
  Value norm;
  if (o.clipNorm > 0) {
    auto [n, coef] = clipping(grads);
    norm = n;
    scalars.push_back(coef);
  }
  SmallVector<Value> newState;
  SmallVector<NamedAttrList> stateAttrs;
  for (auto [i, p] : llvm::enumerate(params)) {
    Value param = func.getArgument(p);
    SmallVector<Value> state;
    for (unsigned s : stateArgs[i])
      state.push_back(func.getArgument(s));
    auto type = cast<RankedTensorType>(param.getType());
    bool decay = o.weightDecay > 0 && (o.decayAll || type.getRank() >= 2);
    SmallVector<Value> out = update(param, grads[i], state, decay, scalars);
    results.values.push_back(out[0]);
    results.attrs.push_back(updates(p));
    for (auto [s, v] :
         llvm::zip(stateArgs[i], ArrayRef<Value>(out).drop_front())) {
      newState.push_back(v);
      stateAttrs.push_back(updates(s));
    }
  }
  llvm::append_range(results.values, newState);
  llvm::append_range(results.attrs, stateAttrs);
  if (step) {
    results.values.push_back(scalar(
        b.getI64Type(), step, [&](OpBuilder &nb, Location nl, ValueRange args) {
          return arith::AddIOp::create(
                     nb, nl, args[0],
                     arith::ConstantIntOp::create(nb, nl, 1, 64))
              .getResult();
        }));
    results.attrs.push_back(updates(*stepArg));
    NamedAttrList named;
    named.append(kNameAttrName, b.getStringAttr("lr"));
    results.values.push_back(toF32(lr));
    results.attrs.push_back(named);
  }
  if (norm) {
    NamedAttrList named;
    named.append(kNameAttrName, b.getStringAttr("grad_norm"));
    results.values.push_back(norm);
    results.attrs.push_back(named);
  }
  return results;
}

FailureOr<OptimizerResults> mlir::summa::buildOptimizerStep(
    OpBuilder &b, func::FuncOp func, ArrayRef<unsigned> params,
    ArrayRef<Value> grads, const OptimizerOptions &options) {
  if (std::string why = options.validate(); !why.empty())
    return func.emitError() << "summa-differentiate: " << why;
  return OptimizerBuilder(b, func, options).build(params, grads);
}

LogicalResult mlir::summa::returnStep(OpBuilder &b, func::FuncOp func,
                                      Location loc, Value loss,
                                      ArrayRef<unsigned> params,
                                      ArrayRef<Value> grads,
                                      const OptimizerOptions &options,
                                      bool returnGradients) {
  SmallVector<Value> results = {loss};
  if (returnGradients || options.lr <= 0)
    llvm::append_range(results, grads);
  SmallVector<NamedAttrList> attrs(results.size());
  if (options.lr > 0) {
    FailureOr<OptimizerResults> step =
        buildOptimizerStep(b, func, params, grads, options);
    if (failed(step))
      return failure();
    llvm::append_range(results, step->values);
    llvm::append_range(attrs, step->attrs);
  }
  func::ReturnOp::create(b, loc, results);
  // The step's results replace the function's, attributes included (the
  // input's own results, e.g. a step that already trained, had theirs).
  SmallVector<DictionaryAttr> dictionaries;
  for (NamedAttrList &list : attrs)
    dictionaries.push_back(list.getDictionary(func.getContext()));
  func.setFunctionType(FunctionType::get(func.getContext(),
                                         func.getArgumentTypes(),
                                         ValueRange(results).getTypes()));
  func.setAllResultAttrs(dictionaries);
  return success();
}
