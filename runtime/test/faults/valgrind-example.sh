#!/bin/sh
#===- valgrind-example.sh - memcheck one end-to-end run of an example ----===#
#
# usage: valgrind-example.sh SUMMA_COMPILE EXAMPLE.mlir WORKDIR [q,q,d]
#
# Compiles EXAMPLE.mlir for the grid (default 1,1,1), runs it on q*q*d ranks
# with --check under valgrind memcheck (Open MPI's suppressions when
# installed), and sorts every error and definite leak by where it comes
# from: the first stack frame that is not an allocator or libc is in summa's
# code (the generated model, its main, libsumma_runtime) or elsewhere (Open
# MPI, OpenBLAS, libc). Fails if memcheck reports any error or definite leak
# in summa's code, or the run fails.
#
# Valgrind 3.19 does not decode AVX-512, which summa-compile emits for the
# host CPU: the model is re-emitted as LLVM IR, compiled with llc for
# x86-64-v2 and linked with the same generated main, and OpenBLAS is held to
# its Haswell (AVX2) kernels.
#
#===----------------------------------------------------------------------===#

set -u
[ $# -ge 3 ] || {
  echo "usage: valgrind-example.sh SUMMA_COMPILE EXAMPLE.mlir WORKDIR [q,q,d]" >&2
  exit 2
}
compiler=$1 input=$2 work=$3 grid=${4:-1,1,1}
llvm_bin=${LLVM_BIN:-/usr/lib/llvm-22/bin}
supp=/usr/share/openmpi/openmpi-valgrind.supp
fail() { echo "valgrind-example.sh: FAILED: $*"; exit 1; }
command -v valgrind >/dev/null || fail "valgrind is not installed"

rm -rf "$work" && mkdir -p "$work" || exit 1
name=$(basename "$input" .mlir)
q=${grid%%,*} d=${grid##*,}
ranks=$((q * q * d))

# The generated main (kept), the model as LLVM IR, then an object for a CPU
# valgrind decodes.
"$compiler" "$input" --grid="$grid" -o "$work/$name.native" --keep-temps \
  >"$work/compile.log" 2>&1 || { cat "$work/compile.log"; fail "summa-compile"; }
main=$(sed -n 's/^summa-compile: kept \([^ ]*\.cpp\) and \([^ ]*\)$/\1/p' "$work/compile.log")
object=$(sed -n 's/^summa-compile: kept \([^ ]*\.cpp\) and \([^ ]*\)$/\2/p' "$work/compile.log")
[ -f "$main" ] || { cat "$work/compile.log"; fail "no kept main in the summa-compile output"; }
mv "$main" "$work/main.cpp" && rm -f "$object"
"$compiler" "$input" --grid="$grid" --emit=llvm -o "$work/$name.ll" || fail "summa-compile --emit=llvm"
"$llvm_bin/llc" -O2 -mcpu=x86-64-v2 -relocation-model=pic -filetype=obj \
  "$work/$name.ll" -o "$work/$name.o" || fail "llc"
runtime=$(ldd "$work/$name.native" | sed -n 's/.*libsumma_runtime.so => \([^ ]*\) .*/\1/p')
[ -f "$runtime" ] || fail "cannot find libsumma_runtime.so of $work/$name.native"
include=$(dirname "$(dirname "$(dirname "$0")")")/include
${SUMMA_CXX:-c++} -O1 -g -std=c++17 -I"$include" "$work/main.cpp" "$work/$name.o" \
  "$runtime" -Wl,-rpath,"$(dirname "$runtime")" -lm -o "$work/$name" || fail "link"

suppressions=
[ -f "$supp" ] && suppressions="--suppressions=$supp"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_rmaps_base_oversubscribe=1
echo "valgrind-example.sh: $name on [$grid] ($ranks ranks) under memcheck"
mpirun --oversubscribe -np "$ranks" -x OPENBLAS_CORETYPE=Haswell \
  valgrind --leak-check=full --show-leak-kinds=definite \
  --errors-for-leak-kinds=definite --track-origins=yes --num-callers=40 \
  $suppressions --log-file="$work/memcheck.%p.log" \
  "$work/$name" --check --iters 1 >"$work/run.log" 2>&1
rc=$?
cat "$work/run.log"
[ "$rc" -eq 0 ] || fail "the run exited with status $rc"

python3 - "$(cd "$work" && pwd)" "$work"/memcheck.*.log <<'EOF'
import re, sys
workdir = sys.argv[1]
summa = re.compile(r"libsumma_runtime|summaRt|summa::|main\.cpp|_mlir_ciface|"
                   r"__spmd|__reference")
wrapper = re.compile(r"malloc|calloc|realloc|strdup|strndup|operator new|"
                     r"memalign|aligned_alloc|vgpreload|libc\.so|strdup\.c|"
                     r"asprintf|vasprintf")
kinds = re.compile(r"definitely lost|Invalid|uninitialised|Conditional jump|"
                   r"Syscall param|Mismatched|overlap|Source and destination")
ours = other = 0
for path in sys.argv[2:]:
    text = open(path).read()
    pid = re.search(r"==(\d+)==", text).group(1)
    block = []
    for line in text.splitlines() + [""]:
        body = line[len(pid) + 4:] if line.startswith("==%s==" % pid) else None
        if body is not None and body.strip():
            block.append(body)
            continue
        if block and kinds.search(block[0]):
            frames = [f for f in block[1:] if re.match(r"\s+(at|by) 0x", f)]
            first = next((f for f in frames if not wrapper.search(f)), "")
            # summa's code: the runtime, the generated main and model (the
            # binary in the work directory).
            mine = bool(summa.search(first)) or workdir in first
            if mine:
                ours += 1
                print("summa:", block[0].strip())
                for f in frames[:12]:
                    print("   ", f.strip())
            else:
                other += 1
        block = []
print("valgrind-example.sh: %d errors/definite leaks in summa's code, "
      "%d elsewhere (Open MPI, libc, ...)" % (ours, other))
sys.exit(1 if ours else 0)
EOF
