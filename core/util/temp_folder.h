#pragma once
// Folders that appear whole or not at all: written as a temporary folder beside the target, then moved into place
// in one step. Until then the temporary folder, and any parent folder created for it, is removed when the writer
// fails (destructors) and when the process gets SIGINT or SIGTERM (util/interrupt_cleanup).
#include <filesystem>
#include <string>
#include <vector>

namespace fb {

// The folder an output path names, absolute and normalised: "out/" and "out" are the same folder (the trailing
// separator would leave an empty file name to build the temporary folder's name from).
std::filesystem::path outputFolderPath(const std::string& dir);

// The folders missing above an output, created for it and removed again (while empty) unless kept.
class CreatedParents {
 public:
  // Creates every missing folder above `target`; throws OutputError (naming `shownName`) when one cannot be made.
  CreatedParents(const std::filesystem::path& target, const std::string& shownName);
  ~CreatedParents();
  CreatedParents(const CreatedParents&) = delete;
  CreatedParents& operator=(const CreatedParents&) = delete;
  void keep();

 private:
  struct Created {
    std::filesystem::path path;
    int slot;
  };
  std::vector<Created> created_;  // outermost first
};

class TempFolder {
 public:
  // `.<name>.tmp-XXXXXX` beside `target` (absolute, without a trailing separator), with the permissions a new
  // folder gets there. Throws OutputError naming `shownName`.
  TempFolder(const std::filesystem::path& target, const std::string& shownName);
  ~TempFolder();  // removes the folder unless it was placed
  TempFolder(const TempFolder&) = delete;
  TempFolder& operator=(const TempFolder&) = delete;
  const std::filesystem::path& path() const { return path_; }

  // Moves the folder to `target`. An existing target (the caller has decided it may go) is exchanged with it in one
  // step (renameat2 RENAME_EXCHANGE), then removed: no moment without a complete folder at the target. Where the
  // file system cannot exchange, the old folder is moved aside first, with SIGINT/SIGTERM held between the two
  // renames and the old folder moved back when the second fails.
  void placeAt(const std::filesystem::path& target);

 private:
  std::filesystem::path path_;
  std::string shownName_;
  int slot_ = -1;
  bool placed_ = false;
};

}  // namespace fb
