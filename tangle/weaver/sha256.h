// SHA-256 (FIPS 180-4), enough to recompute a record's sources_sha256 without a crypto library.
#pragma once
#include <array>
#include <cstdint>
#include <string>
#include <string_view>

namespace weave {

class Sha256 {
public:
    Sha256();
    void update(std::string_view bytes);
    std::string hex();  // finishes the hash; call once

private:
    void block(const uint8_t* p);
    std::array<uint32_t, 8> h_;
    uint8_t buffer_[64];
    size_t buffered_ = 0;
    uint64_t length_ = 0;
};

}  // namespace weave
