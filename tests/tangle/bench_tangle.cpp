// Speed: a book of 200 chapters with 50 blocks each, tangled once from scratch. Prints the time
// and fails (exit 1) when it takes 5 s or more.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <unistd.h>

#include "options.h"
#include "run.h"

namespace fs = std::filesystem;

namespace {

constexpr int kChapters = 200;
constexpr int kBlocksPerChapter = 50;  // 10 files, each including 4 of the 40 chunks
constexpr double kLimitSeconds = 5.0;

void write(const fs::path& path, const std::string& text) {
  fs::create_directories(path.parent_path());
  std::ofstream(path, std::ios::binary) << text;
}

std::string chapter_text(int chapter) {
  std::ostringstream md;
  std::string folder = "ch" + std::to_string(chapter);
  md << "---\nid: \"" << chapter << "\"\ntitle: \"Chapter " << chapter << "\"\nsrc: " << folder
     << "\n---\n\n# Chapter " << chapter << "\n\n";
  for (int file = 0; file < 10; ++file) {
    md << "Some prose before file " << file << ", with `code` and *emphasis*.\n\n";
    md << "```{.cuda file=src/" << folder << "/part" << file << ".cu}\n#include <cstdio>\n"
       << "__global__ void kernel" << file << "(float* out, int n) {\n"
       << "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n  if (i >= n) return;\n";
    for (int use = 0; use < 4; ++use)
      md << "  <<" << folder << "-step-" << file * 4 + use << ">>\n";
    md << "}\n```\n\n";
    for (int use = 0; use < 4; ++use) {
      int id = file * 4 + use;
      md << "Step " << id << " explained.\n\n```{.cuda #" << folder << "-step-" << id << "}\n";
      for (int line = 0; line < 8; ++line) md << "out[i] += " << id << ".0f * " << line << ";\n";
      md << "```\n\n";
    }
  }
  return md.str();
}

// Memory-backed /dev/shm where there is one, so the figure measures the tangler rather than the
// disk (creating 2000 files on a busy ext4 disk alone can take seconds); TANGLE_BENCH_DIR
// overrides.
fs::path bench_folder() {
  if (const char* chosen = std::getenv("TANGLE_BENCH_DIR")) return chosen;
  std::error_code error;
  if (fs::is_directory("/dev/shm", error)) return "/dev/shm";
  return fs::temp_directory_path();
}

}  // namespace

int main() {
  fs::path root = bench_folder() / ("tangle-bench-" + std::to_string(::getpid()));
  fs::remove_all(root);
  std::string list;
  for (int chapter = 0; chapter < kChapters; ++chapter) {
    std::string name = "chapters/" + std::to_string(chapter) + ".md";
    write(root / name, chapter_text(chapter));
    list += name + "\n";
  }
  write(root / "book/chapters.txt", list);

  tangle::Options options;
  options.root = root.string();
  options.quiet = true;
  // The first run writes every file; the second finds them all up to date (the usual case).
  double seconds[2];
  int status[2];
  std::ostringstream err;
  for (int run = 0; run < 2; ++run) {
    std::ostringstream out;
    auto start = std::chrono::steady_clock::now();
    status[run] = tangle::run(options, out, err);
    seconds[run] = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  }
  fs::remove_all(root);

  std::printf("in %s\n", root.parent_path().c_str());
  std::printf(
      "tangle: %d chapters x %d blocks (%d files): %.3f s writing every file, %.3f s with "
      "nothing to write (limit %.1f s)\n",
      kChapters, kBlocksPerChapter, kChapters * 10, seconds[0], seconds[1], kLimitSeconds);
  if (status[0] != 0 || status[1] != 0) {
    std::fprintf(stderr, "tangle failed:\n%s", err.str().c_str());
    return 1;
  }
  return seconds[0] < kLimitSeconds && seconds[1] < kLimitSeconds ? 0 : 1;
}
