//===- ModelInfo.cpp - the model read from the IR ---------------*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// describeModel: what the planner says about the model it plans, read from
// the unpartitioned (normalized) entry function; argumentRole: which
// arguments carry tokens. docs/Planner.md, "What the planner reads from
// the IR", gives the rules:
//
//  * a language model takes token ids: an integer argument that reaches an
//    embedding (a table read inside a linalg body at an index computed
//    from the id, or a product with the one-hot of the ids). Its elements
//    are the tokens ([batch, seq]); the table gives the hidden size, the
//    vocabulary and the element type;
//  * other models take a float activation [tokens, hidden] or
//    [batch, seq, hidden];
//  * weight matrices are float parameter arguments of rank 2 that reach an
//    operand of a linalg.matmul through reshapes, casts and transposes;
//  * layers come from the weight matrices' names where an exporter wrote
//    them with a layer number (h.3.attn.c_attn.weight), else from the
//    period of their shapes in program order (4 per GPT-2 layer with its
//    fused QKV, 6 with separate Q, K and V, 7 for Llama), else one if the
//    function has attention.
//
//===----------------------------------------------------------------------===//

#include "PlannerInternal.h"

#include "summa/Dialect/Summa/IR/ArgumentRole.h"
#include "summa/Dialect/Summa/IR/LayoutRuleInterface.h"
#include "summa/Dialect/Summa/IR/SummaOps.h"
#include "summa/Support/IndexCasts.h"
#include "summa/Support/Sizes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringExtras.h"

#include <map>
#include <set>

using namespace mlir;
using namespace mlir::summa;
using namespace mlir::summa::plan;
using namespace mlir::summa::plan::detail;

ArgRole mlir::summa::plan::detail::argumentRole(func::FuncOp func,
                                                unsigned index) {
  // The layout summa-assign-layouts gives the argument, where known: the
  // batch is split over depth, parameters are replicated over it.
  if (auto layout = func.getArgAttrOfType<LayoutAttr>(index, kLayoutAttrName))
    return llvm::is_contained(layout.getSplitAxes(), GridAxis::depth)
               ? ArgRole::Activation
               : ArgRole::Parameter;
  if (std::optional<ArgumentRole> role = getArgumentRole(func, index))
    return *role == ArgumentRole::Activation ? ArgRole::Activation
                                             : ArgRole::Parameter;
  auto type = dyn_cast<RankedTensorType>(func.getArgumentTypes()[index]);
  if (!type || type.getRank() != 2)
    return ArgRole::Parameter;
  BlockArgument arg = func.getArgument(index);
  bool rhs = llvm::any_of(arg.getUsers(), [&](Operation *user) {
    auto mm = dyn_cast<linalg::MatmulOp>(user);
    return mm && mm.getDpsInputOperand(1)->get() == arg;
  });
  return rhs ? ArgRole::Parameter : ArgRole::Activation;
}

int64_t mlir::summa::plan::detail::matmulFlops(linalg::MatmulOp mm) {
  return 2 * staticLoopIterations(mm);
}

static std::string typeName(Type type) {
  std::string name;
  llvm::raw_string_ostream os(name);
  os << type;
  return name;
}

//===----------------------------------------------------------------------===//
// Following values to the arguments they hold
//===----------------------------------------------------------------------===//

/// The value `v` holds the data of, through data moves (reshapes, casts,
/// slices, transposes, generics that yield their one input converted).
static Value traceSource(Value v) {
  while (std::optional<DataMove> move = getDataMove(v.getDefiningOp()))
    v = move->source->get();
  return v;
}

/// The entry argument `v` is, if it is one.
static BlockArgument entryArgument(func::FuncOp func, Value v) {
  auto arg = dyn_cast<BlockArgument>(v);
  if (!arg || arg.getOwner() != &func.getBody().front())
    return {};
  return arg;
}

/// A float parameter argument of rank 2 (or a float constant) that `v`
/// holds: a weight or a table.
static bool isFloatMatrix(func::FuncOp func, Value v) {
  Value source = traceSource(v);
  auto type = dyn_cast<RankedTensorType>(source.getType());
  if (!type || type.getRank() != 2 || !type.hasStaticShape() ||
      !isa<FloatType>(type.getElementType()))
    return false;
  if (source.getDefiningOp<arith::ConstantOp>())
    return true;
  BlockArgument arg = entryArgument(func, source);
  return arg && argumentRole(func, arg.getArgNumber()) == ArgRole::Parameter;
}

//===----------------------------------------------------------------------===//
// Token ids and the embedding
//===----------------------------------------------------------------------===//

namespace {
struct Embedding {
  BlockArgument ids;
  RankedTensorType table;
  int64_t vocab = 0, hidden = 0;
};
} // namespace

/// The integer argument that carries token ids: the first integer tensor
/// argument with an activation role (ids come before labels in exports).
static BlockArgument findTokenIds(func::FuncOp func) {
  for (BlockArgument arg : func.getArguments()) {
    auto type = dyn_cast<RankedTensorType>(arg.getType());
    if (type && type.hasStaticShape() && type.getRank() >= 1 &&
        type.getRank() <= 2 && isa<IntegerType>(type.getElementType()) &&
        argumentRole(func, arg.getArgNumber()) == ArgRole::Activation)
      return arg;
  }
  return {};
}

/// The vocabulary and hidden size of an embedding that `op` (computed from
/// the ids) implements: a float table read inside its body (the table's
/// dimension whose index depends on the id is the vocabulary), or a
/// product of the one-hot ids with a float table.
static std::optional<std::pair<RankedTensorType, int64_t>>
embeddingTable(func::FuncOp func, Operation *op,
               const llvm::SetVector<Value> &fromIds) {
  if (auto mm = dyn_cast<linalg::MatmulOp>(op)) {
    for (unsigned i = 0; i < 2; ++i) {
      Value table = mm.getDpsInputOperand(i)->get();
      Value other = mm.getDpsInputOperand(1 - i)->get();
      if (!fromIds.contains(other) || !isFloatMatrix(func, table))
        continue;
      // The vocabulary is the dimension the product contracts.
      AffineMap map = mm.getMatchingIndexingMap(mm.getDpsInputOperand(i));
      auto type = cast<RankedTensorType>(table.getType());
      for (unsigned d = 0; d < 2; ++d)
        if (auto dim = dyn_cast<AffineDimExpr>(map.getResult(d));
            dim && dim.getPosition() == 2)
          return std::make_pair(type, d);
    }
    return std::nullopt;
  }
  auto generic = dyn_cast<linalg::GenericOp>(op);
  if (!generic)
    return std::nullopt;
  std::optional<std::pair<RankedTensorType, int64_t>> found;
  generic.getBody()->walk([&](tensor::ExtractOp extract) {
    if (found || !isFloatMatrix(func, extract.getTensor()))
      return;
    // The index computed from a block argument of an input (the id),
    // rather than from linalg.index.
    for (auto [d, index] : llvm::enumerate(extract.getIndices())) {
      auto arg = dyn_cast<BlockArgument>(stripIndexCasts(index));
      if (arg && arg.getOwner() == generic.getBody() &&
          arg.getArgNumber() < generic.getNumDpsInputs()) {
        found = std::make_pair(
            cast<RankedTensorType>(extract.getTensor().getType()),
            static_cast<int64_t>(d));
        return;
      }
    }
  });
  return found;
}

/// The token ids and the first embedding computed from them.
static std::optional<Embedding> findEmbedding(func::FuncOp func) {
  BlockArgument ids = findTokenIds(func);
  if (!ids)
    return std::nullopt;
  Embedding e;
  e.ids = ids;
  // The values computed from the ids, in program order, up to the first
  // embedding.
  llvm::SetVector<Value> fromIds;
  fromIds.insert(ids);
  for (Operation &op : func.getBody().front()) {
    if (!llvm::any_of(op.getOperands(),
                      [&](Value v) { return fromIds.contains(v); }))
      continue;
    if (auto table = embeddingTable(func, &op, fromIds)) {
      e.table = table->first;
      e.vocab = e.table.getDimSize(table->second);
      e.hidden = e.table.getDimSize(1 - table->second);
      return e;
    }
    for (Value r : op.getResults())
      fromIds.insert(r);
  }
  return std::nullopt; // integers that reach no embedding: not token ids
}

//===----------------------------------------------------------------------===//
// Weight matrices and layers
//===----------------------------------------------------------------------===//

/// Whether `op` is a product: a linalg.matmul, or a generic that
/// contracts (a batched product, as summa-normalize leaves them).
static bool isProduct(Operation *op) {
  if (isa<linalg::MatmulOp>(op))
    return true;
  auto generic = dyn_cast<linalg::GenericOp>(op);
  return generic && generic.getNumDpsInputs() == 2 &&
         linalg::isaContractionOpInterface(generic);
}

bool mlir::summa::plan::detail::argumentCarriesTokens(func::FuncOp func,
                                                      unsigned index,
                                                      int64_t tokens) {
  if (std::optional<ArgumentRole> role = getArgumentRole(func, index))
    return *role == ArgumentRole::Activation;
  if (argumentRole(func, index) != ArgRole::Activation)
    return false;
  auto type = dyn_cast<RankedTensorType>(func.getArgumentTypes()[index]);
  if (tokens <= 0 || !type || !type.hasStaticShape())
    return true;
  int64_t leading = 1;
  for (int64_t size : type.getShape()) {
    leading *= size;
    if (leading == tokens)
      return true;
  }
  return false;
}

/// Float matrices (arguments or constants) that reach an operand of a
/// product, in the order of their first use, except arguments that carry
/// tokens.
static SmallVector<Value> findWeightMatrices(func::FuncOp func,
                                             int64_t tokens) {
  llvm::SetVector<Value> weights;
  auto carriesTokens = [&](BlockArgument arg) {
    return argumentCarriesTokens(func, arg.getArgNumber(), tokens);
  };
  func.walk([&](Operation *op) {
    if (!isProduct(op))
      return;
    for (OpOperand &input : cast<linalg::LinalgOp>(op)->getOpOperands()) {
      if (!cast<linalg::LinalgOp>(op).isDpsInput(&input))
        continue;
      Value source = traceSource(input.get());
      auto type = dyn_cast<RankedTensorType>(source.getType());
      if (!type || type.getRank() != 2 || !type.hasStaticShape() ||
          !isa<FloatType>(type.getElementType()))
        continue;
      if (source.getDefiningOp<arith::ConstantOp>())
        weights.insert(source);
      else if (BlockArgument arg = entryArgument(func, source);
               arg && !carriesTokens(arg))
        weights.insert(arg);
    }
  });
  return SmallVector<Value>(weights.begin(), weights.end());
}

/// Layers from names with a layer number ("h.3.attn.c_attn.weight",
/// "layers.0.self_attn.q_proj.weight", "h1.wq"): the distinct numbers after
/// the most common prefix; 0 when the names do not say.
static int64_t layersByName(func::FuncOp func, ArrayRef<Value> weights) {
  std::map<std::string, std::set<int64_t>> numbersByPrefix;
  std::map<std::string, int64_t> matricesByPrefix;
  for (Value w : weights) {
    BlockArgument arg = entryArgument(func, w);
    auto name = arg ? func.getArgAttrOfType<StringAttr>(arg.getArgNumber(),
                                                        kNameAttrName)
                    : StringAttr();
    if (!name)
      continue;
    SmallVector<StringRef> parts;
    name.getValue().split(parts, '.');
    std::string prefix;
    for (StringRef part : parts) {
      // "3" or "h3": a layer number, after an alphabetic stem.
      StringRef stem = part.rtrim("0123456789");
      StringRef digits = part.drop_front(stem.size());
      int64_t number;
      if (!digits.empty() && !digits.getAsInteger(10, number)) {
        std::string key = prefix + stem.str();
        numbersByPrefix[key].insert(number);
        ++matricesByPrefix[key];
        break;
      }
      prefix += part.str() + ".";
    }
  }
  int64_t best = 0, layers = 0;
  for (const auto &[prefix, count] : matricesByPrefix)
    if (count > best) {
      best = count;
      layers = numbersByPrefix[prefix].size();
    }
  // The numbered matrices must be most of them (not one numbered head).
  return 2 * best >= static_cast<int64_t>(weights.size()) ? layers : 0;
}

/// Layers from the shapes of the weight matrices in program order: the
/// smallest period p >= 2 such that the sequence, but for up to two
/// matrices before and after (embeddings, an LM head), is L >= 2
/// repetitions of a block of p shapes, not all equal (identical square
/// matrices say nothing: Q, K, V and O of one layer). 0 if there is none.
static int64_t layersByStructure(ArrayRef<Value> weights) {
  SmallVector<Type> shapes;
  for (Value w : weights)
    shapes.push_back(w.getType());
  int64_t n = shapes.size();
  for (int64_t p = 2; 2 * p <= n; ++p)
    for (int64_t head = 0; head <= 2 && head + 2 * p <= n; ++head) {
      ArrayRef<Type> block = ArrayRef<Type>(shapes).slice(head, p);
      if (llvm::all_equal(block))
        continue;
      int64_t reps = 1;
      while (head + (reps + 1) * p <= n &&
             ArrayRef<Type>(shapes).slice(head + reps * p, p) == block)
        ++reps;
      if (reps >= 2 && n - head - reps * p <= 2)
        return reps;
    }
  return 0;
}

/// Whether `func` has attention: a contraction of two values that are not
/// parameters over a loop that indexes both (heads or batch), as Q*K^T and
/// P*V are after summa-normalize.
static bool hasAttention(func::FuncOp func) {
  bool found = false;
  func.walk([&](linalg::GenericOp op) {
    if (found || op.getNumDpsInputs() != 2 || op.getNumReductionLoops() == 0)
      return;
    AffineMap a = op.getMatchingIndexingMap(op.getDpsInputOperand(0));
    AffineMap b = op.getMatchingIndexingMap(op.getDpsInputOperand(1));
    if (a.getNumResults() < 3 || b.getNumResults() < 3)
      return;
    for (OpOperand *input : op.getDpsInputOperands())
      if (entryArgument(func, traceSource(input->get())))
        return;
    SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
    for (unsigned l = 0; l < op.getNumLoops(); ++l) {
      AffineExpr loop = getAffineDimExpr(l, op.getContext());
      if (iterators[l] == utils::IteratorType::parallel &&
          a.getResultPosition(loop) && b.getResultPosition(loop) &&
          op.getMatchingIndexingMap(op.getDpsInitOperand(0))
              .getResultPosition(loop))
        found = true;
    }
  });
  return found;
}

static void countLayers(func::FuncOp func, ArrayRef<Value> weights,
                        ModelInfo &info) {
  if ((info.layers = layersByName(func, weights))) {
    info.layersFrom = "names";
    return;
  }
  if ((info.layers = layersByStructure(weights))) {
    info.layersFrom = "structure";
    return;
  }
  if (hasAttention(func)) {
    info.layers = 1;
    info.layersFrom = "attention";
  }
}

//===----------------------------------------------------------------------===//
// The description
//===----------------------------------------------------------------------===//

/// Tokens, batch, sequence and hidden size from a float activation
/// argument ([tokens, hidden] or [batch, seq, hidden]; the hidden dimension
/// is the one split over col).
static void readActivation(func::FuncOp func, ModelInfo &info) {
  for (unsigned i = 0; i < func.getNumArguments(); ++i) {
    auto type = dyn_cast<RankedTensorType>(func.getArgumentTypes()[i]);
    if (!type || !type.hasStaticShape() || type.getRank() < 2 ||
        argumentRole(func, i) != ArgRole::Activation)
      continue;
    int64_t hiddenDim = type.getRank() - 1;
    if (auto layout = func.getArgAttrOfType<LayoutAttr>(i, kLayoutAttrName))
      for (unsigned d = 0; d < layout.getRank(); ++d)
        if (llvm::is_contained(layout.getDimSplit(d), GridAxis::col))
          hiddenDim = d;
    info.hidden = type.getDimSize(hiddenDim);
    info.tokens = type.getNumElements() / info.hidden;
    info.elementType = typeName(type.getElementType());
    info.elementBytes = elementStorageBytes(type.getElementType());
    if (type.getRank() == 3 && hiddenDim == 2)
      info.batch = type.getDimSize(0);
    return;
  }
}

/// The batch where a [tokens, ...] value is reshaped into [batch, seq, ...]
/// (seq > 1).
static void readBatchFromReshape(func::FuncOp func, ModelInfo &info) {
  func.walk([&](tensor::ExpandShapeOp expand) {
    auto groups = expand.getReassociationIndices();
    if (info.batch == 0 && !groups.empty() && groups[0].size() > 1 &&
        expand.getSrcType().getRank() >= 2 &&
        expand.getSrcType().getDimSize(0) == info.tokens &&
        expand.getResultType().getDimSize(groups[0][0]) < info.tokens)
      info.batch = expand.getResultType().getDimSize(groups[0][0]);
  });
}

ModelInfo mlir::summa::plan::detail::describeModel(func::FuncOp func) {
  ModelInfo info;
  info.source = "ir";
  info.entry = func.getSymName().str();
  for (unsigned i = 0; i < func.getNumArguments(); ++i) {
    auto type = dyn_cast<RankedTensorType>(func.getArgumentTypes()[i]);
    if (type && type.hasStaticShape() &&
        argumentRole(func, i) == ArgRole::Parameter)
      info.parameters += type.getNumElements();
  }
  if (std::optional<Embedding> e = findEmbedding(func)) {
    auto ids = cast<RankedTensorType>(e->ids.getType());
    info.tokenIds = true;
    info.idType = typeName(ids.getElementType());
    info.tokens = ids.getNumElements();
    info.batch = ids.getRank() == 2 ? ids.getDimSize(0) : 0;
    info.hidden = e->hidden;
    info.vocab = e->vocab;
    info.elementType = typeName(e->table.getElementType());
    info.elementBytes = elementStorageBytes(e->table.getElementType());
  } else {
    readActivation(func, info);
    if (info.batch == 0)
      readBatchFromReshape(func, info);
  }
  SmallVector<Value> weights = findWeightMatrices(func, info.tokens);
  info.weightMatrices = weights.size();
  // The element type of the float weights, where the inputs do not say.
  if ((info.elementType.empty() || info.tokenIds) && !weights.empty()) {
    Type element =
        cast<RankedTensorType>(weights.front().getType()).getElementType();
    info.elementType = typeName(element);
    info.elementBytes = elementStorageBytes(element);
  }
  // Else the first float argument's (a dynamic activation), else the first
  // argument's.
  for (int pass = 0; pass < 2 && info.elementType.empty(); ++pass)
    for (Type type : func.getArgumentTypes()) {
      auto shaped = dyn_cast<ShapedType>(type);
      if (shaped && (pass == 1 || isa<FloatType>(shaped.getElementType()))) {
        info.elementType = typeName(shaped.getElementType());
        info.elementBytes = elementStorageBytes(shaped.getElementType());
        break;
      }
    }
  if (info.batch > 0 && info.tokens % info.batch == 0)
    info.seq = info.tokens / info.batch;
  func.walk([&](linalg::MatmulOp mm) {
    ++info.matmuls;
    info.flops += static_cast<double>(matmulFlops(mm));
  });
  countLayers(func, weights, info);
  return info;
}
