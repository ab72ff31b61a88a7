# Kernels and the Machine: the front door. Each target is one line; the pipeline reads left to right:
# chapters/ --tangle--> src/ --cmake+ninja--> build/ --measure (GPU)--> book/measurements/ --weave--> --render--> build/book/
BUILD   ?= build
# a value given on the command line, quoted for the shell (tools.md Z8): BUILD, CHAPTER and KERNEL
# are each one argument, whatever they hold (CHAPTER='3.1; rm -rf ~' names no chapter, runs nothing)
quote   = '$(subst ','\'',$(1))'
QBUILD  = $(call quote,$(BUILD))
PYTHON  ?= /usr/bin/python3
JOBS    ?= $(shell nproc)
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
WEAVE_FLAGS = --reference $(REFERENCE_GPU) $(if $(WEAVE_GPU),--gpu $(WEAVE_GPU)) $(if $(filter 1,$(STRICT)),--strict) $(if $(filter 1,$(MEASURED_NOW)),--measured-now)
# make measure's command line (MEASURE_FLAGS: e.g. --no-counters, --gpu-slug NAME); make book goes on
# to weave a run that wrote its records with some results skipped or failed (measure.py's exit 3)
MEASURE_RUN = $(PYTHON) tangle/measure/measure.py --build $(QBUILD) $(if $(CHAPTER),--chapter $(call quote,$(CHAPTER))) $(MEASURE_FLAGS)
# the weaver's command line; make book runs it itself (a second make for it cost a tenth of a second);
# it holds the render's lock (book/render/main.py), so no weave rewrites the woven folder while a
# render (or book/serve.py) reads it
WOVEN       = $(WEAVE) --measurements book/measurements --out $(QBUILD)/book/woven --lock $(QBUILD)/book.lock $(WEAVE_FLAGS)

.PHONY: deps configure tools tangle chapters build test measure profile weave book serve clean format
deps:               ; @.ci/deps
configure:          ; @cmake -S . -B $(QBUILD) -G Ninja -DCMAKE_BUILD_TYPE=Release $(CMAKE_ARGS) >/dev/null
# configured once; after that Ninja re-runs CMake itself when a CMakeLists.txt or a globbed folder
# changes (a second configure on every make cost a second, twice per make book); CMAKE_ARGS=... or
# `make configure` configures again
$(BUILD)/build.ninja:                         ; @$(MAKE) --no-print-directory configure
tools: $(if $(CMAKE_ARGS),configure,$(BUILD)/build.ninja) ; cmake --build $(QBUILD) --target tangle weave
tangle: tools       ; $(TANGLE)
chapters: tangle    ; cmake --build $(QBUILD) -j $(JOBS) --target chapters
build: tangle       ; cmake --build $(QBUILD) -j $(JOBS)
test: deps tools    ; $(TANGLE) --check && cmake --build $(QBUILD) -j $(JOBS) && ctest --test-dir $(QBUILD) --output-on-failure -j $(JOBS)
measure: build      ; $(MEASURE_RUN)
profile: tangle     ; $(if $(KERNEL),,$(error make profile needs KERNEL=<result key>, e.g. KERNEL=reduce/v1_naive@268435456)) cmake --build $(QBUILD) -j $(JOBS) --target $(call quote,$(firstword $(subst /, ,$(KERNEL)))_bench) && $(PYTHON) tangle/measure/ncu_profile.py --build $(QBUILD) $(call quote,$(KERNEL))
weave: tools        ; $(WOVEN)
book: MEASURED_NOW = $(MEASURE)
book: deps tangle   ; $(if $(filter 1,$(MEASURE)),$(MAKE) build && { $(MEASURE_RUN) || [ $$? -eq 3 ]; } &&) $(WOVEN) && book/render.sh $(QBUILD)/book $(QBUILD)/book/woven
# the book on http://127.0.0.1:$(PORT)/, each chapter re-rendered when saved and reloaded in the
# browser (book/serve.py); a first make book MEASURE=0 where there is no book yet
PORT    ?= 8000
serve: tools        ; $(if $(wildcard $(BUILD)/book/index.html),,$(MAKE) book MEASURE=0 &&) $(PYTHON) book/serve.py --out $(QBUILD)/book --weave $(WEAVE) --port $(PORT)
clean:              ; rm -rf $(QBUILD)
format:             ; @.ci/format
