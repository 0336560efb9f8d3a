// Found with the fuzz target (UBSan), with 003-grid-too-many-ranks: a
// summa.grid in the IR with more ranks than int64_t (or MPI) can count
// verified, and every product of its sizes overflowed.
//
// RUN: summa-opt %s -split-input-file -verify-diagnostics

// expected-error @+1 {{'summa.grid' op grid [3037000500, 3037000500, 2] has more than 2147483647 ranks (the most MPI can address)}}
summa.grid @g shape = [3037000500, 3037000500, 2]

// -----

// expected-error @+1 {{'summa.grid' op grid [2, 2, 9223372036854775807] has more than 2147483647 ranks (the most MPI can address)}}
summa.grid @g shape = [2, 2, 9223372036854775807]

// -----

// The largest square grid MPI can address is fine.
summa.grid @g shape = [46340, 46340, 1]
