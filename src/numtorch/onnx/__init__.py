"""``torch.onnx``: what model code asks of it without exporting.

Model code checks ``torch.onnx.is_in_onnx_export()`` to pick an export-friendly path; numtorch
never traces a graph for export, so the answer is always False. Exporting itself needs a graph
capture numtorch does not have: ``export`` says so.
"""


class OnnxExporterError(RuntimeError):
    """Raised when an export fails (torch's class, for ``except`` clauses)."""


def is_in_onnx_export() -> bool:
    return False


def export(model, args=(), f=None, *unused_args, **unused_kwargs):
    raise NotImplementedError(
        "torch.onnx.export is not supported by numtorch: it has no graph capture to export "
        "from; export the model with PyTorch instead"
    )


dynamo_export = export


def __getattr__(name):
    if name.startswith("_"):
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    raise AttributeError(
        f"torch.onnx.{name} is not supported by numtorch (only is_in_onnx_export and the "
        "export entry point, which refuses, are present)"
    )
