# "Writing custom datasets, dataloaders and transforms": Rescale, RandomCrop, ToTensor, Compose
torch.manual_seed(0)
rng = np.random.default_rng(0)
frame = [
    (
        f"face_{i}.jpg",
        rng.integers(0, 255, (20 + i, 16 + 2 * i, 3)).astype(np.uint8),
        rng.uniform(0, 15, (4, 2)),
    )
    for i in range(6)
]


class FaceLandmarksDataset(torch.utils.data.Dataset):
    def __init__(self, frame, transform=None):
        self.landmarks_frame = frame
        self.transform = transform

    def __len__(self):
        return len(self.landmarks_frame)

    def __getitem__(self, idx):
        if torch.is_tensor(idx):
            idx = idx.tolist()
        name, image, landmarks = self.landmarks_frame[idx]
        landmarks = np.array([landmarks], dtype=float).reshape(-1, 2)
        sample = {"image": image, "landmarks": landmarks}
        if self.transform:
            sample = self.transform(sample)
        return sample


class Rescale:
    def __init__(self, output_size):
        assert isinstance(output_size, (int, tuple))
        self.output_size = output_size

    def __call__(self, sample):
        image, landmarks = sample["image"], sample["landmarks"]
        h, w = image.shape[:2]
        if isinstance(self.output_size, int):
            if h > w:
                new_h, new_w = self.output_size * h / w, self.output_size
            else:
                new_h, new_w = self.output_size, self.output_size * w / h
        else:
            new_h, new_w = self.output_size
        new_h, new_w = int(new_h), int(new_w)
        t = torch.from_numpy(image).permute(2, 0, 1).float().unsqueeze(0)
        img = F.interpolate(t, size=(new_h, new_w), mode="bilinear", align_corners=False)
        img = img[0].permute(1, 2, 0).numpy()
        landmarks = landmarks * [new_w / w, new_h / h]
        return {"image": img, "landmarks": landmarks}


class RandomCrop:
    def __init__(self, output_size):
        if isinstance(output_size, int):
            self.output_size = (output_size, output_size)
        else:
            assert len(output_size) == 2
            self.output_size = output_size

    def __call__(self, sample):
        image, landmarks = sample["image"], sample["landmarks"]
        h, w = image.shape[:2]
        new_h, new_w = self.output_size
        top = int(torch.randint(0, h - new_h + 1, ()).item())
        left = int(torch.randint(0, w - new_w + 1, ()).item())
        image = image[top : top + new_h, left : left + new_w]
        landmarks = landmarks - [left, top]
        return {"image": image, "landmarks": landmarks}


class ToTensor:
    def __call__(self, sample):
        image, landmarks = sample["image"], sample["landmarks"]
        image = image.transpose((2, 0, 1))
        return {"image": torch.from_numpy(image), "landmarks": torch.from_numpy(landmarks)}


class Compose:
    def __init__(self, transforms):
        self.transforms = transforms

    def __call__(self, sample):
        for t in self.transforms:
            sample = t(sample)
        return sample


face_dataset = FaceLandmarksDataset(frame)
for i, sample in enumerate(face_dataset):
    print(i, sample["image"].shape, sample["landmarks"].shape)
    if i == 2:
        break
scale = Rescale(24)
crop = RandomCrop(12)
composed = Compose([Rescale(20), RandomCrop(16)])
sample = face_dataset[5]
for tsfrm in [scale, crop, composed]:
    transformed_sample = tsfrm(sample)
    print(type(tsfrm).__name__, transformed_sample["image"].shape)
transformed_dataset = FaceLandmarksDataset(
    frame, transform=Compose([Rescale(20), RandomCrop(16), ToTensor()])
)
for i, sample in enumerate(transformed_dataset):
    print(i, sample["image"].size(), sample["landmarks"].size(), sample["image"].dtype)
    if i == 2:
        break
dataloader = torch.utils.data.DataLoader(
    transformed_dataset, batch_size=4, shuffle=True, num_workers=0
)
for i_batch, sample_batched in enumerate(dataloader):
    print(
        i_batch,
        sample_batched["image"].size(),
        sample_batched["landmarks"].size(),
        sample_batched["landmarks"].dtype,
    )
out(sample_batched["landmarks"])
