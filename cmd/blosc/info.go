package main

import (
	"encoding/json"
	"fmt"
	"io"
	"reflect"
	"strings"

	"github.com/goblosc/blosc"
)

func runInfo(args []string, stdin io.Reader, stdout io.Writer) error {
	fs := newFlagSet("info")
	asJSON := fs.Bool("json", false, "print the header (for a Bloscpack file also its metadata and chunks) as JSON")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return usagef("want IN, got %d arguments", fs.NArg())
	}
	if isDir(fs.Arg(0)) {
		s, err := blosc.OpenSparseFrame(fs.Arg(0))
		if err != nil {
			return err
		}
		defer s.Close()
		if err := s.RLock(); err != nil {
			return err
		}
		defer s.RUnlock()
		return printSChunkInfo(stdout, fs.Arg(0), 0, "sframe", s, *asJSON)
	}
	if s, f, ok, err := openFrameFileLazily(fs.Arg(0)); ok {
		if err != nil {
			return err
		}
		defer f.Close()
		defer s.Close()
		if err := s.RLock(); err != nil {
			return err
		}
		defer s.RUnlock()
		st, _ := f.Stat()
		return printSChunkInfo(stdout, fs.Arg(0), int(st.Size()), formatFrame, s, *asJSON)
	}
	head, in, closeIn, err := sniff(fs.Arg(0), stdin)
	if err != nil {
		return err
	}
	defer closeIn()
	if isBloscpack(head) {
		return infoBloscpack(fs.Arg(0), in, stdout, *asJSON)
	}
	src, err := io.ReadAll(in)
	if err != nil {
		return err
	}
	switch detect(src) {
	case kindFrame:
		return printFrameInfo(stdout, fs.Arg(0), src, *asJSON)
	case kindBloscpack:
		return fmt.Errorf("%w: info does not read Bloscpack files yet", blosc.ErrUnsupported)
	}
	h, err := blosc.ReadHeader(src)
	if err != nil {
		return err
	}
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(struct {
			File   string `json:"file"`
			Size   int    `json:"size"`
			Kernel string `json:"kernel"`
			blosc.Header
		}{fs.Arg(0), len(src), blosc.Kernel(), h})
	}
	fmt.Fprintf(stdout, "%-14s %s\n", "file", fs.Arg(0))
	fmt.Fprintf(stdout, "%-14s %d\n", "size", len(src))
	printFields(stdout, reflect.ValueOf(h))
	fmt.Fprintf(stdout, "%-14s %s\n", "kernel", blosc.Kernel())
	return nil
}

// printFields prints every exported field of a header struct, one a line,
// so info shows whatever the header type grows to hold.
func printFields(w io.Writer, v reflect.Value) {
	t := v.Type()
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		if !f.IsExported() {
			continue
		}
		fv := v.Field(i)
		if f.Anonymous && fv.Kind() == reflect.Struct {
			printFields(w, fv)
			continue
		}
		name := lowerFirst(f.Name)
		if tag, _, _ := strings.Cut(f.Tag.Get("json"), ","); tag != "" && tag != "-" {
			name = tag // the same names as -json prints
		}
		val := fv.Interface()
		switch {
		case strings.Contains(strings.ToLower(f.Name), "flags") && fv.Kind() == reflect.Uint8:
			val = fmt.Sprintf("0x%02x", fv.Uint())
		default:
			if s, ok := val.(fmt.Stringer); ok {
				val = s.String()
			}
		}
		fmt.Fprintf(w, "%-14s %v\n", name, val)
	}
}

func lowerFirst(s string) string {
	if s == "" {
		return s
	}
	b := []byte(s)
	if b[0] >= 'A' && b[0] <= 'Z' {
		b[0] += 'a' - 'A'
	}
	return string(b)
}
