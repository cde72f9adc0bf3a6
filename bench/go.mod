module github.com/goblosc/blosc/bench

go 1.26.0

require (
	github.com/goblosc/blosc v0.0.0
	github.com/klauspost/compress v1.20.3
	github.com/klauspost/cpuid/v2 v2.4.2
	github.com/pierrec/lz4/v4 v4.1.33
)

require golang.org/x/sys v0.49.0 // indirect

replace github.com/goblosc/blosc => ../
