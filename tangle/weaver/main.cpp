// weave: the book's numbers, boxes and claims, woven into the chapters before Pandoc renders them.
//
//   weave [--root DIR] [--book book/chapters.txt] [--measurements book/measurements[/<gpu>]]
//         [--gpu SLUG] [--reference SLUG] [--symbols book/symbols.json] [--out build/book/woven]
//         [--strict]
//         [--measured-now]
//
// Exit status: 0 woven (warnings may be printed), 2 errors (nothing written), 1 a bad command line.
#include <CLI/CLI.hpp>

#include <exception>
#include <iostream>
#include <string>

#include "lock.h"
#include "measurements.h"
#include "weave.h"

int main(int argc, char** argv) {
  weave::Options options;
  std::string root = options.root.string(), book = options.book.string(),
              measurements = options.measurements.string(), symbols = options.symbols.string(),
              out = options.out.string();
  CLI::App app{
      "Weaves the recorded measurements, boxes and claims into the chapters; Pandoc renders "
      "the result.",
      "weave"};
  app.add_option("--root", root, "the repository; the paths below are relative to it")
      ->capture_default_str();
  app.add_option("--book", book, "the chapters in book order")->capture_default_str();
  CLI::Option* measured =
      app.add_option("--measurements", measurements,
                     "one GPU's records, or the folder of GPUs (given: it must exist)")
          ->capture_default_str();
  app.add_option("--gpu", options.gpu, "the GPU's slug, when the folder holds several");
  app.add_option("--reference", options.reference,
                 "the reference GPU's slug (book/reference-gpu): woven when --gpu names none, "
                 "and shown beside any other GPU");
  app.add_option("--symbols", symbols, "the book's symbols")->capture_default_str();
  app.add_option("--out", out, "where the woven chapters go")->capture_default_str();
  app.add_flag("--strict", options.strict,
               "stale chapters, broken claims and unmeasured values are errors");
  std::string lock;
  app.add_option("--lock", lock,
                 "held locked for the whole run, waited for if another holds it (make weave and "
                 "make book give build/book.lock, the render's lock)");
  app.add_flag("--measured-now", options.measured_now,
               "the records were written by this very build");
  app.footer(
      "exit status: 0 woven (warnings may be printed), 1 a bad command line, 2 errors (nothing "
      "written)");
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp&) {
    std::cout << app.help();
    return 0;
  } catch (const CLI::ParseError& error) {
    std::cerr << "weave: " << error.what() << ": see weave --help\n";
    return 1;
  }
  // A slug names a folder under --measurements, never a path (tools.md Z6: --gpu
  // ../../book/measurements/nvidia-h200 walked out and back in): measure.py's rule for its names.
  for (const auto& [flag, slug] :
       {std::pair{"--gpu", options.gpu}, {"--reference", options.reference}})
    if (!weave::is_gpu_slug(slug) && !slug.empty()) {
      std::cerr << "weave: " << flag << " '" << slug
                << "': a GPU's slug is lower-case letters and digits joined by single '-', such as "
                   "nvidia-h200 (the name of its folder under --measurements): see weave --help\n";
      return 1;
    }
  options.root = root;
  options.book = book;
  options.measurements = measurements;
  options.measurements_named = measured->count() > 0;
  options.symbols = symbols;
  options.out = out;

  if (!lock.empty()) {
    std::string why;
    weave::LockState state = weave::hold_lock(lock, false, why);
    if (state == weave::LockState::busy) {
      std::cerr << "weave: " << lock
                << " is held by another weave or render of the book; waiting for it\n";
      state = weave::hold_lock(lock, true, why);
    }
    if (state == weave::LockState::failed) {
      std::cerr << "weave: error: " << lock << " " << why << "; nothing written\n";
      return 2;
    }
  }
  weave::Diagnostics diagnostics;
  int status = 2;
  try {
    status = weave::run(options, diagnostics);
  } catch (const std::exception& e) {  // a check the passes lack: never an abort without a file
    diagnostics.print(std::cerr);
    std::cerr << "weave: error: the input stopped the weaver (" << e.what()
              << "); nothing written.\n"
                 "weave: the errors above, if any, may be the cause; otherwise this is a bug in "
                 "the weaver:\n"
                 "weave: report it with the chapter or record last changed\n";
    return 2;
  }
  diagnostics.print(std::cerr);
  if (status == 0)
    std::cerr << "weave: wrote " << options.out.string() << "\n";
  else
    std::cerr << "weave: " << diagnostics.errors().size() << " error(s); nothing written\n";
  return status;
}
