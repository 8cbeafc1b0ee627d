"""Quantized tensors (Note [Quantized tensors] in tensor.py) and the functions on them."""
