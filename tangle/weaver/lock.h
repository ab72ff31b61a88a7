// The book's render lock (build/book.lock, which book/render/main.py holds for a whole render),
// held by a weave for its whole run: a weave then never rewrites the woven folder while a render
// reads it (pages of two weaves in one book), nor while another weave writes it (two weaves'
// files mixed, the older chapter text renamed over the newer). The kernel drops it when the
// process ends, killed or not.
#pragma once
#include <filesystem>
#include <string>

namespace weave {

enum class LockState { held, busy, failed };

// Opens (creating it and its folder) and locks `path`, kept until the process exits. With
// `wait`, a lock another process holds is waited for; without, that is `busy`. On `failed`,
// `why` says why, in words that can follow the path.
LockState hold_lock(const std::filesystem::path& path, bool wait, std::string& why);

}  // namespace weave
