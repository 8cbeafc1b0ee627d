# the helpers torch.utils.checkpoint exports beside checkpoint
import warnings
from importlib import import_module

cp = import_module(torch.__name__ + ".utils.checkpoint")
x = torch.ones(2, requires_grad=True)
y = x * 2
detached = cp.detach_variable((y, 3, torch.zeros(1)))
out(detached[0].requires_grad, detached[0].is_leaf, detached[1], detached[2].requires_grad)
err(lambda: cp.detach_variable([y]))
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    cp.check_backward_validity((torch.ones(1), 2))
    cp.check_backward_validity((x,))
print([str(c.message) for c in caught])
out(cp.get_device_states(x, y), cp.DefaultDeviceType.get_device_type())
cp.set_device_states([], [])
print([p.name for p in cp.CheckpointPolicy], cp.CheckpointPolicy.MUST_SAVE.value)
ctx = cp.SelectiveCheckpointContext(is_recompute=False)
out(ctx.is_recompute, ctx.op_output)
with cp.set_checkpoint_debug_enabled(True):
    out(cp.checkpoint(lambda t: (t * 3).sin(), x, use_reentrant=False).sum())
