// Control flow as Python control flow: If becomes `if`, Loop a `while` loop, with the bodies written inline.
#include "codegen/handlers/handler_families.h"

namespace fb::codegen {
namespace {

const ir::Graph* graphAttr(PyNode& p, const char* name) {
  const ir::Attribute* a = p.attr(name);
  if (!a || a->graphs.empty() || !a->graphs[0]) p.unsupported(std::string("no '") + name + "' body");
  return a->graphs[0].get();
}

void registerIf(convert::HandlerRegistry& r) {
  addPy(r, "If", 1, "if bool(cond): then-branch else: else-branch", [](PyNode& p) {
    const ir::Graph* thenG = graphAttr(p, "then_branch");
    const ir::Graph* elseG = graphAttr(p, "else_branch");
    if (thenG->outputs().size() != p.outputCount() || elseG->outputs().size() != p.outputCount())
      p.unsupported("branches and node differ in their number of outputs");
    std::vector<std::string> outs;
    for (size_t i = 0; i < p.outputCount(); ++i) outs.push_back(p.out(i));
    p.line("if bool(" + p.in(0) + "):");
    p.indent();
    auto thenOuts = p.body(*thenG, {});
    for (size_t i = 0; i < outs.size(); ++i) p.line(outs[i] + " = " + thenOuts[i]);
    if (outs.empty()) p.line("pass");
    p.dedent();
    p.line("else:");
    p.indent();
    auto elseOuts = p.body(*elseG, {});
    for (size_t i = 0; i < outs.size(); ++i) p.line(outs[i] + " = " + elseOuts[i]);
    if (outs.empty()) p.line("pass");
    p.dedent();
  });
}

void registerLoop(convert::HandlerRegistry& r) {
  addPy(r, "Loop", 1, "while i < M and cond: body", [](PyNode& p) {
    const ir::Graph* body = graphAttr(p, "body");
    const size_t carried = p.inputCount() >= 2 ? p.inputCount() - 2 : 0;
    if (body->inputs().size() != carried + 2) p.unsupported("the body's inputs do not match the loop-carried values");
    if (body->outputs().size() < carried + 1) p.unsupported("the body's outputs do not match the loop-carried values");
    const size_t scans = body->outputs().size() - 1 - carried;
    std::string trip = p.has(0) ? p.temp("trip_count") : "";
    if (!trip.empty()) p.line(trip + " = int(" + p.in(0) + ")");
    std::string cond = p.temp("cond");
    p.line(cond + " = " + (p.has(1) ? "bool(" + p.in(1) + ")" : std::string("True")));
    std::vector<std::string> state;
    for (size_t k = 0; k < carried; ++k) {
      std::string v = k < p.outputCount() && p.outUsed(k) ? p.out(k) : p.temp("carried");
      p.line(v + " = " + p.in(2 + k));
      state.push_back(v);
    }
    std::vector<std::string> scanLists;
    for (size_t k = 0; k < scans; ++k) {
      scanLists.push_back(p.temp("scan_" + std::to_string(k)));
      p.line(scanLists.back() + " = []");
    }
    std::string i = p.temp("i");
    p.line(i + " = 0");
    p.line("while " + (trip.empty() ? std::string() : i + " < " + trip + " and ") + cond + ":");
    p.indent();
    std::vector<std::string> inputs{"T.tensor(" + i + ", dtype=T.int64)", "T.tensor(" + cond + ")"};
    inputs.insert(inputs.end(), state.begin(), state.end());
    auto outs = p.body(*body, inputs);
    p.line(cond + " = bool(" + outs[0] + ")");
    if (!state.empty()) {
      std::string lhs, rhs;
      for (size_t k = 0; k < carried; ++k) {
        lhs += (k ? ", " : "") + state[k];
        rhs += (k ? ", " : "") + outs[1 + k];
      }
      p.line(lhs + " = " + rhs);
    }
    for (size_t k = 0; k < scans; ++k) p.line(scanLists[k] + ".append(" + outs[1 + carried + k] + ")");
    p.line(i + " += 1");
    p.dedent();
    for (size_t k = 0; k < scans; ++k)
      if (p.outUsed(carried + k)) p.assignOut(carried + k, "T.stack(" + scanLists[k] + ")");
  });
}

}  // namespace

void registerControlFlowCode(convert::HandlerRegistry& r) {
  registerIf(r);
  registerLoop(r);
}

}  // namespace fb::codegen
