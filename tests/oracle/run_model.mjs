// Test oracle: runs a reference model and candidate models in ONNX Runtime on the same seeded random
// inputs and compares every output element within atol + rtol * |reference|.
// usage: node run_model.mjs [--seed N] [--atol A] [--rtol R] REF.onnx CANDIDATE.onnx...
// Prints one JSON object: {"ok": bool, "results": [{model, ok, max_abs_err, worst_output, error}]}.
import * as ort from 'onnxruntime-node';

const args = process.argv.slice(2);
let seed = 1, atol = 1e-4, rtol = 1e-3;
const models = [];
for (let i = 0; i < args.length; ++i) {
  if (args[i] === '--seed') seed = Number(args[++i]);
  else if (args[i] === '--atol') atol = Number(args[++i]);
  else if (args[i] === '--rtol') rtol = Number(args[++i]);
  else models.push(args[i]);
}

// mulberry32: small, seedable, the same on every machine.
function rng(s) {
  return () => {
    s |= 0; s = (s + 0x6D2B79F5) | 0;
    let t = Math.imul(s ^ (s >>> 15), 1 | s);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function makeInput(meta, next) {
  // Symbolic dims (a dynamic batch) get 2, so that batch-dependent shape arithmetic is exercised.
  const dims = (meta.shape || []).map((d) => (typeof d === 'number' && d >= 0 ? d : 2));
  const n = dims.reduce((a, b) => a * b, 1);
  switch (meta.type) {
    case 'float32': return new ort.Tensor('float32', Float32Array.from({ length: n }, () => next() * 2 - 1), dims);
    case 'float64': return new ort.Tensor('float64', Float64Array.from({ length: n }, () => next() * 2 - 1), dims);
    // Integer inputs of the corpus are counts (a Loop trip count): small positive values.
    case 'int64': return new ort.Tensor('int64', BigInt64Array.from({ length: n }, () => BigInt(1 + Math.floor(next() * 3))), dims);
    case 'int32': return new ort.Tensor('int32', Int32Array.from({ length: n }, () => 1 + Math.floor(next() * 3)), dims);
    case 'bool': return new ort.Tensor('bool', Uint8Array.from({ length: n }, () => (next() < 0.5 ? 1 : 0)), dims);
    default: throw new Error(`input ${meta.name}: unsupported type ${meta.type}`);
  }
}

function compare(ref, out) {
  if (ref.dims.length !== out.dims.length || ref.dims.some((d, i) => d !== out.dims[i]))
    return { ok: false, err: Infinity, why: `shape [${out.dims}] instead of [${ref.dims}]` };
  let worst = 0, ok = true;
  for (let i = 0; i < ref.data.length; ++i) {
    const r = Number(ref.data[i]), o = Number(out.data[i]);
    const e = Math.abs(r - o);
    if (!(e <= atol + rtol * Math.abs(r)) && !(Number.isNaN(r) && Number.isNaN(o))) ok = false;
    if (e > worst || Number.isNaN(e)) worst = Number.isNaN(e) ? Infinity : e;
  }
  return { ok, err: worst };
}

const report = { ok: true, seed, results: [] };
try {
  const options = { logSeverityLevel: 3 };  // errors only: unused-initializer warnings are noise here
  const refSession = await ort.InferenceSession.create(models[0], options);
  const next = rng(seed);
  const feeds = {};
  for (const meta of refSession.inputMetadata) feeds[meta.name] = makeInput(meta, next);
  const refOut = await refSession.run(feeds);
  for (const path of models.slice(1)) {
    const r = { model: path, ok: true, max_abs_err: 0 };
    try {
      const s = await ort.InferenceSession.create(path, options);
      const out = await s.run(feeds);
      for (const name of refSession.outputNames) {
        if (!(name in out)) { r.ok = false; r.error = `output ${name} missing`; break; }
        const c = compare(refOut[name], out[name]);
        if (c.err > r.max_abs_err) { r.max_abs_err = c.err; r.worst_output = name; }
        if (!c.ok) { r.ok = false; if (c.why) r.error = `${name}: ${c.why}`; }
      }
    } catch (e) {
      r.ok = false;
      r.error = String(e.message || e).split('\n')[0];
    }
    if (!Number.isFinite(r.max_abs_err)) r.max_abs_err = 'inf';
    if (!r.ok) report.ok = false;
    report.results.push(r);
  }
} catch (e) {
  report.ok = false;
  report.error = String(e.message || e).split('\n')[0];
}
console.log(JSON.stringify(report));
