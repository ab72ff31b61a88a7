// Writing the woven book all or nothing: every file goes to a temporary name first, and only when
// all of them are written are they renamed into place (each rename is atomic). A file whose
// content is unchanged is not touched, so whatever reads it downstream stays up to date.
#pragma once
#include <filesystem>
#include <map>
#include <string>

#include "diagnostics.h"

namespace weave {

// Writes name -> content under `folder`; false (and nothing renamed) when a write fails.
bool write_outputs(const std::filesystem::path& folder,
                   const std::map<std::string, std::string>& files, Diagnostics& diagnostics);

}  // namespace weave
