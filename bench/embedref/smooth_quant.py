#!/usr/bin/env python3
"""Can int8 *compute* keep the quality if activation outliers move into the weights first?

docs/embedding.md measured ONNX Runtime's int8 kernels (DynamicQuantizeMatMul: activations
quantized per tensor at run time) on all-MiniLM-L6-v2 and rejected them for the products that read a
LayerNorm's output: BERT's outlier channels crush the other channels under one scale, and a fifth of
the sentences fall below cosine 0.99 of the fp32 model. SmoothQuant (Xiao et al., 2023) divides
each input channel j of such a product by s_j = max|X_j|^a / max|W_j|^(1-a) and multiplies row j of
the weights by it: the product is unchanged, the activations' range is flattened, the weights take
the spread (they are quantized per output column, which absorbs it). In this post-LN BERT a
LayerNorm's output also feeds the residual path, so 1/s cannot be folded into its gamma: an explicit
Mul by 1/s (384 multiplies per word piece) goes before the quantized product.

The per-channel activation maxima come from a calibration set disjoint from the evaluation: the
project's own scenario turns (bench/data/ku-*.jsonl). The weights are the int8 file's own,
dequantized, smoothed and quantized again per column.

  bench/embedref/.venv/bin/python bench/embedref/smooth_quant.py .models/all-MiniLM-L6-v2/model-int8.onnx [alpha]

Two ways to quantize the activations are compared: per tensor (ONNX Runtime's DynamicQuantizeMatMul,
one scale for every word piece of the batch: what docs/embedding.md measured) and per word piece
(each row of X gets its own scale, computed in the graph: Abs, ReduceMax, Div; then MatMulInteger on
u8 activations and u8 weights, both with zero point 128, since the u8 x s8 kernel of AVX2 saturates
its int16 sums, and the row and column scales applied after). Per word piece keeps the [CLS] and
[SEP] rows, whose activations are far larger than the rest, from setting everyone's scale.

Prints, per variant, CPU per call (a 12-id question; a batch of 32 turns of 20-40 ids, per turn) and
the cosine to the fp32 reference (embed/testdata) on the 1,106 sentences of the embed package's
verification test. docs/embedding.md has the figures.
"""

import glob
import json
import os
import sys
import tempfile

import numpy as np
import onnx
import onnxruntime as ort
from onnx import TensorProto, helper, numpy_helper
from tokenizers import Tokenizer

sys.path.insert(0, os.path.dirname(__file__))
import int8_compute as ic  # noqa: E402
import make_reference as mr  # noqa: E402


def products(g):
    """The weight products: (matmul node, X name, Wq int8 array, scale per column, producer of X)."""
    init = {t.name: t for t in g.initializer}
    prod = {o: n for n in g.node for o in n.output}
    out = []
    for n in g.node:
        if n.op_type != "MatMul":
            continue
        p = prod.get(n.input[1])
        if p is None or p.op_type != "Mul":
            continue
        cast = [prod[i] for i in p.input if i in prod]
        scale = [i for i in p.input if i in init]
        if len(cast) != 1 or cast[0].op_type != "Cast" or len(scale) != 1 or cast[0].input[0] not in init:
            continue
        wq = numpy_helper.to_array(init[cast[0].input[0]]).astype(np.float32)
        sc = numpy_helper.to_array(init[scale[0]]).reshape(-1).astype(np.float32)
        x = prod.get(n.input[0])
        out.append((n, n.input[0], wq, sc, x.op_type if x is not None else "input", (p, cast[0])))
    return out


def calibration_texts():
    texts = []
    for path in sorted(glob.glob(os.path.join(mr.ROOT, "bench", "data", "ku-*.jsonl"))):
        with open(path) as f:
            for line in f:
                line = line.strip()
                if not line:
                    continue
                sc = json.loads(line)
                for s in sc.get("sessions", []):
                    for t in s.get("events", []):
                        c = t.get("content") or t.get("text")
                        if c:
                            texts.append(c)
    return texts


def amax(src, xs, texts, tok):
    """Per-channel max |X| of each named tensor over the calibration texts."""
    m = onnx.load(src)
    for x in xs:
        m.graph.output.append(helper.make_tensor_value_info(x, onnx.TensorProto.FLOAT, None))
    tmp = tempfile.mktemp(suffix=".onnx")
    onnx.save(m, tmp)
    s = ic.session(tmp)
    names = [o.name for o in s.get_outputs()]
    out = {x: None for x in xs}
    for t in texts:
        ids = tok.encode(t).ids
        res = s.run(names, ic.feed(ids))
        for name, v in zip(names, res):
            if name in out:
                a = np.abs(v.reshape(-1, v.shape[-1])).max(0)
                out[name] = a if out[name] is None else np.maximum(out[name], a)
    return out


def rewrite(src, dst, maxes, alpha=0.5, ln_fed=True, smooth=False, per_token=False):
    """Int8 compute for the weight products: those after no LayerNorm always, the LN-fed ones when
    ln_fed; smoothing (SmoothQuant) of the LN-fed inputs when smooth; activations quantized per
    tensor (DynamicQuantizeMatMul) or per word piece (MatMulInteger, u8 x u8)."""
    m = onnx.load(src)
    g = m.graph
    prods = products(g)
    dead, repl, extra, muls, quant = set(), {}, [], {}, set()
    for n, x, wq, sc, xop, (p, cast) in prods:
        if xop == "LayerNormalization" and not ln_fed:
            continue
        w = wq * sc[None, :]
        xin = x
        if smooth and xop == "LayerNormalization":
            if x not in muls:  # one s per X: Q, K and V read the same X
                ws = [a * b[None, :] for _, x2, a, b, _, _ in prods if x2 == x]
                wmax = np.maximum(np.max([np.abs(v).max(1) for v in ws], 0), 1e-5)
                muls[x] = ((np.maximum(maxes[x], 1e-5) ** alpha) / (wmax ** (1 - alpha))).astype(np.float32)
                extra.append(numpy_helper.from_array(1 / muls[x], x + "_inv_s"))
            w = w * muls[x][:, None]
            xin = x + "_smooth"
        nsc = (np.maximum(np.abs(w).max(0), 1e-12) / 127).astype(np.float32)
        nq = np.clip(np.round(w / nsc[None, :]), -127, 127).astype(np.int8)
        extra.append(numpy_helper.from_array(nsc, n.name + "_s"))
        if not per_token:
            extra.append(numpy_helper.from_array(nq, n.name + "_wq"))
            repl[n.name] = [helper.make_node("DynamicQuantizeMatMul", [xin, n.name + "_wq", n.name + "_s"],
                                             list(n.output), domain="com.microsoft")]
        else:
            extra.append(numpy_helper.from_array((nq.astype(np.int16) + 128).astype(np.uint8), n.name + "_wu"))
            extra.append(numpy_helper.from_array(np.full(nq.shape[1], 128, np.uint8), n.name + "_wz"))
            seq = []
            if xin not in quant:
                quant.add(xin)
                seq += [helper.make_node("Abs", [xin], [xin + "_abs"]),
                        helper.make_node("ReduceMax", [xin + "_abs"], [xin + "_rmax"], keepdims=1, axes=[-1]),
                        helper.make_node("Div", [xin + "_rmax", "c127"], [xin + "_rs0"]),
                        helper.make_node("Max", [xin + "_rs0", "ceps"], [xin + "_rs"]),
                        helper.make_node("Div", [xin, xin + "_rs"], [xin + "_d"]),
                        helper.make_node("Round", [xin + "_d"], [xin + "_r"]),
                        helper.make_node("Add", [xin + "_r", "c128"], [xin + "_r2"]),
                        helper.make_node("Cast", [xin + "_r2"], [xin + "_q"], to=TensorProto.UINT8)]
            seq += [helper.make_node("MatMulInteger", [xin + "_q", n.name + "_wu", "zp128", n.name + "_wz"],
                                     [n.name + "_i32"]),
                    helper.make_node("Cast", [n.name + "_i32"], [n.name + "_f"], to=TensorProto.FLOAT),
                    helper.make_node("Mul", [n.name + "_f", xin + "_rs"], [n.name + "_f2"]),
                    helper.make_node("Mul", [n.name + "_f2", n.name + "_s"], list(n.output))]
            repl[n.name] = seq
        dead |= {p.name, cast.name}
    extra += [numpy_helper.from_array(np.array(127, np.float32), "c127"),
              numpy_helper.from_array(np.array(128, np.float32), "c128"),
              numpy_helper.from_array(np.array(1e-8, np.float32), "ceps"),
              numpy_helper.from_array(np.array(128, np.uint8), "zp128")]
    nodes = []
    for n in g.node:
        if n.name in dead:
            continue
        nodes.extend(repl.get(n.name, [n]))
        for o in n.output:
            if o in muls:
                nodes.append(helper.make_node("Mul", [o, o + "_inv_s"], [o + "_smooth"]))
    ic.save_rewritten(m, nodes, extra, dst)


def question_cpu(s, ids):
    for _ in range(10):
        s.run(None, ic.feed(ids))
    best = 1e9
    for _ in range(5):
        c0 = ic.cpu()
        for _ in range(40):
            s.run(None, ic.feed(ids))
        best = min(best, (ic.cpu() - c0) / 40 * 1000)
    return best


def batched_cpu(s, encs, n=32):
    best = 1e9
    for _ in range(4):
        c0, cnt = ic.cpu(), 0
        for b in range(0, len(encs), n):
            grp = encs[b:b + n]
            ids = np.zeros((len(grp), max(len(e) for e in grp)), np.int64)
            mask = np.zeros_like(ids)
            for i, e in enumerate(grp):
                ids[i, :len(e)] = e
                mask[i, :len(e)] = 1
            s.run(None, {"input_ids": ids, "attention_mask": mask, "token_type_ids": np.zeros_like(ids)})
            cnt += len(grp)
        best = min(best, (ic.cpu() - c0) / cnt * 1000)
    return best


def main():
    src = sys.argv[1]
    alpha = float(sys.argv[2]) if len(sys.argv) > 2 else 0.5
    tok = Tokenizer.from_file(os.path.join(os.path.dirname(src), "tokenizer.json"))
    tok.enable_truncation(mr.MAX_TOKENS)
    tok.no_padding()
    g = onnx.load(src).graph
    xs = sorted({x for _, x, _, _, op, _ in products(g) if op == "LayerNormalization"})
    cal = calibration_texts()
    maxes = amax(src, xs, cal, tok)
    print("calibration: %d texts; smoothing alpha %.2f" % (len(cal), alpha))
    data, _ = mr.dataset_sentences()
    texts = [t for _, t in data] + mr.EDGE_CASES
    ref = np.fromfile(os.path.join(mr.OUT_DIR, "reference.f16"), dtype="<f2").astype(np.float32).reshape(len(texts), -1)
    turns = [e for e in (tok.encode(t).ids for _, t in data) if 20 <= len(e) <= 40][:128]
    question = tok.encode("Which city does the user live in these days?").ids
    tmp = tempfile.mkdtemp()
    variants = [("fp32 compute (as shipped)", None),
                ("per tensor, 12 products after no LayerNorm (the query side)", dict(ln_fed=False)),
                ("per tensor, all 36", dict()),
                ("per tensor, all 36, smoothed", dict(smooth=True)),
                ("per word piece, 12 products", dict(ln_fed=False, per_token=True)),
                ("per word piece, all 36", dict(per_token=True)),
                ("per word piece, all 36, smoothed", dict(smooth=True, per_token=True))]
    for i, (name, kw) in enumerate(variants):
        path = src
        if kw is not None:
            path = os.path.join(tmp, "v%d.onnx" % i)
            rewrite(src, path, maxes, alpha=alpha, **kw)
        s = ic.session(path)
        cos = []
        for text, r in zip(texts, ref):
            v = s.run(None, ic.feed(tok.encode(text).ids))[0][0].mean(0)
            cos.append(float(v @ r / np.linalg.norm(v) / np.linalg.norm(r)))
        cos = np.array(cos)
        print("%-62s question %.2f ms, batched turn %.2f ms CPU; cosine to fp32 min %.4f, mean %.4f, %d of %d below 0.99"
              % (name, question_cpu(s, question), batched_cpu(s, turns), cos.min(), cos.mean(), (cos < 0.99).sum(), len(cos)),
              flush=True)


if __name__ == "__main__":
    main()
