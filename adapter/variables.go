package adapter

import (
	"strconv"
	"strings"

	"github.com/google/go-dap"

	"github.com/ndb-project/ndb/grammar"
)

// onVariables lists a scope's variables or a value's elements. Lists, tuples, dicts,
// sets and keyword objects (Point(x=1, y=2)) are expandable: their reprs are parsed
// (grammar.ParseRepr), nothing is run. A truncated repr (ending in "...") is a leaf.
func (c *conn) onVariables(req *dap.VariablesRequest) (dap.ResponseMessage, error) {
	if _, err := c.session(req.Command, true); err != nil {
		return nil, err
	}
	args := req.Arguments
	c.mu.Lock()
	defer c.mu.Unlock()
	ref, ok := c.vars.get(args.VariablesReference)
	if !ok {
		return nil, errorf(ErrUnknownReference, "unknown variables reference %d (references are reset at every stop)", args.VariablesReference)
	}
	var vars []dap.Variable
	if ref.scope != nil {
		if args.Filter != "indexed" {
			for _, v := range ref.scope.values {
				path := v.name
				if ref.scope.noPaths {
					path = ""
				}
				dv := c.variable(v.name, v.repr, path)
				if v.hasConf {
					dv.Type = typeWithConfidence(dv.Type, v.conf)
				}
				vars = append(vars, dv)
			}
		}
	} else {
		vars = c.elements(ref.node, ref.path, args.Filter)
	}
	start := min(max(args.Start, 0), len(vars))
	end := len(vars)
	if args.Count > 0 && start+args.Count < end {
		end = start + args.Count
	}
	vars = vars[start:end]
	if vars == nil {
		vars = []dap.Variable{}
	}
	return &dap.VariablesResponse{Response: newResponse(&req.Request), Body: dap.VariablesResponseBody{Variables: vars}}, nil
}

// elements lists the items of an expandable value (c.mu held).
func (c *conn) elements(n *grammar.ReprNode, path, filter string) []dap.Variable {
	indexed := n.Kind == grammar.ReprList || n.Kind == grammar.ReprTuple || n.Kind == grammar.ReprSet
	if filter == "indexed" && !indexed || filter == "named" && indexed {
		return nil
	}
	vars := make([]dap.Variable, 0, len(n.Items))
	for i, it := range n.Items {
		name, sub := strconv.Itoa(i), ""
		switch n.Kind {
		case grammar.ReprList, grammar.ReprTuple:
			sub = path + "[" + name + "]"
		case grammar.ReprDict:
			name, sub = it.Key, path+"["+it.Key+"]"
		case grammar.ReprObject:
			name, sub = it.Key, path+"."+it.Key
		}
		if path == "" || n.Kind == grammar.ReprSet {
			sub = ""
		}
		vars = append(vars, c.variableNode(name, it.Value, sub))
	}
	return vars
}

// variable describes one named repr; an expandable value gets a variables reference
// (c.mu held).
func (c *conn) variable(name, repr, path string) dap.Variable {
	return c.variableNode(name, grammar.ParseRepr(repr), path)
}

func (c *conn) variableNode(name string, n *grammar.ReprNode, path string) dap.Variable {
	v := dap.Variable{Name: name, Value: n.Text, Type: typeOf(n), EvaluateName: path}
	if n.Expandable() {
		v.VariablesReference = c.vars.create(varRef{node: n, path: path})
		switch n.Kind {
		case grammar.ReprList, grammar.ReprTuple, grammar.ReprSet:
			v.IndexedVariables = len(n.Items)
		default:
			v.NamedVariables = len(n.Items)
		}
	}
	return v
}

// typeOf guesses a Python type name from a repr; "" when it cannot tell.
func typeOf(n *grammar.ReprNode) string {
	switch n.Kind {
	case grammar.ReprList:
		return "list"
	case grammar.ReprTuple:
		return "tuple"
	case grammar.ReprDict:
		return "dict"
	case grammar.ReprSet:
		if n.Type != "" {
			return n.Type
		}
		return "set"
	case grammar.ReprObject:
		return n.Type
	}
	t := n.Text
	switch {
	case t == "None":
		return "NoneType"
	case t == "True" || t == "False":
		return "bool"
	case strings.HasPrefix(t, "b'") || strings.HasPrefix(t, `b"`):
		return "bytes"
	}
	if _, ok := grammar.PyStringValue(t); ok {
		return "str"
	}
	if _, err := strconv.ParseInt(t, 10, 64); err == nil {
		return "int"
	}
	if _, err := strconv.ParseFloat(t, 64); err == nil || t == "inf" || t == "nan" {
		return "float"
	}
	if name, _, ok := strings.Cut(t, "("); ok && isIdent(name) {
		return name
	}
	return ""
}

func isIdent(s string) bool {
	if s == "" {
		return false
	}
	for i, r := range s {
		if r != '_' && r != '.' && !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || i > 0 && r >= '0' && r <= '9') {
			return false
		}
	}
	return true
}

// onSetVariable changes a local of the current state. Only backends that condition
// later outcomes on the edit (the neural one) accept it; the recorded backend
// replays a real execution and refuses.
func (c *conn) onSetVariable(req *dap.SetVariableRequest) (dap.ResponseMessage, error) {
	l, err := c.session(req.Command, true)
	if err != nil {
		return nil, err
	}
	args := req.Arguments
	c.mu.Lock()
	ref, ok := c.vars.get(args.VariablesReference)
	c.mu.Unlock()
	if !ok {
		return nil, errorf(ErrUnknownReference, "unknown variables reference %d (references are reset at every stop)", args.VariablesReference)
	}
	if ref.scope == nil || !ref.scope.settable {
		return nil, errorf(ErrSetVariable, "setVariable: only a local of the current state can be set (not an element, a caller's local or a value)")
	}
	value := strings.TrimSpace(args.Value)
	if value == "" {
		return nil, errorf(ErrSetVariable, "setVariable: the new value is empty: write a Python literal, e.g. 3 or 'abc'")
	}
	_, err = l.sess.SetVariable(args.Name, value)
	if err != nil {
		return nil, errorf(ErrSetVariable, "setVariable: %v", err)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	for i := range ref.scope.values {
		if ref.scope.values[i].name == args.Name {
			ref.scope.values[i].repr = value
		}
	}
	v := c.variable(args.Name, value, args.Name)
	return &dap.SetVariableResponse{Response: newResponse(&req.Request), Body: dap.SetVariableResponseBody{
		Value: v.Value, Type: v.Type, VariablesReference: v.VariablesReference,
		IndexedVariables: v.IndexedVariables, NamedVariables: v.NamedVariables,
	}}, nil
}
