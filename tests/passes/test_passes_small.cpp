// Each pass on a graph built for it: the rewrite happens, outputs stay equal (reference kernels), and the
// pass leaves alone the look-alike cases where rewriting would be wrong.
#include <QtTest>

#include <set>

#include "check/onnx_check.h"
#include "passes/pass_registry.h"
#include "passes/rewrite_utils.h"
#include "passes/pass_graph.h"

using fb::passes::nodeList;

using namespace fb;
using namespace fb::test;
using ir::Attribute;
using ir::DataType;

namespace {

// Runs `passes` on a copy and checks: op counts, validity (libonnx checker + strict inference), outputs.
std::unique_ptr<ir::Model> optimize(const ir::Model& m, const std::vector<std::string>& passes,
                                    passes::PassManagerResult* result = nullptr) {
  auto out = m.clone();
  auto r = runPasses(*out, passes);
  if (result) *result = r;
  return out;
}

void expectValid(const ir::Model& m) {
  auto c = checkModel(m);
  std::string msg;
  for (const auto& x : c.messages) msg += x.node + ": " + x.message + "\n";
  QVERIFY2(c.ok, msg.c_str());
}

}  // namespace

class PassesSmall : public QObject {
  Q_OBJECT
 private slots:
  void registryListsEveryPass();
  void unknownPassThrows();
  void eliminateIdentityKeepsOutputNames();
  void eliminateNopDropout();
  void eliminateNopTranspose();
  void eliminateNopPad();
  void eliminateNopCast();
  void eliminateNopReshape();
  void eliminateDeadEnd();
  void unusedAndDuplicateInitializers();
  void extractConstantToInitializer();
  void fuseBnIntoConvThroughIdentities();
  void fuseBnIntoConvNotWhenConvSharedOrTraining();
  void fuseBnIntoConvDropsTheInitializersItReplaced();
  void fuseAddBiasIntoConv();
  void fusePadIntoConv();
  void fuseMatMulAddBiasIntoGemm();
  void fuseTransposeIntoGemm();
  void fuseConsecutiveTransposes();
  void fuseConsecutiveSqueezesBothOpsets();
  void fuseConsecutiveUnsqueezesBothOpsets();
  void fuseConsecutiveReshapes();
  void mergeDuplicates();
  void constantFoldingShapeChain();
  void constantFoldingKeepsUnknownDims();
  void pushTransposesThroughElementwise();
  void pushTransposesNotWithoutInverse();
  void managerReachesFixpointWithStats();
  void managerStopsAtItsCap();
  void subgraphsAreOptimizedAndOuterNamesKept();
  void eliminateDropoutWithRatioZero();
  void constantFoldingShiftedWindowMask();
  void constantFoldingTileSplitGatherElements();
  void fusePadIntoAveragePool();
  void foldingInsideLoopBodies();
  void eliminateNopArithmetic();
  void foldReshapeOfOwnDims();
};

void PassesSmall::registryListsEveryPass() {
  const std::vector<std::string> required = {"eliminate_identity",
                                             "eliminate_nop_dropout",
                                             "eliminate_nop_transpose",
                                             "eliminate_nop_pad",
                                             "eliminate_nop_cast",
                                             "eliminate_nop_reshape",
                                             "eliminate_nop_arithmetic",
                                             "eliminate_deadend",
                                             "eliminate_unused_initializer",
                                             "eliminate_duplicate_initializer",
                                             "extract_constant_to_initializer",
                                             "fuse_bn_into_conv",
                                             "fuse_add_bias_into_conv",
                                             "fuse_pad_into_conv",
                                             "fuse_pad_into_pool",
                                             "fuse_matmul_add_bias_into_gemm",
                                             "fuse_transpose_into_gemm",
                                             "fuse_consecutive_transposes",
                                             "fuse_consecutive_squeezes",
                                             "fuse_consecutive_unsqueezes",
                                             "fuse_consecutive_reshapes",
                                             "merge_duplicates",
                                             "constant_folding",
                                             "fold_reshape_of_own_dims",
                                             "push_transposes_through_elementwise"};
  auto& reg = passes::PassRegistry::instance();
  auto pipeline = reg.defaultPipeline();
  for (const auto& name : required) {
    const auto* info = reg.find(name);
    QVERIFY2(info, name.c_str());
    QVERIFY(!info->description.empty());
    QCOMPARE(std::string(info->create()->name()), name);
    QVERIFY2(std::find(pipeline.begin(), pipeline.end(), name) != pipeline.end(), name.c_str());
  }
  // Registering again (another thread, another caller) must not duplicate anything.
  passes::registerBuiltinPasses();
  QCOMPARE(reg.all().size(), required.size());
}

void PassesSmall::unknownPassThrows() {
  QVERIFY_THROWS_EXCEPTION(std::invalid_argument, passes::PassManager({"no_such_pass"}));
}

void PassesSmall::eliminateIdentityKeepsOutputNames() {
  GraphBuilder b(13);
  auto* x = b.input("x", {2, 3});
  b.node("Relu", {x}, {"r"});
  b.node("Identity", {b.v("r")}, {"i1"});
  b.node("Identity", {b.v("i1")}, {"y"});
  b.node("Identity", {x}, {"z"});  // input -> output: must stay (an output cannot alias an input)
  b.output("y", {2, 3});
  b.output("z", {2, 3});
  auto out = optimize(*b.model, {"eliminate_identity"});
  QCOMPARE(countOp(*out, "Identity"), size_t(1));
  QCOMPARE(out->graph().outputs()[0]->name(), std::string("y"));
  QCOMPARE(out->graph().outputs()[0]->producer()->opType, std::string("Relu"));
  QCOMPARE(out->graph().outputs()[1]->name(), std::string("z"));
  expectValid(*out);
  compareOutputs(*b.model, *out);
}

void PassesSmall::eliminateNopDropout() {
  GraphBuilder b(13);
  auto* x = b.input("x", {4});
  b.node("Dropout", {x}, {"d"});
  auto* t = b.g().addInitializer(ir::Tensor::fromValues<uint8_t>("train", DataType::Bool, {}, std::vector<uint8_t>{1}));
  b.node("Dropout", {b.v("d"), nullptr, t}, {"y"});  // training_mode true: not a no-op
  b.output("y", {4});
  auto out = optimize(*b.model, {"eliminate_nop_dropout"});
  QCOMPARE(countOp(*out, "Dropout"), size_t(1));
  QCOMPARE(out->graph().outputs()[0]->producer()->input(0)->name(), std::string("x"));
}

void PassesSmall::eliminateNopTranspose() {
  GraphBuilder b(13);
  auto* x = b.input("x", {2, 3, 4});
  b.node("Transpose", {x}, {"a"}, {Attribute::makeInts("perm", {0, 1, 2})});
  b.node("Transpose", {b.v("a")}, {"y"}, {Attribute::makeInts("perm", {0, 2, 1})});
  b.output("y", {2, 4, 3});
  auto out = optimize(*b.model, {"eliminate_nop_transpose"});
  QCOMPARE(countOp(*out, "Transpose"), size_t(1));
  QCOMPARE(out->graph().nodes().front()->attrInts("perm"), (std::vector<int64_t>{0, 2, 1}));
  compareOutputs(*b.model, *out);
}

void PassesSmall::eliminateNopPad() {
  for (int opset : {9, 13}) {
    GraphBuilder b(opset);
    auto* x = b.input("x", {1, 2, 3, 3});
    auto padNode = [&](const char* in, const char* out, std::vector<int64_t> pads) {
      if (opset < 11)
        b.node("Pad", {b.v(in)}, {out}, {Attribute::makeInts("pads", pads)});
      else
        b.node("Pad", {b.v(in), b.ints(std::string(out) + "_pads", pads)}, {out});
    };
    (void)x;
    padNode("x", "p0", {0, 0, 0, 0, 0, 0, 0, 0});
    padNode("p0", "y", {0, 0, 1, 0, 0, 0, 1, 0});
    b.output("y", {1, 2, 5, 3});
    auto out = optimize(*b.model, {"eliminate_nop_pad"});
    QCOMPARE(countOp(*out, "Pad"), size_t(1));
    expectValid(*out);
    compareOutputs(*b.model, *out);
  }
}

void PassesSmall::eliminateNopCast() {
  GraphBuilder b(13);
  auto* x = b.input("x", {3});
  b.node("Cast", {x}, {"c"}, {Attribute::makeInt("to", int64_t(DataType::Float))});
  b.node("Cast", {b.v("c")}, {"y"}, {Attribute::makeInt("to", int64_t(DataType::Int64))});
  b.output("y", {3}, DataType::Int64);
  auto out = optimize(*b.model, {"eliminate_nop_cast"});
  QCOMPARE(countOp(*out, "Cast"), size_t(1));
  QCOMPARE(out->graph().nodes().front()->attrInt("to", 0), int64_t(DataType::Int64));
  expectValid(*out);
  compareOutputs(*b.model, *out);
}

void PassesSmall::eliminateNopReshape() {
  GraphBuilder b(13);
  auto* x = b.input("x", {2, 3, 4});
  b.node("Reshape", {x, b.ints("s0", {0, -1, 4})}, {"a"});      // same shape written with 0 and -1
  b.node("Reshape", {b.v("a"), b.ints("s1", {2, 12})}, {"y"});  // a real reshape
  b.output("y", {2, 12});
  auto out = optimize(*b.model, {"eliminate_nop_reshape"});
  QCOMPARE(countOp(*out, "Reshape"), size_t(1));
  QCOMPARE(out->graph().nodes().front()->input(0)->name(), std::string("x"));
  expectValid(*out);
  compareOutputs(*b.model, *out);
}

void PassesSmall::eliminateDeadEnd() {
  GraphBuilder b(13);
  auto* x = b.input("x", {3});
  b.node("Relu", {x}, {"y"});
  b.node("Neg", {x}, {"dead1"});
  b.node("Abs", {b.v("dead1")}, {"dead2"});
  b.output("y", {3});
  passes::PassManagerResult r;
  auto out = optimize(*b.model, {"eliminate_deadend"}, &r);
  QCOMPARE(out->graph().nodeCount(), size_t(1));
  QCOMPARE(r.perPass[0].total.nodesRemoved, size_t(2));
  expectValid(*out);
}

void PassesSmall::unusedAndDuplicateInitializers() {
  GraphBuilder b(13);
  auto* x = b.input("x", {3});
  auto* c1 = b.init("c1", {3}, {1, 2, 3});
  auto* c2 = b.init("c2", {3}, {1, 2, 3});  // same bytes as c1
  auto* c3 = b.init("c3", {3}, {1, 2, 4});  // differs in one element
  b.init("unused", {2}, {5, 6});
  b.node("Add", {x, c1}, {"a"});
  b.node("Mul", {b.v("a"), c2}, {"m"});
  b.node("Sub", {b.v("m"), c3}, {"y"});
  b.output("y", {3});
  auto out = optimize(*b.model, {"eliminate_duplicate_initializer", "eliminate_unused_initializer"});
  QCOMPARE(out->graph().initializers().size(), size_t(2));
  QVERIFY(!out->graph().findValue("unused") || !out->graph().findValue("unused")->initializer());
  auto nodes = nodeList(out->graph());
  QCOMPARE(nodes[0]->input(1), nodes[1]->input(1));
  QVERIFY(nodes[2]->input(1) != nodes[0]->input(1));
  expectValid(*out);
  compareOutputs(*b.model, *out);
}

void PassesSmall::extractConstantToInitializer() {
  GraphBuilder b(13);
  auto* x = b.input("x", {3});
  b.node("Constant", {}, {"k"},
         {Attribute::makeTensor("value",
                                ir::Tensor::fromValues<float>("", DataType::Float, {3}, std::vector<float>{1, 2, 3}))});
  b.node("Constant", {}, {"y2"}, {Attribute::makeFloat("value_float", 2.f)});  // a graph output: stays a node
  b.node("Mul", {x, b.v("k")}, {"y"});
  b.output("y", {3});
  b.output("y2", {});
  auto out = optimize(*b.model, {"extract_constant_to_initializer"});
  QCOMPARE(countOp(*out, "Constant"), size_t(1));
  QVERIFY(out->graph().findValue("k")->initializer());
  expectValid(*out);
  compareOutputs(*b.model, *out);
}

namespace {
// Conv -> (Identity-fed) BatchNormalization -> Relu, as PyTorch's raw export writes it.
GraphBuilder convBn(int opset, bool identities) {
  GraphBuilder b(opset);
  auto* x = b.input("x", {1, 3, 6, 6});
  b.node("Conv", {x, b.random("w", {4, 3, 3, 3}), b.random("cb", {4})}, {"c"},
         {Attribute::makeInts("pads", {1, 1, 1, 1})});
  std::vector<ir::Value*> params = {b.random("gamma", {4}, 0.5f, 1.5f), b.random("beta", {4}), b.random("mean", {4}),
                                    b.random("var", {4}, 0.2f, 2.f)};
  if (identities)
    for (auto& p : params) p = b.node("Identity", {p}, {p->name() + "_id"})->output(0);
  b.node("BatchNormalization", {b.v("c"), params[0], params[1], params[2], params[3]}, {"bn"},
         {Attribute::makeFloat("epsilon", 1e-3f)});
  b.node("Relu", {b.v("bn")}, {"y"});
  b.output("y", {1, 4, 6, 6});
  return b;
}
}  // namespace

void PassesSmall::fuseBnIntoConvThroughIdentities() {
  for (int opset : {9, 13, 15}) {
    GraphBuilder b = convBn(opset, true);
    auto out = optimize(*b.model, {"fuse_bn_into_conv"});
    QCOMPARE(countOp(*out, "BatchNormalization"), size_t(0));
    // provenance: the Conv now stands for both source nodes
    const ir::Node* conv = nullptr;
    for (const auto& n : out->graph().nodes())
      if (n->opType == "Conv") conv = n.get();
    QVERIFY(conv);
    QCOMPARE(conv->origins.size(), size_t(2));
    QCOMPARE(conv->output(0)->name(), std::string("bn"));
    auto clean = optimize(*out, {"eliminate_identity", "eliminate_deadend", "eliminate_unused_initializer"});
    expectValid(*clean);
    compareOutputs(*b.model, *clean);
  }
}

void PassesSmall::fuseBnIntoConvDropsTheInitializersItReplaced() {
  // The Conv's old weight and bias and the four BatchNormalization parameters go with the fusion (on 100k-node
  // graphs they would otherwise stay beside the new weights until eliminate_unused_initializer); a weight
  // something else still reads stays.
  GraphBuilder b = convBn(13, false);
  b.node("Mul", {b.v("mean"), b.v("var")}, {"stats"});  // mean and var stay read
  b.output("stats", {4});
  auto out = optimize(*b.model, {"fuse_bn_into_conv"});
  QCOMPARE(countOp(*out, "BatchNormalization"), size_t(0));
  std::set<std::string> names;
  for (const auto& t : out->graph().initializers()) names.insert(t->name);
  for (const char* gone : {"w", "cb", "gamma", "beta"}) QVERIFY2(!names.count(gone), gone);
  for (const char* kept : {"mean", "var"}) QVERIFY2(names.count(kept), kept);
  QCOMPARE(names.size(), size_t(4));          // mean, var and the fused weight and bias
  QVERIFY(!out->graph().findValue("gamma"));  // the values go too, not only their tensors
  expectValid(*out);
  compareOutputs(*b.model, *out);
}

void PassesSmall::fuseBnIntoConvNotWhenConvSharedOrTraining() {
  {
    GraphBuilder b = convBn(13, false);
    b.node("Sigmoid", {b.v("c")}, {"other"});  // the Conv output has a second reader
    b.output("other", {1, 4, 6, 6});
    auto out = optimize(*b.model, {"fuse_bn_into_conv"});
    QCOMPARE(countOp(*out, "BatchNormalization"), size_t(1));
  }
  {
    GraphBuilder b = convBn(15, false);
    for (const auto& n : b.g().nodes())
      if (n->opType == "BatchNormalization") n->setAttr(Attribute::makeInt("training_mode", 1));
    auto out = optimize(*b.model, {"fuse_bn_into_conv"});
    QCOMPARE(countOp(*out, "BatchNormalization"), size_t(1));
  }
}

void PassesSmall::fuseAddBiasIntoConv() {
  GraphBuilder b(13);
  auto* x = b.input("x", {1, 2, 5, 5});
  b.node("Conv", {x, b.random("w", {3, 2, 3, 3})}, {"c"});
  b.node("Add", {b.random("bias", {3, 1, 1}), b.v("c")}, {"a"});  // per channel, constant first
  b.node("Conv", {b.v("a"), b.random("w2", {3, 3, 1, 1})}, {"c2"});
  b.node("Add", {b.v("c2"), b.random("bias2", {3})}, {"y"});  // [3] aligns with the last axis (W=3): not a bias
  b.output("y", {1, 3, 3, 3});
  auto out = optimize(*b.model, {"fuse_add_bias_into_conv"});
  QCOMPARE(countOp(*out, "Add"), size_t(1));
  QCOMPARE(nodeList(out->graph()).front()->inputs().size(), size_t(3));
  expectValid(*out);
  compareOutputs(*b.model, *out);
}

void PassesSmall::fusePadIntoConv() {
  for (int opset : {9, 13}) {
    GraphBuilder b(opset);
    auto* x = b.input("x", {1, 2, 4, 4});
    auto addPad = [&](const char* in, const char* out, std::vector<int64_t> pads, float value) {
      if (opset < 11)
        b.node("Pad", {b.v(in)}, {out}, {Attribute::makeInts("pads", pads), Attribute::makeFloat("value", value)});
      else
        b.node("Pad", {b.v(in), b.ints(std::string(out) + "_p", pads), b.init(std::string(out) + "_v", {}, {value})},
               {out});
    };
    (void)x;
    addPad("x", "p", {0, 0, 1, 2, 0, 0, 1, 0}, 0.f);
    b.node("Conv", {b.v("p"), b.random("w", {2, 2, 3, 3})}, {"c"}, {Attribute::makeInts("pads", {0, 1, 0, 1})});
    addPad("c", "p2", {0, 0, 1, 1, 0, 0, 1, 1}, 0.5f);  // non-zero fill: must stay
    b.node("Conv", {b.v("p2"), b.random("w2", {2, 2, 1, 1})}, {"y"});
    b.output("y", {1, 2, 6, 8});
    auto out = optimize(*b.model, {"fuse_pad_into_conv"});
    QCOMPARE(countOp(*out, "Pad"), size_t(1));
    QCOMPARE(nodeList(out->graph()).front()->attrInts("pads"), (std::vector<int64_t>{1, 3, 1, 1}));
    expectValid(*out);
    compareOutputs(*b.model, *out);
  }
}

void PassesSmall::fuseMatMulAddBiasIntoGemm() {
  GraphBuilder b(13);
  auto* x = b.input("x", {2, 4});
  auto* x3 = b.input("x3", {2, 2, 4});
  b.node("MatMul", {x, b.random("w", {4, 3})}, {"m"});
  b.node("Add", {b.v("m"), b.random("bias", {3})}, {"y"});
  b.node("MatMul", {x3, b.random("w3", {4, 3})}, {"m3"});  // batched: Gemm cannot take it
  b.node("Add", {b.v("m3"), b.random("bias3", {3})}, {"y3"});
  b.output("y", {2, 3});
  b.output("y3", {2, 2, 3});
  auto out = optimize(*b.model, {"fuse_matmul_add_bias_into_gemm"});
  QCOMPARE(countOp(*out, "Gemm"), size_t(1));
  QCOMPARE(countOp(*out, "MatMul"), size_t(1));
  QCOMPARE(out->graph().outputs()[0]->producer()->opType, std::string("Gemm"));
  QCOMPARE(out->graph().outputs()[0]->producer()->origins.size(), size_t(2));
  expectValid(*out);
  compareOutputs(*b.model, *out);
}

void PassesSmall::fuseTransposeIntoGemm() {
  GraphBuilder b(13);
  auto* x = b.input("x", {4, 2});
  b.node("Transpose", {x}, {"xt"}, {Attribute::makeInts("perm", {1, 0})});
  b.node("Transpose", {b.random("w", {3, 4})}, {"wt"}, {Attribute::makeInts("perm", {1, 0})});
  b.node("Gemm", {b.v("xt"), b.v("wt"), b.random("c", {3})}, {"y"}, {Attribute::makeInt("transB", 0)});
  b.output("y", {2, 3});
  auto out = optimize(*b.model, {"fuse_transpose_into_gemm"});
  QCOMPARE(countOp(*out, "Transpose"), size_t(0));
  auto* g = out->graph().outputs()[0]->producer();
  QCOMPARE(g->attrInt("transA", 0), int64_t(1));
  QCOMPARE(g->attrInt("transB", 0), int64_t(1));
  expectValid(*out);
  compareOutputs(*b.model, *out);
}

void PassesSmall::fuseConsecutiveTransposes() {
  GraphBuilder b(13);
  auto* x = b.input("x", {2, 3, 4});
  b.node("Transpose", {x}, {"a"}, {Attribute::makeInts("perm", {1, 2, 0})});
  b.node("Transpose", {b.v("a")}, {"b"}, {Attribute::makeInts("perm", {2, 0, 1})});  // inverse: both go
  b.node("Transpose", {b.v("b")}, {"c"}, {Attribute::makeInts("perm", {1, 0, 2})});
  b.node("Transpose", {b.v("c")}, {"y"}, {Attribute::makeInts("perm", {0, 2, 1})});  // composes to one
  b.output("y", {3, 4, 2});
  auto out = optimize(*b.model, {"fuse_consecutive_transposes", "eliminate_deadend"});
  QCOMPARE(countOp(*out, "Transpose"), size_t(1));
  QCOMPARE(out->graph().outputs()[0]->name(), std::string("y"));
  expectValid(*out);
  compareOutputs(*b.model, *out);
}

void PassesSmall::fuseConsecutiveSqueezesBothOpsets() {
  for (int opset : {11, 13}) {
    GraphBuilder b(opset);
    auto* x = b.input("x", {1, 3, 1, 4, 1});
    auto sq = [&](const char* in, const char* out, std::vector<int64_t> axes) {
      if (opset < 13)
        b.node("Squeeze", {b.v(in)}, {out}, {Attribute::makeInts("axes", axes)});
      else
        b.node("Squeeze", {b.v(in), b.ints(std::string(out) + "_ax", axes)}, {out});
    };
    (void)x;
    sq("x", "s1", {0, 4});  // -> [3,1,4]
    sq("s1", "y", {-2});    // -> [3,4]; -2 of the intermediate is axis 2 of x
    b.output("y", {3, 4});
    auto out = optimize(*b.model, {"fuse_consecutive_squeezes"});
    QCOMPARE(countOp(*out, "Squeeze"), size_t(1));
    auto* s = out->graph().outputs()[0]->producer();
    auto axes = opset < 13 ? s->attrInts("axes") : *passes::constantInts(s->input(1));
    QCOMPARE(axes, (std::vector<int64_t>{0, 2, 4}));
    expectValid(*out);
    compareOutputs(*b.model, *out);
  }
}

void PassesSmall::fuseConsecutiveUnsqueezesBothOpsets() {
  for (int opset : {11, 13}) {
    GraphBuilder b(opset);
    auto* x = b.input("x", {3, 4});
    auto uq = [&](const char* in, const char* out, std::vector<int64_t> axes) {
      if (opset < 13)
        b.node("Unsqueeze", {b.v(in)}, {out}, {Attribute::makeInts("axes", axes)});
      else
        b.node("Unsqueeze", {b.v(in), b.ints(std::string(out) + "_ax", axes)}, {out});
    };
    (void)x;
    uq("x", "u1", {1});      // -> [3,1,4]
    uq("u1", "y", {0, -1});  // -> [1,3,1,4,1]
    b.output("y", {1, 3, 1, 4, 1});
    auto out = optimize(*b.model, {"fuse_consecutive_unsqueezes"});
    QCOMPARE(countOp(*out, "Unsqueeze"), size_t(1));
    auto* u = out->graph().outputs()[0]->producer();
    auto axes = opset < 13 ? u->attrInts("axes") : *passes::constantInts(u->input(1));
    QCOMPARE(axes, (std::vector<int64_t>{0, 2, 4}));
    expectValid(*out);
    compareOutputs(*b.model, *out);
  }
}

void PassesSmall::fuseConsecutiveReshapes() {
  GraphBuilder b(13);
  auto* x = b.input("x", {2, 3, 4});
  b.node("Reshape", {x, b.ints("s1", {6, 4})}, {"a"});
  b.node("Reshape", {b.v("a"), b.ints("s2", {4, -1})}, {"b"});
  b.node("Reshape", {b.v("b"), b.ints("s3", {0, 3, 2})}, {"y"});  // 0 copies a dim of "b": must stay
  b.output("y", {4, 3, 2});
  auto out = optimize(*b.model, {"fuse_consecutive_reshapes", "eliminate_deadend"});
  QCOMPARE(countOp(*out, "Reshape"), size_t(2));
  QCOMPARE(nodeList(out->graph()).front()->input(0)->name(), std::string("x"));
  expectValid(*out);
  compareOutputs(*b.model, *out);
}

void PassesSmall::mergeDuplicates() {
  GraphBuilder b(13);
  auto* x = b.input("x", {3});
  b.node("Relu", {x}, {"r1"});
  b.node("Relu", {x}, {"r2"});
  b.node("Exp", {b.v("r1")}, {"e1"});
  b.node("Exp", {b.v("r2")}, {"e2"});  // same chain: merges
  b.node("LeakyRelu", {x}, {"l1"}, {Attribute::makeFloat("alpha", 0.1f)});
  b.node("LeakyRelu", {x}, {"l2"}, {Attribute::makeFloat("alpha", 0.2f)});  // other attribute: stays
  b.node("Add", {b.v("e1"), b.v("e2")}, {"s"});
  b.node("Add", {b.v("l1"), b.v("l2")}, {"t"});
  b.node("Mul", {b.v("s"), b.v("t")}, {"y"});
  b.output("y", {3});
  passes::PassManagerResult r;
  auto out = optimize(*b.model, {"merge_duplicates"}, &r);
  QCOMPARE(countOp(*out, "Relu"), size_t(1));
  QCOMPARE(countOp(*out, "Exp"), size_t(1));
  QCOMPARE(countOp(*out, "LeakyRelu"), size_t(2));
  QCOMPARE(r.perPass[0].total.nodesRemoved, size_t(2));
  expectValid(*out);
  compareOutputs(*b.model, *out);
}

void PassesSmall::constantFoldingShapeChain() {
  // x[2,3,4] -> Shape -> Gather(0), Gather(1) -> Unsqueeze -> Concat(-1) -> Reshape: the exporter's pattern
  GraphBuilder b(13);
  auto* x = b.input("x", {2, 3, 4});
  b.node("Shape", {x}, {"sh"});
  b.node("Gather", {b.v("sh"), b.ints("i0", {0}, true)}, {"d0"});
  b.node("Gather", {b.v("sh"), b.ints("i1", {1}, true)}, {"d1"});
  b.node("Mul", {b.v("d0"), b.v("d1")}, {"d01"});
  b.node("Unsqueeze", {b.v("d01"), b.ints("ax", {0})}, {"u"});
  b.node("Concat", {b.v("u"), b.ints("minus1", {-1})}, {"shape"}, {Attribute::makeInt("axis", 0)});
  b.node("Reshape", {x, b.v("shape")}, {"y"});
  b.output("y", {6, 4});
  auto out = optimize(*b.model, {"constant_folding"});
  QCOMPARE(out->graph().nodeCount(), size_t(1));
  QCOMPARE(*passes::constantInts(out->graph().findValue("shape")), (std::vector<int64_t>{6, -1}));
  expectValid(*out);
  compareOutputs(*b.model, *out);
}

void PassesSmall::constantFoldingKeepsUnknownDims() {
  GraphBuilder b(13);
  ir::Value* x = b.g().getOrCreateValue("x");
  x->type = ir::TypeInfo::tensor(DataType::Float, ir::Shape{ir::Dim::named("batch"), ir::Dim::of(8)});
  b.g().addInput(x);
  b.node("Shape", {x}, {"sh"});
  b.node("Gather", {b.v("sh"), b.ints("i0", {0}, true)}, {"batch"});  // symbolic: must stay computed
  b.node("Gather", {b.v("sh"), b.ints("i1", {1}, true)}, {"eight"});  // static: folds to 8
  b.node("Unsqueeze", {b.v("batch"), b.ints("ax0", {0})}, {"ub"});
  b.node("Unsqueeze", {b.v("eight"), b.ints("ax1", {0})}, {"ue"});
  b.node("Concat", {b.v("ub"), b.ints("two", {2}), b.v("ue")}, {"shape"}, {Attribute::makeInt("axis", 0)});
  b.node("Div", {b.v("shape"), b.ints("twos", {1, 1, 2})}, {"half"});
  b.node("Reshape", {x, b.v("half")}, {"y"});
  ir::Value* y = b.g().getOrCreateValue("y");
  y->type = ir::TypeInfo::tensor(DataType::Float, ir::Shape{ir::Dim::named("batch"), ir::Dim::of(2), ir::Dim::of(4)});
  b.g().addOutput(y);
  auto out = optimize(*b.model, {"constant_folding", "eliminate_deadend"});
  QVERIFY(!out->graph().findValue("eight") || out->graph().findValue("eight")->initializer());
  QCOMPARE(countOp(*out, "Gather"), size_t(1));
  QCOMPARE(countOp(*out, "Reshape"), size_t(1));
  QCOMPARE(countOp(*out, "Concat"), size_t(1));
  expectValid(*out);
}

void PassesSmall::pushTransposesThroughElementwise() {
  // NCHW -> NHWC island: Transpose, Relu, Add(per-channel const in NHWC), Mul with another transposed input,
  // Transpose back. After the pass: no Transpose at all, and the constant is in NCHW layout.
  GraphBuilder b(13);
  auto* x = b.input("x", {1, 3, 2, 2});
  auto* z = b.input("z", {1, 3, 2, 2});
  b.node("Transpose", {x}, {"xt"}, {Attribute::makeInts("perm", {0, 2, 3, 1})});
  b.node("Relu", {b.v("xt")}, {"r"});
  b.node("Add", {b.v("r"), b.random("bias", {3})}, {"a"});
  b.node("Transpose", {z}, {"zt"}, {Attribute::makeInts("perm", {0, 2, 3, 1})});
  b.node("Mul", {b.v("zt"), b.v("a")}, {"m"});
  b.node("Clip", {b.v("m"), b.init("lo", {}, {-0.5f}), b.init("hi", {}, {0.5f})}, {"cl"});
  b.node("Transpose", {b.v("cl")}, {"y"}, {Attribute::makeInts("perm", {0, 3, 1, 2})});
  b.output("y", {1, 3, 2, 2});
  auto out = optimize(*b.model, {"push_transposes_through_elementwise"});
  QCOMPARE(countOp(*out, "Transpose"), size_t(0));
  QCOMPARE(out->graph().outputs()[0]->name(), std::string("y"));
  QCOMPARE(out->graph().outputs()[0]->producer()->opType, std::string("Clip"));
  expectValid(*out);
  compareOutputs(*b.model, *out);
}

void PassesSmall::pushTransposesNotWithoutInverse() {
  GraphBuilder b(13);
  auto* x = b.input("x", {1, 3, 2, 2});
  b.node("Transpose", {x}, {"xt"}, {Attribute::makeInts("perm", {0, 2, 3, 1})});
  b.node("Relu", {b.v("xt")}, {"r"});
  b.node("Transpose", {b.v("r")}, {"y"}, {Attribute::makeInts("perm", {0, 2, 3, 1})});  // not the inverse
  b.node("Softmax", {b.v("xt")}, {"s"});  // and a second reader of xt in another branch
  b.output("y", {1, 2, 3, 2});
  b.output("s", {1, 2, 2, 3});
  auto out = optimize(*b.model, {"push_transposes_through_elementwise"});
  QCOMPARE(countOp(*out, "Transpose"), size_t(2));
  QCOMPARE(nodeList(out->graph())[1]->input(0)->name(), std::string("xt"));
}

void PassesSmall::managerReachesFixpointWithStats() {
  GraphBuilder b = convBn(13, true);
  b.node("Identity", {b.v("y")}, {"out"});
  b.g().clearOutputs();
  b.output("out", {1, 4, 6, 6});
  auto m = b.model->clone();
  auto r = runPasses(*m, passes::PassRegistry::instance().defaultPipeline());
  QVERIFY(r.reachedFixpoint);
  QVERIFY(r.iterations >= 2);          // the last round changes nothing, by definition of the fixpoint
  QCOMPARE(r.nodesBefore, size_t(8));  // Conv, 4 Identity, BN, Relu, Identity
  QCOMPARE(r.nodesAfter, size_t(2));   // Conv, Relu
  size_t removed = 0, added = 0;
  for (const auto& p : r.perPass) {
    removed += p.total.nodesRemoved;
    added += p.total.nodesAdded;
    QCOMPARE(p.runs, r.iterations);
  }
  QCOMPARE(r.nodesBefore - removed + added, r.nodesAfter);
  QCOMPARE(m->graph().outputs()[0]->name(), std::string("out"));
  expectValid(*m);
  compareOutputs(*b.model, *m);
}

void PassesSmall::managerStopsAtItsCap() {
  // Identity chain of 3: eliminate_identity removes all in one round, so with a cap of one round the
  // manager cannot know it reached the fixpoint, and says so.
  GraphBuilder b(13);
  auto* x = b.input("x", {2});
  b.node("Identity", {x}, {"a"});
  b.node("Identity", {b.v("a")}, {"c"});
  b.node("Relu", {b.v("c")}, {"y"});
  b.output("y", {2});
  auto m = b.model->clone();
  passes::PassManager pm({"eliminate_identity"}, 1);
  auto r = pm.run(*m);
  QCOMPARE(r.iterations, size_t(1));
  QVERIFY(!r.reachedFixpoint);
  QCOMPARE(r.nodesAfter, size_t(1));
  passes::PassManager again({"eliminate_identity"}, 4);
  auto r2 = again.run(*m);
  QVERIFY(r2.reachedFixpoint);
  QCOMPARE(r2.iterations, size_t(1));
}

void PassesSmall::subgraphsAreOptimizedAndOuterNamesKept() {
  GraphBuilder b(13);
  auto* x = b.input("x", {2, 3});
  auto* cond = b.input("cond", {}, DataType::Bool);
  b.node("Identity", {x}, {"x_id"});  // read by name from the then-branch: must survive
  ir::Node* ifNode = b.node("If", {cond}, {"y"});
  auto branch = [&](const char* name) {
    auto sg = std::make_shared<ir::Graph>(b.g().idSource());
    sg->name = name;
    sg->setOwner(&b.g(), ifNode);
    return sg;
  };
  auto thenG = branch("then");
  {
    ir::Value* xo = thenG->getOrCreateValue("x_id");
    thenG->markOuterScope(xo);
    auto add = [&](const char* op, std::vector<ir::Value*> ins, const char* out, std::vector<Attribute> attrs = {}) {
      ir::Node* n = thenG->addNode(op, ins, {thenG->getOrCreateValue(out)});
      n->attributes = std::move(attrs);
      n->origins = {n->id()};
      return n->output(0);
    };
    auto* c = add("Constant", {}, "two",
                  {Attribute::makeTensor(
                      "value", ir::Tensor::fromValues<float>("", DataType::Float, {}, std::vector<float>{2.f}))});
    auto* r = add("Relu", {xo}, "r");
    auto* i = add("Identity", {r}, "i");
    auto* a = add("Add", {i, c}, "a");
    add("Exp", {r}, "dead");
    auto* out = add("Identity", {a}, "then_out");
    out->type = GraphBuilder::type(DataType::Float, {2, 3});
    thenG->addOutput(out);
  }
  auto elseG = branch("else");
  {
    ir::Value* xo = elseG->getOrCreateValue("x");
    elseG->markOuterScope(xo);
    ir::Node* n = elseG->addNode("Identity", {xo}, {elseG->getOrCreateValue("else_out")});
    n->origins = {n->id()};
    n->output(0)->type = GraphBuilder::type(DataType::Float, {2, 3});
    elseG->addOutput(n->output(0));  // an outer value as a branch output: the Identity must stay
  }
  ifNode->attributes = {Attribute::makeGraph("then_branch", thenG), Attribute::makeGraph("else_branch", elseG)};
  b.output("y", {2, 3});
  auto out = optimize(*b.model, passes::PassRegistry::instance().defaultPipeline());
  const ir::Node* outIf = out->graph().outputs()[0]->producer();
  QCOMPARE(outIf->opType, std::string("If"));
  QCOMPARE(countOp(*out, "Identity"), size_t(1));  // x_id, captured by name
  auto subs = outIf->subgraphs();
  QCOMPARE(subs.size(), size_t(2));
  const ir::Graph* t = subs[0]->name == "then" ? subs[0] : subs[1];
  const ir::Graph* e = subs[0]->name == "then" ? subs[1] : subs[0];
  std::vector<std::string> ops;
  for (const auto& n : t->nodes()) ops.push_back(n->opType);
  QCOMPARE(ops, (std::vector<std::string>{"Relu", "Add"}));
  QCOMPARE(t->outputs()[0]->name(), std::string("then_out"));
  QVERIFY(t->findValue("two")->initializer());
  QCOMPARE(e->nodeCount(), size_t(1));
  expectValid(*out);
}

void PassesSmall::eliminateDropoutWithRatioZero() {
  // PyTorch exports attention dropout with p=0 as Dropout(x, ratio=0, training_mode=true): the identity.
  GraphBuilder b(13);
  auto* x = b.input("x", {4});
  auto* t = b.g().addInitializer(ir::Tensor::fromValues<uint8_t>("train", DataType::Bool, {}, std::vector<uint8_t>{1}));
  b.node("Dropout", {x, b.init("zero", {}, {0.f}), t}, {"d"});
  b.node("Dropout", {b.v("d"), b.init("half", {}, {0.5f}), t}, {"y"});  // ratio 0.5 in training: not a no-op
  b.output("y", {4});
  auto out = optimize(*b.model, {"eliminate_nop_dropout"});
  QCOMPARE(countOp(*out, "Dropout"), size_t(1));
  QCOMPARE(out->graph().outputs()[0]->producer()->input(0)->name(), std::string("x"));
  expectValid(*out);
}

void PassesSmall::constantFoldingShiftedWindowMask() {
  // swin_t's shifted-window mask: ConstantOfShape, then ScatterND writing region ids into slices, then
  // Sub/Equal/Not/Where on the result. Every value is fixed, so all of it folds.
  GraphBuilder b(13);
  auto* x = b.input("x", {2, 4});
  auto zero = ir::Tensor::fromValues<float>("", DataType::Float, {1}, std::vector<float>{0.f});
  b.node("ConstantOfShape", {b.ints("shape", {2, 4})}, {"img"}, {Attribute::makeTensor("value", zero)});
  b.node("ScatterND", {b.v("img"), b.ints("row1", {1}), b.init("ones", {1, 4}, {1, 1, 1, 1})}, {"regions"});
  b.v("row1")->initializer()->dims = {1, 1};
  b.node("ScatterND", {b.v("regions"), b.ints("cell", {0, 3}), b.init("two", {1}, {2.f})}, {"regions2"});
  b.v("cell")->initializer()->dims = {1, 2};
  b.node("Sub", {b.v("regions2"), b.init("one", {}, {1.f})}, {"diff"});
  b.node("Equal", {b.v("diff"), b.init("z", {}, {0.f})}, {"same"});
  b.node("Not", {b.v("same")}, {"other"});
  b.node("Where", {b.v("other"), b.init("neg", {}, {-100.f}), b.init("zf", {}, {0.f})}, {"mask"});
  b.node("Add", {x, b.v("mask")}, {"y"});
  b.output("y", {2, 4});
  auto out = optimize(*b.model, {"constant_folding", "eliminate_deadend"});
  QCOMPARE(out->graph().nodeCount(), size_t(1));
  const ir::Tensor* mask = passes::constantTensor(out->graph().findValue("mask"));
  QVERIFY(mask);
  // Row 0 is region 0 except its last cell (2); row 1 is region 1: only region 1 is "the same".
  QCOMPARE(mask->values<float>(), (std::vector<float>{-100, -100, -100, -100, 0, 0, 0, 0}));
  expectValid(*out);
  compareOutputs(*b.model, *out);
}

void PassesSmall::constantFoldingTileSplitGatherElements() {
  GraphBuilder b(13);
  auto* x = b.input("x", {2, 2, 2});
  b.node("Tile", {b.ints("base", {2, 1}), b.ints("reps", {2})}, {"tiled"});            // [2,1,2,1]
  b.node("Split", {b.v("tiled"), b.ints("sizes", {3, 1})}, {"head", "tail"});          // [2,1,2] [1]
  b.node("GatherElements", {b.v("head"), b.ints("order", {1, 0, 2, 2})}, {"picked"});  // [1,2,2,2]
  b.node("Mul", {b.v("picked"), b.v("tail")}, {"shape"});
  b.node("Reshape", {x, b.v("shape")}, {"y"});
  b.output("y", {1, 2, 2, 2});
  auto out = optimize(*b.model, {"constant_folding", "eliminate_deadend"});
  QCOMPARE(out->graph().nodeCount(), size_t(1));
  QCOMPARE(*passes::constantInts(out->graph().findValue("shape")), (std::vector<int64_t>{1, 2, 2, 2}));
  expectValid(*out);
  compareOutputs(*b.model, *out);
}

void PassesSmall::fusePadIntoAveragePool() {
  for (int opset : {9, 13}) {
    GraphBuilder b(opset);
    auto* x = b.input("x", {1, 2, 5, 5});
    auto addPad = [&](const char* in, const char* out, std::vector<int64_t> pads) {
      if (opset < 11)
        b.node("Pad", {b.v(in)}, {out}, {Attribute::makeInts("pads", pads)});
      else
        b.node("Pad", {b.v(in), b.ints(std::string(out) + "_p", pads)}, {out});
    };
    (void)x;
    auto pool = [](std::vector<Attribute> more) {
      std::vector<Attribute> a = {Attribute::makeInts("kernel_shape", {3, 3}), Attribute::makeInts("strides", {1, 1})};
      a.insert(a.end(), more.begin(), more.end());
      return a;
    };
    addPad("x", "p", {0, 0, 1, 1, 0, 0, 1, 1});  // PyTorch's avg_pool2d(padding=1)
    b.node("AveragePool", {b.v("p")}, {"a"}, pool({}));
    // A pool with pads of its own that it does not count: fusing would count them, so it stays.
    addPad("a", "p2", {0, 0, 1, 0, 0, 0, 0, 1});
    b.node("AveragePool", {b.v("p2")}, {"a2"}, pool({Attribute::makeInts("pads", {1, 1, 1, 1})}));
    // MaxPool: a zero Pad can win a max, MaxPool's own pads never do.
    addPad("a2", "p3", {0, 0, 1, 1, 0, 0, 1, 1});
    b.node("MaxPool", {b.v("p3")}, {"y"}, pool({}));
    b.output("y", {1, 2, 6, 6});
    auto out = optimize(*b.model, {"fuse_pad_into_pool"});
    QCOMPARE(countOp(*out, "Pad"), size_t(2));
    const ir::Node* fused = out->graph().findValue("a")->producer();
    QCOMPARE(fused->input(0)->name(), std::string("x"));
    QCOMPARE(fused->attrInts("pads"), (std::vector<int64_t>{1, 1, 1, 1}));
    QCOMPARE(fused->attrInt("count_include_pad", 0), int64_t(1));
    expectValid(*out);
    compareOutputs(*b.model, *out);
  }
}

void PassesSmall::foldingInsideLoopBodies() {
  // A Loop body that reads constants of the main graph: arithmetic on them folds inside the body, and an
  // Identity of one that is a body output becomes a body initializer under the output's name.
  GraphBuilder b(13);
  auto* x = b.input("x", {2});
  b.ints("limit", {3}, true);
  b.g().addInitializer(ir::Tensor::fromValues<uint8_t>("go", DataType::Bool, {}, std::vector<uint8_t>{1}));
  b.init("step", {2}, {1.f, 2.f});
  ir::Node* loop = b.node("Loop", {b.v("limit"), b.v("go"), x}, {"y"});
  auto body = std::make_shared<ir::Graph>(b.g().idSource());
  body->name = "body";
  body->setOwner(&b.g(), loop);
  auto bodyInput = [&](const char* name, ir::TypeInfo t) {
    ir::Value* v = body->getOrCreateValue(name);
    v->type = t;
    body->addInput(v);
    return v;
  };
  bodyInput("i", GraphBuilder::type(DataType::Int64, {}));
  bodyInput("cond_in", GraphBuilder::type(DataType::Bool, {}));
  ir::Value* acc = bodyInput("acc", GraphBuilder::type(DataType::Float, {2}));
  auto outer = [&](const char* name) {
    ir::Value* v = body->getOrCreateValue(name);
    body->markOuterScope(v);
    return v;
  };
  auto add = [&](const char* op, std::vector<ir::Value*> ins, const char* out) {
    ir::Node* n = body->addNode(op, ins, {body->getOrCreateValue(out)});
    n->origins = {n->id()};
    return n->output(0);
  };
  ir::Value* doubled = add("Add", {outer("step"), outer("step")}, "doubled");
  ir::Value* next = add("Add", {acc, doubled}, "acc_out");
  ir::Value* cond = add("Identity", {outer("go")}, "cond_out");
  cond->type = GraphBuilder::type(DataType::Bool, {});
  next->type = GraphBuilder::type(DataType::Float, {2});
  body->addOutput(cond);
  body->addOutput(next);
  loop->attributes = {Attribute::makeGraph("body", body)};
  b.output("y", {2});
  auto out = optimize(*b.model, passes::PassRegistry::instance().defaultPipeline());
  const ir::Graph* g = out->graph().nodes().front()->subgraphs().at(0);
  QCOMPARE(g->nodeCount(), size_t(1));  // acc + doubled
  QCOMPARE(g->outputs()[0]->name(), std::string("cond_out"));
  QVERIFY(g->outputs()[0]->initializer());
  QVERIFY(g->findValue("doubled")->initializer());
  QCOMPARE(g->findValue("doubled")->initializer()->values<float>(), (std::vector<float>{2.f, 4.f}));
  expectValid(*out);
}

void PassesSmall::eliminateNopArithmetic() {
  GraphBuilder b(13);
  auto* x = b.input("x", {2, 3});
  b.node("Mul", {x, b.init("one", {}, {1.f})}, {"a"});                  // x * 1
  b.node("Sub", {b.v("a"), b.init("zero", {1}, {0.f})}, {"c"});         // a - [0], a of rank 2: a
  b.node("Div", {b.v("c"), b.init("one1", {1, 1}, {1.f})}, {"d"});      // rank 2 constant on rank 2: c
  b.node("Add", {b.init("zero2", {}, {0.f}), b.v("d")}, {"e"});         // float 0 + d: -0 would become +0, stays
  b.node("Sub", {b.init("zero3", {}, {0.f}), b.v("e")}, {"f"});         // 0 - e is -e: stays
  b.node("Mul", {b.v("f"), b.init("two", {}, {2.f})}, {"g"});           // not neutral: stays
  b.node("Mul", {b.v("g"), b.init("ones3", {1, 1, 1}, {1.f})}, {"y"});  // would make the result rank 3: stays
  b.output("y", {1, 2, 3});
  auto out = optimize(*b.model, {"eliminate_nop_arithmetic"});
  QCOMPARE(out->graph().nodeCount(), size_t(4));
  QCOMPARE(out->graph().findValue("e")->producer()->input(1)->name(), std::string("x"));
  expectValid(*out);
  compareOutputs(*b.model, *out);
  // Shape arithmetic (int64) on a symbolic dim: n + 0 goes, and [1] * n once inference (which constant_folding
  // asks for) gives n's rank; a graph output keeps its name, computed by n's producer.
  GraphBuilder o(13);
  ir::Value* in = o.g().getOrCreateValue("in");
  in->type = ir::TypeInfo::tensor(DataType::Float, ir::Shape{ir::Dim::named("batch"), ir::Dim::of(5)});
  o.g().addInput(in);
  o.node("Shape", {in}, {"s"});
  o.node("Add", {o.v("s"), o.ints("z", {0}, true)}, {"s0"});
  o.node("Mul", {o.ints("one", {1}), o.v("s0")}, {"out"});
  o.output("out", {2}, DataType::Int64);
  auto out2 = optimize(*o.model, {"constant_folding", "eliminate_nop_arithmetic", "eliminate_deadend"});
  QCOMPARE(out2->graph().nodeCount(), size_t(1));
  QCOMPARE(out2->graph().outputs()[0]->producer()->opType, std::string("Shape"));
  QCOMPARE(out2->graph().outputs()[0]->name(), std::string("out"));
  expectValid(*out2);
}

void PassesSmall::foldReshapeOfOwnDims() {
  // x [batch, 4, 6] -> Reshape(x, [Shape(x)[0], 24]) with a symbolic batch: the target becomes [0, 24].
  GraphBuilder b(13);
  ir::Value* x = b.g().getOrCreateValue("x");
  x->type = ir::TypeInfo::tensor(DataType::Float, ir::Shape{ir::Dim::named("batch"), ir::Dim::of(4), ir::Dim::of(6)});
  b.g().addInput(x);
  b.node("Relu", {x}, {"r"});  // r's batch comes from x's by inference
  b.node("Shape", {x}, {"sh"});
  b.node("Gather", {b.v("sh"), b.ints("i0", {0}, true)}, {"n"});
  b.node("Unsqueeze", {b.v("n"), b.ints("ax", {0})}, {"un"});
  b.node("Concat", {b.v("un"), b.ints("rest", {24})}, {"target"}, {Attribute::makeInt("axis", 0)});
  b.node("Reshape", {b.v("r"), b.v("target")}, {"y"});
  // The same target on a tensor whose first dim is another one: must stay computed.
  ir::Value* z = b.g().getOrCreateValue("z");
  z->type = ir::TypeInfo::tensor(DataType::Float, ir::Shape{ir::Dim::named("other"), ir::Dim::of(24)});
  b.g().addInput(z);
  b.node("Reshape", {z, b.v("target")}, {"y2"});
  for (const char* name : {"y", "y2"}) {
    ir::Value* y = b.g().getOrCreateValue(name);
    y->type = ir::TypeInfo::tensor(DataType::Float, ir::Shape{ir::Dim::named("batch"), ir::Dim::of(24)});
    b.g().addOutput(y);
  }
  auto out = optimize(*b.model, {"fold_reshape_of_own_dims", "eliminate_deadend"});
  const ir::Node* r1 = out->graph().findValue("y")->producer();
  QCOMPARE(*passes::constantInts(r1->input(1)), (std::vector<int64_t>{0, 24}));
  QCOMPARE(out->graph().findValue("y2")->producer()->input(1)->name(), std::string("target"));
  QCOMPARE(countOp(*out, "Shape"), size_t(1));  // still read by the second Reshape
  expectValid(*out);
  compareOutputs(*b.model, *out);
}

QTEST_GUILESS_MAIN(PassesSmall)
#include "test_passes_small.moc"
