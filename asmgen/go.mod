module github.com/goblosc/blosc/asmgen

go 1.26.0

require github.com/mmcloughlin/avo v0.5.0 // indirect
