#include "formats/oneflow/flow_save_reader.h"

#include <algorithm>
#include <deque>
#include <filesystem>
#include <optional>
#include <unordered_map>

#include "formats/oneflow/file_limits.h"
#include "formats/oneflow/oneflow_types.h"
#include "formats/oneflow/pickle_reader.h"
#include "formats/oneflow/variable_meta.h"
#include "formats/tensor_size.h"
#include "util/error.h"
#include "util/input_file.h"
#include "util/mapped_file.h"

namespace fb::oneflow {
namespace fs = std::filesystem;
using pickle::Value;
using Kind = Value::Kind;

namespace {

struct Source {
  std::string file;                       // for errors: the pickle file
  std::shared_ptr<const MappedFile> map;  // the pickle's bytes (format C tensors point into it)
  std::optional<fs::path> folder;         // format B: where `path` strings are resolved
  std::string containDir;                 // every file opened must resolve inside it (none when empty)
};

// numpy dtype codes as numpy.dtype(code) spells them in a pickle.
std::optional<ir::DataType> numpyType(const std::string& code) {
  static const std::map<std::string, ir::DataType> types{
      {"f4", ir::DataType::Float},     {"f8", ir::DataType::Double},     {"f2", ir::DataType::Float16},
      {"i1", ir::DataType::Int8},      {"i2", ir::DataType::Int16},      {"i4", ir::DataType::Int32},
      {"i8", ir::DataType::Int64},     {"u1", ir::DataType::UInt8},      {"b1", ir::DataType::Bool},
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
  if (!bytes || bytes->kind != Kind::Bytes)
    throw InputError(src.file, "tensor '" + name + "': the array data is not bytes");
  // Checked arithmetic: a [2^32, 2^32] float array "needs" 0 bytes once the product wraps around.
  const auto needed = checkedByteSize(dims, dt);
  if (!needed)
    throw InputError(src.file, "tensor '" + name + "': the array shape " + dimsText(dims) + " of " +
                                   std::string(ir::dataTypeName(dt)) + " overflows");
  ir::Tensor t;
  t.name = name;
  t.dtype = dt;
  t.dims = std::move(dims);
  if (bytes->bytes.size() != *needed)
    throw InputError(src.file, "tensor '" + name + "': the array has " + std::to_string(bytes->bytes.size()) +
                                   " bytes of data, but its shape and " + std::string(ir::dataTypeName(dt)) + " need " +
                                   std::to_string(*needed));
  const auto* begin = bytes->bytes.data();
  if (begin >= src.map->data() && begin + bytes->bytes.size() <= src.map->data() + src.map->size()) {
    t.setBuffer(ir::makeMappedBuffer(src.map, static_cast<size_t>(begin - src.map->data()), bytes->bytes.size()));
  } else {  // decoded from protocol 2's latin1 text: owned by the pickle document, which goes away
    t.setBytes(std::string(reinterpret_cast<const char*>(begin), bytes->bytes.size()));
  }
  return t;
}

bool fortranOrder(const Value* v) {
  return v && ((v->kind == Kind::Bool && v->boolean) || (v->kind == Kind::String && v->text == "F"));
}

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

// Format B: `path` names a folder beside pickled_data with out + meta (format A's variable layout). Both files are
// opened once, inside the model's folder (checked on the descriptor: a symlinked `out` cannot lead elsewhere), and
// `out` is bound to its tensor with the same containment for when it is mapped.
ir::Tensor folderTensor(const std::string& rel, const Source& src, const std::string& name) {
  const fs::path relative(rel);
  if (rel.empty() || relative.is_absolute() ||
      std::any_of(relative.begin(), relative.end(), [](const fs::path& p) { return p == ".." || p == "."; }))
    throw InputError(src.file, "tensor '" + name + "': path '" + rel + "' leaves the weight folder");
  const fs::path folder = *src.folder / relative;
  const fs::path meta = folder / "meta", out = folder / "out";
  auto absent = [](const fs::path& p) {
    std::error_code ec;
    return !fs::exists(fs::symlink_status(p, ec));  // a dangling link is there: opening it says what is wrong
  };
  if (absent(meta) || absent(out))
    throw InputError(folder.string(), "tensor '" + name + "': no out and meta in its folder");

  const auto info = readVariableMeta(meta.string(), src.containDir, "tensor '" + name + "': meta");
  auto dt = toIrDataType(info.dataType);
  if (!dt || ir::elementSize(*dt) == 0)
    throw InputError(meta.string(),
                     "tensor '" + name + "': data type " + oneflowDataTypeName(info.dataType) + " is not supported");
  ir::Tensor t;
  t.name = name;
  t.dtype = *dt;
  t.dims = info.dims;
  for (auto d : t.dims)
    if (d < 0) throw InputError(meta.string(), "tensor '" + name + "': negative size in " + dimsText(t.dims));
  const auto needed = checkedByteSize(t.dims, *dt);
  if (!needed)
    throw InputError(meta.string(), "tensor '" + name + "': shape " + dimsText(t.dims) + " of " +
                                        std::string(ir::dataTypeName(*dt)) + " overflows");
  const auto size = InputFile::open(out.string(), src.containDir, "tensor '" + name + "': out").size();
  if (size != *needed)
    throw InputError(out.string(), "tensor '" + name + "': out has " + std::to_string(size) + " bytes, but " +
                                       dimsText(t.dims) + " " + std::string(ir::dataTypeName(*dt)) + " needs " +
                                       std::to_string(*needed));
  if (size == 0) {
    t.setBytes({});
  } else {
    ir::ExternalRef ref;
    ref.location = out.string();
    ref.length = static_cast<int64_t>(size);
    ref.entries = {{"location", ref.location}};
    t.setExternalSource(out.string(), ref, src.containDir);
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
      throw InputError(src.file,
                       "tensor '" + name + "' refers to folder '" + path->text + "', but this is a single-file save");
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
                                     " but its oneflow dtype is " +
                                     oneflowDataTypeName(static_cast<int>(d->state->integer)));
  }
  return t;
}

bool isTensorObject(const Value* v) {
  return v->kind == Kind::Object &&
         (v->callable->isGlobal("oneflow", "Tensor") || v->callable->isGlobal("oneflow.nn", "Parameter"));
}

// The tensors of the saved object, named by their path through dicts and lists. A pickle shares an object by memo
// reference (BINGET), so the decoded object is a DAG that can have exponentially more paths than nodes: a list
// holding the previous list twice, 40 levels deep, is 2^40 paths in a few hundred bytes. Each node is walked once
// and its tensors, named relative to it, are kept for when another path reaches it; every name produced, on every
// path, is charged to a budget, so such a file is refused at once instead of running for hours or taking gigabytes.
class TensorWalk {
 public:
  static constexpr int kMaxNesting = 64;  // dicts/lists around a tensor (the recursion depth)
  // Names kept, counted at every level of nesting (a graph.state_dict() counts each tensor twice): 8x the 30,000
  // tensors the pickle decoder is sized for.
  static constexpr size_t kMaxNames = size_t{1} << 18;
  static constexpr size_t kMaxNameBytes = size_t{32} << 20;  // their characters, and the paths walked, in all

  explicit TensorWalk(const Source& src) : src_(src) {}

  std::map<std::string, ir::Tensor> run(const Value* data) {
    std::map<std::string, ir::Tensor> out;
    for (const auto& [name, tensor] : below(data, "", 0)) {
      ir::Tensor t = *tensor;  // shares the bytes; a tensor reached by several paths is named after each
      t.name = name;
      if (!out.emplace(name, std::move(t)).second) throw InputError(src_.file, "tensor '" + name + "' appears twice");
    }
    return out;
  }

 private:
  // (name relative to the node, its tensor); "" names the node itself.
  using Found = std::vector<std::pair<std::string, const ir::Tensor*>>;

  // `path` (from the root) names the node in messages; the result does not depend on it.
  const Found& below(const Value* v, const std::string& path, int depth) {
    if (auto it = memo_.find(v); it != memo_.end()) return it->second;
    if (depth > kMaxNesting)
      throw InputError(src_.file, "the saved object is nested deeper than " + std::to_string(kMaxNesting));
    Found found;
    if (isTensorObject(v)) {
      tensors_.push_back(oneflowTensor(v, src_, path));
      found.emplace_back(std::string(), &tensors_.back());
    } else if (v->kind == Kind::Dict) {
      for (const auto& [k, item] : v->entries) {
        std::string key = k->kind == Kind::String ? k->text : k->kind == Kind::Int ? std::to_string(k->integer) : "";
        if (key.empty()) continue;  // keys of other kinds hold no state-dict entries
        addChild(found, key, item, path, depth);
      }
    } else if (v->kind == Kind::List || v->kind == Kind::Tuple) {
      for (size_t i = 0; i < v->items.size(); ++i) addChild(found, std::to_string(i), v->items[i], path, depth);
    }
    return memo_.emplace(v, std::move(found)).first->second;
  }

  void addChild(Found& found, const std::string& key, const Value* child, const std::string& path, int depth) {
    charge(0, path.size() + 1 + key.size());
    const Found& inner = below(child, path.empty() ? key : path + "." + key, depth + 1);
    for (const auto& [rel, tensor] : inner) {
      std::string name = rel.empty() ? key : key + "." + rel;
      charge(1, name.size());
      found.emplace_back(std::move(name), tensor);
    }
  }

  void charge(size_t names, size_t bytes) {
    names_ += names;
    nameBytes_ += bytes;
    if (names_ > kMaxNames)
      throw InputError(src_.file, "the saved object names more than " + std::to_string(kMaxNames) +
                                      " tensors (shared references repeat them): refused");
    if (nameBytes_ > kMaxNameBytes)
      throw InputError(src_.file, "the saved object's tensor names take more than " + std::to_string(kMaxNameBytes) +
                                      " bytes: refused");
  }

  const Source& src_;
  std::unordered_map<const Value*, Found> memo_;
  std::deque<ir::Tensor> tensors_;  // each tensor object decoded once, however many paths reach it
  size_t names_ = 0, nameBytes_ = 0;
};

std::map<std::string, ir::Tensor> readPickle(const std::string& file, std::optional<fs::path> folder,
                                             const std::string& containDir) {
  InputFile in = InputFile::open(file, containDir);
  // Format B's pickle holds only the structure; format C's holds the weights and is mapped, not read.
  if (folder) in.requireAtMost(kMaxPickledDataBytes, "format B pickled_data file");
  Source src{file, MappedFile::map(in), std::move(folder), containDir};
  const auto doc = pickle::decode({src.map->data(), src.map->size()}, file);
  const Value& envelope = doc.root();
  const Value* version = envelope.find("protocol_version");
  if (envelope.kind != Kind::Dict || !version)
    throw InputError(file, "not a oneflow.save file: no {\"protocol_version\", \"data\"} envelope");
  if (version->kind != Kind::Int || version->integer != 1)
    throw InputError(file, "oneflow.save protocol_version is not 1");
  const Value* data = envelope.find("data");
  if (!data) throw InputError(file, "not a oneflow.save file: the envelope has no data");
  auto out = TensorWalk(src).run(data);
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
  try {
    const std::string head = InputFile::open(path).readHead(2);  // a FIFO swapped in is refused, not waited on
    return head.size() == 2 && static_cast<unsigned char>(head[0]) == 0x80 && head[1] >= 2 && head[1] <= 5;
  } catch (const InputError&) {
    return false;
  }
}

std::map<std::string, ir::Tensor> readFlowSave(const std::string& path, const std::string& containDir) {
  if (isFlowSaveFolder(path))
    return readPickle((fs::path(path) / "pickled_data").string(), fs::path(path),
                      containDir.empty() ? path : containDir);
  std::error_code ec;
  if (fs::is_directory(path, ec))
    throw InputError(path, "no pickled_data in the folder: not a pickle-based oneflow.save");
  if (!fs::is_regular_file(path, ec)) throw InputError(path, "no such file");
  return readPickle(path, std::nullopt, containDir);
}

}  // namespace fb::oneflow
