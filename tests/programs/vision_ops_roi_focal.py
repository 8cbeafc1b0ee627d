# Detection layers in plain torch: box_convert, box_area, roi_align by bilinear gathers, roi_pool
torch.manual_seed(0)


def box_convert(boxes, in_fmt, out_fmt):
    if in_fmt == out_fmt:
        return boxes.clone()
    if in_fmt == "cxcywh":
        cx, cy, w, h = boxes.unbind(-1)
        boxes = torch.stack([cx - 0.5 * w, cy - 0.5 * h, cx + 0.5 * w, cy + 0.5 * h], dim=-1)
    elif in_fmt == "xywh":
        x, y, w, h = boxes.unbind(-1)
        boxes = torch.stack([x, y, x + w, y + h], dim=-1)
    if out_fmt == "cxcywh":
        x1, y1, x2, y2 = boxes.unbind(-1)
        return torch.stack([(x1 + x2) / 2, (y1 + y2) / 2, x2 - x1, y2 - y1], dim=-1)
    if out_fmt == "xywh":
        x1, y1, x2, y2 = boxes.unbind(-1)
        return torch.stack([x1, y1, x2 - x1, y2 - y1], dim=-1)
    return boxes


def box_area(boxes):
    return (boxes[:, 2] - boxes[:, 0]) * (boxes[:, 3] - boxes[:, 1])


def bilinear(feat, y, x):
    # feat: (C, H, W); y, x: any shape of float coordinates
    C, H, W = feat.shape
    valid = (y > -1.0) & (y < H) & (x > -1.0) & (x < W)
    y = y.clamp(min=0)
    x = x.clamp(min=0)
    y0 = y.floor().long().clamp(max=H - 1)
    x0 = x.floor().long().clamp(max=W - 1)
    y1 = (y0 + 1).clamp(max=H - 1)
    x1 = (x0 + 1).clamp(max=W - 1)
    y = torch.where(y0 >= H - 1, y0.to(y.dtype), y)
    x = torch.where(x0 >= W - 1, x0.to(x.dtype), x)
    ly, lx = y - y0, x - x0
    hy, hx = 1.0 - ly, 1.0 - lx
    v = (
        feat[:, y0, x0] * (hy * hx)
        + feat[:, y0, x1] * (hy * lx)
        + feat[:, y1, x0] * (ly * hx)
        + feat[:, y1, x1] * (ly * lx)
    )
    return v * valid


def roi_align(feat, rois, output_size, spatial_scale=1.0, sampling_ratio=2, aligned=True):
    ph, pw = output_size
    offset = 0.5 if aligned else 0.0
    outs = []
    for roi in rois:
        b = int(roi[0].item())
        x1, y1, x2, y2 = (roi[1:] * spatial_scale - offset).tolist()
        rw, rh = x2 - x1, y2 - y1
        if not aligned:
            rw, rh = max(rw, 1.0), max(rh, 1.0)
        bin_h, bin_w = rh / ph, rw / pw
        iy = (torch.arange(sampling_ratio) + 0.5) / sampling_ratio
        gy = y1 + (torch.arange(ph)[:, None] + iy[None, :]) * bin_h
        gx = x1 + (torch.arange(pw)[:, None] + iy[None, :]) * bin_w
        yy = gy.reshape(-1)[:, None].expand(-1, pw * sampling_ratio)
        xx = gx.reshape(-1)[None, :].expand(ph * sampling_ratio, -1)
        v = bilinear(feat[b], yy, xx)
        v = v.view(feat.shape[1], ph, sampling_ratio, pw, sampling_ratio).mean(dim=(2, 4))
        outs.append(v)
    return torch.stack(outs)


def roi_pool(feat, rois, output_size, spatial_scale=1.0):
    ph, pw = output_size
    outs = []
    for roi in rois:
        b = int(roi[0])
        x1, y1, x2, y2 = torch.round(roi[1:] * spatial_scale).long().tolist()
        region = feat[b, :, y1 : y2 + 1, x1 : x2 + 1]
        outs.append(F.adaptive_max_pool2d(region, (ph, pw)))
    return torch.stack(outs)


cxcywh = torch.tensor([[10.0, 10.0, 4.0, 6.0], [5.0, 7.0, 2.0, 2.0], [3.0, 3.0, 6.0, 5.0]])
xyxy = box_convert(cxcywh, "cxcywh", "xyxy")
print(xyxy)
print(box_convert(xyxy, "xyxy", "xywh"))
print(box_area(xyxy), box_convert(box_convert(cxcywh, "cxcywh", "xywh"), "xywh", "cxcywh"))
feat = torch.randn(2, 3, 8, 8, requires_grad=True)
rois = torch.tensor([[0, 1.0, 1.0, 5.0, 6.0], [1, 0.5, 2.0, 7.5, 7.0], [0, 3.2, 0.0, 4.1, 2.9]])
ra = roi_align(feat, rois, (2, 2), spatial_scale=1.0, sampling_ratio=2)
print(ra.shape, ra.grad_fn.name())
print(ra[0, 0])
rp = roi_pool(feat, rois, (2, 3))
print(rp.shape, rp[1, 2])
(ra.sum() + rp.square().sum()).backward()
print(f"grad total {feat.grad.abs().sum().item():.4f}, nonzero {int((feat.grad != 0).sum())}")
out(xyxy, ra, rp, feat.grad)
# ---
# Sigmoid focal loss, batched NMS by the coordinate offset trick, and stochastic depth
torch.manual_seed(0)


def sigmoid_focal_loss(inputs, targets, alpha=0.25, gamma=2.0, reduction="none"):
    p = torch.sigmoid(inputs)
    ce_loss = F.binary_cross_entropy_with_logits(inputs, targets, reduction="none")
    p_t = p * targets + (1 - p) * (1 - targets)
    loss = ce_loss * ((1 - p_t) ** gamma)
    if alpha >= 0:
        alpha_t = alpha * targets + (1 - alpha) * (1 - targets)
        loss = alpha_t * loss
    if reduction == "mean":
        loss = loss.mean()
    elif reduction == "sum":
        loss = loss.sum()
    return loss


def box_iou(a, b):
    area_a = (a[:, 2] - a[:, 0]) * (a[:, 3] - a[:, 1])
    area_b = (b[:, 2] - b[:, 0]) * (b[:, 3] - b[:, 1])
    lt = torch.max(a[:, None, :2], b[:, :2])
    rb = torch.min(a[:, None, 2:], b[:, 2:])
    inter = (rb - lt).clamp(min=0).prod(dim=2)
    return inter / (area_a[:, None] + area_b - inter)


def nms(boxes, scores, thr):
    order = torch.argsort(scores, descending=True)
    suppressed = torch.zeros(len(boxes), dtype=torch.bool)
    keep = []
    iou = box_iou(boxes, boxes)
    for idx in order.tolist():
        if suppressed[idx]:
            continue
        keep.append(idx)
        suppressed |= iou[idx] > thr
    return torch.as_tensor(keep, dtype=torch.int64)


def batched_nms(boxes, scores, idxs, thr):
    max_coordinate = boxes.max()
    offsets = idxs.to(boxes) * (max_coordinate + 1)
    return nms(boxes + offsets[:, None], scores, thr)


class StochasticDepth(nn.Module):
    def __init__(self, p, mode):
        super().__init__()
        self.p, self.mode = p, mode

    def forward(self, x):
        if not self.training or self.p == 0.0:
            return x
        survival = 1.0 - self.p
        size = [x.shape[0]] + [1] * (x.ndim - 1) if self.mode == "row" else [1] * x.ndim
        noise = torch.empty(size, dtype=x.dtype, device=x.device).bernoulli_(survival)
        if survival > 0.0:
            noise.div_(survival)
        return x * noise

    def __repr__(self):
        return f"{self.__class__.__name__}(p={self.p}, mode={self.mode})"


logits = torch.randn(6, 4, requires_grad=True)
targets = torch.zeros(6, 4)
targets[torch.arange(6), torch.randint(0, 4, (6,))] = 1.0
loss = sigmoid_focal_loss(logits, targets, reduction="mean")
loss.backward()
print(f"focal {loss.item():.6f}", loss.grad_fn.name())
print(sigmoid_focal_loss(logits.detach(), targets, alpha=-1, reduction="sum"))
boxes = torch.rand(10, 2) * 10
boxes = torch.cat([boxes, boxes + torch.rand(10, 2) * 5 + 1], dim=1)
scores = torch.rand(10)
labels = torch.tensor([0, 0, 1, 1, 0, 2, 2, 1, 0, 2])
keep = batched_nms(boxes, scores, labels, 0.2)
print(keep, labels[keep].bincount(minlength=3))
sd = StochasticDepth(0.5, "row")
print(sd)
x = torch.ones(8, 2, 3)
y = sd(x)
print(y[:, 0, 0], y.sum().item())
sd.eval()
print(torch.equal(sd(x), x), StochasticDepth(0.3, "batch")(x).unique())
out(loss, logits.grad, keep, y)
