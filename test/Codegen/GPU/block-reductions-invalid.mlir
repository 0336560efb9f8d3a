// RUN: summa-opt %s -summa-block-reductions=block-size=0 -verify-diagnostics

// expected-error @below {{summa-block-reductions: block-size must be in [1, 1024], got 0}}
module {
}
