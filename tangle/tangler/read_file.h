// Reading a whole file as bytes: the one place the tangler does it.
#pragma once

#include <filesystem>
#include <optional>
#include <string>

namespace tangle {

// The file's bytes, unchanged (no newline translation), or nothing when it is not a readable
// regular file.
std::optional<std::string> read_file(const std::filesystem::path& path);

}  // namespace tangle
