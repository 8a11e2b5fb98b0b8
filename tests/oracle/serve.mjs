// Batch mode of the test oracle: one long-lived ONNX Runtime process for a whole sweep (starting node and
// loading the native library costs far more than running a small model).
// usage: node serve.mjs      then one JSON request per line on stdin, one JSON answer per line on stdout:
//   request  {"id": any, "model": PATH, "inputs": {NAME: TENSOR, ...}}
//   answer   {"id": same, "ok": true, "outputs": {NAME: TENSOR, ...}}  or  {"id", "ok": false, "error": "..."}
//   TENSOR   {"type": ONNX element type number, "dims": [...], "b64": little-endian bytes} or, for strings,
//            {"type": 8, "dims": [...], "strings": [...]}
// The caller compares: it knows the expected values and the tolerance it wants.
import * as ort from 'onnxruntime-node';
import * as readline from 'node:readline';

// ONNX TensorProto.DataType -> onnxruntime-node tensor type and typed array.
const kTypes = {
  1: ['float32', Float32Array], 2: ['uint8', Uint8Array], 3: ['int8', Int8Array], 4: ['uint16', Uint16Array],
  5: ['int16', Int16Array], 6: ['int32', Int32Array], 7: ['int64', BigInt64Array], 8: ['string', null],
  9: ['bool', Uint8Array], 10: ['float16', Uint16Array], 11: ['float64', Float64Array], 12: ['uint32', Uint32Array],
  13: ['uint64', BigUint64Array],
};
const kTypeNumbers = Object.fromEntries(Object.entries(kTypes).map(([k, [name]]) => [name, Number(k)]));

function toOrt(t) {
  const entry = kTypes[t.type];
  if (!entry) throw new Error(`element type ${t.type} is not supported by onnxruntime-node`);
  const [name, Array] = entry;
  if (!Array) return new ort.Tensor(name, t.strings, t.dims);
  const bytes = Buffer.from(t.b64, 'base64');
  // Copy into an aligned buffer: typed arrays need offsets that are multiples of their element size.
  const aligned = new Uint8Array(bytes.length);
  aligned.set(bytes);
  return new ort.Tensor(name, new Array(aligned.buffer, 0, bytes.length / Array.BYTES_PER_ELEMENT), t.dims);
}

function fromOrt(t) {
  const type = kTypeNumbers[t.type];
  if (type === undefined) throw new Error(`output type ${t.type} has no ONNX number here`);
  if (t.type === 'string') return { type, dims: t.dims, strings: Array.from(t.data) };
  const d = t.data;
  return { type, dims: t.dims, b64: Buffer.from(d.buffer, d.byteOffset, d.byteLength).toString('base64') };
}

const options = { logSeverityLevel: 3 };
const lines = readline.createInterface({ input: process.stdin, terminal: false });
for await (const line of lines) {
  if (!line.trim()) continue;
  let answer;
  let id = null;
  try {
    const req = JSON.parse(line);
    id = req.id ?? null;
    const session = await ort.InferenceSession.create(req.model, options);
    const feeds = {};
    for (const [name, t] of Object.entries(req.inputs || {})) feeds[name] = toOrt(t);
    const out = await session.run(feeds);
    const outputs = {};
    for (const name of session.outputNames) outputs[name] = fromOrt(out[name]);
    if (session.release) await session.release();
    answer = { id, ok: true, outputs };
  } catch (e) {
    answer = { id, ok: false, error: String(e.message || e).split('\n')[0] };
  }
  process.stdout.write(JSON.stringify(answer) + '\n');
}
