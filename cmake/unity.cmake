# CI_UNITY (CI only; .ci/run sets it): several sources compiled as one translation unit, so that the
# compilers' front ends parse GoogleTest, the CUDA runtime and nlohmann's JSON once per batch, not
# once per file. The chapters' targets (cmake/chapter.cmake: CMake 3.25's UNITY_BUILD knows no CUDA)
# and the tools' test binaries (UNITY_BUILD) use it. Every source is still compiled, for the same
# architectures and with the same flags; what CI no longer sees is a source that compiles only after
# another one's includes (a build without CI_UNITY does: the developer's, the GPU machine's).
option(CI_UNITY "compile the chapters' targets and the tools' test binaries in unity batches (CI)" OFF)

# unity_launcher(<target>): compiles the target's unity batches through cmake/unity_fallback.sh
# (before any other launcher), which compiles a batch's sources in halves, down to one alone, where
# two of them define the same file-local name
function(unity_launcher target)
  set(cuda_launcher ${CMAKE_SOURCE_DIR}/cmake/unity_fallback.sh ${CMAKE_CUDA_COMPILER_LAUNCHER})
  set(cxx_launcher ${CMAKE_SOURCE_DIR}/cmake/unity_fallback.sh ${CMAKE_CXX_COMPILER_LAUNCHER})
  set_target_properties(${target} PROPERTIES CUDA_COMPILER_LAUNCHER "${cuda_launcher}"
                                             CXX_COMPILER_LAUNCHER "${cxx_launcher}")
endfunction()

# unity_test_binary(<target> <batch size>): the tools' test binary in UNITY_BUILD batches of that
# many sources, in the order its add_executable lists them, where CI_UNITY is on
function(unity_test_binary target batch_size)
  if(CI_UNITY)
    set_target_properties(${target} PROPERTIES UNITY_BUILD ON UNITY_BUILD_BATCH_SIZE ${batch_size})
    unity_launcher(${target})
  endif()
endfunction()
