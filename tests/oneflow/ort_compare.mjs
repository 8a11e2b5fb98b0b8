// Runs a converted model in ONNX Runtime on a fixture's inputs and compares with PyTorch's outputs.
//   node ort_compare.mjs MODEL.onnx FIXTURE_DIR
//   node ort_compare.mjs --batch LIST     (LIST: one "MODEL.onnx<TAB>FIXTURE_DIR" per line; one JSON line each)
// onnxruntime-node is resolved from $FB_ORT_NODE_MODULES (the folder holding node_modules/onnxruntime-node).
// Prints one JSON line: {"ok": bool, "outputs": [{"name", "maxAbsDiff", "worstExcess", "shape", "expectShape"}], "error"?}
// An element passes when |ort - ref| <= 1e-4 + 1e-3 * |ref|.
import { createRequire } from "node:module";
import fs from "node:fs";
import path from "node:path";

function readNpy(file) {
  const buf = fs.readFileSync(file);
  // "\x93NUMPY", major, minor, header length (2 bytes in version 1, 4 after), header, data
  const v1 = buf[6] === 1;
  const start = v1 ? 10 : 12;
  const offset = start + (v1 ? buf.readUInt16LE(8) : buf.readUInt32LE(8));
  const header = buf.toString("latin1", start, offset);
  const descr = /'descr':\s*'([^']+)'/.exec(header)[1];
  if (/'fortran_order':\s*True/.test(header)) throw new Error(file + ": Fortran order");
  const shape = /'shape':\s*\(([^)]*)\)/.exec(header)[1].split(",").map((s) => s.trim()).filter((s) => s).map(Number);
  const data = buf.subarray(offset);
  const ab = data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength);
  const types = {
    "<f4": ["float32", Float32Array], "<f8": ["float64", Float64Array], "<i8": ["int64", BigInt64Array],
    "<i4": ["int32", Int32Array], "|b1": ["bool", Uint8Array], "|u1": ["uint8", Uint8Array], "|i1": ["int8", Int8Array],
  };
  if (!types[descr]) throw new Error(file + ": unsupported dtype " + descr);
  const [type, Ctor] = types[descr];
  return { type, shape, data: new Ctor(ab) };
}

let ort;

async function compare(modelPath, fixtureDir) {
  const fixture = JSON.parse(fs.readFileSync(path.join(fixtureDir, "fixture.json"), "utf8"));
  const session = await ort.InferenceSession.create(modelPath, { graphOptimizationLevel: "disabled" });
  const feeds = {};
  for (const inp of fixture.inputs) {
    const a = readNpy(path.join(fixtureDir, inp.file));
    feeds[inp.name] = new ort.Tensor(a.type, a.data, a.shape);
  }
  const results = await session.run(feeds);
  const report = { model: modelPath, ok: true, outputs: [] };
  for (const out of fixture.outputs) {
    const ref = readNpy(path.join(fixtureDir, out.file));
    const got = results[out.name];
    const entry = { name: out.name, expectShape: ref.shape, maxAbsDiff: 0, worstExcess: 0, bad: 0 };
    if (!got) {
      entry.error = "ONNX Runtime produced no output named " + out.name;
      report.ok = false;
      report.outputs.push(entry);
      continue;
    }
    entry.shape = got.dims.map(Number);
    if (entry.shape.join(",") !== ref.shape.join(",") || got.data.length !== ref.data.length) {
      entry.error = "shape " + entry.shape + " != " + ref.shape;
      report.ok = false;
    } else {
      for (let i = 0; i < ref.data.length; ++i) {
        const r = Number(ref.data[i]);
        const g = Number(got.data[i]);
        const diff = Math.abs(g - r);
        const excess = diff - (1e-4 + 1e-3 * Math.abs(r));
        if (!(diff <= entry.maxAbsDiff)) entry.maxAbsDiff = Number.isNaN(diff) ? Infinity : diff;
        if (excess > 0 || Number.isNaN(diff)) {
          entry.bad++;
          entry.worstExcess = Math.max(entry.worstExcess, Number.isNaN(diff) ? Infinity : excess);
        }
      }
      if (entry.bad > 0) report.ok = false;
    }
    report.outputs.push(entry);
  }
  return report;
}

async function main() {
  const args = process.argv.slice(2);
  const require = createRequire(path.join(process.env.FB_ORT_NODE_MODULES || ".", "x.js"));
  ort = require("onnxruntime-node");
  const pairs = args[0] === "--batch"
    ? fs.readFileSync(args[1], "utf8").split("\n").filter((l) => l.trim()).map((l) => l.split("\t"))
    : [[args[0], args[1]]];
  for (const [model, fixture] of pairs) {
    let report;
    try {
      report = await compare(model, fixture);
    } catch (e) {
      report = { model, ok: false, error: String(e && e.message ? e.message : e).split("\n")[0] };
    }
    console.log(JSON.stringify(report));
  }
}

main().catch((e) => {
  console.log(JSON.stringify({ ok: false, error: String(e && e.message ? e.message : e).split("\n")[0] }));
  process.exit(0);
});
