#include "util/stored_zip_writer.h"

#include <zlib.h>

#include <algorithm>
#include <limits>

#include "util/atomic_file.h"
#include "util/error.h"

namespace fb {
namespace {

constexpr uint32_t kLocalHeader = 0x04034b50, kCentralHeader = 0x02014b50, kEnd = 0x06054b50, kZip64End = 0x06064b50,
                   kZip64Locator = 0x07064b50;
constexpr uint16_t kZip64ExtraId = 0x0001;
constexpr uint16_t kPaddingExtraId = 0x4246;  // "FB": the id PyTorch's writer uses for its alignment padding
constexpr uint32_t k32Max = 0xffffffffu;
constexpr uint16_t k16Max = 0xffffu;
// DOS date 1980-01-01 00:00: a fixed timestamp keeps outputs byte-identical between runs.
constexpr uint16_t kDosTime = 0, kDosDate = (1 << 5) | 1;

void le16(std::string& s, uint16_t v) {
  s.push_back(char(v & 0xff));
  s.push_back(char(v >> 8));
}
void le32(std::string& s, uint32_t v) {
  for (int i = 0; i < 4; ++i) s.push_back(char((v >> (8 * i)) & 0xff));
}
void le64(std::string& s, uint64_t v) {
  for (int i = 0; i < 8; ++i) s.push_back(char((v >> (8 * i)) & 0xff));
}

uint32_t crc32Of(std::span<const std::byte> data) {
  uLong crc = crc32(0L, Z_NULL, 0);
  const auto* p = reinterpret_cast<const Bytef*>(data.data());
  size_t left = data.size();
  while (left > 0) {  // zlib's length is a uInt: feed big tensors in slices
    const uInt n = static_cast<uInt>(std::min<size_t>(left, 1u << 30));
    crc = crc32(crc, p, n);
    p += n;
    left -= n;
  }
  return static_cast<uint32_t>(crc);
}

}  // namespace

StoredZipWriter::StoredZipWriter(AtomicFile& out, bool forceZip64) : out_(out), forceZip64_(forceZip64) {}

void StoredZipWriter::put(const std::string& bytes) {
  out_.write(bytes.data(), bytes.size());
  position_ += bytes.size();
}

void StoredZipWriter::add(std::string_view name, std::span<const std::byte> data) {
  if (name.size() > k16Max) throw OutputError(out_.target() + ": zip entry name too long: " + std::string(name));
  Entry e{std::string(name), crc32Of(data), data.size(), position_};
  const bool zip64 = forceZip64_ || e.size >= k32Max;

  std::string extra;
  if (zip64) {  // the local header's zip64 field holds both sizes
    le16(extra, kZip64ExtraId);
    le16(extra, 16);
    le64(extra, e.size);
    le64(extra, e.size);
  }
  const uint64_t unpadded = e.offset + 30 + e.name.size() + extra.size();
  uint64_t pad = (kAlignment - unpadded % kAlignment) % kAlignment;
  if (pad != 0 && pad < 4) pad += kAlignment;  // an extra field needs 4 bytes of its own header
  if (pad != 0) {
    le16(extra, kPaddingExtraId);
    le16(extra, static_cast<uint16_t>(pad - 4));
    extra.append(pad - 4, '\0');
  }

  std::string h;
  le32(h, kLocalHeader);
  le16(h, zip64 ? 45 : 20);  // version needed to extract
  le16(h, 0);                // flags
  le16(h, 0);                // stored
  le16(h, kDosTime);
  le16(h, kDosDate);
  le32(h, e.crc);
  le32(h, zip64 ? k32Max : static_cast<uint32_t>(e.size));
  le32(h, zip64 ? k32Max : static_cast<uint32_t>(e.size));
  le16(h, static_cast<uint16_t>(e.name.size()));
  le16(h, static_cast<uint16_t>(extra.size()));
  h += e.name;
  h += extra;
  put(h);
  out_.write(data.data(), data.size());
  position_ += data.size();
  entries_.push_back(std::move(e));
}

void StoredZipWriter::finish() {
  const uint64_t directoryOffset = position_;
  for (const auto& e : entries_) {
    const bool bigSize = forceZip64_ || e.size >= k32Max;
    const bool bigOffset = forceZip64_ || e.offset >= k32Max;
    std::string extra;
    if (bigSize || bigOffset) {  // only the fields whose 32-bit slot overflowed, in this order
      le16(extra, kZip64ExtraId);
      le16(extra, static_cast<uint16_t>((bigSize ? 16 : 0) + (bigOffset ? 8 : 0)));
      if (bigSize) {
        le64(extra, e.size);
        le64(extra, e.size);
      }
      if (bigOffset) le64(extra, e.offset);
    }
    std::string c;
    le32(c, kCentralHeader);
    le16(c, bigSize || bigOffset ? 45 : 20);  // version made by (MS-DOS attributes)
    le16(c, bigSize || bigOffset ? 45 : 20);  // version needed
    le16(c, 0);
    le16(c, 0);
    le16(c, kDosTime);
    le16(c, kDosDate);
    le32(c, e.crc);
    le32(c, bigSize ? k32Max : static_cast<uint32_t>(e.size));
    le32(c, bigSize ? k32Max : static_cast<uint32_t>(e.size));
    le16(c, static_cast<uint16_t>(e.name.size()));
    le16(c, static_cast<uint16_t>(extra.size()));
    le16(c, 0);  // comment
    le16(c, 0);  // disk
    le16(c, 0);  // internal attributes
    le32(c, 0);  // external attributes
    le32(c, bigOffset ? k32Max : static_cast<uint32_t>(e.offset));
    c += e.name;
    c += extra;
    put(c);
  }
  const uint64_t directorySize = position_ - directoryOffset;
  const uint64_t count = entries_.size();
  const bool zip64 = forceZip64_ || count >= k16Max || directorySize >= k32Max || directoryOffset >= k32Max;

  std::string end;
  if (zip64) {
    const uint64_t zip64EndOffset = position_;
    le32(end, kZip64End);
    le64(end, 44);  // size of the rest of this record
    le16(end, 45);
    le16(end, 45);
    le32(end, 0);
    le32(end, 0);
    le64(end, count);
    le64(end, count);
    le64(end, directorySize);
    le64(end, directoryOffset);
    le32(end, kZip64Locator);
    le32(end, 0);
    le64(end, zip64EndOffset);
    le32(end, 1);
  }
  le32(end, kEnd);
  le16(end, 0);
  le16(end, 0);
  le16(end, zip64 ? k16Max : static_cast<uint16_t>(count));
  le16(end, zip64 ? k16Max : static_cast<uint16_t>(count));
  le32(end, zip64 ? k32Max : static_cast<uint32_t>(directorySize));
  le32(end, zip64 ? k32Max : static_cast<uint32_t>(directoryOffset));
  le16(end, 0);
  put(end);
}

}  // namespace fb
