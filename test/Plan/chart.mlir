// summa-plan --chart: the table as before, and an SVG bar chart of the
// predicted time per strategy, split into GEMMs, local work and each
// collective kind (a rectangle each, its seconds in its tooltip), the best
// grid in bold; a strategy that cannot partition the model says why.
// examples/gpt.mlir on 64 ranks (table.mlir).
// RUN: summa-plan %summa_src/examples/gpt.mlir --ranks 64 --chart %t.svg | FileCheck %s --check-prefix=TABLE
// RUN: %python -c "import sys, xml.dom.minidom as m; d = m.parse(sys.argv[1]); print('svg:', d.documentElement.tagName, len(d.getElementsByTagName('rect')), 'rects')" %t.svg | FileCheck %s --check-prefix=XML
// RUN: FileCheck %s < %t.svg
// TABLE: * [2,2,16]   counted
// XML: svg: svg {{[0-9]+}} rects
// CHECK: <svg xmlns="http://www.w3.org/2000/svg" width="820" height="300"
// CHECK: predicted time per call of @gpt on 64 ranks</text>
// CHECK: 256 tokens, hidden 32, 2 layers, f32; H200 defaults (NVLink in nodes of 8, InfiniBand across)
// CHECK: >GEMM</text>
// CHECK: >local work</text>
// CHECK: >broadcast</text>
// CHECK: >reduce_scatter</text>
// CHECK: >0 ms</text>
// CHECK: text-anchor="end">[1,1,64]</text>
// CHECK-NEXT: <title>[1,1,64] GEMM: 
// CHECK: text-anchor="end" font-weight="bold">[2,2,16]</text>
// CHECK-NEXT: <title>[2,2,16] GEMM: {{.*}}<title>[2,2,16] broadcast: {{.*}}<title>[2,2,16] all_reduce:
// CHECK-NEXT: font-weight="bold">{{[0-9.]+}} us  best</text>
// CHECK: text-anchor="end">[4,4,4]</text>
// CHECK-NEXT: <title>[4,4,4] GEMM: {{.*}}<title>[4,4,4] broadcast:
// CHECK-NEXT: >{{[0-9.]+}} us</text>
// CHECK: text-anchor="end">1D</text>
// CHECK-NEXT: <title>1D GEMM: {{.*}}<title>1D all_reduce:
// CHECK: </svg>

// A row that cannot be planned says why: --describe's closed formulas
// leave out what does not divide evenly.
// RUN: summa-plan --describe layers=1,batch=4,seq=8,hidden=32,heads=4,ffn=128 --ranks 8 --chart %t.d8.svg
// RUN: FileCheck %s --check-prefix=WHY < %t.d8.svg
// WHY: text-anchor="end">1D</text>
// WHY-NEXT: cannot partition: heads 4 is not divisible by 8

// With --json too; a chart
// that cannot be written is an error.
// RUN: summa-plan %summa_src/examples/gpt.mlir --ranks 8 --json --chart %t.8.svg | %python -m json.tool > /dev/null
// RUN: FileCheck %s --check-prefix=EIGHT < %t.8.svg
// EIGHT: predicted time per call of @gpt on 8 ranks
// EIGHT: font-weight="bold">[1,1,8]</text>
// RUN: not summa-plan %summa_src/examples/gpt.mlir --ranks 8 --chart /dev/null/x.svg 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: summa-plan: error: cannot write --chart '/dev/null/x.svg': Not a directory
