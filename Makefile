# Kernels and the Machine: the front door. Each target is one line; the pipeline reads left to right:
# chapters/ --tangle--> src/ --cmake+ninja--> build/ --measure (GPU)--> book/measurements/ --weave+pandoc--> build/book/
BUILD   ?= build
PYTHON  ?= /usr/bin/python3
JOBS    ?= $(shell nproc)
HAS_GPU := $(shell nvidia-smi -L >/dev/null 2>&1 && echo 1 || echo 0)
MEASURE ?= $(HAS_GPU)
TANGLE  := $(BUILD)/tangle/tangle

.PHONY: deps configure tools tangle build test measure book clean
deps:               ; @.ci/deps
configure:          ; @cmake -S . -B $(BUILD) -G Ninja -DCMAKE_BUILD_TYPE=Release $(CMAKE_ARGS) >/dev/null
tools: configure    ; cmake --build $(BUILD) --target tangle
tangle: tools       ; $(TANGLE)
build: tangle       ; cmake --build $(BUILD) -j $(JOBS)
test: deps tools    ; $(TANGLE) --check && cmake --build $(BUILD) -j $(JOBS) && ctest --test-dir $(BUILD) --output-on-failure -j $(JOBS)
measure: build      ; $(PYTHON) tangle/measure.py --build $(BUILD) $(if $(CHAPTER),--chapter $(CHAPTER))
book: deps build    ; $(if $(filter 1,$(MEASURE)),$(MAKE) measure &&) book/render-plain.sh $(BUILD)/book
clean:              ; rm -rf $(BUILD)
