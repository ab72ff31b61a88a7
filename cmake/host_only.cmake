# A chapter's test .cu file that holds no device code is compiled as C++ by the host
# compiler (the source's LANGUAGE CXX), not by nvcc. nvcc reads a .cu file three times before g++
# compiles its host half (gcc's preprocessor twice, cudafe++ and cicc over the whole file, GoogleTest
# included): nvcc --time on waves_test.cu at -O0 gave 6.2 s, of which g++'s compile was 1.9; g++
# alone compiles it in 2.1 s. Most test files only call the chapter's kernels through its host
# functions and the harness's .cuh headers, which hold no device code either. (cmake/chapter.cmake
# leaves the benchmarks' files with nvcc, since a timed binary stays built as its records measured.)
# Everywhere, not only in CI: every build compiles a file the same way, so CI compiles what the GPU
# machine runs. A file that holds device code, or includes (through the project's quoted includes,
# followed to the end) one that does, stays CUDA. The test is by text and errs towards CUDA: a
# comment that names __global__ keeps a file with nvcc.

# What marks device code, or a library whose host API launches kernels (CUB, Thrust) or is
# device-only (cooperative groups, WMMA, libcu++'s cuda/ headers).
set(DEVICE_CODE_PATTERN
    "__global__|__device__|__shared__|__constant__|__syncthreads|<<<|asm[ \t]*(volatile[ \t]*)?\\(|#[ \t]*include[ \t]*<(cub/|thrust/|cuda/|cooperative_groups|mma\\.h)")

# holds_device_code(<out-var> <source>): TRUE when <source>, or a file it includes by a quoted path
# (found beside the including file, or under src/), matches DEVICE_CODE_PATTERN. The files read are
# added to the configure's dependencies: editing one configures again, so a header that gains a
# kernel moves its includers back to nvcc.
function(holds_device_code out source)
  set(queue ${source})
  set(seen "")
  set(found FALSE)
  while(queue)
    list(POP_FRONT queue file)
    if(file IN_LIST seen)
      continue()
    endif()
    list(APPEND seen ${file})
    file(READ ${file} text)
    if(text MATCHES "${DEVICE_CODE_PATTERN}")
      set(found TRUE)
      break()
    endif()
    string(REGEX MATCHALL "#[ \t]*include[ \t]*\"[^\"]+\"" includes "${text}")
    get_filename_component(here ${file} DIRECTORY)
    foreach(include IN LISTS includes)
      string(REGEX REPLACE ".*\"([^\"]+)\"" "\\1" name "${include}")
      foreach(candidate IN ITEMS ${here}/${name} ${CMAKE_SOURCE_DIR}/src/${name})
        if(EXISTS ${candidate})
          get_filename_component(candidate ${candidate} REALPATH)
          list(APPEND queue ${candidate})
          break()
        endif()
      endforeach()
    endforeach()
  endwhile()
  if(NOT CMAKE_SCRIPT_MODE_FILE)   # (cmake -P: tests/cmake/host_only_test.cmake)
    set_property(DIRECTORY ${CMAKE_SOURCE_DIR} APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${seen})
  endif()
  set(${out} ${found} PARENT_SCOPE)
endfunction()

# compile_host_only_as_cxx(<sources>...): each .cu source of the list that holds no device code is
# compiled as C++ (with CMake 3.25, LANGUAGE CXX passes g++ -x c++)
function(compile_host_only_as_cxx)
  foreach(source IN LISTS ARGN)
    if(source MATCHES "\\.cu$")
      holds_device_code(device ${source})
      if(NOT device)
        set_source_files_properties(${source} PROPERTIES LANGUAGE CXX)
      endif()
    endif()
  endforeach()
endfunction()
