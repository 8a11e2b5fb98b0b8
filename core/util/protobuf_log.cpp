#include "util/protobuf_log.h"

#include <mutex>

#include <google/protobuf/stubs/logging.h>

namespace fb {
namespace {

thread_local std::string lastMessage;

void keepMessage(google::protobuf::LogLevel level, const char*, int, const std::string& message) {
  if (level >= google::protobuf::LOGLEVEL_ERROR) lastMessage = message;
}

}  // namespace

void installProtobufLogHandler() {
  static std::once_flag once;
  std::call_once(once, [] { google::protobuf::SetLogHandler(keepMessage); });
}

std::string takeProtobufLogMessage() {
  std::string m;
  m.swap(lastMessage);
  return m;
}

}  // namespace fb
