"""Accelerator probes answer as torch's CPU build does: values and exception types."""

import pytest

import numtorch

torch = pytest.importorskip("torch")

PROBES = [
    "x.is_xpu", "x.is_mps", "x.is_cuda", "x.is_meta", "x.is_cpu", "x.is_mkldnn", "x.is_vulkan",
    "x.is_ipu", "x.is_mtia", "x.is_maia", "x.is_xla", "x.is_sparse", "x.is_quantized",
    "x.is_nested", "torch.xpu.is_available()", "torch.xpu.device_count()",
    "torch.xpu.is_bf16_supported()", "torch.xpu.synchronize()", "torch.xpu.current_device()",
    "torch.xpu.empty_cache()", "torch.xpu.manual_seed(0)",
    "torch.accelerator.is_available()", "torch.accelerator.current_accelerator()",
    "torch.accelerator.current_accelerator(check_available=True)",
    "torch.accelerator.device_count()", "torch.accelerator.current_device_index()",
    "torch.accelerator.synchronize()", "torch.accelerator.current_stream()",
    "torch.backends.mps.is_available()", "torch.backends.mps.is_built()",
    "torch.backends.mps.is_macos13_or_newer()", "torch.mps.is_available()",
    "torch.mps.device_count()", "torch.mps.synchronize()", "torch.mps.empty_cache()",
    "torch.mps.manual_seed(0)", "torch.cuda.is_available()", "torch.cuda.is_bf16_supported()",
    "torch.cuda.device_count()", "torch.cuda.current_device()", "torch.cuda.synchronize()",
    "torch.cuda.empty_cache()", "torch.cuda.is_initialized()", "torch.cuda.get_device_name()",
    "torch.cuda.memory_allocated()", "torch.cuda.max_memory_allocated()",
    "torch.cuda.get_device_capability()", "torch.cuda.manual_seed_all(0)",
    "torch.backends.cuda.is_built()", "torch.backends.cudnn.is_available()",
    "torch.backends.mkldnn.is_available()", "torch.backends.openmp.is_available()",
    "torch.cpu.is_available()", "torch.cpu.device_count()", "torch.cpu.synchronize()",
    "torch.cpu.current_device()", "torch.cpu.is_initialized()", "torch.cpu.set_device('cpu')",
    "type(torch.cpu.current_stream()).__name__", "torch.cpu.Event().query()",
    "torch.cpu.stream(torch.cpu.Stream()).__enter__()", "torch.cpu.Stream().wait_stream(None)",
    "torch.cuda.Stream()", "torch.cuda.Event(enable_timing=True)",
    "torch.cuda.CUDAGraph()", "torch.cuda.device(0).__enter__()",
    "torch.cuda.device_of(x).__enter__()", "torch.cuda.stream(None).__enter__()",
    "torch.cuda.nvtx.range_push('step')", "torch.cuda.get_rng_state()",
    "torch.cuda.set_rng_state(torch.get_rng_state())", "torch.cuda.get_rng_state_all()",
    "torch.cuda.seed_all()", "torch.cuda.get_arch_list()", "torch.cuda.memory_stats()",
    "torch.cuda.memory_cached()", "torch.cuda.mem_get_info()", "torch.cuda.is_tf32_supported()",
    "torch.has_cuda", "torch.has_mps", "torch.has_cudnn", "torch.has_mkldnn",
    "torch.onnx.is_in_onnx_export()",
]  # fmt: skip


def _outcome(lib, expr):
    try:
        value = eval(expr, {"torch": lib, "x": lib.ones(2)})
    except Exception as e:  # the type is what gets compared
        return ("raised", type(e).__name__)
    return value


def test_cpu_stream_context_selects_and_restores_the_stream():
    for lib in (numtorch, torch):
        stream = lib.cpu.Stream()
        with lib.cpu.stream(stream):
            assert lib.cpu.current_stream() is stream
        assert lib.cpu.current_stream() is not stream


@pytest.mark.parametrize("expr", PROBES)
def test_probe_answers_as_torch_cpu_build(expr):
    assert _outcome(numtorch, expr) == _outcome(torch, expr)
