#pragma once
// The type constraints of every op version of opsets 18-26 in opsets_18_26/op_facts's table: for each formal input
// and output its type variable (or fixed type), and the element types each variable accepts. Versions of ops
// that opset 17 has start from libonnx's opset-17 schema and add what each later version added (the float8
// sweep of 19, int4 of 21, float4 of 23, float8e8m0 of 24, int2 of 25 on the "any type" variables; bfloat16
// on the float variables of 22/24; bool for ReduceMax/Min-20; string for Equal-19); versions whose formals
// changed (Reduce* axes input, Pad axes, DFT axis, Q/DQ's scale and output variables, Optional*) and new ops
// are written out. Sources: ../shared/docs/onnx-opsets-after-17.md and ONNX's operator docs.
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "ir/data_type.h"

namespace fb::schema::opsets_18_26 {

struct TypeSignature {
  struct Formal {
    std::string name;
    std::string typeVar;         // "T", "T1", ... or a fixed type written as a variable ("tensor(int64)")
    bool variadic = false;       // the last formal may repeat
    bool heterogeneous = false;  // a variadic whose positions may differ in type (Loop/Scan/If values)
  };
  std::vector<Formal> inputs, outputs;
  std::map<std::string, std::set<ir::DataType>> allowed;  // element types per type variable

  // The formal that input/output position `i` binds to, or nullptr past the end.
  const Formal* inputAt(size_t i) const;
  const Formal* outputAt(size_t i) const;
};

// The signature of `op`'s version `since` (one of allSchemaFacts()), or nullptr when it is not in the table.
const TypeSignature* typeSignature(const std::string& op, int64_t since);

}  // namespace fb::schema::opsets_18_26
