# device selection as current tutorials write it
device = torch.accelerator.current_accelerator().type if torch.accelerator.is_available() else "cpu"
print(f"Using {device} device")
if torch.cuda.is_available():
    device = "cuda"
elif torch.backends.mps.is_available():
    device = "mps"
elif hasattr(torch, "xpu") and torch.xpu.is_available():
    device = "xpu"
print(device, torch.accelerator.device_count(), torch.xpu.device_count(), torch.mps.device_count())
x = torch.ones(2, device=device)
out(x.device, x.is_cpu, x.is_cuda, x.is_xpu, x.is_mps, x.get_device())
out(torch.cuda.is_available(), torch.cuda.device_count(), torch.cuda.is_bf16_supported())
out(torch.backends.mps.is_built(), torch.backends.cudnn.is_available(), torch.cpu.is_available())
err(lambda: torch.accelerator.current_device_index())
err(lambda: torch.cuda.current_device())
err(lambda: torch.xpu.synchronize())
err(lambda: torch.mps.synchronize())
err(lambda: x.cuda())
err(lambda: torch.ones(2, device="cuda"))
torch.cuda.manual_seed_all(0)
torch.cuda.empty_cache()
out(torch.cuda.memory_allocated(), torch.accelerator.current_accelerator())
