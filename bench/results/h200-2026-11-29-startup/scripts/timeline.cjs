// node timeline.cjs DIR [MS]: the one .cpuprofile in DIR as a timeline, MS-millisecond buckets (default 20), each the four
// scripts or functions with the most samples in it (node_modules packages by name, dist files by path).
const fs=require("fs");const d=process.argv[2];const p=JSON.parse(fs.readFileSync(d+"/"+fs.readdirSync(d)[0]));
const idx=new Map(p.nodes.map(n=>[n.id,n]));
let t=0; const W=+(process.argv[3]||20); const buckets=[];
for(let i=0;i<p.samples.length;i++){t+=p.timeDeltas[i]/1000; const b=Math.floor(t/W); let n=idx.get(p.samples[i]); const u=n.callFrame.url; const m=u.match(/node_modules\/((@[^/]+\/)?[^/]+)/); const k=m?m[1]:(u.includes("/dist/")?u.split("/dist/")[1]:(n.callFrame.functionName||"?")); (buckets[b]??=new Map()).set(k,((buckets[b]??new Map()).get(k)||0)+p.timeDeltas[i]/1000);}
buckets.forEach((m,i)=>{ if(!m) return; console.log(i*W, [...m].sort((a,b)=>b[1]-a[1]).slice(0,5).map(x=>x[0]+":"+x[1].toFixed(0)).join("  "))});
console.log("end", t.toFixed(0));
