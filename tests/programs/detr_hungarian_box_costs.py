# DETR: box conversions, generalized IoU, the matcher cost (softmax, cdist p=1, GIoU), set loss
from scipy.optimize import linear_sum_assignment


def box_cxcywh_to_xyxy(x):
    x_c, y_c, w, h = x.unbind(-1)
    b = [(x_c - 0.5 * w), (y_c - 0.5 * h), (x_c + 0.5 * w), (y_c + 0.5 * h)]
    return torch.stack(b, dim=-1)


def box_xyxy_to_cxcywh(x):
    x0, y0, x1, y1 = x.unbind(-1)
    b = [(x0 + x1) / 2, (y0 + y1) / 2, (x1 - x0), (y1 - y0)]
    return torch.stack(b, dim=-1)


def box_area(boxes):
    return (boxes[:, 2] - boxes[:, 0]) * (boxes[:, 3] - boxes[:, 1])


def box_iou(boxes1, boxes2):
    area1 = box_area(boxes1)
    area2 = box_area(boxes2)
    lt = torch.max(boxes1[:, None, :2], boxes2[:, :2])
    rb = torch.min(boxes1[:, None, 2:], boxes2[:, 2:])
    wh = (rb - lt).clamp(min=0)
    inter = wh[:, :, 0] * wh[:, :, 1]
    union = area1[:, None] + area2 - inter
    iou = inter / union
    return iou, union


def generalized_box_iou(boxes1, boxes2):
    assert (boxes1[:, 2:] >= boxes1[:, :2]).all()
    assert (boxes2[:, 2:] >= boxes2[:, :2]).all()
    iou, union = box_iou(boxes1, boxes2)
    lt = torch.min(boxes1[:, None, :2], boxes2[:, :2])
    rb = torch.max(boxes1[:, None, 2:], boxes2[:, 2:])
    wh = (rb - lt).clamp(min=0)
    area = wh[:, :, 0] * wh[:, :, 1]
    return iou - (area - union) / area


class HungarianMatcher(nn.Module):
    def __init__(self, cost_class=1, cost_bbox=5, cost_giou=2):
        super().__init__()
        self.cost_class, self.cost_bbox, self.cost_giou = cost_class, cost_bbox, cost_giou

    @torch.no_grad()
    def forward(self, outputs, targets):
        bs, num_queries = outputs["pred_logits"].shape[:2]
        out_prob = outputs["pred_logits"].flatten(0, 1).softmax(-1)
        out_bbox = outputs["pred_boxes"].flatten(0, 1)
        tgt_ids = torch.cat([v["labels"] for v in targets])
        tgt_bbox = torch.cat([v["boxes"] for v in targets])
        cost_class = -out_prob[:, tgt_ids]
        cost_bbox = torch.cdist(out_bbox, tgt_bbox, p=1)
        cost_giou = -generalized_box_iou(box_cxcywh_to_xyxy(out_bbox), box_cxcywh_to_xyxy(tgt_bbox))
        C = self.cost_bbox * cost_bbox + self.cost_class * cost_class + self.cost_giou * cost_giou
        C = C.view(bs, num_queries, -1).cpu()
        sizes = [len(v["boxes"]) for v in targets]
        indices = [linear_sum_assignment(c[i]) for i, c in enumerate(C.split(sizes, -1))]
        return [
            (torch.as_tensor(i, dtype=torch.int64), torch.as_tensor(j, dtype=torch.int64))
            for i, j in indices
        ], C


torch.manual_seed(0)
num_classes, Q = 3, 5
outputs = {
    "pred_logits": torch.randn(2, Q, num_classes + 1, requires_grad=True),
    "pred_boxes": torch.rand(2, Q, 4).mul(0.5).add(0.25).requires_grad_(),
}
targets = [
    {
        "labels": torch.tensor([0, 2]),
        "boxes": torch.tensor([[0.5, 0.5, 0.2, 0.3], [0.3, 0.6, 0.1, 0.1]]),
    },
    {"labels": torch.tensor([1]), "boxes": torch.tensor([[0.4, 0.4, 0.5, 0.2]])},
]
matcher = HungarianMatcher()
indices, C = matcher(outputs, targets)
print(indices)
out(C)
print(
    torch.cdist(torch.tensor([[0.0, 0.0], [1.0, 1.0]]), torch.tensor([[1.0, 2.0]]), p=1),
    torch.cdist(torch.zeros(1, 3), torch.ones(2, 3), p=float("inf")),
)

batch_idx = torch.cat([torch.full_like(src, i) for i, (src, _) in enumerate(indices)])
src_idx = torch.cat([src for (src, _) in indices])
idx = (batch_idx, src_idx)
target_classes_o = torch.cat([t["labels"][J] for t, (_, J) in zip(targets, indices)])
target_classes = torch.full(outputs["pred_logits"].shape[:2], num_classes, dtype=torch.int64)
target_classes[idx] = target_classes_o
empty_weight = torch.ones(num_classes + 1)
empty_weight[-1] = 0.1
loss_ce = F.cross_entropy(outputs["pred_logits"].transpose(1, 2), target_classes, empty_weight)
src_boxes = outputs["pred_boxes"][idx]
target_boxes = torch.cat([t["boxes"][i] for t, (_, i) in zip(targets, indices)], dim=0)
num_boxes = max(float(sum(len(t["labels"]) for t in targets)), 1.0)
loss_bbox = F.l1_loss(src_boxes, target_boxes, reduction="none").sum() / num_boxes
loss_giou = (
    1
    - torch.diag(
        generalized_box_iou(box_cxcywh_to_xyxy(src_boxes), box_cxcywh_to_xyxy(target_boxes))
    )
).sum() / num_boxes
total = loss_ce + 5 * loss_bbox + 2 * loss_giou
total.backward()
print(target_classes)
print(f"ce {loss_ce.item():.5f} bbox {loss_bbox.item():.5f} giou {loss_giou.item():.5f}")
out(total, outputs["pred_logits"].grad, outputs["pred_boxes"].grad)
b = torch.tensor([[0.0, 0.0, 2.0, 2.0], [1.0, 1.0, 3.0, 4.0]])
print(box_xyxy_to_cxcywh(b), generalized_box_iou(b, b))
