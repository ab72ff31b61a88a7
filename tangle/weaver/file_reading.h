// Every file the weaver reads (chapters, records, symbols.json, the manifest, tangled sources)
// goes through here: regular files only, and no larger than a cap. A FIFO or a link to /dev/zero
// among the records hung the weaver, growing without bound (tools.md C4).
#pragma once
#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace weave {

// The largest file the weaver reads: the book's largest input is well under 1 MiB.
constexpr std::uintmax_t kMaxInputBytes = 64u << 20;

// The file's bytes; nothing, with `why` saying what is wrong (missing, not a regular file,
// larger than kMaxInputBytes, unreadable) in words that can follow the file's name.
std::optional<std::string> read_regular_file(const std::filesystem::path& path, std::string& why);

// The bytes split into lines at LF, CRLF or a lone CR (as the tangler reads them), with no
// byte-order mark at the start.
std::vector<std::string> split_lines(const std::string& bytes);

}  // namespace weave
