"""``torch._dynamo.config``: the settings scripts assign before ``torch.compile``
(``suppress_errors``, ``cache_size_limit``, ...), with torch's defaults. numtorch compiles
nothing, so they are kept and read back, never acted on; a name torch lacks can still be set,
as on any module."""

suppress_errors = False
cache_size_limit = 8
recompile_limit = 8
accumulated_cache_size_limit = 256
accumulated_recompile_limit = 256
verbose = False
capture_scalar_outputs = False
capture_dynamic_output_shape_ops = False
optimize_ddp = True
automatic_dynamic_shapes = True
assume_static_by_default = True
force_parameter_static_shapes = True
inline_inbuilt_nn_modules = True
specialize_int = False
dynamic_shapes = True
guard_nn_modules = True
error_on_recompile = False
raise_on_ctx_manager_usage = True
replay_record_enabled = False
compiled_autograd = False
use_lazy_graph_module = True
