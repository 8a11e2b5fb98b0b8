// RNN, GRU, LSTM. Written as an explicit loop over time steps (`_onnx_recurrent`) rather than nn.RNN/GRU/LSTM:
// the loop is exact for every ONNX option (linear_before_reset=0, peepholes, input_forget, clip, any activation,
// sequence_lens masking, both layouts), keeps W/R/B/P as the ONNX-shaped parameters a reader can compare with the
// model, and reads like the equations of the ONNX spec. nn.GRU would only match linear_before_reset=1, and the
// modules need reordered and split weights.
#include <cctype>

#include "codegen/handlers/handler_families.h"
#include "codegen/helper_library.h"

namespace fb::codegen {
namespace {

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// A Python callable for an ONNX activation name; alpha/beta are consumed from the lists in order, only by the
// functions that take them (as ONNX Runtime reads activation_alpha/activation_beta).
std::string activation(PyNode& p, const std::string& name, const std::vector<float>& alphas, size_t& ai,
                       const std::vector<float>& betas, size_t& bi) {
  auto alpha = [&](float def) { return pyFloat(ai < alphas.size() ? alphas[ai++] : def, ir::DataType::Float); };
  auto beta = [&](float def) { return pyFloat(bi < betas.size() ? betas[bi++] : def, ir::DataType::Float); };
  const std::string n = lower(name);
  if (n == "sigmoid") return "T.sigmoid";
  if (n == "tanh") return "T.tanh";
  if (n == "relu") return "T.relu";
  if (n == "softsign") return "lambda v: v / (1 + v.abs())";
  if (n == "softplus") return "F.softplus";
  if (n == "affine") {
    std::string a = alpha(1.f), b = beta(0.f);
    return "lambda v: " + a + " * v + " + b;
  }
  if (n == "leakyrelu") return "lambda v: T.where(v >= 0, v, " + alpha(0.01f) + " * v)";
  if (n == "thresholdedrelu") return "lambda v: T.where(v > " + alpha(1.f) + ", v, v * 0)";
  if (n == "scaledtanh") {
    std::string a = alpha(1.f), b = beta(1.f);
    return "lambda v: " + a + " * T.tanh(" + b + " * v)";
  }
  if (n == "hardsigmoid") {
    std::string a = alpha(0.2f), b = beta(0.5f);
    return "lambda v: (" + a + " * v + " + b + ").clamp(0, 1)";
  }
  if (n == "elu") return "lambda v: T.where(v >= 0, v, " + alpha(1.f) + " * (T.exp(v) - 1))";
  p.unsupported("activation '" + name + "'");
}

std::string inputOrWeight(PyNode& p, size_t i, bool trainable = true) {
  if (!p.has(i)) return "None";
  return p.constant(i) ? p.weight(i, trainable) : p.in(i);
}

void emitRecurrent(PyNode& p, const std::string& kind, int64_t since) {
  const std::string direction = p.attrString("direction", "forward");
  if (direction != "forward" && direction != "reverse" && direction != "bidirectional")
    p.unsupported("direction '" + direction + "'");
  const int directions = direction == "bidirectional" ? 2 : 1;
  std::vector<std::string> names;
  if (const ir::Attribute* a = p.attr("activations")) names = a->strings;
  if (names.empty()) {
    if (kind == "RNN")
      names = {"Tanh"};
    else if (kind == "GRU")
      names = {"Sigmoid", "Tanh"};
    else
      names = {"Sigmoid", "Tanh", "Tanh"};
    if (directions == 2) names.insert(names.end(), names.begin(), names.end());
  }
  const size_t perDirection = kind == "RNN" ? 1 : kind == "GRU" ? 2 : 3;
  if (names.size() != perDirection * directions)
    p.unsupported(std::to_string(names.size()) + " activations for " + std::to_string(directions) + " direction(s)");
  const std::vector<float> alphas = p.attrFloats("activation_alpha"), betas = p.attrFloats("activation_beta");
  size_t ai = 0, bi = 0;
  std::string acts = "[";
  for (size_t i = 0; i < names.size(); ++i) acts += (i ? ", " : "") + activation(p, names[i], alphas, ai, betas, bi);
  acts += "]";
  const int64_t layout = since >= 14 ? p.attrInt("layout", 0) : 0;

  std::string call = p.helper("_onnx_recurrent") + "(" + pyStringLiteral(kind) + ", " + p.in(0) + ", " +
                     inputOrWeight(p, 1) + ", " + inputOrWeight(p, 2);
  auto optional = [&](size_t i, const std::string& kw, bool trainable) {
    if (p.has(i)) call += ", " + kw + "=" + inputOrWeight(p, i, trainable);
  };
  optional(3, "b", true);
  optional(4, "lens", false);
  optional(5, "h0", false);
  if (kind == "LSTM") {
    optional(6, "c0", false);
    optional(7, "peep", true);
  }
  if (direction != "forward") call += ", direction=" + pyStringLiteral(direction);
  call += ", acts=" + acts;
  if (p.hasAttr("clip")) call += ", clip=" + pyFloat(p.attrFloat("clip", 0.f), ir::DataType::Float);
  if (kind == "GRU" && p.attrInt("linear_before_reset", 0) != 0) call += ", linear_before_reset=True";
  if (kind == "LSTM" && p.attrInt("input_forget", 0) != 0) call += ", input_forget=True";
  if (layout) call += ", layout=1";
  std::string targets;
  for (size_t i = 0; i < 3; ++i) targets += (i ? ", " : "") + (i < p.outputCount() ? p.out(i) : std::string("_"));
  p.line(targets + " = " + call + ")");
}

}  // namespace

void registerRecurrentCode(convert::HandlerRegistry& r) {
  HelperLibrary::instance().add(Helper{
      "_onnx_recurrent",
      R"PY(def _onnx_recurrent(kind, x, w, r, b=None, lens=None, h0=None, c0=None, peep=None, direction='forward', acts=None,
                    clip=None, linear_before_reset=False, input_forget=False, layout=0):
    # ONNX RNN / GRU / LSTM written out step by step in ONNX's own gate order (RNN: i; GRU: z, r, h; LSTM: i, o, f, c),
    # so W, R, B and P keep their ONNX shapes. Steps at or past a batch entry's sequence length leave its state as it
    # is and write zeros to Y, as ONNX specifies.
    if layout:  # batch-major tensors: [batch, seq, ...] and [batch, num_directions, hidden]
        x = x.transpose(0, 1)
        h0 = None if h0 is None else h0.transpose(0, 1)
        c0 = None if c0 is None else c0.transpose(0, 1)
    seq, batch, hidden = x.shape[0], x.shape[1], r.shape[-1]
    gates = {'RNN': 1, 'GRU': 3, 'LSTM': 4}[kind]
    per_direction = len(acts) // (2 if direction == 'bidirectional' else 1)
    keep_all = None if lens is None else lens.reshape(1, -1, 1) > T.arange(seq, device=x.device).reshape(-1, 1, 1)

    def clipped(v):
        return v if clip is None else v.clamp(-clip, clip)

    ys, hs, cs = [], [], []
    for d in range(2 if direction == 'bidirectional' else 1):
        f = acts[d * per_direction:(d + 1) * per_direction]
        wd, rd = w[d], r[d]
        wb = b[d, :gates * hidden] if b is not None else None
        rb = b[d, gates * hidden:] if b is not None else None
        h = h0[d] if h0 is not None else x.new_zeros(batch, hidden)
        c = c0[d] if c0 is not None else x.new_zeros(batch, hidden)
        out = [None] * seq
        steps = range(seq - 1, -1, -1) if direction == 'reverse' or d == 1 else range(seq)
        for t in steps:
            gx = F.linear(x[t], wd, wb)
            if kind == 'RNN':
                h_new, c_new = f[0](clipped(gx + F.linear(h, rd, rb))), c
            elif kind == 'GRU':
                gh = F.linear(h, rd, rb)
                z = f[0](clipped(gx[:, :hidden] + gh[:, :hidden]))
                reset = f[0](clipped(gx[:, hidden:2 * hidden] + gh[:, hidden:2 * hidden]))
                if linear_before_reset:
                    candidate = gx[:, 2 * hidden:] + reset * gh[:, 2 * hidden:]
                else:
                    candidate = gx[:, 2 * hidden:] + F.linear(reset * h, rd[2 * hidden:], None if rb is None else rb[2 * hidden:])
                h_new, c_new = (1 - z) * f[1](clipped(candidate)) + z * h, c
            else:
                g = gx + F.linear(h, rd, rb)
                gi, go, gf, gc = g[:, :hidden], g[:, hidden:2 * hidden], g[:, 2 * hidden:3 * hidden], g[:, 3 * hidden:]
                if peep is not None:
                    gi = gi + peep[d, :hidden] * c
                    gf = gf + peep[d, 2 * hidden:] * c
                i = f[0](clipped(gi))
                forget = 1 - i if input_forget else f[0](clipped(gf))
                c_new = forget * c + i * f[1](clipped(gc))
                if peep is not None:
                    go = go + peep[d, hidden:2 * hidden] * c_new
                h_new = f[0](clipped(go)) * f[2](c_new)
            if keep_all is None:
                h, c, out[t] = h_new, c_new, h_new
            else:
                keep = keep_all[t]
                h, c = T.where(keep, h_new, h), T.where(keep, c_new, c)
                out[t] = T.where(keep, h_new, T.zeros_like(h_new))
        ys.append(T.stack(out, 0))
        hs.append(h)
        cs.append(c)
    y, y_h, y_c = T.stack(ys, 1), T.stack(hs, 0), T.stack(cs, 0)  # [seq, num_directions, batch, hidden], [num_directions, batch, hidden]
    if layout:
        y, y_h, y_c = y.permute(2, 0, 1, 3), y_h.transpose(0, 1), y_c.transpose(0, 1)
    return y, y_h, y_c
)PY",
      {}});
  for (const char* kind : {"RNN", "GRU", "LSTM"}) {
    const std::string k = kind;
    addPy(r, k, 7, "explicit time-step loop in ONNX's gate order (_onnx_recurrent)",
          [k](PyNode& p) { emitRecurrent(p, k, 7); });
    addPy(r, k, 14, "explicit time-step loop in ONNX's gate order (_onnx_recurrent), layout",
          [k](PyNode& p) { emitRecurrent(p, k, 14); });
  }
}

}  // namespace fb::codegen
