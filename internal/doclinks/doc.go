// Package doclinks holds only a test: it checks that the repository's
// documentation does not point at files or sections that do not exist
// (every relative link in README.md and docs/*.md, and every note in docs/
// that a Go comment cites).
package doclinks
