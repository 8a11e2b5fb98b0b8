// Writes what ONNX Runtime's *basic* graph optimizations (portable ONNX ops only: constant folding,
// redundant-node elimination, ...) make of each model, for comparing node counts with FlowBridge's passes.
// usage: node ort_basic.mjs IN.onnx OUT.onnx [IN2.onnx OUT2.onnx ...]
// Prints one JSON object: {"ok": bool, "results": [{model, out, ok, error}]}.
import * as ort from 'onnxruntime-node';

const args = process.argv.slice(2);
const report = { ok: true, results: [] };
for (let i = 0; i + 1 < args.length; i += 2) {
  const r = { model: args[i], out: args[i + 1], ok: true };
  try {
    const s = await ort.InferenceSession.create(args[i], {
      graphOptimizationLevel: 'basic', optimizedModelFilePath: args[i + 1], logSeverityLevel: 3,
    });
    await s.release();
  } catch (e) {
    r.ok = false;
    r.error = String(e.message || e).split('\n')[0];
    report.ok = false;
  }
  report.results.push(r);
}
console.log(JSON.stringify(report));
