"""``torch._dynamo.config``: the settings scripts assign before compiling (for instance
``suppress_errors = True``), with torch's defaults. Nothing reads them: numtorch runs
every program eagerly."""

suppress_errors = False
verbose = False
cache_size_limit = 8
recompile_limit = 8
accumulated_cache_size_limit = 256
accumulated_recompile_limit = 256
capture_scalar_outputs = False
capture_dynamic_output_shape_ops = False
automatic_dynamic_shapes = True
assume_static_by_default = True
optimize_ddp = True
inline_inbuilt_nn_modules = True
