#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Patches Debian bookworm's HIP 5.2.3 NVIDIA headers (libamdhip64-dev 5.2.3-8,
hip/nvidia_detail/nvidia_hip_runtime_api.h) so that they compile with CUDA 12 and 13. Called by
scripts/hip-nvidia-headers, which downloads the headers; the product never contains them.

Usage: patch-hip52-cuda13.py <include folder holding hip/>
Every replacement must match exactly once (a header that is not 5.2.3's stops the script instead of
being half patched); a marker line is added and checked, so running it again changes nothing.

What CUDA 12/13 removed or changed, and what is done:
  * texture references (cudaBindTexture*, cudaUnbindTexture, texture<>,
    cudaGetTextureAlignmentOffset)          -> guarded by CUDART_VERSION < 12000
  * cudaLaunchCooperativeKernelMultiDevice   -> guarded (CUDA < 12)
  * cudaDeviceProp.clockRate/memoryClockRate/computeMode/
    kernelExecTimeoutEnabled/cooperativeMultiDeviceLaunch (CUDA 13)
                                             -> read via cudaDeviceGetAttribute
  * cudaDevAttrCooperativeMultiDeviceLaunch (CUDA 13) -> guarded
  * cudaMemAdvise / cudaMemPrefetchAsync take cudaMemLocation (CUDA 13)
  * cuCtxCreate is cuCtxCreate_v4 (CUctxCreateParams*) (CUDA 13)
  * cudaGraph{Add,Remove}Dependencies, cudaGraphGetEdges,
    cudaGraphNodeGetDependencies/DependentNodes gained edgeData (CUDA 13)
  * cudaStreamGetCaptureInfo_v2 removed, cudaStreamUpdateCaptureDependencies
    gained dependencyData (CUDA 13)
"""
import pathlib
import sys

MARK = "/* patched for CUDA 12/13 by patch-hip52-cuda13.py */\n"


def sub(text, old, new, count=1):
    n = text.count(old)
    if n != count:
        sys.exit(f"patch-hip52-cuda13: expected {count} match(es), found {n}:\n{old}")
    return text.replace(old, new)


def guard(text, old, condition):
    """Keeps `old` (which must match once) only where `condition` holds."""
    return sub(text, old, f"#if {condition}\n{old}#endif\n")


def main():
    inc = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else ".")
    f = inc / "hip" / "nvidia_detail" / "nvidia_hip_runtime_api.h"
    t = f.read_text()
    if MARK in t:
        print(f"{f}: already patched")
        return
    # ---- typo in the original: CUDA_11020 was never defined (CUDA_11010 defined twice)
    t = sub(t, "#define CUDA_11010 11020\n", "#define CUDA_11020 11020\n")
    # ---- cudaMemAdvise / cudaMemPrefetchAsync (CUDA 13: cudaMemLocation)
    t = sub(t, """    return hipCUDAErrorTohipError(cudaMemAdvise(dev_ptr, count,
        hipMemoryAdviseTocudaMemoryAdvise(advice), device));""",
            """#if CUDART_VERSION >= 13000
    struct cudaMemLocation loc;
    loc.type = (device == cudaCpuDeviceId) ? cudaMemLocationTypeHost : cudaMemLocationTypeDevice;
    loc.id = (device == cudaCpuDeviceId) ? 0 : device;
    return hipCUDAErrorTohipError(cudaMemAdvise(dev_ptr, count,
        hipMemoryAdviseTocudaMemoryAdvise(advice), loc));
#else
    return hipCUDAErrorTohipError(cudaMemAdvise(dev_ptr, count,
        hipMemoryAdviseTocudaMemoryAdvise(advice), device));
#endif""")
    t = sub(t, """    return hipCUDAErrorTohipError(cudaMemPrefetchAsync(dev_ptr, count, device, stream));""",
            """#if CUDART_VERSION >= 13000
    struct cudaMemLocation loc;
    loc.type = (device == cudaCpuDeviceId) ? cudaMemLocationTypeHost : cudaMemLocationTypeDevice;
    loc.id = (device == cudaCpuDeviceId) ? 0 : device;
    return hipCUDAErrorTohipError(cudaMemPrefetchAsync(dev_ptr, count, loc, 0, stream));
#else
    return hipCUDAErrorTohipError(cudaMemPrefetchAsync(dev_ptr, count, device, stream));
#endif""")
    # ---- hipChooseDevice: fields removed from cudaDeviceProp in CUDA 13
    for field in ("clockRate", "computeMode", "memoryClockRate"):
        t = guard(t, f"    cdprop.{field} = prop->{field};\n", "CUDART_VERSION < 13000")
    # ---- hipGetDeviceProperties
    t = sub(t, """    p_prop->clockRate = cdprop.clockRate;
    p_prop->memoryClockRate = cdprop.memoryClockRate;
""", """#if CUDART_VERSION >= 13000
    { int v_ = 0;
      cudaDeviceGetAttribute(&v_, cudaDevAttrClockRate, device); p_prop->clockRate = v_;
      cudaDeviceGetAttribute(&v_, cudaDevAttrMemoryClockRate, device); p_prop->memoryClockRate = v_;
      cudaDeviceGetAttribute(&v_, cudaDevAttrComputeMode, device); p_prop->computeMode = v_;
      cudaDeviceGetAttribute(&v_, cudaDevAttrKernelExecTimeout, device);
      p_prop->kernelExecTimeoutEnabled = v_; }
#else
    p_prop->clockRate = cdprop.clockRate;
    p_prop->memoryClockRate = cdprop.memoryClockRate;
#endif
""")
    t = sub(t, "    p_prop->computeMode = cdprop.computeMode;\n    p_prop->clockInstructionRate = cdprop.clockRate; // Same as clock-rate:\n",
            "#if CUDART_VERSION >= 13000\n    p_prop->clockInstructionRate = p_prop->clockRate; // Same as clock-rate:\n#else\n"
            "    p_prop->computeMode = cdprop.computeMode;\n    p_prop->clockInstructionRate = cdprop.clockRate; // Same as clock-rate:\n#endif\n")
    t = sub(t, "    p_prop->cooperativeMultiDeviceLaunch = cdprop.cooperativeMultiDeviceLaunch;\n",
            "#if CUDART_VERSION >= 13000\n    p_prop->cooperativeMultiDeviceLaunch = 0;\n#else\n"
            "    p_prop->cooperativeMultiDeviceLaunch = cdprop.cooperativeMultiDeviceLaunch;\n#endif\n")
    t = guard(t, "    p_prop->kernelExecTimeoutEnabled = cdprop.kernelExecTimeoutEnabled;\n", "CUDART_VERSION < 13000")
    # ---- hipDeviceGetAttribute
    t = sub(t, """        case hipDeviceAttributeCooperativeMultiDeviceLaunch:
            cdattr = cudaDevAttrCooperativeMultiDeviceLaunch;
            break;
""", """        case hipDeviceAttributeCooperativeMultiDeviceLaunch:
#if CUDART_VERSION >= 13000
            *pi = 0;
            return hipSuccess;
#else
            cdattr = cudaDevAttrCooperativeMultiDeviceLaunch;
            break;
#endif
""")
    # ---- hipCtxCreate (CUDA 13: cuCtxCreate == cuCtxCreate_v4)
    t = sub(t, "    return hipCUResultTohipError(cuCtxCreate(ctx, flags, device));",
            "#if CUDA_VERSION >= 13000\n    return hipCUResultTohipError(cuCtxCreate(ctx, NULL, flags, device));\n#else\n"
            "    return hipCUResultTohipError(cuCtxCreate(ctx, flags, device));\n#endif")
    # ---- texture references (removed in CUDA 12)
    a = t.index("__HIP_DEPRECATED inline static hipError_t hipBindTexture(size_t* offset,")
    b = t.index("inline static hipChannelFormatDesc hipCreateChannelDesc(int x, int y, int z, int w,")
    t = t[:a] + "#if CUDART_VERSION < 12000\n" + t[a:b] + "#endif\n\n" + t[b:]
    old = """__HIP_DEPRECATED inline static hipError_t hipGetTextureAlignmentOffset(
    size_t* offset, const struct textureReference* texref) {
    return hipCUDAErrorTohipError(cudaGetTextureAlignmentOffset(offset,texref));
}
"""
    t = guard(t, old, "CUDART_VERSION < 12000")
    old = """inline static hipError_t hipLaunchCooperativeKernelMultiDevice(hipLaunchParams* launchParamsList,
                                                 int  numDevices, unsigned int  flags) {
    return hipCUDAErrorTohipError(cudaLaunchCooperativeKernelMultiDevice(launchParamsList, numDevices, flags));
}
"""
    t = guard(t, old, "CUDART_VERSION < 12000")
    a = t.index("template <class T, int dim, enum cudaTextureReadMode readMode>\ninline static hipError_t hipBindTexture(size_t* offset, const struct texture<T, dim, readMode>& tex,")
    b = t.index("template <class T>\ninline static hipChannelFormatDesc hipCreateChannelDesc() {")
    t = t[:a] + "#if CUDART_VERSION < 12000\n" + t[a:b] + "#endif\n\n" + t[b:]
    # ---- graph API (CUDA 13: edgeData parameters)
    E = "#if CUDART_VERSION >= 13000\n#define HIP_CUDA13_EDGE_ NULL,\n#else\n#define HIP_CUDA13_EDGE_\n#endif\n"
    t = sub(t, "inline static hipError_t hipGraphAddDependencies(hipGraph_t graph,",
            E + "inline static hipError_t hipGraphAddDependencies(hipGraph_t graph,")
    # Each call gains the edge-data argument before its last one.
    for call in ("cudaGraphAddDependencies(graph, from, to, numDependencies)",
                 "cudaGraphRemoveDependencies(graph, from, to, numDependencies)",
                 "cudaGraphGetEdges(graph, from, to, numEdges)",
                 "cudaGraphNodeGetDependencies(node, pDependencies, pNumDependencies)",
                 "cudaGraphNodeGetDependentNodes(node, pDependentNodes, pNumDependentNodes)"):
        head, last = call.rsplit(", ", 1)
        t = sub(t, call, f"{head}, HIP_CUDA13_EDGE_ {last}")
    t = sub(t, """    return hipCUDAErrorTohipError(cudaStreamGetCaptureInfo_v2(
        stream, captureStatus_out, id_out, graph_out, dependencies_out, numDependencies_out));""",
            """#if CUDART_VERSION >= 13000
    return hipCUDAErrorTohipError(cudaStreamGetCaptureInfo(
        stream, captureStatus_out, id_out, graph_out, dependencies_out, NULL, numDependencies_out));
#else
    return hipCUDAErrorTohipError(cudaStreamGetCaptureInfo_v2(
        stream, captureStatus_out, id_out, graph_out, dependencies_out, numDependencies_out));
#endif""")
    t = sub(t, """cudaStreamUpdateCaptureDependencies(stream, dependencies,
                                                                      numDependencies, flags)""",
            """cudaStreamUpdateCaptureDependencies(stream, dependencies,
                                                                      HIP_CUDA13_EDGE_ numDependencies, flags)""")
    f.write_text(MARK + t)
    print(f"{f}: patched")


if __name__ == "__main__":
    main()
