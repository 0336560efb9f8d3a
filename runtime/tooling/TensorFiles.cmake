#===- tooling/TensorFiles.cmake - the tensor-file library -------------------===#
#
# summa_tensor_files: JSON, safetensors and the sharded checkpoint format
# (Json.cpp, TensorFile.cpp, ShardedFormat.cpp), no MPI and no backend. The
# harness (tooling/), summa-ckpt and summa-compile (--save-constants) link
# it. Included by tooling/CMakeLists.txt, and by the top-level project where
# the runtime is not built (SUMMA_ENABLE_RUNTIME=OFF), since summa-compile
# needs it alone.
#
#===----------------------------------------------------------------------===#

add_library(summa_tensor_files STATIC
  ${CMAKE_CURRENT_LIST_DIR}/Json.cpp
  ${CMAKE_CURRENT_LIST_DIR}/ShardedFormat.cpp
  ${CMAKE_CURRENT_LIST_DIR}/TensorFile.cpp
)
set_target_properties(summa_tensor_files PROPERTIES
  CXX_STANDARD 17 CXX_STANDARD_REQUIRED ON CXX_EXTENSIONS OFF
  CXX_VISIBILITY_PRESET hidden VISIBILITY_INLINES_HIDDEN ON
  POSITION_INDEPENDENT_CODE ON)
target_include_directories(summa_tensor_files
  PUBLIC
    $<BUILD_INTERFACE:${CMAKE_CURRENT_LIST_DIR}>
    $<BUILD_INTERFACE:${CMAKE_CURRENT_LIST_DIR}/../include>
)
if(CMAKE_CXX_COMPILER_ID MATCHES "GNU|Clang")
  target_compile_options(summa_tensor_files PRIVATE -Wall -Wextra)
endif()
