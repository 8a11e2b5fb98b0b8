#include "formats/onnx/onnx_mapped_parse.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string_view>
#include <vector>

#include <sys/mman.h>
#include <unistd.h>

#include <google/protobuf/io/coded_stream.h>

#include "formats/onnx/onnx_import_parts.h"
#include "ir/tensor.h"
#include "util/mapped_file.h"

namespace fb::onnxfmt {
namespace {
using namespace fb::ir;
using detail::ImportContext;

// Field numbers from onnx.proto (onnx 1.12).
constexpr uint32_t kModelGraph = 7;
enum GraphField : uint32_t {
  kGraphNode = 1,
  kGraphInitializer = 5,
  kGraphInput = 11,
  kGraphOutput = 12,
  kGraphValueInfo = 13
};
enum NodeField : uint32_t {
  kNodeInput = 1,
  kNodeOutput = 2,
  kNodeName = 3,
  kNodeOpType = 4,
  kNodeAttribute = 5,
  kNodeDocString = 6,
  kNodeDomain = 7
};
enum AttrField : uint32_t {
  kAttrName = 1,
  kAttrF = 2,
  kAttrI = 3,
  kAttrS = 4,
  kAttrFloats = 7,
  kAttrInts = 8,
  kAttrStrings = 9,
  kAttrDocString = 13,
  kAttrType = 20,
  kAttrRefAttrName = 21
};
enum TensorField : uint32_t {
  kTensorDims = 1,
  kTensorDataType = 2,
  kTensorName = 8,
  kTensorRawData = 9,
  kTensorDocString = 12,
  kTensorDataLocation = 14
};
constexpr uint32_t kWireVarint = 0, kWireFixed64 = 1, kWireBytes = 2, kWireFixed32 = 5;
constexpr uint64_t kLastAttributeType = 14;  // TYPE_PROTOS: 0..14 are all AttributeType values
// protobuf's default nesting limit, counted from the ModelProto as the ordinary reader's parse counts it.
constexpr int kProtobufNesting = 100;
// Raw data this short is copied (it fits the string's inline buffer); longer data stays in the map.
constexpr size_t kInlineBytes = 15;

// Thrown when the bytes are not what protobuf would accept: the caller falls back to the ordinary reader.
struct NotWellFormed {};

struct Field {
  uint32_t number = 0;
  uint32_t wireType = 0;
  const uint8_t* start = nullptr;  // the tag
  const uint8_t* end = nullptr;    // one past the value
  uint64_t varint = 0;             // wire types 0, 1 and 5
  std::string_view bytes;          // wire type 2: the payload
};

class Cursor {
 public:
  Cursor(const uint8_t* begin, const uint8_t* end) : p_(begin), end_(end) {}
  explicit Cursor(std::string_view s)
      : p_(reinterpret_cast<const uint8_t*>(s.data())), end_(reinterpret_cast<const uint8_t*>(s.data()) + s.size()) {}
  bool done() const { return p_ >= end_; }

  // False for anything protobuf would reject, and for groups (ONNX has none; protobuf's own parse decides).
  bool next(Field& f) {
    f.start = p_;
    uint64_t tag;
    if (!varint(tag) || tag == 0 || tag > UINT32_MAX || (tag >> 3) == 0) return false;
    f.number = static_cast<uint32_t>(tag >> 3);
    f.wireType = static_cast<uint32_t>(tag & 7);
    switch (f.wireType) {
      case kWireVarint:
        if (!varint(f.varint)) return false;
        break;
      case kWireFixed64:
        if (end_ - p_ < 8) return false;
        std::memcpy(&f.varint, p_, 8);
        p_ += 8;
        break;
      case kWireFixed32: {
        if (end_ - p_ < 4) return false;
        uint32_t v;
        std::memcpy(&v, p_, 4);
        f.varint = v;
        p_ += 4;
        break;
      }
      case kWireBytes: {
        uint64_t len;
        if (!varint(len) || len > static_cast<uint64_t>(end_ - p_)) return false;
        f.bytes = std::string_view(reinterpret_cast<const char*>(p_), len);
        p_ += len;
        break;
      }
      default:
        return false;
    }
    f.end = p_;
    return true;
  }

  bool varint(uint64_t& v) {
    if (p_ < end_ && *p_ < 0x80) {  // most tags, lengths and small numbers
      v = *p_++;
      return true;
    }
    v = 0;
    for (int shift = 0; shift < 64 && p_ < end_; shift += 7) {
      const uint8_t b = *p_++;
      v |= uint64_t(b & 0x7f) << shift;
      if (!(b & 0x80)) return true;
    }
    return false;
  }

 private:
  const uint8_t* p_;
  const uint8_t* end_;
};

// Drops the pages of [from, to) (those wholly inside) from this process: the graph's bytes are read once or
// twice, and what stays in use (tensor data) comes back from the page cache on first access. Without this a
// node-heavy model would keep its whole file resident on top of the IR built from it.
void releasePages(const char* from, const char* to) {
  static const auto page = static_cast<uintptr_t>(::sysconf(_SC_PAGESIZE));
  const uintptr_t a = (reinterpret_cast<uintptr_t>(from) + page - 1) & ~(page - 1);
  const uintptr_t b = reinterpret_cast<uintptr_t>(to) & ~(page - 1);
  if (b > a) ::madvise(reinterpret_cast<void*>(a), b - a, MADV_DONTNEED);
}

// Releases the pages behind a run of messages every few megabytes.
class PageReleaser {
 public:
  void passed(std::string_view item) {
    if (!from_) from_ = item.data();
    to_ = item.data() + item.size();
    if (to_ - from_ >= kChunk) flush();
  }
  void flush() {
    if (from_) releasePages(from_, to_);
    from_ = nullptr;
  }

 private:
  static constexpr ptrdiff_t kChunk = 4 << 20;
  const char* from_ = nullptr;
  const char* to_ = nullptr;
};

std::string_view rawField(const Field& f) {
  return {reinterpret_cast<const char*>(f.start), static_cast<size_t>(f.end - f.start)};
}

// One message parsed by protobuf, as deep in the model as the ordinary parse would meet it.
void parsePart(google::protobuf::MessageLite& m, std::string_view bytes, int depth) {
  google::protobuf::io::CodedInputStream in(reinterpret_cast<const uint8_t*>(bytes.data()),
                                            static_cast<int>(bytes.size()));
  in.SetRecursionLimit(kProtobufNesting - depth);
  if (bytes.size() > static_cast<size_t>(INT32_MAX) || !m.ParseFromCodedStream(&in) || !in.ConsumedEntireMessage())
    throw NotWellFormed{};
}

// Repeated scalars arrive packed (one length-delimited field) or one value per field; protobuf takes both.
bool appendInts(const Field& f, std::vector<int64_t>& out) {
  if (f.wireType == kWireVarint) {
    out.push_back(static_cast<int64_t>(f.varint));
    return true;
  }
  if (f.wireType != kWireBytes) return false;
  Cursor c(f.bytes);
  uint64_t v;
  while (!c.done()) {
    if (!c.varint(v)) return false;
    out.push_back(static_cast<int64_t>(v));
  }
  return true;
}

bool appendFloats(const Field& f, std::vector<float>& out) {
  float v;
  if (f.wireType == kWireFixed32) {
    const auto bits = static_cast<uint32_t>(f.varint);
    std::memcpy(&v, &bits, 4);
    out.push_back(v);
    return true;
  }
  if (f.wireType != kWireBytes || f.bytes.size() % 4 != 0) return false;
  const size_t first = out.size();
  out.resize(first + f.bytes.size() / 4);
  std::memcpy(out.data() + first, f.bytes.data(), f.bytes.size());
  return true;
}

class GraphDecoder {
 public:
  GraphDecoder(ImportContext& ctx, std::shared_ptr<const MappedFile> file) : ctx_(ctx), file_(std::move(file)) {}

  std::shared_ptr<Graph> decode(std::string_view bytes) {
    std::vector<std::string_view> nodes, initializers, inputs, outputs, valueInfos;
    std::string rest;  // everything else, for protobuf: name, doc_string, sparse initializers, annotations, unknowns
    Cursor c(bytes);
    Field f;
    while (!c.done()) {
      if (!c.next(f)) throw NotWellFormed{};
      std::vector<std::string_view>* list = nullptr;
      if (f.wireType == kWireBytes) switch (f.number) {
          case kGraphNode:
            list = &nodes;
            break;
          case kGraphInitializer:
            list = &initializers;
            break;
          case kGraphInput:
            list = &inputs;
            break;
          case kGraphOutput:
            list = &outputs;
            break;
          case kGraphValueInfo:
            list = &valueInfos;
            break;
          default:
            break;
        }
      if (list)
        list->push_back(f.bytes);
      else
        rest.append(rawField(f));
    }
    releasePages(bytes.data(), bytes.data() + bytes.size());
    onnx::GraphProto header;
    parsePart(header, rest, 1);

    auto g = std::make_shared<Graph>(ctx_.ids);
    graph_ = g.get();
    detail::importGraphHeader(header, ctx_, *g);
    g->reserveValues(inputs.size() + initializers.size() + nodes.size() + 16);
    onnx::ValueInfoProto vi;
    for (auto b : inputs) {
      parsePart(vi, b, 2);
      Value* v = g->getOrCreateValue(vi.name());
      detail::importValueInfo(vi, v);
      g->addInput(v);
    }
    PageReleaser release;
    for (auto b : initializers) {
      if (!fastInitializer(b)) slowInitializer(b);
      release.passed(b);
    }
    release.flush();
    detail::importSparseInitializers(header, ctx_, *g);
    int index = 0;
    for (auto b : nodes) {
      if (!fastNode(b, index)) {
        onnx::NodeProto np;
        parsePart(np, b, 2);
        detail::importNode(np, ctx_, *g, index);
      }
      ++index;
      release.passed(b);
    }
    release.flush();
    for (auto b : outputs) {
      parsePart(vi, b, 2);
      Value* v = g->getOrCreateValue(vi.name());
      if (!v->isGraphInput() || v->type.kind == TypeInfo::Kind::None) detail::importValueInfo(vi, v);
      g->addOutput(v);
    }
    for (auto b : valueInfos) {
      parsePart(vi, b, 2);
      Value* v = g->getOrCreateValue(vi.name());
      detail::importValueInfo(vi, v);
      g->addValueInfo(v);
    }
    detail::importQuantizationAnnotations(header, *g);
    return g;
  }

 private:
  std::shared_ptr<const Buffer> dataOf(std::string_view bytes) const {
    if (bytes.size() <= kInlineBytes) return makeBuffer(std::string(bytes));
    const auto offset = static_cast<size_t>(reinterpret_cast<const std::byte*>(bytes.data()) - file_->data());
    return makeMappedBuffer(file_, offset, bytes.size());
  }

  // A tensor of name, type, dims, doc string and raw_data only (what exporters write).
  bool fastInitializer(std::string_view bytes) {
    std::string_view name, doc, raw;
    int32_t dataType = 0;
    bool hasRaw = false;
    dims_.clear();
    Cursor c(bytes);
    Field f;
    while (!c.done()) {
      if (!c.next(f)) throw NotWellFormed{};
      switch (f.number) {
        case kTensorDims:
          if (!appendInts(f, dims_)) return false;
          break;
        case kTensorDataType:
          if (f.wireType != kWireVarint) return false;
          dataType = static_cast<int32_t>(f.varint);
          break;
        case kTensorName:
          if (f.wireType != kWireBytes) return false;
          name = f.bytes;
          break;
        case kTensorDocString:
          if (f.wireType != kWireBytes) return false;
          doc = f.bytes;
          break;
        case kTensorRawData:
          if (f.wireType != kWireBytes || hasRaw) return false;
          raw = f.bytes;
          hasRaw = true;
          break;
        case kTensorDataLocation:  // DEFAULT, written out by tools that loaded external data back in
          if (f.wireType != kWireVarint || f.varint != 0) return false;
          break;
        default:
          return false;
      }
    }
    if (!hasRaw || dataType == static_cast<int32_t>(DataType::String)) return false;
    Tensor t;
    t.name = name;
    t.dtype = static_cast<DataType>(dataType);
    t.dims = dims_;
    t.docString = doc;
    const uint64_t needed = detail::neededBytes(name, dataType, t.dims, ctx_);
    if (raw.size() != needed)
      ctx_.fail("tensor '" + t.name + "' holds " + std::to_string(raw.size()) + " bytes, shape and type need " +
                std::to_string(needed));
    t.setBuffer(dataOf(raw));
    t.storage = Tensor::Storage::Raw;
    graph_->addInitializer(std::move(t));
    return true;
  }

  // Any other tensor: protobuf parses it, but a large raw_data still stays in the map.
  void slowInitializer(std::string_view bytes) {
    std::string copy;
    std::string_view raw;
    Cursor c(bytes);
    Field f;
    while (!c.done()) {
      if (!c.next(f)) throw NotWellFormed{};
      if (f.number == kTensorRawData && f.wireType == kWireBytes && f.bytes.size() > kInlineBytes && raw.empty()) {
        raw = f.bytes;
        continue;
      }
      copy.append(rawField(f));
    }
    onnx::TensorProto tp;
    parsePart(tp, copy, 2);
    if (!raw.empty() && !tp.has_raw_data() && tp.data_location() != onnx::TensorProto::EXTERNAL) {
      graph_->addInitializer(detail::importTensorWithData(tp, dataOf(raw), ctx_));
      return;
    }
    if (!raw.empty()) parsePart(tp, bytes, 2);  // raw_data given twice, or beside external data: protobuf's rules
    graph_->addInitializer(detail::importTensorIn(tp, &ctx_));
  }

  // An attribute of a scalar or list kind; tensors, graphs, sparse tensors and types go through protobuf.
  bool fastAttribute(std::string_view bytes, Attribute& a) {
    Cursor c(bytes);
    Field f;
    while (!c.done()) {
      if (!c.next(f)) throw NotWellFormed{};
      switch (f.number) {
        case kAttrName:
          if (f.wireType != kWireBytes) return false;
          a.name = f.bytes;
          break;
        case kAttrType:
          if (f.wireType != kWireVarint || f.varint > kLastAttributeType) return false;
          a.type = static_cast<AttrType>(f.varint);
          break;
        case kAttrF: {
          if (f.wireType != kWireFixed32) return false;
          const auto bits = static_cast<uint32_t>(f.varint);
          std::memcpy(&a.f, &bits, 4);
          break;
        }
        case kAttrI:
          if (f.wireType != kWireVarint) return false;
          a.i = static_cast<int64_t>(f.varint);
          break;
        case kAttrS:
          if (f.wireType != kWireBytes) return false;
          a.s = f.bytes;
          break;
        case kAttrFloats:
          if (!appendFloats(f, a.floats.edit())) return false;
          break;
        case kAttrInts:
          if (!appendInts(f, a.ints)) return false;
          break;
        case kAttrStrings:
          if (f.wireType != kWireBytes) return false;
          a.strings.emplace_back(f.bytes);
          break;
        case kAttrDocString:
          if (f.wireType != kWireBytes) return false;
          a.docString = f.bytes;
          break;
        case kAttrRefAttrName:
          if (f.wireType != kWireBytes) return false;
          a.refAttrName = f.bytes;
          break;
        default:
          return false;
      }
    }
    // These kinds import element 0 of their field even when it is missing, as the ordinary reader does.
    return a.type != AttrType::Tensor && a.type != AttrType::Graph && a.type != AttrType::SparseTensor &&
           a.type != AttrType::TypeProto;
  }

  bool fastNode(std::string_view bytes, int index) {
    std::string_view name, opType, domain, doc;
    inNames_.clear();
    outNames_.clear();
    attrs_.clear();
    Cursor c(bytes);
    Field f;
    while (!c.done()) {
      if (!c.next(f)) throw NotWellFormed{};
      if (f.wireType != kWireBytes) return false;
      switch (f.number) {
        case kNodeInput:
          inNames_.push_back(f.bytes);
          break;
        case kNodeOutput:
          outNames_.push_back(f.bytes);
          break;
        case kNodeName:
          name = f.bytes;
          break;
        case kNodeOpType:
          opType = f.bytes;
          break;
        case kNodeAttribute:
          attrs_.push_back(f.bytes);
          break;
        case kNodeDocString:
          doc = f.bytes;
          break;
        case kNodeDomain:
          domain = f.bytes;
          break;
        default:
          return false;
      }
    }
    Graph& g = *graph_;
    ins_.clear();
    outs_.clear();
    for (auto in : inNames_) ins_.push_back(in.empty() ? nullptr : g.getOrCreateValue(in));
    for (auto out : outNames_) {
      if (out.empty()) {
        outs_.push_back(nullptr);
        continue;
      }
      Value* v = g.getOrCreateValue(out);
      if (std::find(outs_.begin(), outs_.end(), v) != outs_.end())
        detail::failOutputTwice(ctx_, name, opType, index, std::string(out));
      if (v->producer() || v->isGraphInput() || v->initializer())
        detail::failDefinedTwice(ctx_, name, opType, index, std::string(out));
      outs_.push_back(v);
    }
    Node* n = g.addNode(std::string(opType), ins_, outs_, std::string(domain));
    n->name = name;
    n->docString = doc;
    n->origins = {n->id()};
    n->attributes.reserve(attrs_.size());
    for (auto b : attrs_) {
      if (fastAttribute(b, n->attributes.emplace_back())) continue;
      n->attributes.pop_back();
      onnx::AttributeProto ap;
      parsePart(ap, b, 3);
      n->attributes.push_back(detail::importAttribute(ap, ctx_, &g, n));
    }
    return true;
  }

  ImportContext& ctx_;
  std::shared_ptr<const MappedFile> file_;
  Graph* graph_ = nullptr;
  // Scratch reused from node to node.
  std::vector<std::string_view> inNames_, outNames_, attrs_;
  std::vector<Value*> ins_, outs_;
  std::vector<int64_t> dims_;
};

}  // namespace

std::unique_ptr<ir::Model> readMappedModel(const std::string& path, const ImportOptions& opts) {
  auto file = MappedFile::open(path);
  if (file->size() == 0) return nullptr;
  const auto* d = reinterpret_cast<const uint8_t*>(file->data());
  std::string modelRest;
  std::string_view graphBytes;
  bool sawGraph = false;
  Cursor model(d, d + file->size());
  Field f;
  while (!model.done()) {
    if (!model.next(f)) return nullptr;
    if (f.number != kModelGraph || f.wireType != kWireBytes) {
      modelRest.append(rawField(f));
      continue;
    }
    if (sawGraph) return nullptr;  // a repeated graph field would need merging: leave it to protobuf
    sawGraph = true;
    graphBytes = f.bytes;
  }
  if (!sawGraph) return nullptr;
  try {
    onnx::ModelProto proto;
    parsePart(proto, modelRest, 0);
    if (proto.opset_import_size() == 0 && proto.ir_version() >= 3)
      throw InputError(path, "not a valid ONNX model: no opset_import");
    return detail::assembleModel(proto, opts,
                                 [&](ImportContext& ctx) { return GraphDecoder(ctx, file).decode(graphBytes); });
  } catch (const NotWellFormed&) {
    return nullptr;
  }
}

}  // namespace fb::onnxfmt
