# Every test's time budget (issue 31 goal 4): ctest's TIMEOUT property, so that a test taking over
# its budget fails, and the suite's time cannot creep up unseen. The default budget is 60 s on
# CI's machine (2 cores, ctest -j2); a test that must take longer names its budget with
# test_budget() beside a comment that says why. `make test` also passes --timeout 60, for a test
# that somehow has none.
#
# TEST_TIME_SCALE multiplies every budget: 1 on CI's machine; a developer on a machine shared with
# other work (where a test's wall time can be several times its CPU time) configures a larger one,
# e.g. `make configure CMAKE_ARGS=-DTEST_TIME_SCALE=4`.
set(TEST_TIME_SCALE 1 CACHE STRING "multiplies every test's TIMEOUT (1 on CI's 2-core machine)")
set(TEST_BUDGET_DEFAULT 60)

# test_seconds(<out-var> <seconds>): the budget scaled by TEST_TIME_SCALE
function(test_seconds out seconds)
  math(EXPR scaled "${seconds} * ${TEST_TIME_SCALE}")
  set(${out} ${scaled} PARENT_SCOPE)
endfunction()

# test_budget(<seconds> <test>...): an explicit budget (say why above the call where it is not the default)
function(test_budget seconds)
  test_seconds(scaled ${seconds})
  set_tests_properties(${ARGN} PROPERTIES TIMEOUT ${scaled})
endfunction()

# test_default_budgets(): the default budget for each test of the calling directory that has none
# (call it at the end of a directory's CMakeLists.txt; tests that gtest_discover_tests adds at
# test time get theirs through its PROPERTIES: TIMEOUT ${TEST_TIMEOUT})
function(test_default_budgets)
  get_property(tests DIRECTORY PROPERTY TESTS)
  test_seconds(scaled ${TEST_BUDGET_DEFAULT})
  foreach(test IN LISTS tests)
    get_test_property(${test} TIMEOUT has)
    if(NOT has)
      set_tests_properties(${test} PROPERTIES TIMEOUT ${scaled})
    endif()
  endforeach()
endfunction()

test_seconds(TEST_TIMEOUT ${TEST_BUDGET_DEFAULT})
