# The CUDA side of `cascade bench`, built with nvcc. Optional: without a CUDA compiler everything
# else builds, and the bench reports its CUDA cases as unavailable.
#
# Defines, when found:
# - cascade_cuda_support: device buffers, the copy and event timing (bench/baselines/cuda_support.h),
#   linked into the command line for its CUDA cases;
# - cascade_cuda_baselines: the CUB and cuFFT baselines, a library the bench loads at run time
#   (bench/baselines/module_api.h; bench/CMakeLists.txt sets where it goes), so that nothing else
#   links them;
# and CASCADE_HAVE_CUDA_BASELINES (ON/OFF).
set(CASCADE_HAVE_CUDA_BASELINES OFF CACHE INTERNAL "cascade_cuda_baselines is built")
if(NOT CASCADE_CUDA)
  return()
endif()

include(CheckLanguage)
check_language(CUDA)
if(NOT CMAKE_CUDA_COMPILER)
  message(STATUS "No CUDA compiler: `cascade bench` will report its CUDA cases as unavailable")
  return()
endif()

# sm_90 (H100, H200) and sm_80 (A100), each as SASS plus PTX, unless the user chose.
if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES)
  set(CMAKE_CUDA_ARCHITECTURES 80 90)
endif()
enable_language(CUDA)
find_package(CUDAToolkit REQUIRED)

set(_baselines ${PROJECT_SOURCE_DIR}/bench/baselines)
add_library(cascade_cuda_support STATIC ${_baselines}/cuda_support.cpp)
# Linked into the baselines library too.
set_target_properties(cascade_cuda_support PROPERTIES POSITION_INDEPENDENT_CODE ON)
# GPU servers have the driver only: link the runtime statically.
target_link_libraries(cascade_cuda_support PUBLIC CUDA::cudart_static)

add_library(cascade_cuda_baselines MODULE ${_baselines}/cub_sat.cu ${_baselines}/cuda_module.cpp)
set_target_properties(cascade_cuda_baselines PROPERTIES CUDA_STANDARD 17 CUDA_STANDARD_REQUIRED ON)
target_link_libraries(cascade_cuda_baselines PRIVATE cascade_cuda_support)
# The cuFFT Gaussian, where the toolkit has cuFFT's header. cuFFT itself is loaded at run time
# (dlopen), not linked: bench/baselines/cufft_library.h says why.
find_file(CASCADE_CUFFT_HEADER cufft.h HINTS ${CUDAToolkit_INCLUDE_DIRS} NO_DEFAULT_PATH)
if(CASCADE_CUFFT_HEADER)
  target_sources(cascade_cuda_baselines PRIVATE ${_baselines}/cufft_gaussian.cu ${_baselines}/cufft_library.cpp)
  target_compile_definitions(cascade_cuda_baselines PRIVATE CASCADE_HAVE_CUFFT)
  target_link_libraries(cascade_cuda_baselines PRIVATE ${CMAKE_DL_LIBS})
else()
  message(STATUS "No cufft.h: `cascade bench` will report cufft-gaussian as unavailable")
endif()
set(CASCADE_HAVE_CUDA_BASELINES ON CACHE INTERNAL "cascade_cuda_baselines is built")
