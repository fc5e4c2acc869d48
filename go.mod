module github.com/graphmem/graphmem

go 1.26
