#include "formats/oneflow/oneflow_reader.h"

#include <filesystem>
#include <fstream>
#include <sstream>

#include <google/protobuf/io/tokenizer.h>
#include <google/protobuf/text_format.h>

#include "formats/oneflow/file_limits.h"
#include "formats/oneflow/job_import.h"
#include "formats/oneflow/saved_model_reader.h"
#include "formats/oneflow/weight_folder.h"
#include "formats/oneflow/oneflow_job.pb.h"
#include "util/error.h"
#include "util/input_file.h"

namespace fb::oneflow {
namespace fs = std::filesystem;

namespace {

// A graph file; one found inside a folder the user named must resolve inside that folder (on the descriptor).
std::string readGraphFile(const std::string& path, const std::string& containDir) {
  return InputFile::open(path, containDir).requireAtMost(kMaxGraphBytes, "OneFlow graph file").readAll();
}

// The model's folder, which every weight file must resolve inside: the graph file's folder.
std::string modelFolderOf(const std::string& graphPath) {
  const auto dir = fs::path(graphPath).parent_path();
  return dir.empty() ? "." : dir.string();
}

bool isTextName(const fs::path& p) {
  auto ext = p.extension().string();
  return ext == ".prototxt" || ext == ".pbtxt" || ext == ".txt";
}

// Parse errors are expected while probing which message a file holds: keep them off stderr.
class SilentErrors : public google::protobuf::io::ErrorCollector {
 public:
  void AddError(int, int, const std::string&) override {}
  void AddWarning(int, int, const std::string&) override {}
};

bool parseText(const std::string& text, google::protobuf::Message& m) {
  SilentErrors errors;
  google::protobuf::TextFormat::Parser parser;
  parser.RecordErrorsTo(&errors);
  parser.AllowUnknownField(true);
  parser.AllowUnknownExtension(true);
  return parser.ParseFromString(text, &m);
}

bool parseBinary(const std::string& bytes, google::protobuf::Message& m) { return m.ParsePartialFromString(bytes); }

template <typename JobT>
bool isJob(const JobT& j) {
  return j.has_job_conf() && !j.job_conf().job_name().empty() && j.has_net();
}

// A graph file inside a folder, by the names OneFlow tools and oneflow_dump.py use.
std::optional<fs::path> graphFileIn(const fs::path& dir) {
  std::error_code ec;
  for (const char* n :
       {"job.pb", "job.prototxt", "jobset.pb", "jobset.prototxt", "saved_model.pb", "saved_model.prototxt"})
    if (fs::is_regular_file(dir / n, ec)) return dir / n;
  if (fs::is_directory(dir / "saved_model", ec)) return graphFileIn(dir / "saved_model");
  // ModelBuilder.Save puts each model version in a numbered subfolder: the highest wins.
  std::optional<std::pair<long, fs::path>> best;
  for (const auto& e : fs::directory_iterator(dir, ec)) {
    const auto name = e.path().filename().string();
    if (!e.is_directory() || name.empty() || name.find_first_not_of("0123456789") != std::string::npos) continue;
    long version = std::stol(name.substr(0, 15));
    for (const char* n : {"saved_model.pb", "saved_model.prototxt"})
      if (fs::is_regular_file(e.path() / n, ec) && (!best || version > best->first))
        best.emplace(version, e.path() / n);
  }
  if (best) return best->second;
  return std::nullopt;
}

bool isSavedModelName(const fs::path& p) { return p.stem() == "saved_model"; }

JobSource jobSource(const std::string& path, const std::string& jobName, const ::oneflow::DLNetConf& net) {
  JobSource src;
  src.path = path;
  src.format = "oneflow-job";
  src.graphName = jobName;
  for (const auto& op : net.op()) src.ops.push_back(&op);
  src.metadata["oneflow.job_name"] = jobName;
  return src;
}

std::string layoutName(BlobDesc::Layout l) {
  switch (l) {
    case BlobDesc::Layout::V03:
      return "v0.3";
    case BlobDesc::Layout::V05:
      return "v0.5-v0.7";
    case BlobDesc::Layout::V08:
      return "v0.8+";
  }
  return "?";
}

// Binary and text Jobs differ only in how a blob description is decoded.
template <typename JobT, typename DecodeBlob>
std::unique_ptr<ir::Model> importAnyJob(const std::string& path, const JobT& job, const ReadOptions& opt,
                                        DecodeBlob decode, const char* undecodable) {
  JobSource src = jobSource(path, job.job_conf().job_name(), job.net());
  for (const auto& [lbn, desc] : job.helper().lbn2logical_blob_desc()) {
    auto d = decode(desc);
    if (!d) throw InputError(path, "lbn2logical_blob_desc['" + lbn + "'] " + undecodable);
    src.metadata["oneflow.blob_desc_layout"] = layoutName(d->layout);
    src.blobs.emplace(lbn, std::move(*d));
  }
  std::optional<WeightFolder> weights;
  if (opt.weightDir)
    weights.emplace(*opt.weightDir);
  else if (auto dir = findWeightFolder(path))
    weights.emplace(*dir, modelFolderOf(path));
  return importJob(src, weights ? &*weights : nullptr);
}

std::unique_ptr<ir::Model> fromJob(const std::string& path, const ::oneflow::Job& job, const ReadOptions& opt) {
  return importAnyJob(
      path, job, opt, [](const auto& bytes) { return decodeBlobDesc(bytes); },
      "is not a BlobDescProto of any known layout");
}

std::unique_ptr<ir::Model> fromJobText(const std::string& path, const ::oneflow::JobText& job, const ReadOptions& opt) {
  return importAnyJob(
      path, job, opt, [](const auto& desc) { return blobDescFromText(desc); }, "has no data_type");
}

template <typename JobSetT>
int pickJob(const std::string& path, const JobSetT& set, const std::string& name) {
  for (int i = 0; i < set.job_size(); ++i)
    if (name.empty() ? set.job(i).net().op_size() > 0 : set.job(i).job_conf().job_name() == name) return i;
  throw InputError(path,
                   name.empty() ? "the JobSet has no job with ops" : "the JobSet has no job named '" + name + "'");
}

}  // namespace

bool looksLikeOneflow(const std::string& path) {
  std::error_code ec;
  fs::path p(path);
  if (fs::is_directory(p, ec)) return graphFileIn(p).has_value();
  if (!fs::is_regular_file(p, ec)) return false;
  // Names OneFlow tools write: a damaged file of that name should get the OneFlow reader's precise error.
  const auto stem = p.stem().string();
  if (isSavedModelName(p) || ((stem == "job" || stem == "jobset") && (p.extension() == ".pb" || isTextName(p))))
    return true;
  try {
    // Graph files are small (weights live elsewhere); do not parse anything big just to detect it.
    InputFile file = InputFile::open(path);
    if (file.size() > (256u << 20)) return false;
    const std::string data = file.readAll();
    if (isTextName(p)) {
      ::oneflow::JobText job;
      ::oneflow::JobSetText set;
      return (parseText(data, job) && isJob(job)) || (parseText(data, set) && set.job_size() > 0 && isJob(set.job(0)));
    }
    if (data.empty() || static_cast<unsigned char>(data[0]) != 0x0a) return false;  // net / job come first
    ::oneflow::Job job;
    if (parseBinary(data, job) && isJob(job)) return true;
    ::oneflow::JobSet set;
    return parseBinary(data, set) && set.job_size() > 0 && isJob(set.job(0));
  } catch (const std::exception&) {
    return false;
  }
}

namespace {

// `containDir`: the folder the user named, which a graph file found in it must not leave (none when empty).
std::unique_ptr<ir::Model> readGraph(const std::string& path, const ReadOptions& opt, const std::string& containDir) {
  fs::path p(path);
  requireFileOrFolder(path);
  if (isSavedModelName(p)) return readSavedModel(path, opt.weightDir, containDir);

  const std::string data = readGraphFile(path, containDir);
  if (data.empty()) throw InputError(path, "the file is empty");
  if (isTextName(p)) {
    ::oneflow::JobText job;
    if (parseText(data, job) && isJob(job)) return fromJobText(path, job, opt);
    ::oneflow::JobSetText set;
    if (parseText(data, set) && set.job_size() > 0)
      return fromJobText(path, set.job(pickJob(path, set, opt.jobName)), opt);
    throw InputError(path, "not a text OneFlow Job or JobSet");
  }
  ::oneflow::Job job;
  if (parseBinary(data, job) && isJob(job)) return fromJob(path, job, opt);
  ::oneflow::JobSet set;
  if (parseBinary(data, set) && set.job_size() > 0 && isJob(set.job(0)))
    return fromJob(path, set.job(pickJob(path, set, opt.jobName)), opt);
  throw InputError(path, "not a OneFlow Job or JobSet protobuf (cannot parse it, or it has no job_conf/net)");
}

}  // namespace

std::unique_ptr<ir::Model> readOneflow(const std::string& path, const ReadOptions& opt) {
  std::error_code ec;
  if (fs::is_directory(path, ec)) {
    auto file = graphFileIn(path);
    if (!file) throw InputError(path, "the folder holds no OneFlow graph (job.pb, job.prototxt or saved_model)");
    return readGraph(file->string(), opt, path);
  }
  return readGraph(path, opt, {});
}

}  // namespace fb::oneflow
