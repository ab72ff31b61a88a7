# cmake -DSCRATCH=<folder> -P architectures_test.cmake: cmake/cuda_architectures.cmake's choice,
# with a fake nvidia-smi on PATH (a shell script printing what a driver prints), and with none.
cmake_minimum_required(VERSION 3.25)
include(${CMAKE_CURRENT_LIST_DIR}/../../cmake/cuda_architectures.cmake)

function(expect_architectures case smi_script expected)
  set(bin ${SCRATCH}/${case})
  file(REMOVE_RECURSE ${bin})
  file(MAKE_DIRECTORY ${bin})
  if(smi_script)
    file(WRITE ${bin}/nvidia-smi "#!/bin/sh\n${smi_script}\n")
    file(CHMOD ${bin}/nvidia-smi PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE)
  endif()
  set(ENV{PATH} ${bin})  # only the fake: the machine's own nvidia-smi must not answer
  book_cuda_architectures(chosen)
  if(NOT "${chosen}" STREQUAL "${expected}")
    message(FATAL_ERROR "${case}: chose '${chosen}', expected '${expected}'")
  endif()
  message(STATUS "${case}: ${chosen}, as expected")
endfunction()

expect_architectures(one_ada "echo 8.9" "89")
expect_architectures(two_of_one_kind "printf '9.0\\n9.0\\n'" "90")
expect_architectures(mixed "printf '9.0\\n8.0\\n12.0\\n'" "80;90;120")
expect_architectures(driver_without_the_query "echo 'Field \"compute_cap\" is not a valid field' >&2; exit 2" "90")
expect_architectures(no_device "echo 'No devices were found'; exit 6" "90")
expect_architectures(no_nvidia_smi "" "90")
