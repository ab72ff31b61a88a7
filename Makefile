# Kernels and the Machine: the front door. Each target is one line; the pipeline reads left to right:
# chapters/ --tangle--> src/ --cmake+ninja--> build/ --measure (GPU)--> book/measurements/ --weave--> --render--> build/book/
BUILD   ?= build
# a value given on the command line, quoted for the shell (tools.md Z8, MK01, MK02): BUILD, CHAPTER,
# KERNEL, GPU, PORT, JOBS, PYTHON and FUZZ_SECONDS are each one argument, whatever they hold
# (CHAPTER='3.1; rm -rf ~' names no chapter, runs nothing); MEASURE_FLAGS and CMAKE_ARGS are lists
# of arguments by design, split by the shell
quote   = '$(subst ','\'',$(1))'
QBUILD  = $(call quote,$(BUILD))
PYTHON  ?= /usr/bin/python3
QPYTHON  = $(call quote,$(PYTHON))
JOBS    ?= $(shell nproc)
QJOBS    = $(call quote,$(JOBS))
HAS_GPU := $(shell nvidia-smi -L >/dev/null 2>&1 && echo 1 || echo 0)
MEASURE ?= $(HAS_GPU)
STRICT  ?= 0
TANGLE  := $(QBUILD)/tangle/tangle
WEAVE   := $(QBUILD)/tangle/weave
# the book's reference GPU, named once (book/reference-gpu); the GPU present, slugged as measure.py
# names its folder (lowercase, runs of other characters '-'); a make book that measured weaves it
REFERENCE_GPU := $(shell cat book/reference-gpu)
GPU_PRESENT  = $(shell nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -n 1 | tr A-Z a-z | sed -E 's/[^a-z0-9]+/-/g; s/^-+|-+$$//g')
# (a measure told MEASURE_FLAGS=--gpu-slug=NAME wrote its folder under that name)
MEASURED_SLUG = $(patsubst --gpu-slug=%,%,$(filter --gpu-slug=%,$(MEASURE_FLAGS)))
WEAVE_GPU    = $(or $(GPU),$(if $(filter 1,$(MEASURED_NOW)),$(or $(MEASURED_SLUG),$(GPU_PRESENT))))
WEAVE_FLAGS = --reference $(call quote,$(REFERENCE_GPU)) $(if $(WEAVE_GPU),--gpu $(call quote,$(WEAVE_GPU))) $(if $(filter 1,$(STRICT)),--strict) $(if $(filter 1,$(MEASURED_NOW)),--measured-now)
# make measure's command line (MEASURE_FLAGS: e.g. --no-counters, --gpu-slug NAME); make book goes on
# to weave a run that wrote its records with some results skipped or failed (measure.py's exit 3)
MEASURE_RUN = $(QPYTHON) tangle/measure/measure.py --build $(QBUILD) $(if $(CHAPTER),--chapter $(call quote,$(CHAPTER))) $(MEASURE_FLAGS)
# the weaver's command line; make book runs it itself (a second make for it cost a tenth of a second);
# it holds the render's lock (book/render/main.py), so no weave rewrites the woven folder while a
# render (or book/serve.py) reads it
WOVEN       = $(WEAVE) --measurements book/measurements --out $(QBUILD)/book/woven --lock $(QBUILD)/book.lock $(WEAVE_FLAGS)

.PHONY: deps configure tools tool-tests tangle chapters build test check fuzz measure profile weave book pdf serve clean format
deps:               ; @.ci/deps
configure:          ; @cmake -S . -B $(QBUILD) -G Ninja -DCMAKE_BUILD_TYPE=Release $(CMAKE_ARGS) >/dev/null
# configured once; after that Ninja re-runs CMake itself when a CMakeLists.txt or a globbed folder
# changes (a second configure on every make cost a second, twice per make book); CMAKE_ARGS=... or
# `make configure` configures again
$(BUILD)/build.ninja:                         ; @$(MAKE) --no-print-directory configure
tools: $(if $(CMAKE_ARGS),configure,$(BUILD)/build.ninja) ; cmake --build $(QBUILD) --target tangle weave
# (one Ninja run for the tools and their tests: the test binaries and the fuzz harnesses compile
# while the tools' last objects do, where a run after make tools waited for its end)
tool-tests: $(if $(CMAKE_ARGS),configure,$(BUILD)/build.ninja) ; cmake --build $(QBUILD) -j $(QJOBS) --target tangle weave tool_tests
tangle: tools       ; $(TANGLE)
chapters: tangle    ; cmake --build $(QBUILD) -j $(QJOBS) --target chapters
build: tangle       ; cmake --build $(QBUILD) -j $(QJOBS)
# every test has a TIMEOUT (cmake/test_budget.cmake; --timeout is for one that somehow has none);
# the ten slowest are printed after ctest, pass or fail
test: deps tools    ; $(TANGLE) --check && cmake --build $(QBUILD) -j $(QJOBS) && { ctest --test-dir $(QBUILD) --output-on-failure -j $(QJOBS) --timeout 60; status=$$?; $(QPYTHON) tests/slowest.py $(QBUILD) 10; exit $$status; }
# the inner loop (.ci/check): tangle --check, the tools' unit tests, CHAPTER's tests, the weave with --strict
check: STRICT = 1
check: tools        ; .ci/check $(QBUILD) $(call quote,$(CHAPTER)) $(WOVEN)
# the fuzzers' long runs (FUZZ_SECONDS each; ctest runs a few seconds of each), harnesses built at
# -O1 (ctest's smoke harnesses are -O0) into $(BUILD)/fuzz/, corpora that grow from run to run
FUZZ_SECONDS ?= 300
fuzz:               ; start=$$(date +%s) && tests/tangle/run-fuzz.sh $(call quote,$(FUZZ_SECONDS)) $(QBUILD)/fuzz/tangle && tests/weave/run-fuzz.sh $(call quote,$(FUZZ_SECONDS)) $(QBUILD)/fuzz/weave && echo "make fuzz: both fuzzers ran $(FUZZ_SECONDS) s each, $$(( $$(date +%s) - start )) s in all (building included), with no crash"
measure: build      ; $(MEASURE_RUN)
profile: tangle     ; $(if $(KERNEL),,$(error make profile needs KERNEL=<result key>, e.g. KERNEL=reduce/v1_naive@268435456)) cmake --build $(QBUILD) -j $(QJOBS) --target $(call quote,$(firstword $(subst /, ,$(KERNEL)))_bench) && $(QPYTHON) tangle/measure/ncu_profile.py --build $(QBUILD) $(call quote,$(KERNEL))
weave: tools        ; $(WOVEN)
book: MEASURED_NOW = $(MEASURE)
# (three lines, the sub-make alone on the first: a line holding $(MAKE) runs even under make -n,
# so make -n book ran the weaver and the render, tools.md MK03; '+' marks the sub-make's line only)
book: deps tangle   ; +$(if $(filter 1,$(MEASURE)),$(MAKE) build)
	$(if $(filter 1,$(MEASURE)),$(MEASURE_RUN) || [ $$? -eq 3 ])
	$(WOVEN) && book/render.sh $(QBUILD)/book $(QBUILD)/book/woven
# the print view as a PDF whose contents have page numbers (two prints in headless Chromium, minutes;
# needs pdftotext, Debian's poppler-utils): $(BUILD)/book/kernels-and-the-machine.pdf
pdf:                ; $(QPYTHON) book/render/print_pdf.py $(QBUILD)/book
# the book on http://127.0.0.1:$(PORT)/, each chapter re-rendered when saved and reloaded in the
# browser (book/serve.py); a first make book MEASURE=0 where there is no book yet
PORT    ?= 8000
serve: tools        ; +$(if $(wildcard $(BUILD)/book/index.html),,$(MAKE) book MEASURE=0)
	$(QPYTHON) book/serve.py --out $(QBUILD)/book --weave $(WEAVE) --port $(call quote,$(PORT))
clean:              ; rm -rf $(QBUILD)
format:             ; @.ci/format
