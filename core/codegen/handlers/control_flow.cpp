// Control flow as Python control flow: If becomes `if`, Loop a `while` loop, Scan a `for` loop, with the bodies
// written inline.
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
    // The body's outputs may be its own inputs (the state variables): read the scan outputs before the
    // state changes, then update the condition and the state in one assignment.
    for (size_t k = 0; k < scans; ++k) p.line(scanLists[k] + ".append(" + outs[1 + carried + k] + ")");
    std::string lhs = cond, rhs = "bool(" + outs[0] + ")";
    for (size_t k = 0; k < carried; ++k) {
      lhs += ", " + state[k];
      rhs += ", " + outs[1 + k];
    }
    p.line(lhs + " = " + rhs);
    p.line(i + " += 1");
    p.dedent();
    for (size_t k = 0; k < scans; ++k)
      if (p.outUsed(carried + k)) p.assignOut(carried + k, "T.stack(" + scanLists[k] + ")");
  });
}

// Scan as a Python for loop over the scan axis: each step binds the state variables and one slice of every
// scan input to the body's inputs; the body's scan outputs are collected and stacked afterwards.
// The end of one scan step: the body's scan outputs are appended to their lists and its carried outputs
// become the next step's state (one tuple assignment, so a state read later in the body sees the old value).
void endScanStep(PyNode& p, const std::vector<std::string>& outs, const std::vector<std::string>& state,
                 const std::vector<std::string>& lists) {
  const size_t carried = state.size();
  for (size_t k = 0; k < lists.size(); ++k) p.line(lists[k] + ".append(" + outs[carried + k] + ")");
  if (!carried) return;
  std::string lhs, rhs;
  for (size_t k = 0; k < carried; ++k) {
    lhs += (k ? ", " : "") + state[k];
    rhs += (k ? ", " : "") + outs[k];
  }
  p.line(lhs + " = " + rhs);
}

void registerScan(convert::HandlerRegistry& r) {
  addPy(r, "Scan", 9, "for t in range(length): body; scan outputs stacked", [](PyNode& p) {
    const ir::Graph* body = graphAttr(p, "body");
    const int64_t m = p.attrInt("num_scan_inputs", 0);
    if (m <= 0 || static_cast<size_t>(m) > p.inputCount()) p.unsupported("num_scan_inputs out of range");
    const size_t scanIn = static_cast<size_t>(m), carried = p.inputCount() - scanIn;
    if (body->inputs().size() != p.inputCount()) p.unsupported("the body's inputs do not match the node's");
    if (body->outputs().size() != p.outputCount() || p.outputCount() < carried)
      p.unsupported("the body's outputs do not match the node's");
    const size_t scanOut = p.outputCount() - carried;
    auto attrOr = [&](const char* name, size_t n) {
      std::vector<int64_t> v = p.attrInts(name);
      if (v.empty()) v.assign(n, 0);
      if (v.size() != n) p.unsupported(std::string(name) + " has the wrong length");
      return v;
    };
    const auto inAxes = attrOr("scan_input_axes", scanIn), inDirs = attrOr("scan_input_directions", scanIn);
    const auto outAxes = attrOr("scan_output_axes", scanOut), outDirs = attrOr("scan_output_directions", scanOut);

    std::vector<std::string> state, xs, lists;
    for (size_t k = 0; k < carried; ++k) {
      std::string v = p.outUsed(k) ? p.out(k) : p.temp("state");
      p.line(v + " = " + p.in(k));
      state.push_back(v);
    }
    for (size_t j = 0; j < scanIn; ++j) xs.push_back(p.in(carried + j));
    for (size_t k = 0; k < scanOut; ++k) {
      lists.push_back(p.temp("scan_" + std::to_string(k)));
      p.line(lists.back() + " = []");
    }
    std::string length = p.temp("length");
    p.line(length + " = " + xs[0] + ".shape[" + pyInt(inAxes[0]) + "]");
    std::string t = p.temp("t");
    p.line("for " + t + " in range(" + length + "):");
    p.indent();
    std::vector<std::string> inputs = state;
    for (size_t j = 0; j < scanIn; ++j) {
      std::string at = inDirs[j] ? length + " - 1 - " + t : t;  // direction 1 walks from the end
      inputs.push_back(inAxes[j] == 0 ? xs[j] + "[" + at + "]"
                                      : "T.select(" + xs[j] + ", " + pyInt(inAxes[j]) + ", " + at + ")");
    }
    auto outs = p.body(*body, inputs);
    endScanStep(p, outs, state, lists);
    p.dedent();
    for (size_t k = 0; k < scanOut; ++k) {
      if (!p.outUsed(carried + k)) continue;
      std::string items = outDirs[k] ? lists[k] + "[::-1]" : lists[k];  // direction 1 stacks the last step first
      p.assignOut(carried + k, "T.stack(" + items + (outAxes[k] ? ", dim=" + pyInt(outAxes[k]) : "") + ")");
    }
  });

  // Scan-8: every input and output has a leading batch dim (the scan axis is 1); an optional first input
  // gives per-batch sequence lengths.
  addPy(r, "Scan", 8, "for b in batch: for t in range(length): body", [](PyNode& p) {
    const ir::Graph* body = graphAttr(p, "body");
    if (p.has(0)) p.unsupported("sequence_lens (per-batch lengths) is not written yet");
    const int64_t m = p.attrInt("num_scan_inputs", 0);
    if (m <= 0 || static_cast<size_t>(m) + 1 > p.inputCount()) p.unsupported("num_scan_inputs out of range");
    const size_t scanIn = static_cast<size_t>(m), carried = p.inputCount() - 1 - scanIn;
    if (body->inputs().size() != carried + scanIn) p.unsupported("the body's inputs do not match the node's");
    if (body->outputs().size() != p.outputCount() || p.outputCount() < carried)
      p.unsupported("the body's outputs do not match the node's");
    const size_t scanOut = p.outputCount() - carried;
    std::vector<int64_t> dirs = p.attrInts("directions");
    if (dirs.empty()) dirs.assign(scanIn, 0);
    if (dirs.size() != scanIn) p.unsupported("directions has the wrong length");

    std::vector<std::string> init, xs, finals, batches;
    for (size_t k = 0; k < carried; ++k) init.push_back(p.in(1 + k));
    for (size_t j = 0; j < scanIn; ++j) xs.push_back(p.in(1 + carried + j));
    for (size_t k = 0; k < p.outputCount(); ++k) {
      batches.push_back(p.temp(k < carried ? "final_states" : "scan_outputs"));
      p.line(batches.back() + " = []");
    }
    std::string b = p.temp("b"), t = p.temp("t"), length = p.temp("length");
    p.line("for " + b + " in range(" + xs[0] + ".shape[0]):");
    p.indent();
    std::vector<std::string> state, lists;
    for (size_t k = 0; k < carried; ++k) {
      state.push_back(p.temp("state"));
      p.line(state.back() + " = " + init[k] + "[" + b + "]");
    }
    for (size_t k = 0; k < scanOut; ++k) {
      lists.push_back(p.temp("scan_" + std::to_string(k)));
      p.line(lists.back() + " = []");
    }
    p.line(length + " = " + xs[0] + ".shape[1]");
    p.line("for " + t + " in range(" + length + "):");
    p.indent();
    std::vector<std::string> inputs = state;
    for (size_t j = 0; j < scanIn; ++j)
      inputs.push_back(xs[j] + "[" + b + ", " + (dirs[j] ? length + " - 1 - " + t : t) + "]");
    auto outs = p.body(*body, inputs);
    endScanStep(p, outs, state, lists);
    p.dedent();
    for (size_t k = 0; k < carried; ++k) p.line(batches[k] + ".append(" + state[k] + ")");
    for (size_t k = 0; k < scanOut; ++k) p.line(batches[carried + k] + ".append(T.stack(" + lists[k] + "))");
    p.dedent();
    for (size_t k = 0; k < p.outputCount(); ++k)
      if (p.outUsed(k)) p.assignOut(k, "T.stack(" + batches[k] + ")");
  });
}

}  // namespace

void registerControlFlowCode(convert::HandlerRegistry& r) {
  registerIf(r);
  registerLoop(r);
  registerScan(r);
}

}  // namespace fb::codegen
