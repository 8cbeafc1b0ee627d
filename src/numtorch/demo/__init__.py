"""The numtorch demo (``python -m numtorch.demo``)."""
