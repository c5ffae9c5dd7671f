# Baselines for `cascade bench` built with nvcc (CUB, device copies, event timing). Optional:
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

add_library(cascade_cuda_baselines STATIC ${PROJECT_SOURCE_DIR}/runtime/baselines/cub_sat.cu)
set_target_properties(cascade_cuda_baselines PROPERTIES CUDA_STANDARD 17 CUDA_STANDARD_REQUIRED ON)
# GPU servers have the driver only: link the runtime statically.
target_link_libraries(cascade_cuda_baselines PUBLIC CUDA::cudart_static)
set(CASCADE_HAVE_CUDA_BASELINES ON CACHE INTERNAL "cascade_cuda_baselines is built")
