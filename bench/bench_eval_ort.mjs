// ONNX Runtime's side of bench_eval: one model, the given thread count and .npy inputs (in the model's input
// order), one warm-up run and then RUNS timed runs; writes output i as OUTDIR/i.npy and prints one JSON line:
// {"ms": [...], "cpu_ms": [...], "peak": bytes}. peak is the resident high-water mark above the resident size before
// the session was made (the mark reset through /proc/self/clear_refs): what loading and running the model took,
// measured as bench_eval measures FlowBridge's evaluator in its own process.
// usage: node bench_eval_ort.mjs ORACLE_DIR MODEL.onnx THREADS RUNS OUTDIR [INPUT.npy ...]
import * as fs from 'node:fs';
import * as path from 'node:path';
import { createRequire } from 'node:module';

const [oracleDir, model, threads, runs, outDir, ...inputs] = process.argv.slice(2);
const ort = createRequire(path.join(oracleDir, 'package.json'))('onnxruntime-node');
const { readNpy, writeNpy } = await import(path.join(oracleDir, 'npy.mjs'));

function statusBytes(field) {
  const m = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(fs.readFileSync('/proc/self/status', 'utf8'));
  return m ? Number(m[1]) * 1024 : 0;
}

const given = inputs.map((f) => readNpy(f));
fs.writeFileSync('/proc/self/clear_refs', '5');
const base = statusBytes('VmRSS');
const session = await ort.InferenceSession.create(model, {
  logSeverityLevel: 3, intraOpNumThreads: Number(threads), interOpNumThreads: 1, executionMode: 'sequential',
});
const feeds = {};
session.inputNames.forEach((name, i) => { feeds[name] = given[i]; });
let out = await session.run(feeds);  // warm-up
const ms = [], cpuMs = [];
for (let k = 0; k < Number(runs); ++k) {
  const t0 = process.hrtime.bigint(), c0 = process.cpuUsage();
  out = await session.run(feeds);
  const c = process.cpuUsage(c0);
  cpuMs.push((c.user + c.system) / 1e3);
  ms.push(Number(process.hrtime.bigint() - t0) / 1e6);
}
const peak = statusBytes('VmHWM') - base;
fs.mkdirSync(outDir, { recursive: true });
session.outputNames.forEach((name, i) => writeNpy(path.join(outDir, `${i}.npy`), out[name]));
console.log(JSON.stringify({ ms, cpu_ms: cpuMs, peak }));
