// Runs one model in ONNX Runtime on inputs given as .npy files (in the order of the model's inputs) and
// writes output i as OUTDIR/i.npy, so that Python tests can compare generated code with ONNX Runtime.
// usage: node run_npy.mjs MODEL.onnx OUTDIR [INPUT.npy ...]
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as ort from 'onnxruntime-node';
import { readNpy, writeNpy } from './npy.mjs';

const [model, outDir, ...inputs] = process.argv.slice(2);
const session = await ort.InferenceSession.create(model, { logSeverityLevel: 3 });
if (inputs.length !== session.inputNames.length)
  throw new Error(`${model} takes ${session.inputNames.length} inputs, ${inputs.length} given`);
const feeds = {};
session.inputNames.forEach((name, i) => { feeds[name] = readNpy(inputs[i]); });
const out = await session.run(feeds);
fs.mkdirSync(outDir, { recursive: true });
session.outputNames.forEach((name, i) => writeNpy(path.join(outDir, `${i}.npy`), out[name]));
console.log(JSON.stringify({ outputs: session.outputNames }));
