#pragma once
// Whole lines from a child process that answers one JSON line per request: what has arrived is kept until
// its newline does.
#include <QByteArray>
#include <QProcess>

namespace fb::test {

class StdoutLines {
 public:
  // The next complete line without its newline, or an empty array while none is complete.
  QByteArray take(QProcess& proc) {
    buffer_ += proc.readAllStandardOutput();
    const int nl = buffer_.indexOf('\n');
    if (nl < 0) return {};
    QByteArray line = buffer_.left(nl);
    buffer_.remove(0, nl + 1);
    return line;
  }
  void clear() { buffer_.clear(); }

 private:
  QByteArray buffer_;
};

}  // namespace fb::test
