#===- SummaTestHelpers.cmake - what the runtime's test directories share --===#
#
# Included by runtime/test/CMakeLists.txt and runtime/gpu/test/CMakeLists.txt:
# how their tests launch ranks under mpiexec, the environment those tests
# run in, expect.sh, and the fields of a row of a table of test cases.
#
#===----------------------------------------------------------------------===#

# Open MPI refuses to start as root, or more ranks than cores, unless told;
# other MPI implementations do not know these flags.
if(NOT DEFINED SUMMA_RUNTIME_MPIEXEC_FLAGS)
  execute_process(COMMAND ${MPIEXEC_EXECUTABLE} --version
    OUTPUT_VARIABLE _summa_mpiexec_version
    ERROR_VARIABLE _summa_mpiexec_version
    RESULT_VARIABLE _summa_mpiexec_result)
  set(_summa_mpiexec_flags "")
  if(_summa_mpiexec_version MATCHES "Open MPI|OpenRTE")
    set(_summa_mpiexec_flags --oversubscribe --allow-run-as-root)
  endif()
  set(SUMMA_RUNTIME_MPIEXEC_FLAGS "${_summa_mpiexec_flags}" CACHE STRING
    "Flags for mpiexec in the runtime tests, after -np N")
endif()
set(SUMMA_RT_TEST_ENV
  OMPI_MCA_rmaps_base_oversubscribe=1
  OMPI_ALLOW_RUN_AS_ROOT=1
  OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
  GTEST_COLOR=no)
# The scripts that tests run are copied into the build tree, so that a build
# tree carried to another machine (scripts/device-bundle.sh) runs its tests
# without the sources it was built from.
set(SUMMA_RT_TEST_SCRIPTS "${SUMMA_RUNTIME_BINARY_DIR}/test-scripts")
configure_file("${CMAKE_CURRENT_LIST_DIR}/expect.sh"
  "${SUMMA_RT_TEST_SCRIPTS}/expect.sh" COPYONLY)
set(SUMMA_RT_EXPECT sh "${SUMMA_RT_TEST_SCRIPTS}/expect.sh")

# The mpiexec command line for `ranks` ranks, in `var`.
function(summa_rt_mpiexec var ranks)
  set(${var} ${MPIEXEC_EXECUTABLE} ${MPIEXEC_NUMPROC_FLAG} ${ranks}
    ${SUMMA_RUNTIME_MPIEXEC_FLAGS} ${MPIEXEC_PREFLAGS} PARENT_SCOPE)
endfunction()

# summa_rt_table_row(ROW VAR...): the fields of ROW, a row of a table of test
# cases with its fields separated by "|", into the variables VAR... in order.
function(summa_rt_table_row row)
  string(REPLACE "|" ";" fields "${row}")
  set(index 0)
  foreach(var ${ARGN})
    list(GET fields ${index} value)
    set(${var} "${value}" PARENT_SCOPE)
    math(EXPR index "${index} + 1")
  endforeach()
endfunction()
