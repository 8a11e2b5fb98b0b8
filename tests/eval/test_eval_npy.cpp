// NumPy .npy files: every dtype FlowBridge writes is read back bit for bit, NumPy itself (Debian's python3-numpy)
// reads what FlowBridge writes and writes what FlowBridge reads (headers of format 1.0 and 2.0, 0-d and empty
// arrays), bfloat16 is written as float32 with a note, and malformed files are InputErrors naming the file.
#include <QtTest>

#include <QProcess>

#include <cstring>

#include "eval/io/npy_file.h"
#include "eval/runtime/half.h"
#include "support/helpers.h"
#include "util/error.h"

using namespace fb;
using ir::DataType;

namespace {

eval::Tensor patterned(DataType t, std::vector<int64_t> dims) {
  eval::Tensor x = eval::Tensor::empty(t, std::move(dims));
  auto* b = x.mutableData<uint8_t>();
  for (size_t k = 0; k < x.byteSize(); ++k) b[k] = static_cast<uint8_t>(k * 37 + 11);
  if (t == DataType::Bool)
    for (size_t k = 0; k < x.byteSize(); ++k) b[k] &= 1;
  return x;
}

bool sameBytes(const eval::Tensor& a, const eval::Tensor& b) {
  return a.dtype() == b.dtype() && a.dims() == b.dims() && a.byteSize() == b.byteSize() &&
         std::memcmp(a.bytes().data(), b.bytes().data(), a.byteSize()) == 0;
}

QString python(const QString& script) {
  QProcess p;
  p.start("/usr/bin/python3", {"-c", script});
  p.waitForFinished(120000);
  return QString::fromUtf8(p.readAllStandardOutput() + p.readAllStandardError()).trimmed();
}

// A version 1.0 file with this header dict, padded as NumPy pads it.
QByteArray npy(const QByteArray& dict, const QByteArray& data) {
  QByteArray header = dict;
  header += QByteArray(int((10 + header.size() + 1 + 63) / 64 * 64 - 10 - header.size() - 1), ' ') + "\n";
  QByteArray head("\x93NUMPY\x01\x00", 8);
  head += char(header.size() & 0xff);
  head += char(header.size() >> 8);
  return head + header + data;
}

void writeBytes(const QString& path, const QByteArray& bytes) {
  QFile f(path);
  QVERIFY(f.open(QIODevice::WriteOnly));
  f.write(bytes);
}

}  // namespace

class EvalNpy : public QObject {
  Q_OBJECT
 private slots:
  void everyTypeRoundTrips() {
    const QString dir = test::scratchDir("eval_npy_round");
    for (DataType t :
         {DataType::Float16, DataType::Float, DataType::Double, DataType::Int8, DataType::Int16, DataType::Int32,
          DataType::Int64, DataType::UInt8, DataType::UInt16, DataType::UInt32, DataType::UInt64, DataType::Bool}) {
      for (const auto& dims : {std::vector<int64_t>{2, 3, 5}, std::vector<int64_t>{}, std::vector<int64_t>{0, 4},
                               std::vector<int64_t>{7}}) {
        const auto x = patterned(t, dims);
        const std::string path = (dir + "/x.npy").toStdString();
        QVERIFY(eval::writeNpyFile(path, x).empty());
        QVERIFY2(sameBytes(x, eval::readNpyFile(path)), ir::dataTypeName(t).data());
      }
    }
  }

  void numpyReadsWhatWeWrite() {
    const QString dir = test::scratchDir("eval_npy_numpy_reads");
    eval::writeNpyFile((dir + "/f.npy").toStdString(), eval::Tensor::floats({2, 2}, {1.5f, -2, 0, 3.25f}));
    eval::writeNpyFile((dir + "/i.npy").toStdString(), eval::Tensor::int64s({3}, {-1, 0, 1ll << 40}));
    eval::writeNpyFile((dir + "/s.npy").toStdString(), eval::Tensor::scalar(DataType::Int8, -5));
    eval::writeNpyFile((dir + "/b.npy").toStdString(), patterned(DataType::Bool, {4}));
    const QString out = python(
        "import numpy as np\n"
        "d='" +
        dir +
        "'\n"
        "f=np.load(d+'/f.npy'); i=np.load(d+'/i.npy'); s=np.load(d+'/s.npy'); b=np.load(d+'/b.npy')\n"
        "print(f.dtype, f.shape, f.tolist(), i.dtype, i.tolist(), s.dtype, s.shape, int(s), b.dtype, b.tolist())");
    QCOMPARE(out, QStringLiteral("float32 (2, 2) [[1.5, -2.0], [0.0, 3.25]] int64 [-1, 0, 1099511627776] int8 () -5 "
                                 "bool [True, False, True, False]"));
  }

  void weReadWhatNumpyWrites() {
    const QString dir = test::scratchDir("eval_npy_numpy_writes");
    const QString out = python(
        "import numpy as np\n"
        "d='" +
        dir +
        "'\n"
        "np.save(d+'/h.npy', np.array([[1,2],[3,4]], dtype=np.float16))\n"
        "np.save(d+'/u.npy', np.arange(6, dtype=np.uint32).reshape(1,2,3))\n"
        "np.save(d+'/z.npy', np.float64(2.5))\n"
        "np.save(d+'/fortran_vector.npy', np.asfortranarray(np.arange(3, dtype=np.int16)))\n"
        "np.save(d+'/fortran.npy', np.asfortranarray(np.ones((2,3), dtype=np.float32)))\n"
        "np.save(d+'/big.npy', np.arange(3, dtype='>f4'))\n"
        "np.lib.format.write_array(open(d+'/v2.npy','wb'), np.arange(4, dtype=np.int32), version=(2,0))\n"
        "print('ok')");
    QCOMPARE(out, QStringLiteral("ok"));
    auto h = eval::readNpyFile((dir + "/h.npy").toStdString());
    QCOMPARE(h.dtype(), DataType::Float16);
    QCOMPARE(h.toDoubles(), (std::vector<double>{1, 2, 3, 4}));
    auto u = eval::readNpyFile((dir + "/u.npy").toStdString());
    QCOMPARE(u.dims(), (std::vector<int64_t>{1, 2, 3}));
    QCOMPARE(u.toInt64s(), (std::vector<int64_t>{0, 1, 2, 3, 4, 5}));
    auto z = eval::readNpyFile((dir + "/z.npy").toStdString());
    QCOMPARE(z.rank(), size_t{0});
    QCOMPARE(z.doubleAt(0), 2.5);
    QCOMPARE(eval::readNpyFile((dir + "/fortran_vector.npy").toStdString()).toInt64s(),
             (std::vector<int64_t>{0, 1, 2}));
    QCOMPARE(eval::readNpyFile((dir + "/v2.npy").toStdString()).toInt64s(), (std::vector<int64_t>{0, 1, 2, 3}));
    for (const char* refused : {"fortran.npy", "big.npy"}) {
      try {
        eval::readNpyFile((dir + "/" + refused).toStdString());
        QFAIL(refused);
      } catch (const InputError& e) {
        QVERIFY(e.file().ends_with(refused));
      }
    }
  }

  void bfloat16IsWrittenAsFloat32WithANote() {
    const QString dir = test::scratchDir("eval_npy_bf16");
    eval::Tensor t = eval::Tensor::empty(DataType::BFloat16, {2});
    t.mutableData<uint16_t>()[0] = eval::floatToBfloat16Bits(1.5f);
    t.mutableData<uint16_t>()[1] = eval::floatToBfloat16Bits(-3.0f);
    const std::string note = eval::writeNpyFile((dir + "/b.npy").toStdString(), t);
    QCOMPARE(QString::fromStdString(note), QStringLiteral("bfloat16 written as float32 (NumPy has no bfloat16)"));
    const auto back = eval::readNpyFile((dir + "/b.npy").toStdString());
    QCOMPARE(back.dtype(), DataType::Float);
    QCOMPARE(back.toDoubles(), (std::vector<double>{1.5, -3}));
  }

  void mutatedFilesAreReadOrRefused() {
    // 1500 seeded mutations of a valid file (bytes changed, cut, repeated): each either reads, with exactly the bytes
    // its shape needs, or is an InputError naming the file; nothing else escapes, nothing hangs.
    const QString path = test::scratchDir("eval_npy_mutated") + "/m.npy";
    const QByteArray good = npy("{'descr': '<i2', 'fortran_order': False, 'shape': (3, 2), }",
                                QByteArray("\x01\x00\x02\x00\x03\x00\x04\x00\x05\x00\x06\x00", 12));
    uint64_t state = 12345;
    auto next = [&] { return (state = state * 6364136223846793005ull + 1442695040888963407ull) >> 33; };
    int read = 0, refused = 0;
    for (int k = 0; k < 1500; ++k) {
      QByteArray b = good;
      const int edits = 1 + int(next() % 4);
      for (int e = 0; e < edits; ++e) {
        const int at = int(next() % uint64_t(b.size()));
        switch (next() % 3) {
          case 0:
            b[at] = char(next() & 0xff);
            break;
          case 1:
            b.truncate(at);
            break;
          default:
            b.insert(at, b.mid(at, int(next() % 8)));
        }
        if (b.isEmpty()) break;
      }
      writeBytes(path, b);
      try {
        const auto t = eval::readNpyFile(path.toStdString());
        QVERIFY(t.byteSize() == size_t(t.size()) * ir::elementSize(t.dtype()));
        ++read;
      } catch (const InputError& e) {
        QCOMPARE(QString::fromStdString(e.file()), path);
        ++refused;
      }
    }
    QVERIFY(read > 0 && refused > 0);
  }

  void malformedFilesNameTheFile_data() {
    QTest::addColumn<QByteArray>("bytes");
    QTest::addColumn<QString>("message");
    const QByteArray twoFloats("\x00\x00\x80\x3f\x00\x00\x00\x40", 8);
    const QByteArray good = npy("{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }", twoFloats);
    QTest::newRow("empty") << QByteArray() << "no NUMPY magic";
    QTest::newRow("text") << QByteArray("hello world, not numpy") << "no NUMPY magic";
    QTest::newRow("version 9") << QByteArray(good).replace(6, 1, "\x09") << "format version 9";
    QTest::newRow("header past the end") << QByteArray(good).replace(8, 2, QByteArray("\xff\x7f", 2)) << "truncated";
    QTest::newRow("truncated data") << good.left(good.size() - 3) << "bytes where the shape needs";
    QTest::newRow("extra data") << good + "xx"
                                << "bytes where the shape needs";
    QTest::newRow("unknown dtype") << npy("{'descr': '<c8', 'fortran_order': False, 'shape': (2,), }", twoFloats)
                                   << "is not one of";
    QTest::newRow("object dtype") << npy("{'descr': '|O', 'fortran_order': False, 'shape': (2,), }", twoFloats)
                                  << "is not one of";
    QTest::newRow("not a dict") << npy("['descr', '<f4']", twoFloats) << "expected '{'";
    QTest::newRow("missing key") << npy("{'descr': '<f4', 'shape': (2,)}", twoFloats) << "lacks";
    QTest::newRow("negative dim") << npy("{'descr': '<f4', 'fortran_order': False, 'shape': (-2,), }", twoFloats)
                                  << "not a number";
    QTest::newRow("overflowing dims")
        << npy("{'descr': '<f4', 'fortran_order': False, 'shape': (99999999999, 99999999999), }", twoFloats)
        << "cannot be held";
    QTest::newRow("huge dims") << npy("{'descr': '<f4', 'fortran_order': False, 'shape': (999999999, 9), }", twoFloats)
                               << "where the shape needs";
  }
  void malformedFilesNameTheFile() {
    QFETCH(QByteArray, bytes);
    QFETCH(QString, message);
    const QString path = test::scratchDir("eval_npy_bad") + "/bad.npy";
    writeBytes(path, bytes);
    try {
      eval::readNpyFile(path.toStdString());
      QFAIL("read");
    } catch (const InputError& e) {
      QCOMPARE(QString::fromStdString(e.file()), path);
      QVERIFY2(QString(e.what()).contains(message), e.what());
    }
  }
};

QTEST_GUILESS_MAIN(EvalNpy)
#include "test_eval_npy.moc"
