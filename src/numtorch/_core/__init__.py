"""The core: Tensor, the graph, the engine, op definition and dispatch (imports nothing above)."""
