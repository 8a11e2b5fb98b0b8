// libFuzzer harness: ONNX -> Python code generation. The input is one length byte N (taken mod 64), N bytes of
// the input's file name (which model.py's first comment and run.py's docstring quote), then an .onnx file; it is
// read and generated as
// PyTorch and as OneFlow code (unconverted nodes kept, as --continue-on-error does), and CPython's own compiler
// (Py_CompileString, linked from libpython3.11) compiles model.py and run.py. Generated code that does not
// compile, holds a NUL byte or is not UTF-8 traps: whatever the model's strings are, they may only reach the
// source through the escaping of python_text.h, which keeps every file one valid Python module.
#include <Python.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "codegen/code_generator.h"
#include "formats/onnx/onnx_reader.h"
#include "fuzz_support.h"

namespace {

void compileOrTrap(const std::string& source, const char* file) {
  if (std::memchr(source.data(), 0, source.size())) {
    std::fprintf(stderr, "generated %s holds a NUL byte\n", file);
    std::abort();
  }
  PyObject* code = Py_CompileString(source.c_str(), file, Py_file_input);
  if (!code) {
    std::fprintf(stderr, "generated %s does not compile:\n", file);
    PyErr_Print();
    std::fprintf(stderr, "----- %s -----\n%.4000s\n", file, source.c_str());
    std::abort();
  }
  Py_DECREF(code);
}

}  // namespace

// The interpreter lives until the process ends and is never finalized: what it still holds then is not a leak
// of the code under test.
extern "C" const char* __lsan_default_suppressions() { return "leak:libpython3\n"; }

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  Py_InitializeEx(0);  // no signal handlers: libFuzzer keeps its own
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const size_t nameLength = std::min<size_t>(data[0] % 64, size - 1);
  const std::string fileName(reinterpret_cast<const char*>(data + 1), nameLength);
  const std::string path = fb::fuzz::scratchDir("codegen") + "/model.onnx";
  fb::fuzz::writeFile(path, data + 1 + nameLength, size - 1 - nameLength);
  std::unique_ptr<fb::ir::Model> model;
  try {
    model = fb::onnxfmt::readOnnxFile(path);
  } catch (const std::exception&) {
    return 0;
  }
  model->sourcePath = "/fuzz/" + fileName;  // the generator quotes what follows the last '/'

  for (auto flavour : {fb::codegen::Flavour::PyTorch, fb::codegen::Flavour::OneFlow}) {
    fb::codegen::CodegenOptions opts;
    opts.flavour = flavour;
    opts.keepUnconverted = true;
    try {
      (void)fb::codegen::dryRunPython(*model, opts);
      auto r = fb::codegen::generatePython(*model, opts);
      if (!r.code) continue;
      compileOrTrap(r.code->modelPy, "model.py");
      compileOrTrap(r.code->runPy, "run.py");
    } catch (const std::exception&) {
    }
  }
  return 0;
}
