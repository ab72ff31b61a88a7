# book_cuda_architectures(<out>): the CUDA architectures to build for when the command line names
# none (-DCMAKE_CUDA_ARCHITECTURES=... always wins, and so does the CUDAARCHS environment variable).
#   a GPU here: the compute capability of each GPU nvidia-smi lists ("8.9" -> 89), so every test
#     and benchmark runs on the reader's card;
#   no GPU (CI, a laptop): 90, the H200 the book was measured on; the code is compiled, the GPU
#     tests skip.
# Why nvidia-smi and not CMake's `native`: `native` needs a visible GPU to resolve and fails where
# there is none, so CI would need a second path anyway; reading the capability once gives one
# explicit list, printed at the first configure, kept in the cache and in every benchmark's
# context (cuda_architectures), and testable with a fake nvidia-smi (tests/cmake/).
# Printed with NOTICE (stderr): make configure hides CMake's STATUS lines. Run once, at the first
# configure: the choice is then kept in the cache.
# Also used by the chapters' downloads (book/render/downloads.py packs this file).
function(book_cuda_architectures out)
  find_program(nvidia_smi nvidia-smi NO_CACHE)
  set(architectures "")
  if(nvidia_smi)
    execute_process(COMMAND ${nvidia_smi} --query-gpu=compute_cap --format=csv,noheader
                    OUTPUT_VARIABLE listed RESULT_VARIABLE status ERROR_QUIET TIMEOUT 60)
    if(status EQUAL 0)
      string(REPLACE "\n" ";" lines "${listed}")
      foreach(line IN LISTS lines)
        string(STRIP "${line}" line)
        if(line MATCHES "^([0-9]+)\\.([0-9])$")
          list(APPEND architectures "${CMAKE_MATCH_1}${CMAKE_MATCH_2}")
        endif()
      endforeach()
      list(REMOVE_DUPLICATES architectures)
      list(SORT architectures COMPARE NATURAL)
    endif()
  endif()
  if(architectures)
    message(NOTICE "CUDA architectures: ${architectures}, the GPU(s) nvidia-smi lists here "
                   "(set -DCMAKE_CUDA_ARCHITECTURES=... to choose others)")
  else()
    set(architectures 90)
    message(NOTICE "CUDA architectures: 90 (the H200 the book was measured on): no GPU found by "
                   "nvidia-smi here, so the GPU tests will skip (set -DCMAKE_CUDA_ARCHITECTURES=... "
                   "to build for another)")
  endif()
  set(${out} "${architectures}" PARENT_SCOPE)
endfunction()
