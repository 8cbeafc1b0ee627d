"""Differential fuzzing against torch: random op graphs built from the op sample table.

``graphs`` draws a program (pure data: which op samples run, which earlier result feeds
which input, in-place steps through views, leaf dtypes, special values and degenerate
shapes); ``execute`` runs it under one library (numtorch or torch: the op entries take the
library as their first argument); ``compare`` classifies where the two runs differ;
``campaign`` (``python -m fuzz`` with ``tests`` on the path, ``make fuzz``) runs many graphs
and writes reproducers. Only ``campaign`` and the pytest test import torch.
"""
