import shutil, os, sys
src, dst = sys.argv[1], sys.argv[2]
if os.path.exists(dst): shutil.rmtree(dst)
shutil.copytree(src, dst)
w = os.path.join(dst, 'src/graph/build/worker.js')
s = open(w).read()
s = s.replace("reply = { ok: handle(m) };", "const t0 = performance.now(); reply = { ok: handle(m) }; reply.ms = performance.now() - t0;")
open(w, 'w').write(s)
t = os.path.join(dst, 'src/graph/build/team.js')
s = open(t).read()
s = s.replace("""        let result;
        let error;
        try {
            result = mine();
        }""", """        let result;
        let error;
        const T0 = performance.now(); const gap = T0 - (globalThis.__lastEnd ?? T0); let mineMs = 0; const hms = [];
        try {
            result = mine();
            mineMs = performance.now() - T0;
        }""")
s = s.replace("""            if (reply.error !== undefined)
                error ??= new Error(`graph build helper thread: ${reply.error}`);
            return reply.ok;
        });""", """            if (reply.error !== undefined)
                error ??= new Error(`graph build helper thread: ${reply.error}`);
            hms.push(reply.ms ?? 0);
            return reply.ok;
        });
        { const end = performance.now(); globalThis.__lastEnd = end; hms.sort((a, b) => a - b); const k = tasks[0]?.kind + (tasks[0]?.s?.step ? ':' + tasks[0].s.step : ''); process.stderr.write(JSON.stringify({ k, gap: +gap.toFixed(1), wall: +(end - T0).toFixed(1), mine: +mineMs.toFixed(1), min: +(hms[0] ?? 0).toFixed(1), med: +(hms[hms.length >> 1] ?? 0).toFixed(1), max: +(hms[hms.length - 1] ?? 0).toFixed(1) }) + '\\n'); }""")
open(t, 'w').write(s)
b = os.path.join(dst, 'src/graph/build.js')
s = open(b).read()
s = s.replace("const set = layoutPages('in', inDegree, pageEdges, wt, false);", "const T9 = performance.now(); const set = layoutPages('in', inDegree, pageEdges, wt, false); process.stderr.write(JSON.stringify({ k: 'layoutPages-in', ms: +(performance.now() - T9).toFixed(1) }) + '\\n');")
s = s.replace("const plan = planPages(layoutDeg, pageEdges, false);", "const T8 = performance.now(); const plan = planPages(layoutDeg, pageEdges, false); process.stderr.write(JSON.stringify({ k: 'planPages-out', ms: +(performance.now() - T8).toFixed(1) }) + '\\n');")
open(b, 'w').write(s)
tp = os.path.join(dst, 'src/graph/build/transpose.js')
s = open(tp).read()
s = s.replace("const { blockOf, blocks } = planBlocks(inDegree, m.groupBits, m.blocks);", "const T7 = performance.now(); const { blockOf, blocks } = planBlocks(inDegree, m.groupBits, m.blocks); process.stderr.write(JSON.stringify({ k: 'planBlocks', ms: +(performance.now() - T7).toFixed(1) }) + '\\n');")
open(tp, 'w').write(s)
t = os.path.join(dst, 'src/graph/build/team.js')
s = open(t).read()
s = s.replace("hms.sort((a, b) => a - b);", "const order = hms.map((x) => Math.round(x)); hms.sort((a, b) => a - b);")
s = s.replace("max: +(hms[hms.length - 1] ?? 0).toFixed(1) })", "max: +(hms[hms.length - 1] ?? 0).toFixed(1), order })")
open(t, 'w').write(s)
