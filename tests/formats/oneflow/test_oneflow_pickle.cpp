// The pickle decoder behind flow.save files (core/formats/oneflow/pickle_reader), as a unit: pickles written by
// Python 3.11's own pickle at protocols 2-5 (generated into the build folder at test time, with a description of
// each object as Python sees it) must decode to the same values; the opcodes Python never writes for small data
// (BINUNICODE8, BINBYTES8) are written by hand per the pickle spec; everything outside the accepted subset
// (other opcodes, persistent ids as torch writes them, globals off the allow-list, truncated streams, nesting and
// value budgets) is refused with its exact message, whose offset is the refused opcode's (pickletools' view for
// Python's pickles, counted by hand for the hand-made ones).
#include <QtTest>

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>

#include <cstring>
#include <set>
#include <string>

#include "formats/oneflow/pickle_reader.h"
#include "support/helpers.h"
#include "util/error.h"

using namespace fb;
using oneflow::pickle::Document;
using oneflow::pickle::Value;
using Kind = Value::Kind;

namespace {

// Writes p<protocol>_<name>.pkl files and index.json: per file its protocol, the object as Python sees it
// (null for the ones meant to be refused), the opcodes pickletools reads in it and the first offset of each.
const char* kGenerator = R"PY(
import collections, io, json, os, pickle, pickletools, struct, sys, types

out = sys.argv[1]

# Classes named as OneFlow's (the module objects only need to exist for pickle to find the classes by name).
of, ofnn, ofi = (types.ModuleType(m) for m in ('oneflow', 'oneflow.nn', 'oneflow._oneflow_internal'))
sys.modules.update({'oneflow': of, 'oneflow.nn': ofnn, 'oneflow._oneflow_internal': ofi})
class Tensor:
    def __init__(self, state): self.state = state
    def __getstate__(self): return self.state
class Parameter(Tensor): pass
class dtype:
    def __init__(self, v): self.v = v
    def __getstate__(self): return self.v
for cls, mod, name in ((Tensor, of, 'Tensor'), (Parameter, ofnn, 'Parameter'), (dtype, ofi, 'dtype')):
    cls.__module__, cls.__qualname__, cls.__name__ = mod.__name__, name, name
    setattr(mod, name, cls)

def enc(o):
    if o is None: return {'k': 'None'}
    if isinstance(o, bool): return {'k': 'bool', 'v': o}
    if isinstance(o, int): return {'k': 'int', 'v': str(o)}
    if isinstance(o, float): return {'k': 'float', 'v': struct.pack('<d', o).hex()}
    if isinstance(o, str): return {'k': 'str', 'v': o.encode('utf-8').hex()}
    if isinstance(o, (bytes, bytearray)): return {'k': 'bytes', 'v': bytes(o).hex()}
    if isinstance(o, tuple): return {'k': 'tuple', 'items': [enc(x) for x in o]}
    if isinstance(o, list): return {'k': 'list', 'items': [enc(x) for x in o]}
    if isinstance(o, dict): return {'k': 'dict', 'entries': [[enc(k), enc(v)] for k, v in o.items()]}
    if isinstance(o, Tensor):
        return {'k': 'object', 'global': type(o).__module__ + '.' + type(o).__qualname__, 'args': enc(()), 'state': enc(o.state)}
    if isinstance(o, dtype):
        return {'k': 'object', 'global': 'oneflow._oneflow_internal.dtype', 'args': enc(()), 'state': enc(o.v)}
    raise TypeError(type(o))

shared_strings = ['s%d' % i for i in range(300)]  # > 256 memo entries: LONG_BINPUT / LONG_BINGET below protocol 4
shared_list = [1, 2]
state_dict = collections.OrderedDict([('conv.weight', Parameter({'data': b'\x00\x00\x80\x3f', 'dtype': dtype(2), 'shape': (1,)})),
                                      ('bn.num_batches', Tensor({'path': 'tensor_3'}))])
state_dict._metadata = collections.OrderedDict([('conv', {'version': 1})])
everything = {
    'scalars': [None, True, False, 0, 1, 255, 256, 65535, 65536, -1, -256, 2**31 - 1, -2**31, 2**31, -2**31 - 1,
                2**63 - 1, -2**63, 1.5, -0.0, 1e300, float('inf'), 5e-324],
    'strings': ['', 'abc', 'é中😀', 'x' * 300, 'ÿ\x00'],
    'bytes': [b'', bytes(range(256)), b'y' * 300, b'\x00'],
    'tuples': [(), (1,), (1, 2), (1, 2, 3), (1, 2, 3, 4)],
    'nested': {'a': [{'b': (1, [2, {'c': None}])}], 'one': [7], 'single': {'k': 'v'}},
    'shared': [shared_list, shared_list, shared_strings, list(shared_strings)],
    'long_list': list(range(1001)),  # APPENDS in batches of 1000, then one APPEND
    'state_dict': state_dict,
    'envelope': {'protocol_version': 1, '__oneflow__': None, 'data': {'x': 1}},
}

class TorchPickler(pickle.Pickler):  # how torch.save refers to storages: persistent ids
    def persistent_id(self, obj):
        return ('storage', 'FloatStorage', '0', 'cpu', 4) if isinstance(obj, Tensor) else None

def torch_style(obj, protocol):
    f = io.BytesIO()
    TorchPickler(f, protocol=protocol).dump(obj)
    return f.getvalue()

index = []
def emit(name, protocol, data, obj=None, good=True):
    path = os.path.join(out, 'p%d_%s.pkl' % (protocol, name))
    with open(path, 'wb') as f: f.write(data)
    ops, offsets = [], {}
    for op, arg, pos in pickletools.genops(data):
        ops.append(op.name)
        offsets.setdefault(op.name, pos)
    index.append({'file': path, 'name': name, 'protocol': protocol, 'expected': enc(obj) if good else None,
                  'ops': sorted(set(ops)), 'offsets': offsets})

for p in (2, 3, 4, 5):
    emit('everything', p, pickle.dumps(everything, protocol=p), everything)
    if p == 5:
        ba = {'buffer': bytearray(b'\x00\x01\x02'), 'empty': bytearray()}
        emit('bytearray', p, pickle.dumps(ba, protocol=p), ba)
    cycle = []
    cycle.append(cycle)
    emit('cycle', p, pickle.dumps(cycle, protocol=p), good=False)
    emit('global_os', p, pickle.dumps(os.system, protocol=p), good=False)
    emit('torch_persid', p, torch_style({'w': Tensor({})}, p), good=False)
    emit('set', p, pickle.dumps({1, 2}, protocol=p), good=False)
    emit('int_2_64', p, pickle.dumps([2**64], protocol=p), good=False)
    emit('int_huge', p, pickle.dumps(2**4000, protocol=p), good=False)
    emit('frozenset', p, pickle.dumps(frozenset([1]), protocol=p), good=False)
    emit('complex', p, pickle.dumps(1j, protocol=p), good=False)
json.dump(index, open(os.path.join(out, 'index.json'), 'w'))
)PY";

QByteArray readFile(const QString& path) {
  QFile f(path);
  if (!f.open(QIODevice::ReadOnly)) return {};
  return f.readAll();
}

std::span<const std::byte> bytesOf(const QByteArray& b) {
  return {reinterpret_cast<const std::byte*>(b.constData()), static_cast<size_t>(b.size())};
}
std::span<const std::byte> bytesOf(const std::string& b) {
  return {reinterpret_cast<const std::byte*>(b.data()), b.size()};
}

QString hex(std::span<const std::byte> b) {
  return QByteArray(reinterpret_cast<const char*>(b.data()), static_cast<qsizetype>(b.size())).toHex();
}

// Empty when `v` is what Python described; else where and how they differ.
QString diff(const Value& v, const QJsonObject& e, const QString& path) {
  const QString k = e.value("k").toString();
  auto mismatch = [&](const QString& what) { return path + ": " + what; };
  if (k != oneflow::pickle::kindName(v.kind) && !(k == "object" && v.kind == Kind::Object))
    return mismatch(QString("%1 instead of %2").arg(oneflow::pickle::kindName(v.kind), k));
  if (k == "bool" && v.boolean != e.value("v").toBool()) return mismatch("bool value");
  if (k == "int" && QString::number(v.integer) != e.value("v").toString())
    return mismatch(QString("int %1 instead of %2").arg(v.integer).arg(e.value("v").toString()));
  if (k == "float") {
    QByteArray le(8, '\0');
    std::memcpy(le.data(), &v.real, 8);
    if (le.toHex() != e.value("v").toString().toLatin1()) return mismatch("float bits " + le.toHex());
  }
  if (k == "str" && QByteArray::fromStdString(v.text).toHex() != e.value("v").toString().toLatin1())
    return mismatch("str " + QString::fromStdString(v.text).left(40));
  if (k == "bytes" && hex(v.bytes) != e.value("v").toString()) return mismatch("bytes " + hex(v.bytes).left(40));
  if (k == "tuple" || k == "list") {
    const auto items = e.value("items").toArray();
    if (static_cast<qsizetype>(v.items.size()) != items.size())
      return mismatch(QString("%1 items instead of %2").arg(v.items.size()).arg(items.size()));
    for (qsizetype i = 0; i < items.size(); ++i)
      if (QString d = diff(*v.items[static_cast<size_t>(i)], items[i].toObject(), path + QString("[%1]").arg(i));
          !d.isEmpty())
        return d;
  }
  if (k == "dict") {
    const auto entries = e.value("entries").toArray();
    if (static_cast<qsizetype>(v.entries.size()) != entries.size())
      return mismatch(QString("%1 entries instead of %2").arg(v.entries.size()).arg(entries.size()));
    for (qsizetype i = 0; i < entries.size(); ++i) {
      const auto kv = entries[i].toArray();
      const auto& [key, value] = v.entries[static_cast<size_t>(i)];
      if (QString d = diff(*key, kv[0].toObject(), path + QString("{key %1}").arg(i)); !d.isEmpty()) return d;
      if (QString d = diff(*value, kv[1].toObject(), path + QString("{%1}").arg(i)); !d.isEmpty()) return d;
    }
  }
  if (k == "object") {
    if (!v.callable || v.callable->kind != Kind::Global ||
        QString::fromStdString(v.callable->module + "." + v.callable->name) != e.value("global").toString())
      return mismatch("object of another class");
    if (!v.args) return mismatch("object without arguments");
    if (QString d = diff(*v.args, e.value("args").toObject(), path + ".args"); !d.isEmpty()) return d;
    if (!v.state) return mismatch("object without BUILD state");
    if (QString d = diff(*v.state, e.value("state").toObject(), path + ".state"); !d.isEmpty()) return d;
  }
  return {};
}

// The InputError message decoding `data` throws (and checks the file name it carries); "no error" when none.
std::string errorOf(std::span<const std::byte> data, const std::string& file = "t.pkl") {
  try {
    oneflow::pickle::decode(data, file);
  } catch (const InputError& e) {
    if (e.file() != file) return "InputError about '" + e.file() + "'";
    return e.what();
  } catch (const std::exception& e) {
    return std::string("not an InputError: ") + e.what();
  }
  return "no error";
}
std::string errorOf(const std::string& data) { return errorOf(bytesOf(data)); }

std::string u32(uint32_t v) {
  std::string s(4, '\0');
  for (int i = 0; i < 4; ++i) s[static_cast<size_t>(i)] = static_cast<char>(v >> (8 * i));
  return s;
}
std::string u64(uint64_t v) {
  std::string s(8, '\0');
  for (int i = 0; i < 8; ++i) s[static_cast<size_t>(i)] = static_cast<char>(v >> (8 * i));
  return s;
}
const std::string P2("\x80\x02", 2);  // PROTO 2
std::string shortStr(const std::string& s) { return "\x8c" + std::string(1, static_cast<char>(s.size())) + s; }

}  // namespace

class TestOneflowPickle : public QObject {
  Q_OBJECT
  QString dir_;
  QJsonArray index_;

  QJsonObject entry(const QString& name, int protocol) const {
    for (const auto& e : index_)
      if (e.toObject().value("name").toString() == name && e.toObject().value("protocol").toInt() == protocol)
        return e.toObject();
    return {};
  }

 private slots:
  void initTestCase() {
    dir_ = test::scratchDir("oneflow_pickle");
    QProcess py;
    py.start("/usr/bin/python3", {"-c", kGenerator, dir_});
    QVERIFY(py.waitForFinished(120000));
    QVERIFY2(py.exitCode() == 0, py.readAllStandardError().constData());
    index_ = QJsonDocument::fromJson(readFile(dir_ + "/index.json")).array();
    QCOMPARE(index_.size(), 4 * 9 + 1);
  }

  // Every pickle Python writes of the data OneFlow saves decodes to what Python pickled, at every protocol.
  void pythonPicklesDecodeToWhatPythonWrote() {
    int checked = 0;
    for (const auto& item : index_) {
      const QJsonObject e = item.toObject();
      if (e.value("expected").isNull()) continue;
      const QByteArray data = readFile(e.value("file").toString());
      QVERIFY(!data.isEmpty());
      const Document doc = oneflow::pickle::decode(bytesOf(data), "t.pkl");
      const QString d = diff(doc.root(), e.value("expected").toObject(), e.value("file").toString() + ": root");
      QVERIFY2(d.isEmpty(), qPrintable(d));
      ++checked;
    }
    QCOMPARE(checked, 5);
  }

  // The opcodes of protocols 2-5's data subset that the reader accepts are all exercised: by Python's pickles
  // above, or by hand below (the 8-byte lengths Python writes only past 4 GiB).
  void everyAcceptedOpcodeIsExercised() {
    const std::set<QString> accepted{
        "PROTO",       "FRAME",          "STOP",     "MARK",         "NONE",       "NEWTRUE",          "NEWFALSE",
        "BININT",      "BININT1",        "BININT2",  "LONG1",        "BINFLOAT",   "SHORT_BINUNICODE", "BINUNICODE",
        "BINUNICODE8", "SHORT_BINBYTES", "BINBYTES", "BINBYTES8",    "BYTEARRAY8", "EMPTY_DICT",       "EMPTY_LIST",
        "EMPTY_TUPLE", "TUPLE",          "TUPLE1",   "TUPLE2",       "TUPLE3",     "APPEND",           "APPENDS",
        "SETITEM",     "SETITEMS",       "GLOBAL",   "STACK_GLOBAL", "REDUCE",     "NEWOBJ",           "BUILD",
        "BINPUT",      "LONG_BINPUT",    "MEMOIZE",  "BINGET",       "LONG_BINGET"};
    std::set<QString> seen{"BINUNICODE8", "BINBYTES8"};  // handMadeEightByteLengths
    for (const auto& item : index_) {
      const QJsonObject e = item.toObject();
      if (e.value("expected").isNull()) continue;
      for (const auto& op : e.value("ops").toArray()) {
        QVERIFY2(accepted.count(op.toString()), qPrintable(op.toString() + " in a pickle the reader decoded"));
        seen.insert(op.toString());
      }
    }
    QCOMPARE(QStringList(seen.begin(), seen.end()), QStringList(accepted.begin(), accepted.end()));
  }

  void handMadeEightByteLengths() {
    // BINUNICODE8 'aé' (3 UTF-8 bytes), then BINBYTES8 of two bytes, in a TUPLE2.
    const std::string data =
        std::string("\x80\x04\x8d", 3) + u64(3) + "a\xc3\xa9" + "\x8e" + u64(2) + "\x01\xfe" + "\x86.";
    const Document doc = oneflow::pickle::decode(bytesOf(data), "t.pkl");
    const Value& root = doc.root();
    QCOMPARE(root.kind, Kind::Tuple);
    QCOMPARE(root.items.size(), size_t{2});
    QCOMPARE(root.items[0]->text, std::string("a\xc3\xa9"));
    QCOMPARE(hex(root.items[1]->bytes), QString("01fe"));
    // Byte strings are views into the input, not copies.
    QCOMPARE(static_cast<const void*>(root.items[1]->bytes.data()),
             static_cast<const void*>(data.data() + 3 + 8 + 3 + 1 + 8));
  }

  // Memo: BINGET/LONG_BINGET give the very value stored, so shared objects stay shared (and cycles stay finite).
  void memoReferencesShareValues() {
    for (int p = 2; p <= 5; ++p) {
      const QByteArray data = readFile(entry("everything", p).value("file").toString());
      const Document doc = oneflow::pickle::decode(bytesOf(data), "t.pkl");
      const Value* shared = doc.root().find("shared");
      QVERIFY(shared);
      QCOMPARE(shared->items.size(), size_t{4});
      QVERIFY(shared->items[0] == shared->items[1]);  // the same list twice
      QVERIFY(shared->items[2] != shared->items[3]);  // two lists ...
      for (size_t i = 0; i < 300; ++i)                // ... of the same 300 strings
        QVERIFY(shared->items[2]->items[i] == shared->items[3]->items[i]);
      const QByteArray cycle = readFile(entry("cycle", p).value("file").toString());
      const Document c = oneflow::pickle::decode(bytesOf(cycle), "t.pkl");
      QCOMPARE(c.root().kind, Kind::List);
      QCOMPARE(c.root().items.size(), size_t{1});
      QVERIFY(c.root().items[0] == &c.root());
    }
    // Below protocol 4 the 300 shared strings need 4-byte memo indices; protocol 4 memoizes implicitly.
    QVERIFY(entry("everything", 2).value("ops").toArray().contains("LONG_BINGET"));
    QVERIFY(entry("everything", 4).value("ops").toArray().contains("MEMOIZE"));
  }

  // A state dict as OneFlow saves it: an OrderedDict (its _metadata BUILD is dropped) of Parameter/Tensor objects
  // created by NEWOBJ with their state from BUILD; dtype objects likewise; find() looks keys up.
  void stateDictObjects() {
    for (int p = 2; p <= 5; ++p) {
      const QByteArray data = readFile(entry("everything", p).value("file").toString());
      const Document doc = oneflow::pickle::decode(bytesOf(data), "t.pkl");
      const Value* sd = doc.root().find("state_dict");
      QVERIFY(sd);
      QCOMPARE(sd->kind, Kind::Dict);
      QCOMPARE(sd->entries.size(), size_t{2});
      const Value* w = sd->find("conv.weight");
      QVERIFY(w && w->kind == Kind::Object);
      QVERIFY(w->callable->isGlobal("oneflow.nn", "Parameter"));
      QCOMPARE(w->args->kind, Kind::Tuple);
      QVERIFY(w->args->items.empty());
      QCOMPARE(hex(w->state->find("data")->bytes), QString("0000803f"));
      const Value* dt = w->state->find("dtype");
      QVERIFY(dt->callable->isGlobal("oneflow._oneflow_internal", "dtype"));
      QCOMPARE(dt->state->integer, int64_t{2});
      QVERIFY(sd->find("bn.num_batches")->callable->isGlobal("oneflow", "Tensor"));
      QVERIFY(!sd->find("missing"));
      QVERIFY(!w->find("data"));  // not a dict
    }
  }

  void laterKeysWin() {
    // {'a': 1, 'a': 2} by SETITEMS (Python never writes it; a hostile file may).
    const std::string data = P2 + "}(" + shortStr("a") + "K\x01" + shortStr("a") + "K\x02u.";
    const Document doc = oneflow::pickle::decode(bytesOf(data), "t.pkl");
    QCOMPARE(doc.root().entries.size(), size_t{2});
    QCOMPARE(doc.root().find("a")->integer, int64_t{2});
  }

  // What Python writes that the reader does not accept, refused at the opcode that is not accepted.
  void pythonPicklesOutsideTheSubsetAreRefused() {
    for (int p = 2; p <= 5; ++p) {
      auto refusal = [&](const char* name, const char* op) -> std::pair<std::string, std::string> {
        const QJsonObject e = entry(name, p);
        const QByteArray data = readFile(e.value("file").toString());
        const int at = e.value("offsets").toObject().value(op).toInt(-1);
        return {errorOf(bytesOf(data)), "at offset " + std::to_string(at)};
      };
      auto expect = [&](const char* name, const char* op, const std::string& reason) {
        auto [got, where] = refusal(name, op);
        const std::string want = "pickle: " + reason + " " + where;
        QVERIFY2(got == want, qPrintable(QString("protocol %1 %2: '%3' instead of '%4'")
                                             .arg(p)
                                             .arg(name)
                                             .arg(QString::fromStdString(got), QString::fromStdString(want))));
      };
      // os.system: GLOBAL below protocol 4, STACK_GLOBAL from 4 on.
      expect("global_os", p < 4 ? "GLOBAL" : "STACK_GLOBAL", "global 'posix.system' is not allowed");
      // torch.save's storages are persistent ids: refused, as OneFlow never writes them.
      expect("torch_persid", "BINPERSID", "opcode 0x51 is not accepted");
      // Python 3 writes builtins as __builtin__ below protocol 3 (fix_imports), as builtins from 3 on.
      const std::string builtins = p < 3 ? "__builtin__" : "builtins";
      if (p < 4) {
        expect("set", "GLOBAL", "global '" + builtins + ".set' is not allowed");
        expect("frozenset", "GLOBAL", "global '" + builtins + ".frozenset' is not allowed");
      } else {
        expect("set", "EMPTY_SET", "opcode 0x8f is not accepted");
        expect("frozenset", "FROZENSET", "opcode 0x91 is not accepted");
      }
      expect("complex", p < 4 ? "GLOBAL" : "STACK_GLOBAL", "global '" + builtins + ".complex' is not allowed");
      expect("int_2_64", "LONG1", "LONG1 of 9 bytes (integers past 64 bits are not accepted)");
      expect("int_huge", "LONG4", "opcode 0x8b is not accepted");
    }
  }

  void handMadeRefusals_data() {
    QTest::addColumn<QByteArray>("data");
    QTest::addColumn<QString>("error");
    auto row = [](const char* name, const std::string& data, const std::string& error) {
      QTest::newRow(name) << QByteArray::fromStdString(data) << QString::fromStdString("pickle: " + error);
    };
    row("empty input", "", "the pickle is truncated (no STOP) at offset 0");
    row("no STOP", P2 + "N", "the pickle is truncated (no STOP) at offset 3");
    row("protocol 1", "\x80\x01N.", "protocol 1 (only 2-5 are accepted) at offset 0");
    row("protocol 6", "\x80\x06N.", "protocol 6 (only 2-5 are accepted) at offset 0");
    row("BININT without operand", P2 + "J", "the pickle is truncated at offset 2");
    row("BININT cut short", P2 + "J\x01\x02", "a length of 4 bytes runs past the end of the file (2 left) at offset 2");
    row("BINUNICODE past the end", P2 + "X" + u32(5) + "ab",
        "a length of 5 bytes runs past the end of the file (2 left) at offset 2");
    row("BINUNICODE8 of 2^63 bytes", P2 + "\x8d" + u64(uint64_t{1} << 63) + "x.",
        "a length of 9223372036854775808 bytes runs past the end of the file (2 left) at offset 2");
    row("BINBYTES8 past the end", P2 + "\x8e" + u64(100) + "x.",
        "a length of 100 bytes runs past the end of the file (2 left) at offset 2");
    row("FRAME past the end", std::string("\x80\x04\x95", 3) + u64(10) + "N.",
        "FRAME of 10 bytes runs past the end at offset 2");
    row("unknown opcode 0xff", P2 + "\xff", "opcode 0xff is not accepted at offset 2");
    row("protocol-0 INT", P2 + "I1\n.", "opcode 0x49 is not accepted at offset 2");
    row("persistent id (text)", P2 + "P0\n.", "opcode 0x50 is not accepted at offset 2");
    row("out-of-band buffer", std::string("\x80\x05\x97.", 4), "opcode 0x97 is not accepted at offset 2");
    row("GLOBAL off the allow-list", P2 + "cbuiltins\neval\n.", "global 'builtins.eval' is not allowed at offset 2");
    row("GLOBAL of a near name", P2 + "ccollections\nOrderedDicts\n.",
        "global 'collections.OrderedDicts' is not allowed at offset 2");
    row("GLOBAL without newline", P2 + "c" + std::string(300, 'a'),
        "GLOBAL without a newline in its first 256 bytes at offset 2");
    row("STACK_GLOBAL off the allow-list", P2 + shortStr("os") + shortStr("system") + "\x93.",
        "global 'os.system' is not allowed at offset 14");
    row("STACK_GLOBAL on non-strings", P2 + "K\x01K\x02\x93.", "STACK_GLOBAL on non-strings at offset 6");
    row("REDUCE of an allowed class NEWOBJ-only", P2 + "coneflow\nTensor\n)R.",
        "REDUCE of 'oneflow.Tensor' is not accepted at offset 19");
    row("REDUCE without a tuple", P2 + "cnumpy\ndtype\nNR.", "REDUCE with arguments that are not a tuple at offset 16");
    row("NEWOBJ of OrderedDict", P2 + "ccollections\nOrderedDict\n)\x81.",
        "NEWOBJ of 'collections.OrderedDict' is not accepted at offset 28");
    row("bytes() with arguments", P2 + "c__builtin__\nbytes\nK\x01\x85R.", "bytes() with arguments at offset 24");
    row("OrderedDict with arguments", P2 + "ccollections\nOrderedDict\nK\x01\x85R.",
        "REDUCE of OrderedDict with arguments at offset 30");
    row("_codecs.encode outside latin1",
        P2 + "c_codecs\nencode\n" + shortStr("\xe4\xb8\xad") + shortStr("latin1") + "\x86R.",
        "_codecs.encode of text outside latin1 at offset 32");
    row("_codecs.encode utf-8", P2 + "c_codecs\nencode\n" + shortStr("a") + shortStr("utf-8") + "\x86R.",
        "_codecs.encode other than (str, 'latin1') at offset 29");
    row("APPEND to a dict",
        P2 + "}K\x01"
             "a.",
        "APPEND to a dict at offset 5");
    row("SETITEM on a list", P2 + "]K\x01K\x02s.", "SETITEM on a list at offset 7");
    row("SETITEMS odd", P2 + "}(K\x01u.", "SETITEMS with an odd number of values at offset 6");
    row("APPENDS without MARK",
        P2 + "]K\x01"
             "e.",
        "no MARK to pop to at offset 5");
    row("APPEND underflow", P2 + "]a.", "stack underflow at offset 3");
    row("TUPLE3 across a MARK", P2 + "K\x01(K\x02K\x03\x87.", "stack underflow at offset 9");
    row("STOP with two values", P2 + "NN.", "STOP with 2 values on the stack at offset 4");
    row("STOP inside a MARK", P2 + "N(.", "STOP with 1 values on the stack at offset 4");
    row("BUILD on a list", P2 + "]}b.", "BUILD on a list at offset 4");
    row("second BUILD", P2 + "coneflow\nTensor\n)\x81}b}b.", "a second BUILD on one object at offset 23");
    row("memo reference to nothing", P2 + "h\x05.", "memo reference 5 to nothing at offset 2");
    row("LONG_BINGET to nothing", P2 + "N\x94j" + u32(1) + ".", "memo reference 1 to nothing at offset 4");
    row("memo store on an empty stack", P2 + std::string("q\x00.", 3), "memo store with an empty stack at offset 2");
    row("memo index past the input", P2 + "Nr" + u32(0xffffffffu) + ".",
        "memo index 4294967295 out of range at offset 3");
    row("LONG1 of 9 bytes", P2 + "\x8a\x09" + std::string(9, '\x01') + ".",
        "LONG1 of 9 bytes (integers past 64 bits are not accepted) at offset 2");
  }
  void handMadeRefusals() {
    QFETCH(QByteArray, data);
    QFETCH(QString, error);
    QCOMPARE(QString::fromStdString(errorOf(bytesOf(data))), error);
  }

  // Small values written by hand, each opcode's operand decoded per the spec.
  void handMadeValues() {
    auto root = [](const std::string& body, const std::function<void(const Value&)>& check) {
      const std::string data = P2 + body + ".";
      const Document doc = oneflow::pickle::decode(bytesOf(data), "t.pkl");
      check(doc.root());
    };
    root("J\xff\xff\xff\x7f", [](const Value& v) { QCOMPARE(v.integer, int64_t{2147483647}); });
    root(std::string("J\x00\x00\x00\x80", 5), [](const Value& v) { QCOMPARE(v.integer, int64_t{-2147483647} - 1); });
    root("M\xff\xff", [](const Value& v) { QCOMPARE(v.integer, int64_t{65535}); });  // BININT2 is unsigned
    root("K\xff", [](const Value& v) { QCOMPARE(v.integer, int64_t{255}); });        // BININT1 too
    root(std::string("\x8a\x00", 2),
         [](const Value& v) { QCOMPARE(v.integer, int64_t{0}); });                   // LONG1 of no bytes is 0
    root("\x8a\x01\xff", [](const Value& v) { QCOMPARE(v.integer, int64_t{-1}); });  // two's complement, little-endian
    root(std::string("\x8a\x02\x00\x80", 4), [](const Value& v) { QCOMPARE(v.integer, int64_t{-32768}); });
    root(std::string("\x8a\x02\xff\x00", 4), [](const Value& v) { QCOMPARE(v.integer, int64_t{255}); });
    root(std::string("\x8a\x08\x00\x00\x00\x00\x00\x00\x00\x80", 10),
         [](const Value& v) { QCOMPARE(v.integer, INT64_MIN); });
    root(std::string("G\x3f\xf8\x00\x00\x00\x00\x00\x00", 9),
         [](const Value& v) { QCOMPARE(v.real, 1.5); });  // big-endian
    root(std::string("G\xc0\x00\x00\x00\x00\x00\x00\x00", 9), [](const Value& v) { QCOMPARE(v.real, -2.0); });
    // Protocol 2's bytes: _codecs.encode(text, 'latin1') over every byte value, written as UTF-8 text.
    std::string text;
    for (int b = 0; b < 256; ++b) {
      if (b < 0x80)
        text += static_cast<char>(b);
      else
        text += std::string{static_cast<char>(0xc0 | (b >> 6)), static_cast<char>(0x80 | (b & 0x3f))};
    }
    root("c_codecs\nencode\nX" + u32(static_cast<uint32_t>(text.size())) + text + shortStr("latin1") + "\x86R",
         [](const Value& v) {
           QCOMPARE(v.kind, Kind::Bytes);
           QCOMPARE(v.bytes.size(), size_t{256});
           for (size_t i = 0; i < 256; ++i) QCOMPARE(std::to_integer<int>(v.bytes[i]), static_cast<int>(i));
         });
    root("c__builtin__\nbytes\n)R", [](const Value& v) {
      QCOMPARE(v.kind, Kind::Bytes);
      QCOMPARE(v.bytes.size(), size_t{0});
    });
  }

  // Depth: a container holds at most kMaxDepth levels below it; MARKs nest at most kMaxDepth deep.
  void depthLimits() {
    QCOMPARE(Document::kMaxDepth, 100);
    auto nestedLists = [](int lists) {  // `lists` EMPTY_LISTs, each appended into the one below it
      return P2 + std::string(static_cast<size_t>(lists), ']') + std::string(static_cast<size_t>(lists - 1), 'a') + ".";
    };
    const std::string ok = nestedLists(101);  // the outermost list is 100 levels above the innermost
    const Document doc = oneflow::pickle::decode(bytesOf(ok), "t.pkl");
    QCOMPARE(doc.root().depth, 100);
    // 102 lists: the 101st APPEND makes depth 101; it sits at 2 + 102 + 100.
    QCOMPARE(errorOf(nestedLists(102)), std::string("pickle: values nested deeper than 100 at offset 204"));
    // The same through tuples, dicts and objects' state.
    std::string tuples = P2 + "N" + std::string(101, '\x85') + ".";
    QCOMPARE(errorOf(tuples), std::string("pickle: values nested deeper than 100 at offset 103"));
    std::string dicts = P2;
    for (int i = 0; i < 101; ++i) dicts += "}K\x01";
    dicts += "N";
    dicts += std::string(101, 's') + ".";
    QCOMPARE(errorOf(dicts),
             std::string("pickle: values nested deeper than 100 at offset ") + std::to_string(2 + 101 * 3 + 1 + 100));
    const std::string marks = P2 + std::string(101, '(');
    QCOMPARE(errorOf(marks), std::string("pickle: MARKs nested deeper than 100 at offset 102"));
    QCOMPARE(errorOf(P2 + std::string(100, '(') + std::string(99, 't') + "t."), std::string("no error"));
  }

  // The value budget: at most kMaxValues values, whatever opcodes make them.
  void valueBudget() {
    const size_t n = Document::kMaxValues;
    QCOMPARE(n, size_t{1} << 20);
    std::string data = P2 + "(" + std::string(n - 1, 'N') + "l.";  // n - 1 Nones and the list: exactly n values
    data[2 + 1 + n - 1] = 't';                                     // a tuple, as 'l' (LIST) is protocol 0
    QCOMPARE(errorOf(data), std::string("no error"));
    std::string over = P2 + std::string(n + 1, 'N');
    QCOMPARE(errorOf(over), "pickle: more than " + std::to_string(n) + " values at offset " + std::to_string(2 + n));
  }

  // Every prefix of a real pickle is refused with an InputError (never a crash, never a value).
  void everyTruncationIsRefused() {
    int prefixes = 0;
    for (int p = 2; p <= 5; ++p) {
      const QByteArray data = readFile(entry("everything", p).value("file").toString());
      QVERIFY(data.size() > 1000);
      for (qsizetype len = 0; len < data.size(); len += (len < 200 || data.size() - len < 200) ? 1 : 37) {
        const std::string e = errorOf(bytesOf(data.left(len)));
        QVERIFY2(e.rfind("pickle: ", 0) == 0,
                 qPrintable(QString("prefix %1 of protocol %2: %3").arg(len).arg(p).arg(QString::fromStdString(e))));
        ++prefixes;
      }
    }
    QVERIFY(prefixes > 1000);
  }
};

QTEST_GUILESS_MAIN(TestOneflowPickle)
#include "test_oneflow_pickle.moc"
