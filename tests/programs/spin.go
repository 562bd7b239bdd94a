// spin records a CPU profile and a heap profile of itself with
// runtime/pprof, for the round trip through go tool pprof -callgrind:
// main calls work, which calls hash and grow.
package main

import (
	"os"
	"runtime/pprof"
	"time"
)

var sink [][]byte

func hash(n int) uint64 {
	h := uint64(14695981039346656037)
	for i := 0; i < n; i++ {
		h ^= uint64(i)
		h *= 1099511628211
	}
	return h
}

func grow(n int) {
	sink = append(sink, make([]byte, n))
	if len(sink) > 64 {
		sink = sink[1:]
	}
}

func work(until time.Time) uint64 {
	var h uint64
	for time.Now().Before(until) {
		h += hash(20000)
		grow(4096)
	}
	return h
}

func main() {
	cpu, err := os.Create(os.Args[1])
	if err != nil {
		panic(err)
	}
	pprof.StartCPUProfile(cpu)
	h := work(time.Now().Add(800 * time.Millisecond))
	pprof.StopCPUProfile()
	cpu.Close()
	heap, err := os.Create(os.Args[2])
	if err != nil {
		panic(err)
	}
	pprof.WriteHeapProfile(heap)
	heap.Close()
	if h == 42 {
		println(h)
	}
}
