module github.com/ndb-project/ndb

go 1.26.8

require (
	github.com/google/go-dap v0.12.0 // indirect
	github.com/mattn/go-colorable v0.1.14 // indirect
	github.com/mattn/go-isatty v0.0.20 // indirect
	github.com/rs/zerolog v1.35.1 // indirect
	github.com/sourcegraph/jsonrpc2 v0.2.3 // indirect
	github.com/sugarme/gotch v0.8.0
	golang.org/x/sys v0.29.0 // indirect
)
