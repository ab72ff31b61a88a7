// weave: the book's numbers, boxes and claims, woven into the chapters before Pandoc renders them.
//
//   weave [--root DIR] [--book book/chapters.txt] [--measurements book/measurements[/<gpu>]]
//         [--gpu SLUG] [--symbols book/symbols.json] [--out build/book/woven] [--strict] [--measured-now]
//
// Exit status: 0 woven (warnings may be printed), 2 errors (nothing written), 1 a bad command line.
#include <exception>
#include <iostream>
#include <string>

#include "weave.h"

int main(int argc, char** argv) {
    weave::Options options;
    auto usage = [] {
        std::cerr << "usage: weave [--root DIR] [--book FILE] [--measurements DIR] [--gpu SLUG] [--symbols FILE]\n"
                     "             [--out DIR] [--strict] [--measured-now]\n";
        return 1;
    };
    for (int i = 1; i < argc; ++i) {
        std::string arg = argv[i];
        auto next = [&]() -> const char* { return i + 1 < argc ? argv[++i] : nullptr; };
        const char* value = nullptr;
        if (arg == "--strict") options.strict = true;
        else if (arg == "--measured-now") options.measured_now = true;
        else if (arg == "--help" || arg == "-h") { usage(); return 0; }
        else if ((arg == "--root" || arg == "--book" || arg == "--measurements" || arg == "--gpu" ||
                  arg == "--symbols" || arg == "--out") && (value = next())) {
            if (arg == "--root") options.root = value;
            else if (arg == "--book") options.book = value;
            else if (arg == "--measurements") options.measurements = value, options.measurements_named = true;
            else if (arg == "--gpu") options.gpu = value;
            else if (arg == "--symbols") options.symbols = value;
            else options.out = value;
        } else {
            std::cerr << "weave: unknown or incomplete argument '" << arg << "'\n";
            return usage();
        }
    }
    weave::Diagnostics diagnostics;
    int status = 2;
    try {
        status = weave::run(options, diagnostics);
    } catch (const std::exception& e) {  // a check the passes lack: never an abort without a file
        diagnostics.print(std::cerr);
        std::cerr << "weave: error: the input stopped the weaver (" << e.what() << "); nothing written.\n"
                     "weave: the errors above, if any, may be the cause; otherwise this is a bug in the weaver:\n"
                     "weave: report it with the chapter or record last changed\n";
        return 2;
    }
    diagnostics.print(std::cerr);
    if (status == 0) std::cerr << "weave: wrote " << options.out.string() << "\n";
    else std::cerr << "weave: " << diagnostics.errors().size() << " error(s); nothing written\n";
    return status;
}
