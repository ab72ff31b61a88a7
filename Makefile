# Kernels and the Machine: the front door. Each target is one line; the pipeline reads left to right:
# chapters/ --tangle--> src/ --cmake+ninja--> build/ --measure (GPU)--> book/measurements/ --weave--> --render--> build/book/
BUILD   ?= build
PYTHON  ?= /usr/bin/python3
JOBS    ?= $(shell nproc)
HAS_GPU := $(shell nvidia-smi -L >/dev/null 2>&1 && echo 1 || echo 0)
MEASURE ?= $(HAS_GPU)
STRICT  ?= 0
TANGLE  := $(BUILD)/tangle/tangle
WEAVE   := $(BUILD)/tangle/weave
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
MEASURE_RUN = $(PYTHON) tangle/measure.py --build $(BUILD) $(if $(CHAPTER),--chapter $(CHAPTER)) $(MEASURE_FLAGS)
# the weaver's command line; make book runs it itself (a second make for it cost a tenth of a second);
# it holds the render's lock (book/render/main.py), so no weave rewrites the woven folder while a
# render (or book/serve.py) reads it
WOVEN       = $(WEAVE) --measurements book/measurements --out $(BUILD)/book/woven --lock $(BUILD)/book.lock $(WEAVE_FLAGS)

.PHONY: deps configure tools tangle chapters build test measure profile weave book serve clean format
deps:               ; @.ci/deps
configure:          ; @cmake -S . -B $(BUILD) -G Ninja -DCMAKE_BUILD_TYPE=Release $(CMAKE_ARGS) >/dev/null
# configured once; after that Ninja re-runs CMake itself when a CMakeLists.txt or a globbed folder
# changes (a second configure on every make cost a second, twice per make book); CMAKE_ARGS=... or
# `make configure` configures again
$(BUILD)/build.ninja:                         ; @$(MAKE) --no-print-directory configure
tools: $(if $(CMAKE_ARGS),configure,$(BUILD)/build.ninja) ; cmake --build $(BUILD) --target tangle weave
tangle: tools       ; $(TANGLE)
chapters: tangle    ; cmake --build $(BUILD) -j $(JOBS) --target chapters
build: tangle       ; cmake --build $(BUILD) -j $(JOBS)
test: deps tools    ; $(TANGLE) --check && cmake --build $(BUILD) -j $(JOBS) && ctest --test-dir $(BUILD) --output-on-failure -j $(JOBS)
measure: build      ; $(MEASURE_RUN)
profile: tangle     ; $(if $(KERNEL),,$(error make profile needs KERNEL=<result key>, e.g. KERNEL=reduce/v1_naive@268435456)) cmake --build $(BUILD) -j $(JOBS) --target $(firstword $(subst /, ,$(KERNEL)))_bench && $(PYTHON) tangle/ncu_profile.py --build $(BUILD) $(KERNEL)
weave: tools        ; $(WOVEN)
book: MEASURED_NOW = $(MEASURE)
book: deps tangle   ; $(if $(filter 1,$(MEASURE)),$(MAKE) build && { $(MEASURE_RUN) || [ $$? -eq 3 ]; } &&) $(WOVEN) && book/render.sh $(BUILD)/book $(BUILD)/book/woven
# the book on http://127.0.0.1:$(PORT)/, each chapter re-rendered when saved and reloaded in the
# browser (book/serve.py); a first make book MEASURE=0 where there is no book yet
PORT    ?= 8000
serve: tools        ; $(if $(wildcard $(BUILD)/book/index.html),,$(MAKE) book MEASURE=0 &&) $(PYTHON) book/serve.py --out $(BUILD)/book --weave $(WEAVE) --port $(PORT)
clean:              ; rm -rf $(BUILD)
format:             ; @.ci/format
