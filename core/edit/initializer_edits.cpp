// A weight (initializer) replaced from a .npy file, cast to another element type, or set to a scalar. The old
// tensor is kept for undo by sharing its bytes, not copying them.
#include <memory>

#include "edit/edit_support.h"
#include "edit/edit_verb.h"
#include "eval/io/npy_file.h"
#include "eval/runtime/value_conversion.h"
#include "util/error.h"

namespace fb::edit {

namespace {

class SetInitializer : public EditVerb {
 public:
  std::vector<EditArg> args() const override {
    return {{"name", true, "initializer"},
            {"npy", false, "replace the tensor from a .npy file"},
            {"cast", false, "cast it to an element type (float, float16, int64, ...)"},
            {"fill", false, "keep its type and shape, every element this number"},
            {"scalar", false, "replace it by a 0-d tensor of its element type holding this number"}};
  }
  std::optional<std::string> check(const ir::Model& m, const Edit& e) const override {
    const ir::Value* v = m.graph().findValue(e.get("name"));
    if (!v || !v->initializer()) return "the graph has no initializer " + q(e.get("name"));
    const int given = int(e.has("npy")) + int(e.has("cast")) + int(e.has("scalar")) + int(e.has("fill"));
    if (given != 1) return "give exactly one of npy=, cast=, fill=, scalar=";
    const ir::Tensor& t = *v->initializer();
    if (t.dtype == ir::DataType::String) return q(v->name()) + " holds strings";
    if (e.has("cast")) {
      auto to = ir::dataTypeFromName(e.get("cast"));
      if (!to || *to == ir::DataType::String || *to == ir::DataType::Undefined)
        return "not a numeric element type: " + q(e.get("cast"));
    }
    for (const char* key : {"scalar", "fill"})
      if (e.has(key) && !parseDouble(e.get(key))) return "not a number: " + q(e.get(key));
    if (e.has("npy")) {
      std::string why;
      if (!replacement(*v, e, why)) return why;
    }
    return std::nullopt;
  }
  Applied apply(ir::Model& m, const Edit& e) const override {
    ir::Value* v = m.graph().findValue(e.get("name"));
    std::string why;
    auto next = replacement(*v, e, why);  // before anything changes: the only step that can fail
    if (!next) throw EditError(e, why);
    auto old = std::make_shared<std::pair<ir::Tensor, ir::TypeInfo>>(*v->initializer(), v->type);
    const std::string name = v->name();
    next->name = name;
    Applied out;
    out.notes.push_back(q(name) + ": " + std::string(ir::dataTypeName(old->first.dtype)) + " " +
                        std::to_string(old->first.numElements()) + " elements -> " +
                        std::string(ir::dataTypeName(next->dtype)) + " " + std::to_string(next->numElements()));
    *v->initializer() = std::move(*next);
    if (v->type.isTensor()) {
      std::vector<ir::Dim> dims;
      for (int64_t d : v->initializer()->dims) dims.push_back(ir::Dim::of(d));
      v->type = ir::TypeInfo::tensor(v->initializer()->dtype, dims);
    }
    out.undo = {[old, name](ir::Model& model) {
                  ir::Value* value = model.graph().findValue(name);
                  if (!value || !value->initializer()) return;
                  *value->initializer() = old->first;
                  value->type = old->second;
                },
                sizeof(*old) + old->first.expectedBytes()};
    return out;
  }

 private:
  static std::optional<ir::Tensor> replacement(const ir::Value& v, const Edit& e, std::string& why) {
    const ir::Tensor& t = *v.initializer();
    try {
      if (e.has("npy")) return eval::readNpyFile(e.get("npy")).toModel(v.name());
      if (e.has("scalar")) return eval::Tensor::scalar(t.dtype, *parseDouble(e.get("scalar"))).toModel(v.name());
      if (e.has("fill")) {
        // One element of the type, repeated: the bytes of Tensor::scalar copied numElements() times.
        const ir::Tensor one = eval::Tensor::scalar(t.dtype, *parseDouble(e.get("fill"))).toModel(v.name());
        const auto b = one.bytes();
        const int64_t n = t.numElements();
        if (n < 0 || b.empty()) throw std::runtime_error("cannot fill this tensor");
        std::string raw;
        raw.reserve(b.size() * size_t(n));
        for (int64_t k = 0; k < n; ++k) raw.append(reinterpret_cast<const char*>(b.data()), b.size());
        ir::Tensor filled;
        filled.name = v.name();
        filled.dtype = t.dtype;
        filled.dims = t.dims;
        filled.setBytes(std::move(raw));
        return filled;
      }
      return eval::castTensor(eval::Tensor::fromModel(t), *ir::dataTypeFromName(e.get("cast"))).toModel(v.name());
    } catch (const InputError& ex) {
      why = q(v.name()) + ": " + ex.file() + ": " + ex.what();
      return std::nullopt;
    } catch (const std::exception& ex) {
      why = q(v.name()) + ": " + ex.what();
      return std::nullopt;
    }
  }
};

}  // namespace

void registerInitializerEdits(EditRegistry& r) {
  r.add({"set-initializer", "Replace a weight from a .npy file, cast it, fill it with a number, or make it a scalar",
         std::make_shared<SetInitializer>()});
}

}  // namespace fb::edit
