// src/.tangle-manifest: one "chapter<TAB>path" line for every file the tangler wrote, so a later
// run knows which files it owns and can remove those no chapter produces any more.
#pragma once

#include <set>
#include <string>
#include <string_view>
#include <utility>

namespace tangle {

inline constexpr const char* kManifestPath = "src/.tangle-manifest";

// (chapter, path) pairs; a set keeps the file sorted and free of repeats.
using Manifest = std::set<std::pair<std::string, std::string>>;

// Lines that are blank, start with '#', or lack a tab are skipped; so are paths the tangler would
// refuse to write (outside src/), so a hand-edited manifest can never make it remove such a file.
Manifest parse_manifest(std::string_view text);
std::string format_manifest(const Manifest& manifest);

}  // namespace tangle
