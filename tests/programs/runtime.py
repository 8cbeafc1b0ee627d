# process-wide settings scripts make in their first lines
torch.set_num_interop_threads(1)
out(torch.get_num_interop_threads())
out(isinstance(torch.get_num_threads(), int) and torch.get_num_threads() >= 1)
err(lambda: torch.set_num_threads(0))
err(lambda: torch.set_num_threads(1.5))
err(lambda: torch.set_num_interop_threads(-1))
# ---
torch.use_deterministic_algorithms(True, warn_only=True)
out(torch.are_deterministic_algorithms_enabled())
out(torch.is_deterministic_algorithms_warn_only_enabled())
torch.use_deterministic_algorithms(False)
out(torch.are_deterministic_algorithms_enabled())
out(torch.is_deterministic_algorithms_warn_only_enabled())
err(lambda: torch.use_deterministic_algorithms("yes"))
# ---
torch.set_float32_matmul_precision("high")
out(torch.get_float32_matmul_precision())
torch.set_float32_matmul_precision("highest")
out(torch.get_float32_matmul_precision())
# ---
out(torch.backends.cudnn.enabled, torch.backends.cudnn.benchmark)
out(torch.backends.cudnn.deterministic, torch.backends.cudnn.is_available())
out(torch.backends.mps.is_available(), torch.backends.mps.is_built())
out(torch.backends.cuda.matmul.allow_tf32, torch.backends.cuda.is_built())
out(torch.cuda.is_available(), torch.cuda.device_count())
# ---
# nanoGPT's first lines: the tf32 flag and the float32 matmul precision are one setting
out(torch.backends.cuda.matmul.allow_tf32, torch.get_float32_matmul_precision())
torch.backends.cuda.matmul.allow_tf32 = True
torch.backends.cudnn.allow_tf32 = True
out(torch.get_float32_matmul_precision(), torch.backends.cuda.matmul.allow_tf32)
torch.backends.cuda.matmul.allow_tf32 = False
out(torch.get_float32_matmul_precision())
torch.set_float32_matmul_precision("medium")
out(torch.backends.cuda.matmul.allow_tf32, torch.get_float32_matmul_precision())
torch.set_float32_matmul_precision("highest")
out(torch.backends.cuda.matmul.allow_tf32, torch.backends.cudnn.allow_tf32)
# ---
# runtime settings and small helpers
threads = torch.get_num_threads()  # restored below: the test process is shared
out(threads > 0, torch.set_num_threads(2), torch.get_num_threads())
torch.set_num_threads(threads)
out(torch.get_num_interop_threads() > 0)
err(lambda: torch.set_num_threads(0))
out(torch.are_deterministic_algorithms_enabled(), torch.use_deterministic_algorithms(True))
out(torch.are_deterministic_algorithms_enabled(), torch.get_deterministic_debug_mode())
out(
    torch.use_deterministic_algorithms(True, warn_only=True),
    torch.is_deterministic_algorithms_warn_only_enabled(),
)
out(torch.get_deterministic_debug_mode(), torch.set_deterministic_debug_mode("default"))
out(
    torch.are_deterministic_algorithms_enabled(),
    torch.set_deterministic_debug_mode(2),
    torch.get_deterministic_debug_mode(),
)
torch.use_deterministic_algorithms(False)
err(lambda: torch.use_deterministic_algorithms("yes"))
out(torch.get_float32_matmul_precision(), torch.set_float32_matmul_precision("high"))
out(
    torch.get_float32_matmul_precision(),
    torch.set_float32_matmul_precision("foo"),
    torch.get_float32_matmul_precision(),
)
torch.set_float32_matmul_precision("highest")
out(
    str(torch.get_default_device()), torch.set_default_device("cpu"), torch.set_default_device(None)
)
out(torch.is_warn_always_enabled(), torch.set_warn_always(False), torch.set_flush_denormal(False))
x = torch.ones(2, requires_grad=True)
out(
    torch.typename(x),
    torch.typename(torch.ones(1, dtype=torch.int64)),
    torch.typename(3),
    torch.typename(nn.Linear(1, 1)),
)
out(
    torch.typename(torch.ones(1, dtype=torch.float64)),
    torch.typename(torch.ones(1, dtype=torch.bool)),
)
out(torch.is_inference(x), torch.is_storage(x), torch.detach(x), torch.detach(x * 2))
