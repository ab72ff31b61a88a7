# Sourced by the experiments' run.sh on the GPU machine, after .ci/device-measure has built build/:
# the carried libraries, CUDA's tools on PATH, $OUT, and two helpers.
out=${OUT:?set OUT to the folder whose files come back}
root=$PWD
export LD_LIBRARY_PATH=$root/.deps/usr/lib/x86_64-linux-gnu:${LD_LIBRARY_PATH:-}
export PYTHONPATH=$root/.deps/usr/lib/python3/dist-packages${PYTHONPATH:+:$PYTHONPATH}
export PATH=/usr/local/cuda/bin:$PATH
# filter KEY: the --benchmark_filter that selects exactly that result (make measure's own)
filter() { python3 -c "import sys; sys.path.insert(0, 'tangle/measure'); import ncu; print(ncu.benchmark_filter(sys.argv[1]))" "$1"; }
# binary KEY: the chapter's benchmark binary of a result key ('matmul/v10@...' -> build/matmul_bench)
binary() { echo "build/${1%%/*}_bench"; }
# the regex that leaves the harness's marker kernel unprofiled (tangle/measure/ncu.py)
no_marker=$(python3 -c "import sys; sys.path.insert(0, 'tangle/measure'); import ncu; print(ncu.MARKER_EXCLUDED)")
