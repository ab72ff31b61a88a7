// SHA-256 through OpenSSL's libcrypto (EVP), as measure.py hashes with hashlib: enough to
// recompute a record's sources_sha256.
#pragma once
#include <memory>
#include <string>
#include <string_view>

struct evp_md_ctx_st;

namespace weave {

class Sha256 {
 public:
  Sha256();  // throws std::runtime_error when libcrypto cannot start a SHA-256
  void update(std::string_view bytes);
  std::string hex();  // finishes the hash; call once

 private:
  struct Free {
    void operator()(evp_md_ctx_st* context) const;
  };
  std::unique_ptr<evp_md_ctx_st, Free> context_;
};

}  // namespace weave
