#pragma once
// A test's own directory of files under the system temp directory, removed at the end.

#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>
#include <string_view>

namespace salvo::test {

class TempFiles {
 public:
  /// A fresh empty directory, "<tag>-XXXXXX" (mkdtemp: unique, made by this process alone).
  explicit TempFiles(std::string_view tag) {
    std::string name = (std::filesystem::temp_directory_path() / (std::string(tag) + "-XXXXXX")).string();
    if (::mkdtemp(name.data()) == nullptr) throw std::runtime_error("cannot make a temporary directory " + name);
    path_ = name;
  }
  ~TempFiles() {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
  }
  TempFiles(const TempFiles&) = delete;
  TempFiles& operator=(const TempFiles&) = delete;

  /// The path of the file `name` in the directory.
  std::string file(const std::string& name) const { return (path_ / name).string(); }
  /// Write `text` to the file `name` (replacing it); its path.
  std::string write(const std::string& name, std::string_view text) const {
    std::ofstream(path_ / name, std::ios::binary) << text;
    return file(name);
  }

 private:
  std::filesystem::path path_;
};

}  // namespace salvo::test
