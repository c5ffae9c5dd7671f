# Sanitizer and fuzzing builds (scripts/sanitize.sh).
#
#   -DCASCADE_SANITIZE='address;undefined'  instruments the hand-written code (runtime/, funcs/,
#                                          io/, bench/, apps/, examples/, tests/, python/)
#   -DCASCADE_FUZZ=ON                       adds libFuzzer's coverage and builds fuzz/ (Clang only)
#
# Never the generator executables of generators/: they only run at build time, and instrumented
# they would make generating the variants much slower. The top level calls
# cascade_enable_sanitizers() after add_subdirectory(generators): directory-scoped options reach
# only the targets created after the call.
set(CASCADE_SANITIZE "" CACHE STRING "Sanitizers for the hand-written code (e.g. address;undefined)")
option(CASCADE_FUZZ "Build the libFuzzer targets of fuzz/ (Clang only)" OFF)

if(CASCADE_FUZZ AND NOT CMAKE_CXX_COMPILER_ID MATCHES "Clang")
  message(FATAL_ERROR "CASCADE_FUZZ=ON needs Clang (libFuzzer), not ${CMAKE_CXX_COMPILER_ID}: "
                      "configure with CC=clang-14 CXX=clang++-14 in a fresh build directory")
endif()

# Sets CASCADE_SANITIZE_FLAGS (what tests/install builds its consumer with).
macro(cascade_enable_sanitizers)
  set(CASCADE_SANITIZE_FLAGS "")
  if(CASCADE_SANITIZE)
    list(JOIN CASCADE_SANITIZE "," _cascade_sanitizers)
    # Whole stacks with file:line (-g1: line tables only) in the reports; every UBSan finding
    # fatal, so that ctest sees it.
    list(APPEND CASCADE_SANITIZE_FLAGS -fsanitize=${_cascade_sanitizers} -fno-omit-frame-pointer -g1)
    if("undefined" IN_LIST CASCADE_SANITIZE)
      list(APPEND CASCADE_SANITIZE_FLAGS -fno-sanitize-recover=undefined)
    endif()
    # Fatal checks ignore run-time suppressions: third-party headers' known defects are left out
    # at compile time (Clang only; the file says why each).
    if(CMAKE_CXX_COMPILER_ID MATCHES "Clang")
      list(APPEND CASCADE_SANITIZE_FLAGS
           -fsanitize-ignorelist=${PROJECT_SOURCE_DIR}/scripts/sanitizer-suppressions/ignorelist.txt)
    endif()
  endif()
  if(CASCADE_FUZZ)
    # Coverage for libFuzzer everywhere but the numeric kernels the file names; only the fuzz
    # targets link libFuzzer's main.
    list(APPEND CASCADE_SANITIZE_FLAGS -fsanitize=fuzzer-no-link
         -fsanitize-coverage-ignorelist=${PROJECT_SOURCE_DIR}/scripts/sanitizer-suppressions/coverage-ignorelist.txt)
  endif()
  if(CASCADE_SANITIZE_FLAGS)
    message(STATUS "Sanitizing the hand-written code: ${CASCADE_SANITIZE_FLAGS}")
    add_compile_options(${CASCADE_SANITIZE_FLAGS})
    add_link_options(${CASCADE_SANITIZE_FLAGS})
  endif()
endmacro()
