// RNN, GRU and LSTM (ONNX's equations, gate orders z-r-h and i-o-f-c), every direction, sequence_lens, initial
// states, peepholes, clip, linear_before_reset, input_forget and the batch-first layout of opset 14. Per direction,
// the input projection of every time step is one matrix product up front; each step then multiplies the hidden
// state by the recurrent weights (recurrent_product.h: oneDNN for float) and applies the gates row by row.
#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "eval/kernels/recurrent_activation.h"
#include "eval/kernels/recurrent_product.h"
#include "eval/runtime/dispatch.h"
#include "eval/runtime/exec_context.h"
#include "eval/runtime/kernel_families.h"
#include "eval/runtime/kernel_registry.h"

namespace fb::eval {

namespace {

enum class Cell { Rnn, Gru, Lstm };

int gatesOf(Cell cell) { return cell == Cell::Rnn ? 1 : cell == Cell::Gru ? 3 : 4; }

std::vector<std::string> defaultActivations(Cell cell) {
  if (cell == Cell::Rnn) return {"Tanh"};
  if (cell == Cell::Gru) return {"Sigmoid", "Tanh"};
  return {"Sigmoid", "Tanh", "Tanh"};
}

std::string dimsText(const std::vector<int64_t>& dims) {
  std::string s = "[";
  for (size_t k = 0; k < dims.size(); ++k) s += (k ? "," : "") + std::to_string(dims[k]);
  return s + "]";
}

void expectDims(const Tensor& t, const std::vector<int64_t>& dims, const char* what) {
  if (t.dims() != dims)
    badInput(std::string(what) + " is " + describe(t) + " where " + dimsText(dims) + " is expected");
}

// Everything the node's attributes and input shapes decide, checked once.
struct Problem {
  Cell cell;
  int64_t seq = 0, batch = 0, input = 0, hidden = 0;
  int directions = 1;
  bool reverseOnly = false;
  bool batchFirst = false;
  bool hasClip = false;
  double clip = 0;
  bool linearBeforeReset = false;
  bool inputForget = false;
  std::vector<int64_t> lengths;  // per batch row
  std::vector<RecurrentActivation> activations;

  // Offsets of (t, d, b) in Y and of (d, b) in Y_h / Y_c / initial states, in units of `hidden`.
  int64_t yRow(int64_t t, int d, int64_t b) const {
    return batchFirst ? (b * seq + t) * directions + d : (t * directions + d) * batch + b;
  }
  int64_t stateRow(int d, int64_t b) const { return batchFirst ? b * directions + d : d * batch + b; }
};

Problem readProblem(const KernelContext& c, Cell cell) {
  const ir::Node& n = c.node;
  Problem p;
  p.cell = cell;
  const int64_t gates = gatesOf(cell);
  const Tensor& x = c.input(0);
  const Tensor& w = c.input(1);
  const Tensor& r = c.input(2);
  for (const Tensor* t : {&w, &r})
    if (t->dtype() != x.dtype()) badInput("weights " + describe(*t) + " are not of the input's type " + describe(x));
  const std::string direction = n.attrString("direction", "forward");
  if (direction == "bidirectional")
    p.directions = 2;
  else if (direction == "reverse")
    p.reverseOnly = true;
  else if (direction != "forward")
    badInput("direction '" + direction.substr(0, 32) + "' is not forward, reverse or bidirectional");
  if (c.opset >= 14) {
    const int64_t layout = n.attrInt("layout", 0);
    if (layout != 0 && layout != 1) badInput("layout " + std::to_string(layout) + " is not 0 or 1");
    p.batchFirst = layout == 1;
  }
  if (x.rank() != 3) badInput("input X is " + describe(x) + " where rank 3 is expected");
  p.seq = x.dim(p.batchFirst ? 1 : 0);
  p.batch = x.dim(p.batchFirst ? 0 : 1);
  p.input = x.dim(2);
  if (r.rank() != 3) badInput("recurrence weight R is " + describe(r) + " where rank 3 is expected");
  p.hidden = r.dim(2);
  if (n.hasAttr("hidden_size") && n.attrInt("hidden_size", 0) != p.hidden)
    badInput("hidden_size " + std::to_string(n.attrInt("hidden_size", 0)) + " does not match R " + describe(r));
  const int64_t gh = gates * p.hidden;
  expectDims(w, {p.directions, gh, p.input}, "weight W");
  expectDims(r, {p.directions, gh, p.hidden}, "recurrence weight R");
  if (const Tensor* b = c.optionalInput(3)) {
    if (b->dtype() != x.dtype()) badInput("bias B " + describe(*b) + " is not of the input's type");
    expectDims(*b, {p.directions, 2 * gh}, "bias B");
  }
  p.lengths.assign(static_cast<size_t>(p.batch), p.seq);
  if (const Tensor* lens = c.optionalInput(4)) {
    if (lens->dtype() != ir::DataType::Int32 && lens->dtype() != ir::DataType::Int64)
      badInput("sequence_lens " + describe(*lens) + " is not int32");
    expectDims(*lens, {p.batch}, "sequence_lens");
    for (int64_t b = 0; b < p.batch; ++b) {
      const int64_t len = lens->int64At(b);
      if (len < 0 || len > p.seq)
        badInput("sequence_lens[" + std::to_string(b) + "] = " + std::to_string(len) + " is outside [0, " +
                 std::to_string(p.seq) + "]");
      p.lengths[b] = len;
    }
  }
  const std::vector<int64_t> stateDims = p.batchFirst ? std::vector<int64_t>{p.batch, p.directions, p.hidden}
                                                      : std::vector<int64_t>{p.directions, p.batch, p.hidden};
  const size_t stateInputs = cell == Cell::Lstm ? 7 : 6;
  for (size_t k = 5; k < stateInputs; ++k)
    if (const Tensor* s = c.optionalInput(k)) {
      if (s->dtype() != x.dtype()) badInput("initial state " + describe(*s) + " is not of the input's type");
      expectDims(*s, stateDims, k == 5 ? "initial_h" : "initial_c");
    }
  if (cell == Cell::Lstm)
    if (const Tensor* peep = c.optionalInput(7)) {
      if (peep->dtype() != x.dtype()) badInput("peepholes P " + describe(*peep) + " are not of the input's type");
      expectDims(*peep, {p.directions, 3 * p.hidden}, "peepholes P");
    }
  if (n.hasAttr("clip")) {
    p.hasClip = true;
    p.clip = n.attrFloat("clip", 0);
    if (!(p.clip >= 0)) badInput("clip " + std::to_string(p.clip) + " is not a non-negative number");
  }
  p.linearBeforeReset = cell == Cell::Gru && c.opset >= 3 && n.attrInt("linear_before_reset", 0) != 0;
  p.inputForget = cell == Cell::Lstm && n.attrInt("input_forget", 0) != 0;
  std::vector<std::string> names;
  std::vector<float> alphas, betas;
  if (const ir::Attribute* a = n.attr("activations")) names = a->strings.vec();
  if (const ir::Attribute* a = n.attr("activation_alpha")) alphas = a->floats.vec();
  if (const ir::Attribute* a = n.attr("activation_beta")) betas = a->floats.vec();
  p.activations = recurrentActivations(names, alphas, betas, defaultActivations(cell), p.directions);
  return p;
}

// One direction of one cell type over the whole sequence.
template <typename T>
class DirectionRun {
 public:
  DirectionRun(const Problem& p, int d, const KernelContext& c)
      : p_(p), cancel_(c.exec), d_(d), reverse_(p.reverseOnly || d == 1), gh_(gatesOf(p.cell) * p.hidden) {
    const int per = static_cast<int>(defaultActivations(p.cell).size());
    f_ = p.activations[d * per];
    if (per > 1) g_ = p.activations[d * per + 1];
    if (per > 2) h_ = p.activations[d * per + 2];
    w_ = c.input(1).data<T>() + d * gh_ * p.input;
    r_ = c.input(2).data<T>() + d * gh_ * p.hidden;
    if (const Tensor* b = c.optionalInput(3)) bias_ = b->data<T>() + d * 2 * gh_;
    if (const Tensor* h0 = c.optionalInput(5)) h0_ = h0->data<T>();
    if (p.cell == Cell::Lstm) {
      if (const Tensor* c0 = c.optionalInput(6)) c0_ = c0->data<T>();
      if (const Tensor* peep = c.optionalInput(7)) peep_ = peep->data<T>() + d * 3 * p.hidden;
    }
  }

  // xs: the input as [seq, batch, input]. Writes this direction's rows of y, yh and yc (yc for LSTM only).
  void run(const T* xs, T* y, T* yh, T* yc) {
    const int64_t batch = p_.batch, hidden = p_.hidden, gh = gh_;
    Tensor xwBuf = Tensor::empty(dataTypeOf<T>(), {p_.seq, batch, gh});  // checks seq * batch before using it
    T* xw = xwBuf.mutableData<T>();
    TransposedProduct<T>(p_.seq * batch, p_.input, gh, false).run(xs, w_, xw);
    if (bias_) {
      // Recurrent biases add up with the input's, except GRU's hidden-gate one under linear_before_reset,
      // which is scaled by the reset gate.
      std::vector<T> rowBias(static_cast<size_t>(gh));
      for (int64_t g = 0; g < gh; ++g) {
        const bool scaled = p_.linearBeforeReset && g >= 2 * hidden;
        rowBias[g] = bias_[g] + (scaled ? T(0) : bias_[gh + g]);
      }
      const int64_t rows = p_.seq * batch;
#pragma omp parallel for schedule(static) if (rows * gh > 65536)
      for (int64_t row = 0; row < rows; ++row)
        for (int64_t g = 0; g < gh; ++g) xw[row * gh + g] += rowBias[g];
    }
    Tensor hBuf = Tensor::zeros(dataTypeOf<T>(), {batch, hidden});
    Tensor cBuf = Tensor::zeros(dataTypeOf<T>(), {batch, hidden});
    T* h = hBuf.mutableData<T>();
    T* cs = cBuf.mutableData<T>();
    for (int64_t b = 0; b < batch; ++b) {
      if (h0_) std::memcpy(h + b * hidden, h0_ + p_.stateRow(d_, b) * hidden, sizeof(T) * hidden);
      if (c0_) std::memcpy(cs + b * hidden, c0_ + p_.stateRow(d_, b) * hidden, sizeof(T) * hidden);
    }
    // GRU without linear_before_reset multiplies r * H by the hidden gate's weights: a second product per step.
    const bool splitGru = p_.cell == Cell::Gru && !p_.linearBeforeReset;
    const int64_t firstCols = splitGru ? 2 * hidden : gh;
    Tensor gatesBuf = Tensor::empty(dataTypeOf<T>(), {batch, firstCols});
    T* gates = gatesBuf.mutableData<T>();
    TransposedProduct<T> recurrent(batch, hidden, firstCols, false);
    Tensor resetBuf, hiddenGateBuf;
    std::unique_ptr<TransposedProduct<T>> hiddenGate;
    if (splitGru) {
      resetBuf = Tensor::zeros(dataTypeOf<T>(), {batch, hidden});
      hiddenGateBuf = Tensor::empty(dataTypeOf<T>(), {batch, hidden});
      hiddenGate = std::make_unique<TransposedProduct<T>>(batch, hidden, hidden, false);
    }
    const int64_t steps = batch == 0 || hidden == 0 ? 0 : p_.seq;  // nothing changes without rows or state
    for (int64_t s = 0; s < steps; ++s) {
      if (s % 256 == 255) cancel_.checkCancelled();
      recurrent.run(h, r_, gates);
      if (p_.cell == Cell::Rnn) {
        forActive(s, [&](int64_t b, int64_t t) { stepRnn(xw + (t * batch + b) * gh, gates + b * gh, h + b * hidden); });
      } else if (p_.cell == Cell::Lstm) {
        forActive(s, [&](int64_t b, int64_t t) {
          stepLstm(xw + (t * batch + b) * gh, gates + b * gh, h + b * hidden, cs + b * hidden);
        });
      } else if (!splitGru) {
        forActive(s, [&](int64_t b, int64_t t) {
          stepGruLinearBeforeReset(xw + (t * batch + b) * gh, gates + b * gh, h + b * hidden);
        });
      } else {
        T* reset = resetBuf.mutableData<T>();
        T* hg = hiddenGateBuf.mutableData<T>();
        forActive(s, [&](int64_t b, int64_t t) {
          gruResetAndUpdate(xw + (t * batch + b) * gh, gates + b * firstCols, h + b * hidden, reset + b * hidden);
        });
        hiddenGate->run(reset, r_ + 2 * hidden * hidden, hg);
        forActive(s, [&](int64_t b, int64_t t) {
          gruHidden(xw + (t * batch + b) * gh, gates + b * firstCols, hg + b * hidden, h + b * hidden);
        });
      }
      forActive(s, [&](int64_t b, int64_t t) {
        std::memcpy(y + p_.yRow(t, d_, b) * hidden, h + b * hidden, sizeof(T) * hidden);
      });
    }
    for (int64_t b = 0; b < batch; ++b) {
      std::memcpy(yh + p_.stateRow(d_, b) * hidden, h + b * hidden, sizeof(T) * hidden);
      if (yc) std::memcpy(yc + p_.stateRow(d_, b) * hidden, cs + b * hidden, sizeof(T) * hidden);
    }
  }

 private:
  // Calls f(b, t) for each batch row still inside its sequence at step s, t being the time index it reads.
  template <typename F>
  void forActive(int64_t s, F f) const {
    const int64_t batch = p_.batch;
#pragma omp parallel for schedule(static) if (batch * p_.hidden > 4096)
    for (int64_t b = 0; b < batch; ++b) {
      const int64_t len = p_.lengths[b];
      if (s >= len) continue;
      f(b, reverse_ ? len - 1 - s : s);
    }
  }

  T clipped(T v) const {
    if (!p_.hasClip) return v;
    const T lim = static_cast<T>(p_.clip);
    return std::max(-lim, std::min(lim, v));
  }

  void stepRnn(const T* xw, const T* rec, T* h) const {
    for (int64_t k = 0; k < p_.hidden; ++k) h[k] = f_(clipped(xw[k] + rec[k]));
  }

  void stepLstm(const T* xw, const T* rec, T* h, T* cs) const {
    const int64_t n = p_.hidden;
    for (int64_t k = 0; k < n; ++k) {
      const T cPrev = cs[k];
      T i = xw[k] + rec[k];
      T f = xw[2 * n + k] + rec[2 * n + k];
      if (peep_) {
        i += peep_[k] * cPrev;
        f += peep_[2 * n + k] * cPrev;
      }
      i = f_(clipped(i));
      f = p_.inputForget ? T(1) - i : f_(clipped(f));
      const T cand = g_(clipped(xw[3 * n + k] + rec[3 * n + k]));
      const T cNew = f * cPrev + i * cand;
      T o = xw[n + k] + rec[n + k];
      if (peep_) o += peep_[n + k] * cNew;
      o = f_(clipped(o));
      cs[k] = cNew;
      h[k] = o * h_(cNew);
    }
  }

  void stepGruLinearBeforeReset(const T* xw, const T* rec, T* h) const {
    const int64_t n = p_.hidden;
    const T* rbh = bias_ ? bias_ + gh_ + 2 * n : nullptr;
    for (int64_t k = 0; k < n; ++k) {
      const T z = f_(clipped(xw[k] + rec[k]));
      const T r = f_(clipped(xw[n + k] + rec[n + k]));
      const T cand = g_(clipped(xw[2 * n + k] + r * (rec[2 * n + k] + (rbh ? rbh[k] : T(0)))));
      h[k] = (T(1) - z) * cand + z * h[k];
    }
  }

  // First half of a GRU step without linear_before_reset: the update gate (kept in rec's z columns) and r * H.
  void gruResetAndUpdate(const T* xw, T* rec, const T* h, T* reset) const {
    const int64_t n = p_.hidden;
    for (int64_t k = 0; k < n; ++k) {
      rec[k] = f_(clipped(xw[k] + rec[k]));
      reset[k] = f_(clipped(xw[n + k] + rec[n + k])) * h[k];
    }
  }

  void gruHidden(const T* xw, const T* rec, const T* hg, T* h) const {
    const int64_t n = p_.hidden;
    for (int64_t k = 0; k < n; ++k) {
      const T z = rec[k];
      const T cand = g_(clipped(xw[2 * n + k] + hg[k]));
      h[k] = (T(1) - z) * cand + z * h[k];
    }
  }

  const Problem& p_;
  const ExecContext& cancel_;
  int d_;
  bool reverse_;
  int64_t gh_;
  RecurrentActivation f_, g_, h_;
  const T* w_ = nullptr;
  const T* r_ = nullptr;
  const T* bias_ = nullptr;
  const T* h0_ = nullptr;
  const T* c0_ = nullptr;
  const T* peep_ = nullptr;
};

template <typename T>
std::vector<Value> runRecurrent(const KernelContext& c, const Problem& p) {
  const Tensor& x = c.input(0);
  const ir::DataType dt = x.dtype();
  // The input as [seq, batch, input]: batch-first inputs are transposed once.
  Tensor xs = x;
  if (p.batchFirst) {
    xs = Tensor::empty(dt, {p.seq, p.batch, p.input});
    const T* src = x.data<T>();
    T* dst = xs.mutableData<T>();
    for (int64_t b = 0; b < p.batch; ++b)
      for (int64_t t = 0; t < p.seq; ++t)
        std::memcpy(dst + (t * p.batch + b) * p.input, src + (b * p.seq + t) * p.input, sizeof(T) * p.input);
  }
  const std::vector<int64_t> yDims = p.batchFirst ? std::vector<int64_t>{p.batch, p.seq, p.directions, p.hidden}
                                                  : std::vector<int64_t>{p.seq, p.directions, p.batch, p.hidden};
  const std::vector<int64_t> stateDims = p.batchFirst ? std::vector<int64_t>{p.batch, p.directions, p.hidden}
                                                      : std::vector<int64_t>{p.directions, p.batch, p.hidden};
  // Y always: every output is a tensor for whoever evaluates the node (constant folding reads them all), and Y
  // costs no more than the states it records.
  Tensor y = Tensor::zeros(dt, yDims);
  Tensor yh = Tensor::empty(dt, stateDims);
  Tensor yc = p.cell == Cell::Lstm ? Tensor::empty(dt, stateDims) : Tensor();
  for (int d = 0; d < p.directions; ++d) {
    c.exec.checkCancelled();
    DirectionRun<T>(p, d, c).run(xs.data<T>(), y.mutableData<T>(), yh.mutableData<T>(),
                                 p.cell == Cell::Lstm ? yc.mutableData<T>() : nullptr);
  }
  std::vector<Value> outs;
  outs.push_back(Value(std::move(y)));
  outs.push_back(Value(std::move(yh)));
  if (p.cell == Cell::Lstm) outs.push_back(Value(std::move(yc)));
  return outs;
}

KernelFn recurrentKernel(Cell cell) {
  return [cell](const KernelContext& c) {
    const Problem p = readProblem(c, cell);
    return visitFloating(c.input(0).dtype(), [&]<typename T>() { return runRecurrent<T>(c, p); });
  };
}

}  // namespace

void registerRecurrentKernels(KernelRegistry& r) {
  // Opset 1's output_sequence attribute only said whether Y is wanted; outputs are optional either way.
  r.add("RNN", 1, recurrentKernel(Cell::Rnn));
  r.add("RNN", 14, recurrentKernel(Cell::Rnn));  // layout
  r.add("GRU", 1, recurrentKernel(Cell::Gru));
  r.add("GRU", 3, recurrentKernel(Cell::Gru));  // linear_before_reset
  r.add("GRU", 14, recurrentKernel(Cell::Gru));
  r.add("LSTM", 1, recurrentKernel(Cell::Lstm));
  r.add("LSTM", 14, recurrentKernel(Cell::Lstm));
}

}  // namespace fb::eval
