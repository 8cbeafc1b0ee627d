# Detection post-processing without torchvision: box_iou, greedy and batched NMS, VOC AP
torch.manual_seed(0)


def box_area(boxes):
    return (boxes[:, 2] - boxes[:, 0]) * (boxes[:, 3] - boxes[:, 1])


def box_iou(boxes1, boxes2):
    area1, area2 = box_area(boxes1), box_area(boxes2)
    lt = torch.max(boxes1[:, None, :2], boxes2[:, :2])
    rb = torch.min(boxes1[:, None, 2:], boxes2[:, 2:])
    wh = (rb - lt).clamp(min=0)
    inter = wh[:, :, 0] * wh[:, :, 1]
    union = area1[:, None] + area2 - inter
    return inter / union


def nms(boxes, scores, iou_threshold):
    order = scores.argsort(descending=True)
    keep = []
    while order.numel() > 0:
        i = order[0].item()
        keep.append(i)
        if order.numel() == 1:
            break
        ious = box_iou(boxes[i].unsqueeze(0), boxes[order[1:]]).squeeze(0)
        order = order[1:][ious <= iou_threshold]
    return torch.tensor(keep, dtype=torch.long)


def batched_nms(boxes, scores, idxs, iou_threshold):
    if boxes.numel() == 0:
        return torch.empty((0,), dtype=torch.int64)
    max_coordinate = boxes.max()
    offsets = idxs.to(boxes) * (max_coordinate + torch.tensor(1).to(boxes))
    boxes_for_nms = boxes + offsets[:, None]
    return nms(boxes_for_nms, scores, iou_threshold)


def xywh2xyxy(x):
    y = x.clone()
    y[..., 0] = x[..., 0] - x[..., 2] / 2
    y[..., 1] = x[..., 1] - x[..., 3] / 2
    y[..., 2] = x[..., 0] + x[..., 2] / 2
    y[..., 3] = x[..., 1] + x[..., 3] / 2
    return y


centers = torch.rand(12, 2) * 20
sizes = torch.rand(12, 2) * 6 + 2
boxes = xywh2xyxy(torch.cat([centers, sizes], dim=1))
scores = torch.rand(12)
classes = torch.randint(0, 3, (12,))
print(box_iou(boxes[:3], boxes[:4]))
keep = nms(boxes, scores, 0.3)
print("kept", keep.tolist(), scores[keep])
bkeep = batched_nms(boxes, scores, classes, 0.3)
print("batched", bkeep.tolist(), classes[bkeep].tolist())
conf_mask = scores > 0.5
print(conf_mask.sum().item(), boxes[conf_mask].shape, torch.empty(0, 4).shape)
print(batched_nms(torch.empty(0, 4), torch.empty(0), torch.empty(0, dtype=torch.long), 0.5))
# average precision from a precision/recall curve (VOC all-points interpolation)
tp = torch.tensor([1, 0, 1, 1, 0, 1, 0, 0], dtype=torch.float32)
tpc, fpc = tp.cumsum(0), (1 - tp).cumsum(0)
recall, precision = tpc / 5, tpc / (tpc + fpc)
mrec = torch.cat([torch.tensor([0.0]), recall, torch.tensor([1.0])])
mpre = torch.cat([torch.tensor([1.0]), precision, torch.tensor([0.0])])
mpre = torch.flip(torch.cummax(torch.flip(mpre, [0]), 0).values, [0])
i = torch.where(mrec[1:] != mrec[:-1])[0]
ap = torch.sum((mrec[i + 1] - mrec[i]) * mpre[i + 1])
print(f"AP {ap:.4f}")
out(box_iou(boxes, boxes), keep, bkeep, ap)
# ---
# GIoU loss for box regression with gradients, and anchors matched to ground truth by IoU
torch.manual_seed(0)


def generalized_box_iou_loss(b1, b2, eps=1e-7):
    x1, y1, x2, y2 = b1.unbind(dim=-1)
    x1g, y1g, x2g, y2g = b2.unbind(dim=-1)
    xkis1, ykis1 = torch.max(x1, x1g), torch.max(y1, y1g)
    xkis2, ykis2 = torch.min(x2, x2g), torch.min(y2, y2g)
    intsctk = torch.zeros_like(x1)
    mask = (ykis2 > ykis1) & (xkis2 > xkis1)
    intsctk[mask] = (xkis2[mask] - xkis1[mask]) * (ykis2[mask] - ykis1[mask])
    unionk = (x2 - x1) * (y2 - y1) + (x2g - x1g) * (y2g - y1g) - intsctk
    iouk = intsctk / (unionk + eps)
    xc1, yc1 = torch.min(x1, x1g), torch.min(y1, y1g)
    xc2, yc2 = torch.max(x2, x2g), torch.max(y2, y2g)
    area_c = (xc2 - xc1) * (yc2 - yc1)
    miouk = iouk - ((area_c - unionk) / (area_c + eps))
    return 1 - miouk


pred = torch.tensor(
    [[0.0, 0.0, 2.0, 2.0], [1.0, 1.0, 3.0, 4.0], [5.0, 5.0, 6.0, 6.0]], requires_grad=True
)
gt = torch.tensor([[1.0, 1.0, 3.0, 3.0], [1.0, 1.0, 3.0, 4.0], [0.0, 0.0, 1.0, 1.0]])
loss = generalized_box_iou_loss(pred, gt)
print(loss)
loss.mean().backward()
print(pred.grad)
anchors = torch.tensor([[0.0, 0.0, 2.0, 2.0], [2.0, 2.0, 4.0, 4.0], [0.5, 0.5, 3.5, 3.5]])
ious = torch.stack(
    [1 - generalized_box_iou_loss(anchors, g.expand_as(anchors)) for g in gt[:2]], dim=1
)
best_gt_iou, best_gt = ious.max(dim=1)
labels = torch.where(best_gt_iou > 0.3, best_gt, torch.full_like(best_gt, -1))
print(ious, labels)
out(loss, pred.grad, labels)
