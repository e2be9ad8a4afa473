module github.com/songc/songc

go 1.26.8

require gonum.org/v1/gonum v0.17.0

require github.com/alecthomas/kong v1.17.0

require github.com/dave/jennifer v1.7.1
