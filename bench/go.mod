module github.com/goblosc/blosc/bench

go 1.26.0

require github.com/goblosc/blosc v0.0.0

replace github.com/goblosc/blosc => ../
