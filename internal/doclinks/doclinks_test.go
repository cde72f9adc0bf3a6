package doclinks

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode"
)

// root is the repository root, two directories up from this package.
const root = "../.."

// markdownFiles are the documents whose links are checked.
func markdownFiles(t *testing.T) []string {
	files := []string{filepath.Join(root, "README.md")}
	docs, err := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	if len(docs) == 0 {
		t.Fatal("no docs/*.md found")
	}
	return append(files, docs...)
}

var (
	linkRE    = regexp.MustCompile(`\]\(([^)\s]+)\)`)
	headingRE = regexp.MustCompile("(?m)^#{1,6} +(.+)$")
	fenceRE   = regexp.MustCompile("(?ms)^```.*?^```")
)

// anchors returns the GitHub anchors of a markdown file's headings.
func anchors(text string) map[string]bool {
	text = fenceRE.ReplaceAllString(text, "")
	m := map[string]bool{}
	for _, h := range headingRE.FindAllStringSubmatch(text, -1) {
		m[slug(h[1])] = true
	}
	return m
}

// slug is GitHub's heading anchor: lower case, spaces to hyphens, every
// other character but letters, digits, hyphens and underscores dropped.
func slug(heading string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(strings.TrimSpace(heading)) {
		switch {
		case r == ' ':
			b.WriteByte('-')
		case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
			b.WriteRune(r)
		}
	}
	return b.String()
}

func TestSlug(t *testing.T) {
	for h, want := range map[string]string{
		"Contiguous frame (`.b2frame`)":               "contiguous-frame-b2frame",
		"Corrupt input, as the C libraries handle it": "corrupt-input-as-the-c-libraries-handle-it",
		"Streams: FrameWriter and FrameReader":        "streams-framewriter-and-framereader",
		"The harness: `go run ./bench run`":           "the-harness-go-run-bench-run",
	} {
		if got := slug(h); got != want {
			t.Errorf("slug(%q) = %q, want %q", h, got, want)
		}
	}
}

func TestMarkdownLinks(t *testing.T) {
	files := markdownFiles(t)
	texts := map[string]string{}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		texts[filepath.Clean(f)] = string(b)
	}
	checked := 0
	for _, f := range files {
		text := fenceRE.ReplaceAllString(texts[filepath.Clean(f)], "")
		for _, m := range linkRE.FindAllStringSubmatch(text, -1) {
			link := m[1]
			if strings.Contains(link, "://") || strings.HasPrefix(link, "mailto:") {
				continue
			}
			checked++
			path, frag, _ := strings.Cut(link, "#")
			target := filepath.Clean(f)
			if path != "" {
				target = filepath.Clean(filepath.Join(filepath.Dir(f), path))
				if _, err := os.Stat(target); err != nil {
					t.Errorf("%s: link %q: %v", f, link, err)
					continue
				}
			}
			if frag == "" {
				continue
			}
			body, ok := texts[target]
			if !ok {
				b, err := os.ReadFile(target)
				if err != nil {
					t.Errorf("%s: link %q: %v", f, link, err)
					continue
				}
				body = string(b)
			}
			if !anchors(body)[frag] {
				t.Errorf("%s: link %q: no heading with anchor %q in %s", f, link, frag, target)
			}
		}
	}
	if checked == 0 {
		t.Error("no relative links found: the pattern no longer matches")
	}
}

// TestGoCommentsCiteExistingDocs: a comment that sends the reader to
// a note in docs/ (optionally with an #anchor) must name a file and a
// heading that exist.
func TestGoCommentsCiteExistingDocs(t *testing.T) {
	cite := regexp.MustCompile(`docs/([A-Za-z0-9_-]+\.md)(#[A-Za-z0-9_-]+)?`)
	found := 0
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == ".git" || d.Name() == "testdata") {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for _, m := range cite.FindAllStringSubmatch(string(b), -1) {
			found++
			doc := filepath.Join(root, "docs", m[1])
			body, err := os.ReadFile(doc)
			if err != nil {
				t.Errorf("%s cites %s: %v", path, m[0], err)
				continue
			}
			if m[2] != "" && !anchors(string(body))[m[2][1:]] {
				t.Errorf("%s cites %s: no such heading", path, m[0])
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if found == 0 {
		t.Error("no Go file cites docs/: the pattern no longer matches")
	}
}
