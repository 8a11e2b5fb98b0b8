#include "formats/oneflow/flow_save_reader.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>

#include <google/protobuf/text_format.h>

#include "formats/oneflow/oneflow_job.pb.h"
#include "formats/oneflow/oneflow_types.h"
#include "formats/oneflow/pickle_reader.h"
#include "util/error.h"
#include "util/mapped_file.h"

namespace fb::oneflow {
namespace fs = std::filesystem;
using pickle::Value;
using Kind = Value::Kind;

namespace {

constexpr int kMaxNesting = 64;  // of dicts/lists around the tensors

struct Source {
  std::string file;                              // for errors: the pickle file
  std::shared_ptr<const MappedFile> map;         // the pickle's bytes (format C tensors point into it)
  std::optional<fs::path> folder;                // format B: where `path` strings are resolved
};

// numpy dtype codes as numpy.dtype(code) spells them in a pickle.
std::optional<ir::DataType> numpyType(const std::string& code) {
  static const std::map<std::string, ir::DataType> types{
      {"f4", ir::DataType::Float}, {"f8", ir::DataType::Double}, {"f2", ir::DataType::Float16},
      {"i1", ir::DataType::Int8}, {"i2", ir::DataType::Int16}, {"i4", ir::DataType::Int32},
      {"i8", ir::DataType::Int64}, {"u1", ir::DataType::UInt8}, {"b1", ir::DataType::Bool},
      {"c8", ir::DataType::Complex64}, {"c16", ir::DataType::Complex128}};
  auto it = types.find(code);
  return it == types.end() ? std::nullopt : std::optional(it->second);
}

std::vector<int64_t> shapeOf(const Value* v, const Source& src, const std::string& name) {
  if (!v || v->kind != Kind::Tuple) throw InputError(src.file, "tensor '" + name + "': the array shape is not a tuple");
  std::vector<int64_t> dims;
  for (const Value* d : v->items) {
    if (d->kind != Kind::Int || d->integer < 0)
      throw InputError(src.file, "tensor '" + name + "': the array shape holds something other than a size");
    dims.push_back(d->integer);
  }
  return dims;
}

// numpy.dtype('f4', False, True) with BUILD (3, '<', ...): the element type, little-endian or single byte.
ir::DataType dtypeOf(const Value* v, const Source& src, const std::string& name) {
  if (!v || v->kind != Kind::Object || !v->callable->isGlobal("numpy", "dtype") || v->args->items.empty() ||
      v->args->items[0]->kind != Kind::String)
    throw InputError(src.file, "tensor '" + name + "': the array's dtype is not a numpy.dtype");
  const std::string& code = v->args->items[0]->text;
  auto t = numpyType(code);
  if (!t) throw InputError(src.file, "tensor '" + name + "': numpy dtype '" + code + "' is not supported");
  if (v->state && v->state->kind == Kind::Tuple && v->state->items.size() > 1 &&
      v->state->items[1]->kind == Kind::String && v->state->items[1]->text == ">" && ir::elementSize(*t) > 1)
    throw InputError(src.file, "tensor '" + name + "': big-endian arrays are not supported");
  return *t;
}

ir::Tensor tensorFromBytes(const Value* bytes, ir::DataType dt, std::vector<int64_t> dims, const Source& src,
                           const std::string& name) {
  if (!bytes || bytes->kind != Kind::Bytes) throw InputError(src.file, "tensor '" + name + "': the array data is not bytes");
  ir::Tensor t;
  t.name = name;
  t.dtype = dt;
  t.dims = std::move(dims);
  if (bytes->bytes.size() != t.expectedBytes())
    throw InputError(src.file, "tensor '" + name + "': the array has " + std::to_string(bytes->bytes.size()) +
                                   " bytes of data, but its shape and " + std::string(ir::dataTypeName(dt)) +
                                   " need " + std::to_string(t.expectedBytes()));
  const auto* begin = bytes->bytes.data();
  if (begin >= src.map->data() && begin + bytes->bytes.size() <= src.map->data() + src.map->size()) {
    t.setBuffer(ir::makeMappedBuffer(src.map, static_cast<size_t>(begin - src.map->data()), bytes->bytes.size()));
  } else {  // decoded from protocol 2's latin1 text: owned by the pickle document, which goes away
    t.setBytes(std::string(reinterpret_cast<const char*>(begin), bytes->bytes.size()));
  }
  return t;
}

bool fortranOrder(const Value* v) { return v && ((v->kind == Kind::Bool && v->boolean) || (v->kind == Kind::String && v->text == "F")); }

// A numpy array as ndarray.__reduce__ (protocol < 5) or _frombuffer (protocol 5) writes it.
ir::Tensor arrayTensor(const Value* v, const Source& src, const std::string& name) {
  if (!v || v->kind != Kind::Object) throw InputError(src.file, "tensor '" + name + "': its data is not a numpy array");
  if (v->callable->name == "_frombuffer") {  // _frombuffer(buffer, dtype, shape, order)
    const auto& a = v->args->items;
    if (a.size() != 4) throw InputError(src.file, "tensor '" + name + "': _frombuffer takes 4 arguments");
    auto dims = shapeOf(a[2], src, name);
    if (fortranOrder(a[3]) && dims.size() > 1)
      throw InputError(src.file, "tensor '" + name + "': Fortran-order arrays are not supported");
    return tensorFromBytes(a[0], dtypeOf(a[1], src, name), std::move(dims), src, name);
  }
  if (v->callable->name != "_reconstruct" || !v->state || v->state->kind != Kind::Tuple || v->state->items.size() != 5)
    throw InputError(src.file, "tensor '" + name + "': its data is not a numpy array");
  const auto& s = v->state->items;  // (version, shape, dtype, is_fortran, raw bytes)
  auto dims = shapeOf(s[1], src, name);
  if (fortranOrder(s[3]) && dims.size() > 1)
    throw InputError(src.file, "tensor '" + name + "': Fortran-order arrays are not supported");
  return tensorFromBytes(s[4], dtypeOf(s[2], src, name), std::move(dims), src, name);
}

std::string dimsText(const std::vector<int64_t>& d) {
  std::string s = "[";
  for (size_t i = 0; i < d.size(); ++i) s += (i ? "," : "") + std::to_string(d[i]);
  return s + "]";
}

// Format B: `path` names a folder beside pickled_data with out + meta (format A's variable layout).
ir::Tensor folderTensor(const std::string& rel, const Source& src, const std::string& name) {
  const fs::path relative(rel);
  if (rel.empty() || relative.is_absolute() ||
      std::any_of(relative.begin(), relative.end(), [](const fs::path& p) { return p == ".." || p == "."; }))
    throw InputError(src.file, "tensor '" + name + "': path '" + rel + "' leaves the weight folder");
  std::error_code ec;
  const fs::path base = fs::weakly_canonical(*src.folder, ec);
  const fs::path folder = fs::weakly_canonical(*src.folder / relative, ec);
  const auto [b, f] = std::mismatch(base.begin(), base.end(), folder.begin(), folder.end());
  if (ec || b != base.end()) throw InputError(src.file, "tensor '" + name + "': path '" + rel + "' leaves the weight folder");
  const fs::path meta = folder / "meta", out = folder / "out";
  if (!fs::is_regular_file(meta, ec) || !fs::is_regular_file(out, ec))
    throw InputError((*src.folder / relative).string(), "tensor '" + name + "': no out and meta in its folder");

  std::ifstream in(meta, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  ::oneflow::VariableMetaInfo info;
  google::protobuf::TextFormat::Parser parser;
  parser.AllowUnknownField(true);
  if (!parser.ParseFromString(text.str(), &info))
    throw InputError(meta.string(), "tensor '" + name + "': meta is not a text VariableMetaInfo");
  auto dt = toIrDataType(info.data_type());
  if (!dt || ir::elementSize(*dt) == 0)
    throw InputError(meta.string(), "tensor '" + name + "': data type " + oneflowDataTypeName(info.data_type()) +
                                        " is not supported");
  ir::Tensor t;
  t.name = name;
  t.dtype = *dt;
  t.dims.assign(info.shape().dim().begin(), info.shape().dim().end());
  for (auto d : t.dims)
    if (d < 0) throw InputError(meta.string(), "tensor '" + name + "': negative size in " + dimsText(t.dims));
  const auto size = fs::file_size(out, ec);
  if (ec || size != t.expectedBytes())
    throw InputError(out.string(), "tensor '" + name + "': out has " + std::to_string(size) + " bytes, but " +
                                       dimsText(t.dims) + " " + std::string(ir::dataTypeName(*dt)) + " needs " +
                                       std::to_string(t.expectedBytes()));
  if (size == 0) {
    t.setBytes({});
  } else {
    ir::ExternalRef ref;
    ref.location = out.string();
    ref.length = static_cast<int64_t>(size);
    ref.entries = {{"location", ref.location}};
    t.setExternalSource(out.string(), ref);
  }
  return t;
}

// A oneflow.Tensor / oneflow.nn.Parameter object: NEWOBJ, then BUILD with its state dict.
ir::Tensor oneflowTensor(const Value* v, const Source& src, const std::string& name) {
  const Value* state = v->state;
  if (!state || state->kind != Kind::Dict) throw InputError(src.file, "tensor '" + name + "' has no state");
  if (const Value* path = state->find("path")) {
    if (path->kind != Kind::String) throw InputError(src.file, "tensor '" + name + "': its path is not a string");
    if (!src.folder)
      throw InputError(src.file, "tensor '" + name + "' refers to folder '" + path->text + "', but this is a single-file save");
    return folderTensor(path->text, src, name);
  }
  ir::Tensor t = arrayTensor(state->find("data"), src, name);
  // The saved oneflow dtype, when present, must be the array's: OneFlow would cast, FlowBridge does not.
  if (const Value* d = state->find("dtype"); d && d->kind == Kind::Object) {
    if (!d->state || d->state->kind != Kind::Int)
      throw InputError(src.file, "tensor '" + name + "': its oneflow dtype has no DataType number");
    auto declared = toIrDataType(static_cast<int>(d->state->integer));
    if (declared != t.dtype)
      throw InputError(src.file, "tensor '" + name + "': the array is " + std::string(ir::dataTypeName(t.dtype)) +
                                     " but its oneflow dtype is " + oneflowDataTypeName(static_cast<int>(d->state->integer)));
  }
  return t;
}

bool isTensorObject(const Value* v) {
  return v->kind == Kind::Object && (v->callable->isGlobal("oneflow", "Tensor") || v->callable->isGlobal("oneflow.nn", "Parameter"));
}

void collect(const Value* v, const std::string& prefix, int depth, const Source& src,
             std::map<std::string, ir::Tensor>& out) {
  if (depth > kMaxNesting) throw InputError(src.file, "the saved object is nested deeper than " + std::to_string(kMaxNesting));
  auto join = [&](const std::string& k) { return prefix.empty() ? k : prefix + "." + k; };
  if (isTensorObject(v)) {
    auto t = oneflowTensor(v, src, prefix);
    if (!out.emplace(prefix, std::move(t)).second) throw InputError(src.file, "tensor '" + prefix + "' appears twice");
  } else if (v->kind == Kind::Dict) {
    for (const auto& [k, item] : v->entries) {
      std::string key = k->kind == Kind::String ? k->text : k->kind == Kind::Int ? std::to_string(k->integer) : "";
      if (key.empty()) continue;  // keys of other kinds hold no state-dict entries
      collect(item, join(key), depth + 1, src, out);
    }
  } else if (v->kind == Kind::List || v->kind == Kind::Tuple) {
    for (size_t i = 0; i < v->items.size(); ++i) collect(v->items[i], join(std::to_string(i)), depth + 1, src, out);
  }
}

std::map<std::string, ir::Tensor> readPickle(const std::string& file, std::optional<fs::path> folder) {
  Source src{file, MappedFile::open(file), std::move(folder)};
  const auto doc = pickle::decode({src.map->data(), src.map->size()}, file);
  const Value& envelope = doc.root();
  const Value* version = envelope.find("protocol_version");
  if (envelope.kind != Kind::Dict || !version)
    throw InputError(file, "not a oneflow.save file: no {\"protocol_version\", \"data\"} envelope");
  if (version->kind != Kind::Int || version->integer != 1)
    throw InputError(file, "oneflow.save protocol_version is not 1");
  const Value* data = envelope.find("data");
  if (!data) throw InputError(file, "not a oneflow.save file: the envelope has no data");
  std::map<std::string, ir::Tensor> out;
  collect(data, "", 0, src, out);
  if (out.empty()) throw InputError(file, "the saved object holds no tensors");
  return out;
}

}  // namespace

bool isFlowSaveFolder(const std::string& path) {
  std::error_code ec;
  return fs::is_directory(path, ec) && fs::is_regular_file(fs::path(path) / "pickled_data", ec);
}

bool isFlowSaveFile(const std::string& path) {
  std::error_code ec;
  if (!fs::is_regular_file(path, ec)) return false;
  std::ifstream in(path, std::ios::binary);
  unsigned char head[2] = {0, 0};
  in.read(reinterpret_cast<char*>(head), 2);
  return in.gcount() == 2 && head[0] == 0x80 && head[1] >= 2 && head[1] <= 5;
}

std::map<std::string, ir::Tensor> readFlowSave(const std::string& path) {
  if (isFlowSaveFolder(path)) return readPickle((fs::path(path) / "pickled_data").string(), fs::path(path));
  std::error_code ec;
  if (fs::is_directory(path, ec)) throw InputError(path, "no pickled_data in the folder: not a pickle-based oneflow.save");
  if (!fs::is_regular_file(path, ec)) throw InputError(path, "no such file");
  return readPickle(path, std::nullopt);
}

}  // namespace fb::oneflow
