# YOLO-style target assignment: anchor-ratio matching, grid offsets to neighbouring cells, CIoU loss
import math


def bbox_iou(box1, box2, xywh=True, CIoU=False, eps=1e-7):
    if xywh:
        (x1, y1, w1, h1), (x2, y2, w2, h2) = box1.chunk(4, -1), box2.chunk(4, -1)
        w1_, h1_, w2_, h2_ = w1 / 2, h1 / 2, w2 / 2, h2 / 2
        b1_x1, b1_x2, b1_y1, b1_y2 = x1 - w1_, x1 + w1_, y1 - h1_, y1 + h1_
        b2_x1, b2_x2, b2_y1, b2_y2 = x2 - w2_, x2 + w2_, y2 - h2_, y2 + h2_
    inter = (torch.min(b1_x2, b2_x2) - torch.max(b1_x1, b2_x1)).clamp(0) * (
        torch.min(b1_y2, b2_y2) - torch.max(b1_y1, b2_y1)
    ).clamp(0)
    union = w1 * h1 + w2 * h2 - inter + eps
    iou = inter / union
    if CIoU:
        cw = torch.max(b1_x2, b2_x2) - torch.min(b1_x1, b2_x1)
        ch = torch.max(b1_y2, b2_y2) - torch.min(b1_y1, b2_y1)
        c2 = cw**2 + ch**2 + eps
        rho2 = ((b2_x1 + b2_x2 - b1_x1 - b1_x2) ** 2 + (b2_y1 + b2_y2 - b1_y1 - b1_y2) ** 2) / 4
        v = (4 / math.pi**2) * torch.pow(torch.atan(w2 / h2) - torch.atan(w1 / h1), 2)
        with torch.no_grad():
            alpha = v / (v - iou + (1 + eps))
        return iou - (rho2 / c2 + v * alpha)
    return iou


def build_targets(p_shape, targets, anchors, anchor_t=4.0):
    na, nt = anchors.shape[0], targets.shape[0]
    tcls, tbox, indices, anch = [], [], [], []
    gain = torch.ones(7)
    ai = torch.arange(na).float().view(na, 1).repeat(1, nt)
    targets = torch.cat((targets.repeat(na, 1, 1), ai[..., None]), 2)
    g = 0.5
    off = torch.tensor([[0, 0], [1, 0], [0, 1], [-1, 0], [0, -1]]).float() * g
    gain[2:6] = torch.tensor(p_shape)[[3, 2, 3, 2]]
    t = targets * gain
    if nt:
        r = t[..., 4:6] / anchors[:, None]
        j = torch.max(r, 1 / r).max(2)[0] < anchor_t
        t = t[j]
        gxy = t[:, 2:4]
        gxi = gain[[2, 3]] - gxy
        j, k = ((gxy % 1 < g) & (gxy > 1)).T
        l, m = ((gxi % 1 < g) & (gxi > 1)).T  # noqa: E741
        j = torch.stack((torch.ones_like(j), j, k, l, m))
        t = t.repeat((5, 1, 1))[j]
        offsets = (torch.zeros_like(gxy)[None] + off[:, None])[j]
    else:
        t = targets[0]
        offsets = 0
    bc, gxy, gwh, a = t.chunk(4, 1)
    a, (b, c) = a.long().view(-1), bc.long().T
    gij = (gxy - offsets).long()
    gi, gj = gij.T
    gj = gj.clamp_(0, p_shape[2] - 1)
    gi = gi.clamp_(0, p_shape[3] - 1)
    indices.append((b, a, gj, gi))
    tbox.append(torch.cat((gxy - gij, gwh), 1))
    anch.append(anchors[a])
    tcls.append(c)
    return tcls, tbox, indices, anch


torch.manual_seed(0)
na, nc, ny, nx = 3, 2, 4, 4
anchors = torch.tensor([[1.0, 1.5], [2.0, 1.0], [0.6, 0.8]])
targets = torch.tensor(
    [[0, 1, 0.40, 0.55, 0.20, 0.30], [0, 0, 0.81, 0.12, 0.40, 0.25], [1, 1, 0.30, 0.70, 0.15, 0.20]]
)
pred = torch.randn(2, na, ny, nx, 5 + nc, requires_grad=True)
tcls, tbox, indices, anch = build_targets(pred.shape, targets, anchors)
b, a, gj, gi = indices[0]
print(b.tolist(), a.tolist(), gj.tolist(), gi.tolist())
print(tcls[0].tolist(), tbox[0].shape)
out(tbox[0], anch[0])
ps = pred[b, a, gj, gi]
pxy = ps[:, :2].sigmoid() * 2 - 0.5
pwh = (ps[:, 2:4].sigmoid() * 2) ** 2 * anch[0]
pbox = torch.cat((pxy, pwh), 1)
iou = bbox_iou(pbox, tbox[0], CIoU=True).squeeze()
lbox = (1.0 - iou).mean()
tobj = torch.zeros(pred.shape[:4])
tobj[b, a, gj, gi] = iou.detach().clamp(0).type(tobj.dtype)
lobj = nn.BCEWithLogitsLoss(pos_weight=torch.tensor([1.0]))(pred[..., 4], tobj)
t = torch.full_like(ps[:, 5:], 0.0)
t[range(len(b)), tcls[0]] = 1.0
lcls = F.binary_cross_entropy_with_logits(ps[:, 5:], t)
loss = (0.05 * lbox + 1.0 * lobj + 0.5 * lcls) * pred.shape[0]
loss.backward()
print(f"lbox {lbox.item():.5f} lobj {lobj.item():.5f} lcls {lcls.item():.5f}")
out(iou, loss, pred.grad)
print(
    bbox_iou(
        torch.tensor([[0.5, 0.5, 1.0, 1.0]]),
        torch.tensor([[0.5, 0.5, 1.0, 1.0], [1.0, 1.0, 1.0, 1.0]]),
    )
)
