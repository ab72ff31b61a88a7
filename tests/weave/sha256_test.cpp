// SHA-256 (libcrypto) against the standard's test vectors, and the sources hash of
// book/CONVENTIONS.md.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "sha256.h"
#include "staleness.h"

namespace weave {
namespace {

std::string sha(const std::string& text) {
  Sha256 h;
  h.update(text);
  return h.hex();
}

TEST(Sha256, KnownVectors) {
  EXPECT_EQ(sha(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(sha("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_EQ(sha("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  EXPECT_EQ(sha(std::string(1000000, 'a')),
            "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

TEST(SourcesHash, PathNulBytesNulInPathOrder) {
  auto root = std::filesystem::temp_directory_path() / "weave-sha-test";
  std::filesystem::create_directories(root / "src/x");
  std::ofstream(root / "src/x/b.cu") << "B";
  std::ofstream(root / "src/x/a.cu") << "A";
  std::string expected = sha(std::string("src/x/a.cu\0A\0src/x/b.cu\0B\0", 26));
  EXPECT_EQ(sources_sha256(root, {"src/x/b.cu", "src/x/a.cu"}), expected);
  // A prose edit moves the #line directives, not the code: the hash must not change.
  std::ofstream(root / "src/x/a.cu") << "#line 12 \"chapters/x.md\"\nA";
  EXPECT_EQ(sources_sha256(root, {"src/x/b.cu", "src/x/a.cu"}), expected);
  std::filesystem::remove_all(root);
}

}  // namespace
}  // namespace weave
