#include "file_reading.h"

#include <fstream>
#include <iterator>

namespace weave {
namespace fs = std::filesystem;

std::optional<std::string> read_regular_file(const fs::path& path, std::string& why) {
  std::error_code ec;
  fs::file_status status = fs::status(path, ec);  // through links: a link to /dev/zero is refused
  if (!fs::exists(status)) {
    why = "does not exist";
    return std::nullopt;
  }
  if (!fs::is_regular_file(status)) {
    why = "is not a regular file (a folder, a pipe or a device?): the weaver reads files only";
    return std::nullopt;
  }
  std::uintmax_t size = fs::file_size(path, ec);
  if (!ec && size > kMaxInputBytes) {
    why = "is larger than " + std::to_string(kMaxInputBytes >> 20) +
          " MiB, more than any input of the book should be";
    return std::nullopt;
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    why = "cannot be read: check its permissions";
    return std::nullopt;
  }
  std::string bytes;
  char buffer[1 << 16];
  while (in.read(buffer, sizeof buffer) || in.gcount() > 0) {
    bytes.append(buffer, static_cast<size_t>(in.gcount()));
    if (bytes.size() > kMaxInputBytes) {  // it grew while being read
      why = "is larger than " + std::to_string(kMaxInputBytes >> 20) + " MiB";
      return std::nullopt;
    }
  }
  if (in.bad()) {
    why = "cannot be read (an I/O error)";
    return std::nullopt;
  }
  return bytes;
}

std::vector<std::string> split_lines(const std::string& bytes) {
  std::vector<std::string> lines;
  size_t start = bytes.starts_with("\xEF\xBB\xBF") ? 3 : 0;  // a byte-order mark: no text
  while (start < bytes.size()) {
    size_t end = bytes.find_first_of("\r\n", start);
    if (end == std::string::npos) {
      lines.push_back(bytes.substr(start));
      break;
    }
    lines.push_back(bytes.substr(start, end - start));
    start = end + (bytes.compare(end, 2, "\r\n") == 0 ? 2 : 1);
  }
  return lines;
}

}  // namespace weave
