"""Train the pip classifier (companion/vision/pips/classifier.py) and export models/pips-classifier.onnx.

Run by hand in the training venv (torch and onnx are for training only; the companion runs the network in
ONNX Runtime):

    python3 -m venv /tmp/train && /tmp/train/bin/pip install \\
        /opt/wheels/torch-2.13.0+cpu-cp311-cp311-manylinux_2_28_x86_64.whl numpy opencv-python-headless onnx
    .venv/bin/python models/build_pips_dev_crops.py                       # real DEV-split patches (shipped)
    .venv/bin/python models/pips_synthetic_patches.py /tmp/syn.npz --scenes 1500 --seed 22
    /tmp/train/bin/python models/train_pips_classifier.py /tmp/syn.npz --steps 10000 --seed 9 --checkpoint /tmp/c.pt
    /tmp/train/bin/python models/train_pips_classifier.py /tmp/syn.npz --steps 6000 --seed 10 --lr 1.5e-3 \
        --init /tmp/c.pt --checkpoint /tmp/quick.pt                         # the shipped weights
    # its panel partner, models/pips-classifier-2.onnx: the same two runs from random weights on 750 scenes
    # (pips_synthetic_patches.py --scenes 750 --seed 22; see pips-classifier.md, "The panel")
    /tmp/train/bin/python models/train_pips_classifier.py /tmp/syn.npz --input-px 48 --steps 6000 --seed 31 \
        --lr 2e-3 --threads 1 --init /tmp/quick.pt --checkpoint /tmp/close.pt --out /tmp/close.onnx  # first close look
    .venv/bin/python models/pips_rearranged_patches.py /tmp/r4.npz --cross 4 --seed 5  # rearranged real dice
    /tmp/train/bin/python models/train_pips_classifier.py /tmp/syn.npz --input-px 48 --steps 3000 --seed 12 \
        --lr 1e-3 --threads 1 --init /tmp/close.onnx --rearranged /tmp/r4.npz \
        --out models/pips-close-look.onnx                                   # the shipped close look

`--init` takes a checkpoint or a shipped ONNX network, whose BatchNorms are unfolded (`unfold_into`), so a
shipped network can be trained further without its checkpoint. `--rearranged` adds real dev-split faces
with their pips laid out again as every value (`pips_rearranged_patches.py`), drawn as often as real
patches: for the close look only (they tip the quick network towards reading clutter as faces; see
`pips-classifier.md`).

Patches are stored at 72 px (classifier.PATCH_PX, enough for the close look's 48 px input) and resampled
here to the scale of the network being trained. Weights for another input size (the quick network's, for
the close look) give it their convolutions; its dense head starts afresh.

Data: synthetic patches plus the real dev-split patches; a fifth of the real dev photos (by name:
`companion.vision.evaluate.kept_out_of_training`) is kept out of training to choose the softmax
temperature and report validation accuracy; `python -m companion.vision.evaluate SET --split kept-out
--close-look OUT.onnx` (or `--classifier`) reads them end to end with a new network. The held-out quarter
of the real sets is never read here. Every batch is augmented afresh: any rotation (at most ±25° for
oblique views, where a side face is told from a top face by lying below it), mirror, face size ±15%,
centre ±12% of a face, colour channels shuffled and scaled, sometimes grey, light-on-dark inversion,
gamma and contrast, glare, blur and noise.
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

from build_pips_dev_crops import load_dev_crops  # noqa: E402
from companion.vision.evaluate import kept_out_of_training  # noqa: E402
from companion.vision.pips.classifier import CONTEXT, INPUT_PX, NORMALISE_FLOOR, PATCH_CONTEXT  # noqa: E402

CLASSES = 7
FACE_IN_PATCH = 2 / PATCH_CONTEXT  # a face side in the patch's [-1, 1] coordinates
INPUT_IN_PATCH = CONTEXT / PATCH_CONTEXT  # the share of the patch's side the input crop spans


class Net(nn.Module):
    def __init__(self, widths=(12, 24, 48), hidden=64, input_px=INPUT_PX):
        super().__init__()
        layers, c = [], 3
        for w in widths:
            layers += [nn.Conv2d(c, w, 3, padding=1, bias=False), nn.BatchNorm2d(w), nn.ReLU(), nn.MaxPool2d(2)]
            c = w
        self.features = nn.Sequential(*layers)
        side = input_px // 2 ** len(widths)
        self.head = nn.Sequential(nn.Flatten(), nn.Dropout(0.2), nn.Linear(c * side * side, hidden), nn.ReLU(),
                                  nn.Linear(hidden, CLASSES))

    def forward(self, x):
        return self.head(self.features(x))


def normalise(x: torch.Tensor) -> torch.Tensor:
    """As classifier.normalise: per crop, minus its mean, over its spread (at least NORMALISE_FLOOR)."""
    mean = x.mean(dim=(1, 2, 3), keepdim=True)
    std = x.std(dim=(1, 2, 3), keepdim=True, unbiased=False).clamp_min(NORMALISE_FLOOR)
    return (x - mean) / std


GREY = torch.tensor([0.114, 0.587, 0.299]).view(1, 3, 1, 1)  # BGR


def augment(patches: torch.Tensor, oblique: torch.Tensor, values: torch.Tensor, g: torch.Generator,
            input_px: int, channel_views: float = 0.0, jpeg: float = 0.0) -> torch.Tensor:
    """(n, 3, p, p) uint8 BGR patches -> (n, 3, input_px, input_px) float crops, 0–255."""
    n = len(patches)
    rand = lambda *shape: torch.rand(*shape, generator=g)
    angle = (rand(n) * 2 - 1) * torch.where(oblique, torch.tensor(math.radians(25)), torch.tensor(math.pi))
    scale = 0.85 + 0.3 * rand(n)  # the detector's size is off by up to ±15%
    positive = values > 0
    shift = (rand(n, 2) * 2 - 1) * 0.12 * FACE_IN_PATCH
    shift = torch.where(positive[:, None], shift, shift * 1.5)
    mirror = torch.where(rand(n) < 0.5, -1.0, 1.0)
    base = INPUT_IN_PATCH * scale
    cos, sin = torch.cos(angle) * base, torch.sin(angle) * base
    theta = torch.stack([torch.stack([cos * mirror, -sin, shift[:, 0]], 1),
                         torch.stack([sin * mirror, cos, shift[:, 1]], 1)], 1)
    grid = F.affine_grid(theta, (n, 3, input_px, input_px), align_corners=False)
    x = F.grid_sample(patches.float(), grid, mode="bilinear", padding_mode="border", align_corners=False) / 255.0
    # colour: any dice colours, so the channels are shuffled and scaled; some crops turn grey
    order = torch.stack([torch.randperm(3, generator=g) for _ in range(n)])
    x = torch.gather(x, 1, order.view(n, 3, 1, 1).expand(-1, -1, input_px, input_px))
    x = x * (0.7 + 0.6 * rand(n, 3, 1, 1))
    grey = rand(n) < 0.15
    x[grey] = (x[grey] * GREY).sum(1, keepdim=True).expand(-1, 3, -1, -1)
    if channel_views:  # as the red look shows a crop: one channel (any, after the shuffle) as grey
        one_channel = rand(n) < channel_views
        x[one_channel] = x[one_channel][:, :1].expand(-1, 3, -1, -1)
    x = torch.where(rand(n, 1, 1, 1) < 0.2, 1 - x, x)
    x = x.clamp(0, 1) ** torch.exp((rand(n, 1, 1, 1) * 2 - 1) * 0.4)  # gamma 0.67–1.5
    x = 0.5 + (x - 0.5) * (0.6 + 0.8 * rand(n, 1, 1, 1))  # contrast 0.6–1.4
    glare = torch.nonzero(rand(n) < 0.25).flatten()  # a soft bright spot
    if len(glare):
        yy, xx = torch.meshgrid(torch.linspace(-1, 1, input_px), torch.linspace(-1, 1, input_px), indexing="ij")
        m = len(glare)
        centre = rand(m, 2, 1, 1) * 2 - 1
        radius = 0.1 + 0.3 * rand(m, 1, 1, 1)
        spot = torch.exp(-((xx - centre[:, 0:1]) ** 2 + (yy - centre[:, 1:2]) ** 2) / (2 * radius ** 2))
        x[glare] = x[glare] + (spot * 0.6 * rand(m, 1, 1, 1))
    blurred = torch.nonzero(rand(n) < 0.3).flatten()
    if len(blurred):
        k = torch.exp(-torch.arange(-2, 3, dtype=torch.float32) ** 2 / (2 * 0.8 ** 2))
        k = (k.view(5, 1) * k.view(1, 5) / k.sum() ** 2).expand(3, 1, 5, 5).contiguous()
        x[blurred] = F.conv2d(F.pad(x[blurred], (2, 2, 2, 2), mode="replicate"), k, groups=3)
    x = x + torch.randn(x.shape, generator=g) * 0.03 * rand(n, 1, 1, 1)
    x = x.clamp(0, 1) * 255
    if jpeg:  # a camera or phone sending rougher JPEG: blocks, and the pips' colour smeared at half resolution
        compressed = torch.nonzero(rand(n) < jpeg).flatten()
        qualities = (30 + 60 * rand(len(compressed))).int().tolist()
        for i, quality in zip(compressed.tolist(), qualities):
            x[i] = jpeg_round_trip(x[i], quality)
    return x


def jpeg_round_trip(crop: torch.Tensor, quality: int) -> torch.Tensor:
    """A (3, h, w) float 0–255 BGR crop, JPEG-encoded at `quality` and decoded again."""
    image = np.ascontiguousarray(crop.round().to(torch.uint8).permute(1, 2, 0).numpy())
    _, encoded = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, quality])
    return torch.from_numpy(cv2.imdecode(encoded, cv2.IMREAD_COLOR)).permute(2, 0, 1).float()


def at_scale(patches: np.ndarray, input_px: int) -> np.ndarray:
    """Stored patches resampled so that the network's input is their middle `input_px` square."""
    side = round(input_px * PATCH_CONTEXT / CONTEXT)
    if patches.shape[1] == side:
        return patches
    interpolation = cv2.INTER_AREA if side < patches.shape[1] else cv2.INTER_LINEAR
    return np.stack([cv2.resize(p, (side, side), interpolation=interpolation) for p in patches])


def load_data(synthetic: list[Path], dev_crops: Path, input_px: int, rearranged: list[Path] = ()):
    """(patch file parts, real training patches, real validation patches): each part (patches, values,
    oblique, is_real). Synthetic parts come first; rearranged real dice (`pips_rearranged_patches.py`)
    count as real."""
    def part(path: Path, is_real: bool):
        with np.load(path) as d:
            return (at_scale(d["patches"], input_px), d["value"].astype(np.int64), d["oblique"],
                    np.full(len(d["value"]), is_real))

    parts = [part(path, False) for path in synthetic]
    real = load_dev_crops(dev_crops)
    real["patches"] = at_scale(real["patches"], input_px)
    is_val = np.array([kept_out_of_training(str(real["photos"][i])) for i in real["photo"]])
    train_real = (real["patches"][~is_val], real["value"][~is_val].astype(np.int64), real["oblique"][~is_val],
                  np.ones((~is_val).sum(), bool))
    val_real = (real["patches"][is_val], real["value"][is_val].astype(np.int64), real["oblique"][is_val])
    return parts + [part(path, True) for path in rearranged], train_real, val_real


def to_tensors(patches, values, oblique):
    return (torch.from_numpy(np.ascontiguousarray(patches.transpose(0, 3, 1, 2))), torch.from_numpy(values),
            torch.from_numpy(oblique))


def evaluate(net: Net, patches, values, oblique, g: torch.Generator, augmented: bool, input_px: int):
    """(logits, values) on crops cut as at run time (scale 1, centred), or augmented ones."""
    net.eval()
    p, v, o = to_tensors(patches, values, oblique)
    with torch.no_grad():
        if augmented:
            x = augment(p, o, v, g, input_px)
        else:
            lo = (p.shape[-1] - input_px) // 2
            x = p[:, :, lo:lo + input_px, lo:lo + input_px].float()
        logits = torch.cat([net(normalise(x[i:i + 512])) for i in range(0, len(x), 512)])
    return logits, v


def fit_temperature(logits: torch.Tensor, values: torch.Tensor) -> float:
    temperatures = np.exp(np.linspace(math.log(0.3), math.log(5), 80))
    losses = [F.cross_entropy(logits / t, values).item() for t in temperatures]
    return float(temperatures[int(np.argmin(losses))])


def folded_arrays(net: Net) -> dict[str, np.ndarray]:
    """The network's weights with each BatchNorm folded into its convolution, in torch's layout:
    conv{i}_w (k, c, 3, 3), conv{i}_b, dense{i}_w (out, in), dense{i}_b."""
    arrays: dict[str, np.ndarray] = {}
    convs = [m for m in net.features if isinstance(m, nn.Conv2d)]
    norms = [m for m in net.features if isinstance(m, nn.BatchNorm2d)]
    for i, (conv, bn) in enumerate(zip(convs, norms)):
        scale = bn.weight / torch.sqrt(bn.running_var + bn.eps)
        arrays[f"conv{i}_w"] = (conv.weight * scale.view(-1, 1, 1, 1)).detach().numpy().astype(np.float32)
        arrays[f"conv{i}_b"] = (bn.bias - bn.running_mean * scale).detach().numpy().astype(np.float32)
    dense = [m for m in net.head if isinstance(m, nn.Linear)]
    for i, layer in enumerate(dense):
        arrays[f"dense{i}_w"] = layer.weight.detach().numpy().astype(np.float32)
        arrays[f"dense{i}_b"] = layer.bias.detach().numpy().astype(np.float32)
    return arrays


def onnx_arrays(path: Path) -> dict[str, np.ndarray]:
    """A shipped network's folded weights, named as `folded_arrays` names them (its layers in graph order)."""
    import onnx
    from onnx import numpy_helper

    model = onnx.load(str(path))
    weights = {w.name: numpy_helper.to_array(w) for w in model.graph.initializer}
    arrays: dict[str, np.ndarray] = {}
    for kind, op in (("conv", "Conv"), ("dense", "Gemm")):
        for i, node in enumerate(n for n in model.graph.node if n.op_type == op):
            arrays[f"{kind}{i}_w"] = weights[node.input[1]].copy()
            arrays[f"{kind}{i}_b"] = weights[node.input[2]].copy()
    return arrays


def unfold_conv(conv: nn.Conv2d, bn: nn.BatchNorm2d, weight: np.ndarray, bias: np.ndarray, x: torch.Tensor) -> torch.Tensor:
    """Give `conv` a folded kernel and set `bn` from the statistics of its output on `x`, so that the pair
    adds the folded bias and otherwise leaves those activations as they are, in training mode as in
    evaluation. Returns that output (before the activation), the next layer's input statistics."""
    conv.weight.copy_(torch.from_numpy(weight))
    bias = torch.from_numpy(bias)
    z = conv(x)
    mean, var = z.mean(dim=(0, 2, 3)), z.var(dim=(0, 2, 3), unbiased=False)
    bn.running_mean.copy_(mean)
    bn.running_var.copy_(var)
    bn.weight.copy_(torch.sqrt(var + bn.eps))
    bn.bias.copy_(mean + bias)
    return z + bias.view(1, -1, 1, 1)


def unfold_into(net: Net, arrays: dict[str, np.ndarray], x: torch.Tensor) -> int:
    """Start `net` from folded weights (a shipped ONNX network, whose torch checkpoint may be gone). Each
    convolution takes its folded kernel; its BatchNorm is set from the statistics of the training crops `x`
    so that it adds the folded bias and otherwise leaves those activations as they are, in training mode as
    in evaluation. From the first dense layer of another shape (another input size) on, the head starts
    afresh. Returns how many layers were taken."""
    convs = [m for m in net.features if isinstance(m, nn.Conv2d)]
    norms = [m for m in net.features if isinstance(m, nn.BatchNorm2d)]
    dense = [m for m in net.head if isinstance(m, nn.Linear)]
    taken = 0
    with torch.no_grad():
        h = x
        for i, (conv, bn) in enumerate(zip(convs, norms)):
            h = F.max_pool2d(F.relu(unfold_conv(conv, bn, arrays[f"conv{i}_w"], arrays[f"conv{i}_b"], h)), 2)
            taken += 1
        for i, layer in enumerate(dense):
            weight = torch.from_numpy(arrays[f"dense{i}_w"])
            if weight.shape != layer.weight.shape:
                break  # the layers after a fresh one would read features they were not made for
            layer.weight.copy_(weight)
            layer.bias.copy_(torch.from_numpy(arrays[f"dense{i}_b"]))
            taken += 1
    return taken


def export(arrays: dict[str, np.ndarray], temperature: float, out: Path, input_px: int) -> None:
    """Write folded weights as the ONNX network classifier.PipClassifier runs (Conv, Relu, MaxPool, Gemm;
    any batch size), carrying the temperature, input size and crop context as metadata."""
    import onnx

    layers: list[nn.Module] = []
    for i in range(sum(name.startswith("conv") and name.endswith("_w") for name in arrays)):
        weight = torch.from_numpy(arrays[f"conv{i}_w"])
        conv = nn.Conv2d(weight.shape[1], weight.shape[0], 3, padding=1)
        conv.weight.data, conv.bias.data = weight, torch.from_numpy(arrays[f"conv{i}_b"])
        layers += [conv, nn.ReLU(), nn.MaxPool2d(2)]
    layers.append(nn.Flatten())
    dense = sum(name.startswith("dense") and name.endswith("_w") for name in arrays)
    for i in range(dense):
        weight = torch.from_numpy(arrays[f"dense{i}_w"])
        linear = nn.Linear(weight.shape[1], weight.shape[0])
        linear.weight.data, linear.bias.data = weight, torch.from_numpy(arrays[f"dense{i}_b"])
        layers += [linear] + ([nn.ReLU()] if i < dense - 1 else [])
    torch.onnx.export(nn.Sequential(*layers).eval(), torch.zeros(1, 3, input_px, input_px), str(out),
                      input_names=["crops"], output_names=["logits"], opset_version=13, dynamo=False,
                      dynamic_axes={"crops": {0: "n"}, "logits": {0: "n"}})
    model = onnx.load(str(out))
    for key, value in {"temperature": temperature, "input_px": input_px, "context": CONTEXT}.items():
        model.metadata_props.add(key=key, value=repr(value))
    onnx.save(model, str(out))


def accuracy_table(logits: torch.Tensor, values: torch.Tensor) -> str:
    predicted = logits.argmax(1)
    confusion = np.zeros((CLASSES, CLASSES), int)
    for t, p in zip(values.tolist(), predicted.tolist()):
        confusion[t, p] += 1
    lines = [f"accuracy {np.trace(confusion) / confusion.sum():.2%} of {confusion.sum()}",
             "truth\\read " + "".join(f"{c:>6}" for c in range(CLASSES))]
    lines += [f"{t:>10} " + "".join(f"{confusion[t, p]:>6}" for p in range(CLASSES)) for t in range(CLASSES)]
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("synthetic", type=Path, nargs="+", help="patch files from pips_synthetic_patches.py")
    parser.add_argument("--dev-crops", type=Path, default=REPO / "models" / "data" / "pips-dev-crops.npz")
    parser.add_argument("--rearranged", type=Path, nargs="*", default=[],
                        help="rearranged real dice from pips_rearranged_patches.py, drawn as often as real patches")
    parser.add_argument("--out", type=Path, default=REPO / "models" / "pips-classifier.onnx")
    parser.add_argument("--steps", type=int, default=3000)
    parser.add_argument("--batch", type=int, default=128)
    parser.add_argument("--real-weight", type=float, default=10.0, help="how often a real patch is drawn vs a synthetic one")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--checkpoint", type=Path, help="save the torch weights here (to resume with --init)")
    parser.add_argument("--init", type=Path,
                        help="start from these weights instead of random ones: a --checkpoint, or a shipped .onnx network")
    parser.add_argument("--lr", type=float, default=3e-3)
    parser.add_argument("--threads", type=int, default=2, help="torch CPU threads")
    parser.add_argument("--channel-views", type=float, default=0.0,
                        help="share of training crops shown as one colour channel in grey, as the red look reads them")
    parser.add_argument("--jpeg", type=float, default=0.0,
                        help="share of training crops JPEG-compressed at quality 30-90 after the other changes")
    parser.add_argument("--widths", default="12,24,48", help="channels of the three convolutions")
    parser.add_argument("--input-px", type=int, default=INPUT_PX, help="crop side the network reads (48: the close look)")
    args = parser.parse_args()
    torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)
    g = torch.Generator().manual_seed(args.seed)

    parts, train_real, val_real = load_data(args.synthetic, args.dev_crops, args.input_px, args.rearranged)
    patches = np.concatenate([s[0] for s in parts] + [train_real[0]])
    values = np.concatenate([s[1] for s in parts] + [train_real[1]])
    oblique = np.concatenate([s[2] for s in parts] + [train_real[2]])
    is_real = np.concatenate([s[3] for s in parts] + [train_real[3]])
    print(f"train: {len(values)} patches ({is_real.sum()} real), per class {np.bincount(values).tolist()}; "
          f"validation: {len(val_real[1])} real patches", flush=True)
    p_all, v_all, o_all = to_tensors(patches, values, oblique)
    counts = np.bincount(values, minlength=CLASSES)
    weights = np.where(is_real, args.real_weight, 1.0) / counts[values] ** 0.5
    sampler_weights = torch.from_numpy(weights / weights.sum())

    net = Net(tuple(int(w) for w in args.widths.split(",")), input_px=args.input_px)
    if args.init and args.init.suffix == ".onnx":
        index = torch.multinomial(sampler_weights, 4096, replacement=True, generator=g)
        x = normalise(augment(p_all[index], o_all[index], v_all[index], g, args.input_px))
        print(f"from {args.init}: {unfold_into(net, onnx_arrays(args.init), x)} layers", flush=True)
    elif args.init:  # weights for another input size keep their convolutions; the dense head starts afresh
        own = net.state_dict()
        state = {k: v for k, v in torch.load(args.init).items() if k in own and own[k].shape == v.shape}
        net.load_state_dict(state, strict=False)
        print(f"from {args.init}: {len(state)} of {len(own)} tensors", flush=True)
    steps_per_epoch = 200
    optimiser = torch.optim.AdamW(net.parameters(), lr=args.lr, weight_decay=1e-4)
    schedule = torch.optim.lr_scheduler.OneCycleLR(optimiser, args.lr, total_steps=args.steps)
    for epoch in range(args.steps // steps_per_epoch):
        net.train()
        start, total = time.time(), 0.0
        for _ in range(steps_per_epoch):
            index = torch.multinomial(sampler_weights, args.batch, replacement=True, generator=g)
            x = normalise(augment(p_all[index], o_all[index], v_all[index], g, args.input_px,
                                  args.channel_views, args.jpeg))
            loss = F.cross_entropy(net(x), v_all[index], label_smoothing=0.02)
            optimiser.zero_grad()
            loss.backward()
            optimiser.step()
            schedule.step()
            total += loss.item()
        logits, v = evaluate(net, *val_real, g, augmented=False, input_px=args.input_px)
        accuracy = (logits.argmax(1) == v).float().mean().item()
        print(f"step {(epoch + 1) * steps_per_epoch}: loss {total / steps_per_epoch:.3f}, real validation {accuracy:.2%} "
              f"({time.time() - start:.0f}s)", flush=True)
        # a usable model at every stage of a long run
        export(folded_arrays(net), fit_temperature(logits, v), args.out, args.input_px)
        if args.checkpoint:
            torch.save(net.state_dict(), args.checkpoint)

    logits, v = evaluate(net, *val_real, g, augmented=False, input_px=args.input_px)
    augmented_logits, augmented_v = evaluate(net, *val_real, g, augmented=True, input_px=args.input_px)
    temperature = fit_temperature(torch.cat([logits, augmented_logits]), torch.cat([v, augmented_v]))
    print(f"temperature {temperature:.2f}")
    print("real validation, centred:\n" + accuracy_table(logits, v))
    print("real validation, augmented:\n" + accuracy_table(augmented_logits, augmented_v))
    export(folded_arrays(net), temperature, args.out, args.input_px)
    if args.checkpoint:
        torch.save(net.state_dict(), args.checkpoint)
    print(f"wrote {args.out} ({args.out.stat().st_size} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
