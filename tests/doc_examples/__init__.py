"""Differential runs of torch's documentation examples under torch and under numtorch."""
