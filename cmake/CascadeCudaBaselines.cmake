# Baselines for `cascade bench` built with nvcc (CUB, cuFFT, device copies, event timing). Optional:
# without a CUDA compiler everything else builds, and the bench reports its CUDA cases as
# unavailable. Owned by the bench work.
#
# Defines the target cascade_cuda_baselines and CASCADE_HAVE_CUDA_BASELINES (ON/OFF) when found.
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

add_library(cascade_cuda_baselines STATIC ${PROJECT_SOURCE_DIR}/bench/baselines/cub_sat.cu)
set_target_properties(cascade_cuda_baselines PROPERTIES CUDA_STANDARD 17 CUDA_STANDARD_REQUIRED ON)
# GPU servers have the driver only: link the runtime statically.
target_link_libraries(cascade_cuda_baselines PUBLIC CUDA::cudart_static)
# The cuFFT Gaussian, where the toolkit has cuFFT's header. cuFFT itself is loaded at run time
# (dlopen), not linked: bench/baselines/cufft_library.h says why.
find_file(CASCADE_CUFFT_HEADER cufft.h HINTS ${CUDAToolkit_INCLUDE_DIRS} NO_DEFAULT_PATH)
if(CASCADE_CUFFT_HEADER)
  target_sources(cascade_cuda_baselines PRIVATE
    ${PROJECT_SOURCE_DIR}/bench/baselines/cufft_gaussian.cu
    ${PROJECT_SOURCE_DIR}/bench/baselines/cufft_library.cpp)
  target_compile_definitions(cascade_cuda_baselines PUBLIC CASCADE_HAVE_CUFFT)
  target_link_libraries(cascade_cuda_baselines PRIVATE ${CMAKE_DL_LIBS})
else()
  message(STATUS "No cufft.h: `cascade bench` will report cufft-gaussian as unavailable")
endif()
set(CASCADE_HAVE_CUDA_BASELINES ON CACHE INTERNAL "cascade_cuda_baselines is built")
