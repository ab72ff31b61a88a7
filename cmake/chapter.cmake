# add_chapter_folder(<src/folder>): one chapter's library, GoogleTest binary and benchmark binary,
# chosen by file name as book/CONVENTIONS.md says. CMake re-globs when the tangler adds a file
# (CONFIGURE_DEPENDS), so a new block in a chapter needs no edit here.

include(${CMAKE_CURRENT_LIST_DIR}/host_only.cmake)   # test .cu files without device code: C++

# chapter_unity_sources(<out-var> <target> <sources>...): the sources to compile for <target>. With
# CI_UNITY (cmake/unity.cmake) a target's CUDA sources become one generated .cu file that #includes
# them, and its C++ sources (.cpp files, and .cu files of host code only: cmake/host_only.cmake) one
# generated .cpp file, compiled through cmake/unity_fallback.sh (unity_launcher). Without it, or with
# fewer than two of a language, the sources as they are.
function(chapter_unity_sources out target)
  if(NOT CI_UNITY)
    set(${out} ${ARGN} PARENT_SCOPE)
    return()
  endif()
  set(result ${ARGN})
  set(unity OFF)
  foreach(extension IN ITEMS cu cpp)
    set(members "")
    foreach(source IN LISTS ARGN)
      get_source_file_property(language ${source} LANGUAGE)
      if((extension STREQUAL "cu" AND source MATCHES "\\.cu$" AND NOT language STREQUAL "CXX") OR
         (extension STREQUAL "cpp" AND (source MATCHES "\\.cpp$" OR language STREQUAL "CXX")))
        list(APPEND members ${source})
      endif()
    endforeach()
    list(LENGTH members count)
    if(count LESS 2)
      continue()
    endif()
    set(content "// ${target}'s ${count} ${extension} sources as one translation unit (CI_UNITY, cmake/chapter.cmake)\n")
    foreach(member IN LISTS members)
      string(APPEND content "#include \"${member}\"\n")
    endforeach()
    set(generated ${CMAKE_BINARY_DIR}/chapter_unity/${target}.${extension})
    file(CONFIGURE OUTPUT ${generated} CONTENT "${content}")   # rewritten only when it changes
    # in the place of its first source: the objects link (and the tests run) in the order they did
    # apart, where a target does not interleave its .cu and .cpp files
    list(GET members 0 first)
    list(FIND result ${first} at)
    list(INSERT result ${at} ${generated})
    list(REMOVE_ITEM result ${members})
    set(unity ON)
  endforeach()
  set(${out} ${result} PARENT_SCOPE)
  set(${target}_unity ${unity} PARENT_SCOPE)
endfunction()

# chapter_unity_launcher(<target>): unity_launcher for a target that chapter_unity_sources gave a
# generated file
macro(chapter_unity_launcher target)
  if(${target}_unity)
    unity_launcher(${target})
  endif()
endmacro()

function(add_chapter_folder folder)
  get_filename_component(name ${folder} NAME)
  file(GLOB sources CONFIGURE_DEPENDS ${folder}/*.cu ${folder}/*.cpp)
  set(library_sources "")
  set(test_sources "")
  set(bench_sources "")
  set(main_sources "")
  foreach(source IN LISTS sources)
    if(source MATCHES "_test\\.(cu|cpp)$")
      list(APPEND test_sources ${source})
    elseif(source MATCHES "_bench\\.cu$")
      list(APPEND bench_sources ${source})
    elseif(source MATCHES "/gbench_main\\.cu$")
      list(APPEND main_sources ${source})
    else()
      list(APPEND library_sources ${source})
    endif()
  endforeach()

  # the tests' .cu files of host code only, as C++ (the benchmarks' stay with nvcc: a timed binary is
  # built as the one its records measured)
  compile_host_only_as_cxx(${test_sources})

  set(chapter_lib ${name})
  if(library_sources)
    chapter_unity_sources(library_sources ${chapter_lib} ${library_sources})
    add_library(${chapter_lib} STATIC ${library_sources})
    chapter_unity_launcher(${chapter_lib})
  else()
    add_library(${chapter_lib} INTERFACE)
  endif()
  get_target_property(kind ${chapter_lib} TYPE)
  if(kind STREQUAL "INTERFACE_LIBRARY")
    set(scope INTERFACE)
  else()
    set(scope PUBLIC)
    set_target_properties(${chapter_lib} PROPERTIES CUDA_SEPARABLE_COMPILATION OFF)
  endif()
  target_include_directories(${chapter_lib} ${scope} ${CMAKE_SOURCE_DIR}/src)
  target_link_libraries(${chapter_lib} ${scope} CUDA::cudart CUDA::cublas)
  if(NOT name STREQUAL "bench")
    target_link_libraries(${chapter_lib} ${scope} bench)
  endif()

  if(library_sources)
    add_dependencies(chapters ${chapter_lib})
  endif()
  if(main_sources)
    add_library(bench_main STATIC ${main_sources})
    target_link_libraries(bench_main PUBLIC ${chapter_lib} benchmark::benchmark)
  endif()

  if(test_sources)
    chapter_unity_sources(test_sources ${name}_test ${test_sources})
    add_executable(${name}_test ${test_sources})
    chapter_unity_launcher(${name}_test)
    target_link_libraries(${name}_test PRIVATE ${chapter_lib} GTest::gtest_main)
    if(CHAPTER_TESTS_PER_CASE)
      # Listed at test time, one ctest test per GoogleTest case, so ctest -j spreads the GPU tests.
      # one label, `chapter`: CMake 3.25's gtest_discover_tests takes one value per property (the
      # list "chapter;<name>" it was given was split, and <name> was never a label)
      gtest_discover_tests(${name}_test DISCOVERY_MODE PRE_TEST
                           PROPERTIES LABELS chapter TIMEOUT ${TEST_TIMEOUT})
    else()
      # No GPU: the binary runs once and every case in it (the GPU cases skip, the CPU ones run),
      # not once per case: each start loads cuBLAS and asks for a device (about 0.5 s on CI, where
      # 593 skipping cases cost 274 s of test time).
      add_test(NAME ${name}_test COMMAND ${name}_test --gtest_brief=1)
      set_tests_properties(${name}_test PROPERTIES LABELS chapter TIMEOUT ${TEST_TIMEOUT})
    endif()
    add_dependencies(chapters ${name}_test)
  endif()
  if(bench_sources)
    chapter_unity_sources(bench_sources ${name}_bench ${bench_sources})
    add_executable(${name}_bench ${bench_sources})
    chapter_unity_launcher(${name}_bench)
    target_link_libraries(${name}_bench PRIVATE ${chapter_lib} bench_main benchmark::benchmark)
    add_dependencies(chapters ${name}_bench)
  endif()

  # A chapter may tangle src/<name>/<name>.cmake to adjust its own targets (chapter 3.2b builds
  # its library for sm_90a only); it is read here, after the targets exist.
  if(EXISTS ${folder}/${name}.cmake)
    include(${folder}/${name}.cmake)
  endif()
endfunction()
