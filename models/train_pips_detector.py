"""Train the pip-dice detector (companion/vision/pips/detector.py) and export models/pips-detector.onnx.

Run by hand in a separate training venv (torch for training only; the companion runs the ONNX file
in ONNX Runtime):

    python3 -m venv /tmp/train-det
    /tmp/train-det/bin/pip install /opt/wheels/torch-2.13.0+cpu-*.whl numpy opencv-python-headless onnx
    /tmp/train-det/bin/python models/train_pips_detector.py [--steps 3000]

Data: synthetic scenes from companion/vision/scene.py (models/pips_detector_scenes.py, cached in
--cache) and the DEV split of the real photo sets (models/data/pips-detector-dev-photos.npz, made by
models/build_pips_detector_photos.py). Each training patch is a random crop rescaled so the dice are
5–24 input pixels across, flipped, slightly rotated, re-coloured (channel swaps, hue, contrast, gamma,
grey), blurred, noised and JPEG-compressed, so the detector does not learn these photos' looks.
"""
from __future__ import annotations

import argparse
import math
import sys
import time
from pathlib import Path

import cv2
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "models"))

from companion.vision.pips.detector import INPUT_MEAN, INPUT_SCALE, MODEL_PATH, STRIDE  # noqa: E402

PHOTOS = REPO / "models" / "data" / "pips-detector-dev-photos.npz"
PATCH = 128
CHANNELS = (8, 16, 24, 24, 24)
STRIDES = (2, 2, 1, 1, 1)
DILATIONS = (1, 1, 1, 2, 4)
DIE_PX = (5.0, 24.0)  # die sizes in input pixels that training patches show


class Detector(nn.Module):
    def __init__(self, channels: tuple[int, ...] = CHANNELS):
        super().__init__()
        layers, c = [], 3
        for out, stride, dilation in zip(channels, STRIDES, DILATIONS, strict=True):
            layers += [nn.Conv2d(c, out, 3, stride, padding=dilation, dilation=dilation, bias=False),
                       nn.BatchNorm2d(out), nn.ReLU()]
            c = out
        self.body = nn.Sequential(*layers)
        self.head = nn.Conv2d(c, 4, 1)
        with torch.no_grad():
            self.head.bias[:] = torch.tensor([-4.0, 2.3, 0.5, 0.5])

    def forward(self, x):
        return self.head(self.body(x))

    def unfold(self, path: Path, x: torch.Tensor) -> None:
        """Start from a shipped ONNX detector (BatchNorm folded; its torch state may be gone): each convolution
        and its BatchNorm unfolded from the training inputs `x` (`train_pips_classifier.unfold_conv`)."""
        from train_pips_classifier import onnx_arrays, unfold_conv

        arrays = onnx_arrays(path)
        modules = list(self.body)
        with torch.no_grad():
            h = x
            for i, (conv, bn) in enumerate(zip(modules[0::3], modules[1::3])):
                h = F.relu(unfold_conv(conv, bn, arrays[f"conv{i}_w"], arrays[f"conv{i}_b"], h))
            head = len(modules) // 3
            self.head.weight.copy_(torch.from_numpy(arrays[f"conv{head}_w"]))
            self.head.bias.copy_(torch.from_numpy(arrays[f"conv{head}_b"]))

    def fused(self) -> nn.Sequential:
        """The same network with each BatchNorm folded into its convolution: only Conv and Relu."""
        layers = []
        modules = list(self.body)
        for conv, bn, relu in zip(modules[0::3], modules[1::3], modules[2::3]):
            scale = bn.weight / torch.sqrt(bn.running_var + bn.eps)
            fused = nn.Conv2d(conv.in_channels, conv.out_channels, 3, conv.stride, conv.padding, conv.dilation)
            with torch.no_grad():
                fused.weight[:] = conv.weight * scale[:, None, None, None]
                fused.bias[:] = bn.bias - bn.running_mean * scale
            layers += [fused, nn.ReLU()]
        layers.append(self.head)
        return nn.Sequential(*layers).eval()


def load_photos(path: Path = PHOTOS):
    with np.load(path) as npz:
        data = {key: npz[key] for key in npz.files}
    out = []
    for i in range(len(data["offsets"]) - 1):
        image = cv2.imdecode(data["jpeg"][data["offsets"][i]:data["offsets"][i + 1]], cv2.IMREAD_COLOR)
        a, b = data["photo_dice"][i], data["photo_dice"][i + 1]
        dice = np.stack([data["x"][a:b], data["y"][a:b], data["size"][a:b], data["value"][a:b]], axis=1)
        out.append((image, dice.astype(np.float32)))
    return out


def recolour(image: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    image = image[..., rng.permutation(3)] if rng.random() < 0.5 else image
    if rng.random() < 0.4:
        hsv = cv2.cvtColor(image, cv2.COLOR_BGR2HSV)
        hsv[..., 0] = (hsv[..., 0].astype(int) + int(rng.integers(0, 180))) % 180
        image = cv2.cvtColor(hsv, cv2.COLOR_HSV2BGR)
    if rng.random() < 0.15:
        image = cv2.cvtColor(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY), cv2.COLOR_GRAY2BGR)
    x = image.astype(np.float32) / 255
    x = x ** rng.uniform(0.6, 1.6)
    x = (x - 0.5) * rng.uniform(0.6, 1.4) + 0.5 + rng.uniform(-0.2, 0.2) + rng.normal(0, 0.04, 3)
    return np.clip(x * 255, 0, 255).astype(np.uint8)


def degrade(image: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    if rng.random() < 0.3:
        image = cv2.GaussianBlur(image, (0, 0), rng.uniform(0.3, 1.0))
    if rng.random() < 0.5:
        image = np.clip(image + rng.normal(0, rng.uniform(1, 6), image.shape), 0, 255).astype(np.uint8)
    if rng.random() < 0.3:
        _, encoded = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(40, 90))])
        image = cv2.imdecode(encoded, cv2.IMREAD_COLOR)
    return image


def sample(source, rng: np.random.Generator):
    """One training patch (PATCH × PATCH input pixels, as the detector sees a frame shrunk) and its dice
    (x, y, size) in patch pixels."""
    image, dice = source
    typical = float(np.median(dice[:, 2])) if len(dice) else 40.0
    target = math.exp(rng.uniform(math.log(DIE_PX[0]), math.log(DIE_PX[1])))
    scale = target / typical
    angle = rng.normal(0, 8) if rng.random() < 0.7 else rng.uniform(-180, 180)
    flip = rng.random() < 0.5
    if len(dice) and rng.random() < 0.85:
        cx, cy = dice[int(rng.integers(len(dice))), :2] + rng.normal(0, 20 / scale, 2)
    else:
        cx, cy = rng.uniform(0, image.shape[1]), rng.uniform(0, image.shape[0])
    # Cut the region the patch needs, shrink it with area averaging (as the detector does), then rotate.
    reach = PATCH / scale * 0.75 + 2
    x0, y0 = int(max(0, cx - reach)), int(max(0, cy - reach))
    x1, y1 = int(min(image.shape[1], cx + reach)), int(min(image.shape[0], cy + reach))
    region = image[y0:y1, x0:x1] if x1 > x0 + 1 and y1 > y0 + 1 else image
    if region is image:
        x0 = y0 = 0
    if scale < 0.8:
        small = cv2.resize(region, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
        sx, sy = small.shape[1] / region.shape[1], small.shape[0] / region.shape[0]
        rest = 1.0
    else:
        small, sx, sy, rest = region, 1.0, 1.0, scale
    dice = dice.copy()
    dice[:, 0] -= x0
    dice[:, 1] -= y0
    cx, cy = cx - x0, cy - y0
    matrix = cv2.getRotationMatrix2D((cx * sx, cy * sy), angle, rest)
    matrix[:, 2] += (PATCH / 2 - cx * sx, PATCH / 2 - cy * sy)
    border = tuple(int(c) for c in small[:: max(1, small.shape[0] // 8), :: max(1, small.shape[1] // 8)].reshape(-1, 3).mean(axis=0))
    patch = cv2.warpAffine(small, matrix, (PATCH, PATCH), flags=cv2.INTER_LINEAR,
                           borderMode=cv2.BORDER_CONSTANT if rng.random() < 0.5 else cv2.BORDER_REFLECT, borderValue=border)
    points = np.column_stack([dice[:, 0] * sx, dice[:, 1] * sy, np.ones(len(dice))]) @ matrix.T if len(dice) else np.zeros((0, 2))
    sizes = dice[:, 2] * scale
    if flip:
        patch = patch[:, ::-1]
        points = np.column_stack([PATCH - points[:, 0], points[:, 1]]) if len(points) else points
    patch = degrade(recolour(np.ascontiguousarray(patch), rng), rng)
    return patch, np.column_stack([points, sizes]).astype(np.float32) if len(points) else np.zeros((0, 3), np.float32)


def targets(dice: np.ndarray, size: int = PATCH // STRIDE):
    """Heatmap (Gaussian per die centre), and per-cell log size and centre offset with a weight map that
    is 1 in the 3×3 cells around each centre."""
    heat = np.zeros((size, size), np.float32)
    regress = np.zeros((3, size, size), np.float32)
    weight = np.zeros((size, size), np.float32)
    ys, xs = np.mgrid[0:size, 0:size]
    for x, y, s in sorted(dice.tolist(), key=lambda d: -d[2]):
        u, v = x / STRIDE, y / STRIDE
        if not (0 <= u < size and 0 <= v < size):
            continue
        sigma = max(0.6, s / STRIDE / 5)
        heat = np.maximum(heat, np.exp(-((xs + 0.5 - u) ** 2 + (ys + 0.5 - v) ** 2) / (2 * sigma ** 2)))
        j, i = int(u), int(v)
        heat[i, j] = 1.0
        for di in (-1, 0, 1):
            for dj in (-1, 0, 1):
                a, b = i + di, j + dj
                if 0 <= a < size and 0 <= b < size and (weight[a, b] == 0 or abs(di) + abs(dj) == 0):
                    regress[:, a, b] = (math.log(max(s, 1.0)), u - b, v - a)
                    weight[a, b] = 1.0 if di == dj == 0 else 0.5
    return heat, regress, weight


def batch(sources, weights, rng, n):
    images, heats, regresses, masks = [], [], [], []
    for _ in range(n):
        source = sources[int(rng.choice(len(sources), p=weights))]
        patch, dice = sample(source, rng)
        heat, regress, weight = targets(dice)
        images.append((patch.astype(np.float32) - INPUT_MEAN) * INPUT_SCALE)
        heats.append(heat)
        regresses.append(regress)
        masks.append(weight)
    x = torch.from_numpy(np.stack(images).transpose(0, 3, 1, 2).copy())
    return x, torch.from_numpy(np.stack(heats)), torch.from_numpy(np.stack(regresses)), torch.from_numpy(np.stack(masks))


def loss_fn(out, heat, regress, weight):
    pred = torch.sigmoid(out[:, 0]).clamp(1e-4, 1 - 1e-4)
    positive = heat >= 1.0
    pos_loss = -((1 - pred) ** 2 * torch.log(pred))[positive].sum()
    neg_loss = -((1 - heat) ** 4 * pred ** 2 * torch.log(1 - pred))[~positive].sum()
    count = positive.sum().clamp(min=1)
    focal = (pos_loss + neg_loss) / count
    reg = (F.smooth_l1_loss(out[:, 1:], regress, reduction="none", beta=0.1).sum(1) * weight).sum() / weight.sum().clamp(min=1)
    return focal + reg, focal.item(), reg.item()


def export(model: Detector, path: Path) -> None:
    fused = model.fused()
    torch.onnx.export(fused, torch.zeros(1, 3, 180, 320), str(path), opset_version=13, dynamo=False,
                      input_names=["frame"], output_names=["maps"],
                      dynamic_axes={"frame": {2: "height", 3: "width"}, "maps": {2: "rows", 3: "cols"}})


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--steps", type=int, default=3000)
    parser.add_argument("--batch", type=int, default=24)
    parser.add_argument("--cache", type=Path, default=Path("/tmp/pips-detector/synth.npz"))
    parser.add_argument("--scenes", type=int, default=480)
    parser.add_argument("--more-scenes", type=Path, nargs="*", default=[],
                        help="more synthetic scene caches (pips_detector_scenes.py OUT --tilt/--labels) drawn with --cache's")
    parser.add_argument("--real-share", type=float, default=0.5, help="share of patches cut from real dev photos")
    parser.add_argument("--out", type=Path, default=MODEL_PATH)
    parser.add_argument("--resume", type=Path, help="a .pt state, or a shipped .onnx detector, to start from")
    parser.add_argument("--lr", type=float, default=3e-3, help="peak learning rate of the one-cycle schedule")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--threads", type=int, default=1, help="torch threads; 1 is fastest on a shared 2-core machine")
    parser.add_argument("--channels", type=lambda text: tuple(int(c) for c in text.split(",")), default=CHANNELS,
                        help=f"channels of the five convolutions, comma-separated (default {','.join(map(str, CHANNELS))})")
    args = parser.parse_args()
    torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)
    rng = np.random.default_rng(args.seed)

    import pips_detector_scenes

    if not args.cache.is_file():
        args.cache.parent.mkdir(parents=True, exist_ok=True)
        print(f"rendering {args.scenes} synthetic scenes to {args.cache} ...", flush=True)
        pips_detector_scenes.save(args.cache, pips_detector_scenes.make_scenes(args.scenes, seed=1))
    synthetic = pips_detector_scenes.load(args.cache)
    for more in args.more_scenes:
        synthetic += pips_detector_scenes.load(more)
    real = load_photos()
    sources = synthetic + real
    weights = np.array([(1 - args.real_share) / len(synthetic)] * len(synthetic) + [args.real_share / len(real)] * len(real))
    print(f"{len(synthetic)} synthetic scenes, {len(real)} real dev photos", flush=True)

    model = Detector(args.channels)
    if args.resume and args.resume.suffix == ".onnx":
        model.unfold(args.resume, batch(sources, weights, rng, 64)[0])
    elif args.resume:
        model.load_state_dict(torch.load(args.resume))
    optimiser = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=1e-4)
    schedule = torch.optim.lr_scheduler.OneCycleLR(optimiser, max_lr=args.lr, total_steps=args.steps, pct_start=0.1)
    started = time.time()
    running = []
    for step in range(args.steps):
        model.train()
        x, heat, regress, weight = batch(sources, weights, rng, args.batch)
        loss, focal, reg = loss_fn(model(x), heat, regress, weight)
        optimiser.zero_grad()
        loss.backward()
        optimiser.step()
        schedule.step()
        running.append((focal, reg))
        if (step + 1) % 100 == 0:
            f, r = np.mean(running, axis=0)
            running = []
            print(f"step {step + 1}: focal {f:.3f} regress {r:.3f} ({time.time() - started:.0f} s)", flush=True)
        if (step + 1) % 500 == 0 or step + 1 == args.steps:
            model.eval()
            torch.save(model.state_dict(), args.cache.parent / "pips-detector.pt")
            export(model, args.out)
    print(f"saved {args.out} ({args.out.stat().st_size} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
