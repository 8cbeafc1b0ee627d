# adaptive pooling over an empty non-batch dim: torch's error, before any division by it
err(lambda: F.adaptive_avg_pool3d(torch.ones(1, 1, 3, 2, 0), 2))
err(lambda: F.adaptive_avg_pool3d(torch.ones(1, 0, 3, 2, 2), 2))
err(lambda: F.adaptive_avg_pool2d(torch.ones(1, 2, 0), 2))
err(lambda: F.adaptive_avg_pool1d(torch.ones(2, 3, 0), 2))
err(lambda: F.adaptive_max_pool1d(torch.ones(2, 0, 7), 2))
err(lambda: F.adaptive_max_pool2d(torch.ones(1, 2, 0), 2))
out(
    F.adaptive_avg_pool1d(torch.ones(2, 0, 7), 2),
    F.adaptive_avg_pool2d(torch.ones(1, 0, 3, 2), 2),
    F.adaptive_max_pool2d(torch.ones(0, 3, 2), 2),
)
# ---
# a convolution kernel with a zero-sized dim
err(lambda: F.conv3d(torch.ones(1, 1, 3, 3, 3), torch.ones(1, 1, 2, 2, 0)))
err(lambda: F.conv2d(torch.ones(1, 1, 3, 3), torch.ones(1, 1, 2, 0)))
err(lambda: F.conv1d(torch.ones(1, 1, 3), torch.ones(1, 1, 0)))
err(lambda: F.conv_transpose2d(torch.ones(1, 1, 3, 3), torch.ones(1, 1, 2, 0)))
