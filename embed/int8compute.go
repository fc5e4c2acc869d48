package embed

import (
	"errors"
	"fmt"

	"google.golang.org/protobuf/encoding/protowire"
)

// Int8Compute rewrites an ONNX model whose matrix products read int8 weights
// through MatMul(X, Mul(Cast(W int8), scale)) so that the products whose
// input is not a LayerNormalization's output run on ONNX Runtime's int8
// kernel: DynamicQuantizeMatMul(X, W, scale), from the com.microsoft domain,
// which quantizes the activations per tensor at run time and multiplies in
// int8. The weights and their per-column scales are the file's own; nothing
// is re-quantized. It returns the rewritten model and how many products it
// rewrote (12 of all-MiniLM-L6-v2's 36: each layer's attention output and
// feed-forward output, 42% of the multiply-adds).
//
// Why: ONNX Runtime folds such weights back to fp32 when it loads the model,
// so a question costs a forward pass in fp32; the int8 kernels are about
// twice as fast. Why not every product: a LayerNorm's output carries a few
// channels far larger than the rest (BERT's outlier features), and one
// scale per tensor crushes the other channels. Measured on the reference
// set and the paraphrase check (docs/embedding.md): with all 36 products
// in int8 a question's vector falls to cosine 0.9875 of the reference and
// paraphrase evidence in the top 3 drops from 44 to 39 of 84; with the 12
// that do not read a LayerNorm it stays at 0.9930 and 46 of 84, for about
// a fifth less CPU instead of a half. The service uses it only for the
// query side (one vector per search, computed while the user waits) and
// keeps the stored vectors in fp32 compute.
//
// The rewrite works on the protobuf wire format, field by field: everything
// it does not change is copied byte for byte, so the model keeps its
// initializers, metadata and opsets. Field numbers are onnx.proto's.
func Int8Compute(model []byte) ([]byte, int, error) {
	top, err := wireFields(model)
	if err != nil {
		return nil, 0, fmt.Errorf("int8 compute: model: %w", err)
	}
	var out []byte
	rewritten, graphs := 0, 0
	hasMS := false
	for _, f := range top {
		if f.num == modelOpsetImport && f.typ == protowire.BytesType {
			if d, _ := opsetDomain(f.val); d == msDomain {
				hasMS = true
			}
		}
	}
	for _, f := range top {
		if f.num == modelGraph && f.typ == protowire.BytesType {
			g, n, err := int8Graph(f.val)
			if err != nil {
				return nil, 0, fmt.Errorf("int8 compute: graph: %w", err)
			}
			graphs++
			rewritten += n
			out = protowire.AppendTag(out, modelGraph, protowire.BytesType)
			out = protowire.AppendBytes(out, g)
			continue
		}
		out = append(out, f.raw...)
	}
	if graphs != 1 {
		return nil, 0, fmt.Errorf("int8 compute: the model has %d graphs, want 1", graphs)
	}
	if rewritten == 0 {
		return nil, 0, errors.New("int8 compute: no MatMul(X, Mul(Cast(int8 weight), scale)) to rewrite: the model does not store int8 weights that way")
	}
	if !hasMS {
		var op []byte
		op = protowire.AppendTag(op, opsetDomainField, protowire.BytesType)
		op = protowire.AppendString(op, msDomain)
		op = protowire.AppendTag(op, opsetVersionField, protowire.VarintType)
		op = protowire.AppendVarint(op, 1)
		out = protowire.AppendTag(out, modelOpsetImport, protowire.BytesType)
		out = protowire.AppendBytes(out, op)
	}
	return out, rewritten, nil
}

// onnx.proto field numbers used here.
const (
	modelOpsetImport  = 8 // ModelProto.opset_import
	modelGraph        = 7 // ModelProto.graph
	opsetDomainField  = 1 // OperatorSetIdProto.domain
	opsetVersionField = 2 // OperatorSetIdProto.version
	graphNode         = 1 // GraphProto.node
	graphInitializer  = 5 // GraphProto.initializer
	nodeInput         = 1 // NodeProto.input
	nodeOutput        = 2 // NodeProto.output
	nodeName          = 3 // NodeProto.name
	nodeOpType        = 4 // NodeProto.op_type
	nodeDomain        = 7 // NodeProto.domain
	tensorDims        = 1 // TensorProto.dims
	tensorDataType    = 2 // TensorProto.data_type
	tensorName        = 8 // TensorProto.name
	tensorInt8        = 3 // TensorProto.DataType INT8
	msDomain          = "com.microsoft"
)

// wireField is one field of a message: its number, wire type, value (the
// payload of a length-delimited field) and its bytes as encoded, tag
// included, for copying unchanged.
type wireField struct {
	num protowire.Number
	typ protowire.Type
	val []byte
	raw []byte
}

func wireFields(b []byte) ([]wireField, error) {
	var out []wireField
	for len(b) > 0 {
		num, typ, n := protowire.ConsumeTag(b)
		if n < 0 {
			return nil, protowire.ParseError(n)
		}
		m := protowire.ConsumeFieldValue(num, typ, b[n:])
		if m < 0 {
			return nil, protowire.ParseError(m)
		}
		f := wireField{num: num, typ: typ, raw: b[:n+m]}
		if typ == protowire.BytesType {
			f.val, _ = protowire.ConsumeBytes(b[n:])
		}
		out = append(out, f)
		b = b[n+m:]
	}
	return out, nil
}

func opsetDomain(b []byte) (string, error) {
	fs, err := wireFields(b)
	if err != nil {
		return "", err
	}
	for _, f := range fs {
		if f.num == opsetDomainField && f.typ == protowire.BytesType {
			return string(f.val), nil
		}
	}
	return "", nil
}

// onnxNode is what the rewrite reads of a NodeProto.
type onnxNode struct {
	inputs, outputs []string
	name, op        string
	dead            bool
}

// onnxTensor is what the rewrite reads of an initializer.
type onnxTensor struct {
	dims     []int64
	dataType uint64
}

func readNode(b []byte) (onnxNode, error) {
	fs, err := wireFields(b)
	if err != nil {
		return onnxNode{}, err
	}
	var n onnxNode
	for _, f := range fs {
		if f.typ != protowire.BytesType {
			continue
		}
		switch f.num {
		case nodeInput:
			n.inputs = append(n.inputs, string(f.val))
		case nodeOutput:
			n.outputs = append(n.outputs, string(f.val))
		case nodeName:
			n.name = string(f.val)
		case nodeOpType:
			n.op = string(f.val)
		}
	}
	return n, nil
}

func readTensor(b []byte) (string, onnxTensor, error) {
	fs, err := wireFields(b)
	if err != nil {
		return "", onnxTensor{}, err
	}
	var name string
	var t onnxTensor
	for _, f := range fs {
		switch {
		case f.num == tensorName && f.typ == protowire.BytesType:
			name = string(f.val)
		case f.num == tensorDataType && f.typ == protowire.VarintType:
			t.dataType, _ = protowire.ConsumeVarint(f.raw[protowire.SizeTag(f.num):])
		case f.num == tensorDims && f.typ == protowire.VarintType:
			v, _ := protowire.ConsumeVarint(f.raw[protowire.SizeTag(f.num):])
			t.dims = append(t.dims, int64(v))
		case f.num == tensorDims && f.typ == protowire.BytesType: // packed
			for p := f.val; len(p) > 0; {
				v, n := protowire.ConsumeVarint(p)
				if n < 0 {
					return "", onnxTensor{}, protowire.ParseError(n)
				}
				t.dims = append(t.dims, int64(v))
				p = p[n:]
			}
		}
	}
	return name, t, nil
}

// int8Graph rewrites one GraphProto (see Int8Compute).
func int8Graph(b []byte) ([]byte, int, error) {
	fs, err := wireFields(b)
	if err != nil {
		return nil, 0, err
	}
	// nodeAt and initAt name what each field of fs holds, for the copy below.
	nodeAt, initAt := map[int]*onnxNode{}, map[int]string{}
	var nodes []*onnxNode
	init := map[string]onnxTensor{}
	for i, f := range fs {
		switch {
		case f.num == graphNode && f.typ == protowire.BytesType:
			n, err := readNode(f.val)
			if err != nil {
				return nil, 0, fmt.Errorf("node: %w", err)
			}
			nodes = append(nodes, &n)
			nodeAt[i] = &n
		case f.num == graphInitializer && f.typ == protowire.BytesType:
			name, t, err := readTensor(f.val)
			if err != nil {
				return nil, 0, fmt.Errorf("initializer: %w", err)
			}
			init[name] = t
			initAt[i] = name
		}
	}
	reshape := map[string][]int64{} // scales read as [N] instead of [1, N]
	producer := map[string]*onnxNode{}
	uses := map[string]int{}
	for _, n := range nodes {
		for _, o := range n.outputs {
			producer[o] = n
		}
		for _, in := range n.inputs {
			uses[in]++
		}
	}
	replaced := map[*onnxNode][]byte{}
	for _, n := range nodes {
		if n.op != "MatMul" || len(n.inputs) != 2 {
			continue
		}
		if p := producer[n.inputs[0]]; p != nil && p.op == "LayerNormalization" {
			continue // outlier channels: see Int8Compute
		}
		mul := producer[n.inputs[1]]
		if mul == nil || mul.op != "Mul" || len(mul.inputs) != 2 || uses[n.inputs[1]] != 1 {
			continue
		}
		var cast *onnxNode
		scale := ""
		for _, in := range mul.inputs {
			if p := producer[in]; p != nil && p.op == "Cast" && uses[in] == 1 {
				cast = p
			} else if _, ok := init[in]; ok {
				scale = in
			}
		}
		if cast == nil || scale == "" || len(cast.inputs) != 1 {
			continue
		}
		w, ok := init[cast.inputs[0]]
		if !ok || w.dataType != tensorInt8 || len(w.dims) != 2 {
			continue
		}
		// The kernel takes one scale per output column (or one for all):
		// the scale must hold exactly the weight's column count, in
		// whatever shape ([N] or [1, N]) the Mul broadcast it.
		sc := init[scale]
		if count := product(sc.dims); count != w.dims[1] && count != 1 {
			continue
		}
		if len(sc.dims) > 1 {
			// A [1, N] scale is read as [N]: the same floats, another
			// shape. Only when the Mul was its only reader.
			if uses[scale] != 1 {
				continue
			}
			reshape[scale] = []int64{product(sc.dims)}
		}
		replaced[n] = dqMatMulNode(n, cast.inputs[0], scale)
		mul.dead, cast.dead = true, true
	}
	var out []byte
	for i, f := range fs {
		if n := nodeAt[i]; n != nil && n.dead {
			continue
		} else if r, ok := replaced[n]; n != nil && ok {
			out = append(out, r...)
			continue
		}
		if dims, ok := reshape[initAt[i]]; ok {
			out = append(out, reshaped(f.val, dims)...)
			continue
		}
		out = append(out, f.raw...)
	}
	return out, len(replaced), nil
}

func product(dims []int64) int64 {
	p := int64(1)
	for _, d := range dims {
		p *= d
	}
	return p
}

// dqMatMulNode encodes DynamicQuantizeMatMul(X, W, scale) with the MatMul's
// name and outputs, as a GraphProto.node field.
func dqMatMulNode(n *onnxNode, weight, scale string) []byte {
	var b []byte
	for _, in := range []string{n.inputs[0], weight, scale} {
		b = protowire.AppendTag(b, nodeInput, protowire.BytesType)
		b = protowire.AppendString(b, in)
	}
	for _, o := range n.outputs {
		b = protowire.AppendTag(b, nodeOutput, protowire.BytesType)
		b = protowire.AppendString(b, o)
	}
	b = protowire.AppendTag(b, nodeName, protowire.BytesType)
	b = protowire.AppendString(b, n.name)
	b = protowire.AppendTag(b, nodeOpType, protowire.BytesType)
	b = protowire.AppendString(b, "DynamicQuantizeMatMul")
	b = protowire.AppendTag(b, nodeDomain, protowire.BytesType)
	b = protowire.AppendString(b, msDomain)
	var f []byte
	f = protowire.AppendTag(f, graphNode, protowire.BytesType)
	return protowire.AppendBytes(f, b)
}

// reshaped re-encodes a TensorProto with other dims, every other field as
// it was, as a GraphProto.initializer field.
func reshaped(tensor []byte, dims []int64) []byte {
	fs, _ := wireFields(tensor)
	var b []byte
	for _, d := range dims {
		b = protowire.AppendTag(b, tensorDims, protowire.VarintType)
		b = protowire.AppendVarint(b, uint64(d))
	}
	for _, f := range fs {
		if f.num != tensorDims {
			b = append(b, f.raw...)
		}
	}
	var out []byte
	out = protowire.AppendTag(out, graphInitializer, protowire.BytesType)
	return protowire.AppendBytes(out, b)
}
