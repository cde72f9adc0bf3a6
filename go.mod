module github.com/goblosc/blosc

go 1.26.0

require (
	github.com/klauspost/compress v1.20.3
	github.com/klauspost/cpuid/v2 v2.4.2
	github.com/pierrec/lz4/v4 v4.1.33
)

require golang.org/x/sys v0.49.0
