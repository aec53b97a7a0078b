/// The page's stylesheet and script, written for memprof (no third-party code).
enum HTMLAssets {
    /// The start of a memprof page up to `<body>`: no request leaves the page (`contentSecurityPolicy`),
    /// light and dark themes, the shared stylesheet inline.
    static func head(title: String, contentSecurityPolicy: String) -> String {
        """
        <!DOCTYPE html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <meta name="color-scheme" content="light dark">
        <meta http-equiv="Content-Security-Policy" content="\(contentSecurityPolicy)">
        <title>\(title.html)</title>
        <style>\(css)</style>
        </head>
        <body>

        """
    }

    static let css = """
    :root{--bg:#fff;--fg:#1d1f24;--muted:#5d636c;--line:#dde0e5;--card:#f4f5f7;--band:rgba(0,0,0,.028);
    --used:#15171a;--lim:#3b3f45;--warn:#c97d00;--crit:#cf2f27;--comp:#2f86b3;--sel:rgba(60,120,220,.16);
    --s-inactive:#f0b93a;--s-active:#35a853;--s-background:#8a63d2;--s-suspended:#a6acb5;--s-compressed:#39a1c9;
    --hd:#c2188b;--ok:#2e7d32;--bad:#c62828}
    @media (prefers-color-scheme:dark){:root{--bg:#14161a;--fg:#e5e7ea;--muted:#9aa1aa;--line:#2f333a;--card:#1d2025;
    --band:rgba(255,255,255,.035);--used:#f4f4f4;--lim:#c9ccd1;--warn:#f0a630;--crit:#ff5a4f;--comp:#5bb4e0;
    --sel:rgba(120,170,255,.2);--s-suspended:#6b717b;--hd:#f062b8;--bad:#ff6b60}}
    *{box-sizing:border-box}
    body{margin:0 auto;max-width:1500px;padding:16px 24px 40px;background:var(--bg);color:var(--fg);
    font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}
    h1{font-size:22px;margin:0 0 6px}h1 span{color:var(--muted);font-weight:500}
    h2{font-size:17px;margin:28px 0 8px;border-bottom:1px solid var(--line);padding-bottom:4px}
    dl.run{display:flex;flex-wrap:wrap;gap:4px 22px;margin:0}dl.run div{display:flex;gap:6px}
    dt{color:var(--muted)}dd{margin:0;font-weight:600}
    .cards{display:grid;grid-template-columns:repeat(auto-fill,minmax(170px,1fr));gap:10px;margin-top:16px}
    .card{background:var(--card);border-radius:8px;padding:10px 12px;border-left:4px solid transparent}
    .card h3{margin:0;font-size:12px;font-weight:600;color:var(--muted);text-transform:uppercase;letter-spacing:.03em}
    .card b{display:block;font-size:22px;margin:2px 0}.card small{color:var(--muted)}
    .card.warn{border-left-color:var(--warn)}.card.bad{border-left-color:var(--bad)}
    ul.findings{list-style:none;padding:0;margin:0;display:grid;gap:6px}ul.findings .card b{display:inline;font-size:inherit;margin:0 6px 0 0}
    .hint{color:var(--muted);margin:4px 0 8px}button{font:inherit;padding:2px 10px}
    #range{font-weight:600;color:var(--fg)}
    .chart-wrap{position:relative}svg.chart{display:block;width:100%}#mem{height:auto;user-select:none}
    .grid line{stroke:var(--line);stroke-width:1}.grid text,.panel{fill:var(--muted);font-size:11px}
    .ylab,.xlab{fill:var(--muted);font-size:11px}.ylab{text-anchor:end}.xlab{text-anchor:middle}
    .area{stroke:var(--bg);stroke-width:.4}.used{fill:none;stroke:var(--used);stroke-width:1.3}
    .comp{fill:var(--comp);fill-opacity:.55;stroke:var(--comp);stroke-width:1}
    line.lim{stroke:var(--lim);stroke-width:1.2}line.warnl{stroke:var(--warn);stroke-width:1.2;stroke-dasharray:6 4}
    line.crit{stroke:var(--crit);stroke-width:1.2;stroke-dasharray:6 4}
    .lvlab{font-size:11px;text-anchor:end;paint-order:stroke;stroke:var(--bg);stroke-width:3px}
    .lvlab.lim{fill:var(--lim)}.lvlab.warnl{fill:var(--warn)}.lvlab.crit{fill:var(--crit)}
    .p-warning{fill:var(--warn)}.p-critical{fill:var(--crit)}
    .marks line{stroke-width:1.6}.m-comp{stroke:var(--comp)}.m-evict{stroke:var(--crit)}.m-warn{stroke:var(--warn)}.m-kill{stroke:var(--fg)}
    #guide{stroke:var(--fg);stroke-width:1;stroke-dasharray:3 3;pointer-events:none}
    #sel,#lanesel{fill:var(--sel);pointer-events:none}#hit{fill:transparent;cursor:crosshair}
    .legend{list-style:none;padding:0;margin:8px 0 0;display:flex;flex-wrap:wrap;gap:4px 14px;font-size:12px;color:var(--muted)}
    .legend i{display:inline-block;width:12px;height:10px;margin-right:5px;border-radius:2px;vertical-align:-1px}
    .k-used{background:var(--used);height:2px!important}.k-comp{background:var(--comp)}.k-lim{background:var(--lim);height:2px!important}
    .k-warn{background:var(--warn);height:2px!important}.k-crit{background:var(--crit);height:2px!important}
    .k-m-comp{background:var(--comp);width:3px!important}.k-m-evict{background:var(--crit);width:3px!important}
    .k-m-warn{background:var(--warn);width:3px!important}.k-m-kill{background:var(--fg);width:3px!important}
    .k-hd{background:var(--hd);height:3px!important}.k-mk{width:3px!important}
    .lanes{display:grid;grid-template-columns:max-content 1fr;gap:0 8px}
    .lane-labels div{height:20px;line-height:20px;font-size:12px;white-space:nowrap;overflow:hidden;text-overflow:ellipsis;max-width:200px}
    .lane-plot{min-width:0}#lanesvg{width:100%}
    .band{fill:var(--band)}
    .s-inactive{fill:var(--s-inactive);background:var(--s-inactive)}.s-active{fill:var(--s-active);background:var(--s-active)}
    .s-background{fill:var(--s-background);background:var(--s-background)}.s-suspended{fill:var(--s-suspended);background:var(--s-suspended)}
    .s-compressed{fill:var(--s-compressed);background:var(--s-compressed)}.mixed{fill-opacity:.6}
    .hd{fill:var(--hd)}
    .mk{vector-effect:non-scaling-stroke;stroke-width:2}
    .mk-launch{stroke:var(--ok);background:var(--ok)}.mk-resume{stroke:var(--comp);background:var(--comp)}
    .mk-eviction{stroke:var(--crit);background:var(--crit)}.mk-kill{stroke:var(--fg);background:var(--fg)}
    .mk-quit{stroke:var(--muted);background:var(--muted)}.mk-compression{stroke:var(--s-compressed);background:var(--s-compressed)}
    .axis{position:relative;height:18px;font-size:11px;color:var(--muted);border-top:1px solid var(--line)}
    .axis span{position:absolute;transform:translateX(-50%);white-space:nowrap}
    .filters{display:flex;gap:14px;align-items:center;margin-bottom:6px;color:var(--muted)}
    select{font:inherit}
    .scroll{overflow:auto;max-height:560px;border:1px solid var(--line);border-radius:6px}
    table{border-collapse:collapse;width:100%;font-size:12.5px}
    th,td{padding:3px 8px;border-bottom:1px solid var(--line);text-align:left;vertical-align:top}
    th{position:sticky;top:0;background:var(--card);font-weight:600;white-space:nowrap}
    td.num,th.num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
    tr.omitted td{text-align:center;color:var(--muted);font-style:italic;background:var(--band)}
    .kind{font-weight:600}.k-eviction,.k-kill{color:var(--crit)}.k-memoryWarning{color:var(--warn)}.k-compression{color:var(--comp)}
    #htable td.over{color:var(--crit);font-weight:600}#htable td.empty{color:var(--muted)}#htable small{color:var(--muted);font-weight:400}
    span.taken{font-weight:600}
    .empty{color:var(--muted)}
    #tip{position:fixed;z-index:10;pointer-events:none;background:var(--card);color:var(--fg);border:1px solid var(--line);
    border-radius:6px;padding:6px 9px;font-size:12px;box-shadow:0 4px 14px rgba(0,0,0,.18);max-width:360px}
    #tip table{font-size:12px;width:auto}#tip td{border:0;padding:0 6px 0 0}
    #tip i{display:inline-block;width:9px;height:9px;margin-right:4px;border-radius:2px}
    footer{margin-top:30px;color:var(--muted);font-size:12px}
    svg.flame{display:block;width:100%;height:auto;cursor:pointer;margin-bottom:6px}
    .flame text{font-size:11px;fill:#1b1b1b;pointer-events:none}.flame rect{stroke:var(--bg);stroke-width:.5}
    .fb.hit rect{fill:#c13cd6}.flame-title{font-size:14px;margin:14px 0 4px}.flame-title small{color:var(--muted);font-weight:400}
    input[type=search]{font:inherit;padding:1px 6px}
    """

    static let script = """
    (function(){
    'use strict';
    var D=JSON.parse(document.getElementById('memprof-data').textContent);
    var M=D.memory,L=D.lanes,dur=Math.max(1,D.durationUs),U=L.units||1;
    function uToT(x){return x*dur/U;}
    var tip=document.getElementById('tip');
    function fmtB(b){var a=Math.abs(b),u=[[1073741824,'GB'],[1048576,'MB'],[1024,'KB']];
    for(var i=0;i<u.length;i++){if(a>=u[i][0]){var x=b/u[i][0];return(x>=100||x===Math.round(x)?Math.round(x):x.toFixed(1))+' '+u[i][1];}}return b+' B';}
    function fmtT(us){us=Math.round(us);if(us===0)return'0s';if(us<1000)return us+'us';if(us<1e6)return Math.floor(us/1000)+'ms';
    if(us<6e7){var s=us/1e6;return(s===Math.round(s)?s:s.toFixed(1))+'s';}
    var t=Math.floor(us/1e6+0.005),h=Math.floor(t/3600),m=Math.floor(t%3600/60),z=t%60;return(h?h+'h':'')+(m?m+'m':'')+(z?z+'s':'');}
    function esc(s){return String(s).replace(/[&<>"]/g,function(c){return{'&':'&amp;','<':'&lt;','>':'&gt;','"':'&quot;'}[c];});}
    function showTip(html,ev){tip.innerHTML=html;tip.hidden=false;var w=tip.offsetWidth,h=tip.offsetHeight,x=ev.clientX+14,y=ev.clientY+14;
    if(x+w>innerWidth-4)x=ev.clientX-w-14;if(y+h>innerHeight-4)y=ev.clientY-h-14;tip.style.left=Math.max(4,x)+'px';tip.style.top=Math.max(4,y)+'px';}
    function hideTip(){tip.hidden=true;}
    function bisect(a,t,pairs){var lo=0,hi=a.length-1,r=-1;while(lo<=hi){var mid=(lo+hi)>>1,v=pairs?a[mid][0]:a[mid];if(v<=t){r=mid;lo=mid+1;}else hi=mid-1;}return r;}
    function svgPoint(svg,ev){var p=svg.createSVGPoint();p.x=ev.clientX;p.y=ev.clientY;var m=svg.getScreenCTM();return m?p.matrixTransform(m.inverse()):p;}

    var mem=document.getElementById('mem'),hit=document.getElementById('hit'),guide=document.getElementById('guide'),sel=document.getElementById('sel');
    var lanesvg=document.getElementById('lanesvg'),axis=document.getElementById('laneaxis');
    var resetBtn=document.getElementById('reset'),rangeLabel=document.getElementById('range');
    var laneHeight=lanesvg?lanesvg.viewBox.baseVal.height:0;
    var range=null,drag=null;
    function xToT(x){return Math.max(0,Math.min(dur,(x-M.x0)/(M.x1-M.x0)*dur));}
    function tToX(t){return M.x0+t/dur*(M.x1-M.x0);}
    function memTip(t){var i=bisect(M.t,t),used=0,rows=[];
    if(i>=0){for(var a=0;a<M.v.length;a++){var v=M.v[a].length?M.v[a][i]:0;used+=v;if(v>0)rows.push([v,a]);}}
    rows.sort(function(p,q){return q[0]-p[0];});
    var c=bisect(M.compressed,t,true),comp=c>=0?M.compressed[c][1]:0;
    var lvl=used>=M.critical?'critical':used>=M.warning?'warning':'normal';
    var h='<b>'+fmtT(t)+'</b><br>used '+fmtB(used)+' · '+lvl+'<br>compressed '+fmtB(comp);
    var n=Math.min(rows.length,10);if(n){h+='<table>';for(var k=0;k<n;k++){var ai=rows[k][1];
    h+='<tr><td><i style="background:'+M.colors[ai]+'"></i>'+esc(M.apps[ai])+'</td><td>'+fmtB(rows[k][0])+'</td></tr>';}h+='</table>';}
    if(rows.length>n)h+='<small>and '+(rows.length-n)+' more apps</small>';return h;}

    var STEPS=[1e3,2e3,5e3,1e4,2e4,5e4,1e5,2e5,5e5,1e6,2e6,5e6,1e7,1.5e7,3e7,6e7,1.2e8,3e8,6e8,9e8,1.8e9,3.6e9,7.2e9,1.08e10,2.16e10,4.32e10,8.64e10];
    function drawAxis(t0,t1){if(!axis)return;var span=Math.max(1,t1-t0),step=0;
    for(var i=0;i<STEPS.length;i++){if(span/STEPS[i]<=10){step=STEPS[i];break;}}if(!step)step=Math.ceil(span/10);
    var h='';for(var t=Math.ceil(t0/step)*step;t<=t1;t+=step){h+='<span style="left:'+((t-t0)/span*100).toFixed(2)+'%">'+fmtT(t)+'</span>';}
    axis.innerHTML=h;}
    function drawSel(){if(!sel)return;if(!range){sel.setAttribute('visibility','hidden');return;}
    var a=tToX(range[0]),b=tToX(range[1]);sel.setAttribute('x',a);sel.setAttribute('width',Math.max(.5,b-a));sel.setAttribute('visibility','visible');}
    function setRange(t0,t1){if(t1-t0<1)t1=t0+1;range=[t0,t1];
    if(lanesvg)lanesvg.setAttribute('viewBox',(t0*U/dur)+' 0 '+((t1-t0)*U/dur)+' '+laneHeight);
    drawAxis(t0,t1);drawSel();if(resetBtn)resetBtn.disabled=false;
    if(rangeLabel)rangeLabel.textContent='showing '+fmtT(t0)+' – '+fmtT(t1);filterRows();}
    function clearRange(){range=null;if(lanesvg)lanesvg.setAttribute('viewBox','0 0 '+U+' '+laneHeight);
    drawAxis(0,dur);drawSel();if(resetBtn)resetBtn.disabled=true;if(rangeLabel)rangeLabel.textContent='';filterRows();}

    if(mem&&hit){
    hit.addEventListener('mousedown',function(ev){ev.preventDefault();drag={x:svgPoint(mem,ev).x};});
    window.addEventListener('mousemove',function(ev){if(!drag)return;var x=Math.max(M.x0,Math.min(M.x1,svgPoint(mem,ev).x));
    drag.last=x;var a=Math.min(drag.x,x),b=Math.max(drag.x,x);sel.setAttribute('x',a);sel.setAttribute('width',b-a);sel.setAttribute('visibility','visible');});
    window.addEventListener('mouseup',function(){if(!drag)return;var d=drag;drag=null;
    if(d.last===undefined||Math.abs(d.last-d.x)<2){drawSel();return;}
    setRange(xToT(Math.min(d.x,d.last)),xToT(Math.max(d.x,d.last)));});
    hit.addEventListener('mousemove',function(ev){if(drag){hideTip();return;}var x=svgPoint(mem,ev).x;
    if(x<M.x0||x>M.x1){hideTip();guide.setAttribute('visibility','hidden');return;}
    guide.setAttribute('x1',x);guide.setAttribute('x2',x);guide.setAttribute('visibility','visible');showTip(memTip(xToT(x)),ev);});
    hit.addEventListener('mouseleave',function(){hideTip();guide.setAttribute('visibility','hidden');});
    hit.addEventListener('dblclick',clearRange);}
    if(resetBtn)resetBtn.addEventListener('click',clearRange);

    if(lanesvg){lanesvg.addEventListener('mousemove',function(ev){var el=ev.target,cls=el.getAttribute('class')||'',h='';
    var row=Math.floor(svgPoint(lanesvg,ev).y/L.rowHeight),app=L.apps[row];if(app===undefined){hideTip();return;}
    var m=/(?:^| )s-(\\w+)/.exec(cls);
    if(m){var s=uToT(+el.getAttribute('x')),n=uToT(+el.getAttribute('width')),c=el.getAttribute('data-c'),k=el.getAttribute('data-m');
    h='<b>'+esc(app)+'</b> · '+m[1]+(k?' (mostly; '+k+' short states merged, zoom in)':'')+'<br>from '+fmtT(s)+' for '+fmtT(n)+
    (c?'<br>why: '+esc(L.causes[+c]):'');}
    else if(/(?:^| )hd/.test(cls)){var s2=+el.getAttribute('data-s'),e2=+el.getAttribute('data-e');
    h='<b>'+esc(app)+'</b> · '+esc(el.getAttribute('data-h'))+'<br>from '+fmtT(s2)+' for '+fmtT(e2-s2)+'<br>'+esc(el.getAttribute('data-o'));}
    else if(/(?:^| )mk/.test(cls)){h='<b>'+esc(app)+'</b> · '+esc(el.getAttribute('data-k'))+'<br>at '+fmtT(+el.getAttribute('data-t'));}
    else{var t=uToT(svgPoint(lanesvg,ev).x);h='<b>'+esc(app)+'</b> · not running<br>'+fmtT(t);}
    showTip(h,ev);});
    lanesvg.addEventListener('mouseleave',hideTip);}

    var fApp=document.getElementById('f-app'),fKind=document.getElementById('f-kind'),fCount=document.getElementById('f-count');
    var rows=document.querySelectorAll('#dtable tbody tr[data-t]'),omitted=document.querySelectorAll('#dtable tr.omitted').length;
    function filterRows(){if(!rows.length)return;var a=fApp?fApp.value:'',k=fKind?fKind.value:'',n=0;
    for(var i=0;i<rows.length;i++){var r=rows[i],t=+r.getAttribute('data-t');
    var ok=(!a||r.getAttribute('data-app').indexOf('|'+a+'|')>=0)&&(!k||r.getAttribute('data-kind')===k)&&(!range||(t>=range[0]&&t<=range[1]));
    r.hidden=!ok;if(ok)n++;}
    if(fCount)fCount.textContent=n+' of '+rows.length+' rows shown'+(omitted?' (a long list: its middle is in report.json only)':'')+(range?' in the selected range':'');}
    if(fApp)fApp.addEventListener('change',filterRows);if(fKind)fKind.addEventListener('change',filterRows);
    var flames=document.querySelectorAll('svg.flame');
    function layoutFlame(svg,z){var total=+svg.getAttribute('data-total'),W=1400,s0=z?z.s:0,n0=z?z.n:total,d0=z?z.d:0;
    var gs=svg.querySelectorAll('g.fb');for(var i=0;i<gs.length;i++){var g=gs[i],st=+g.getAttribute('data-s'),n=+g.getAttribute('data-n'),d=+g.getAttribute('data-d');
    var inside=st<s0+n0&&st+n>s0&&(d>=d0||(st<=s0&&st+n>=s0+n0));if(!inside){g.style.display='none';continue;}g.style.display='';
    var a=Math.max(st,s0),b=Math.min(st+n,s0+n0),x=(a-s0)/n0*W,w=(b-a)/n0*W,r=g.querySelector('rect'),t=g.querySelector('text');
    r.setAttribute('x',x);r.setAttribute('width',Math.max(w,.3));t.setAttribute('x',x+3);
    if(g.__name===undefined)g.__name=t.textContent;var fit=Math.floor((w-6)/7);
    t.textContent=fit>=3?(g.__name.length>fit?g.__name.slice(0,fit-1)+'…':g.__name):'';}svg.__zoom=z;}
    for(var fi=0;fi<flames.length;fi++){(function(svg){layoutFlame(svg,null);
    svg.addEventListener('click',function(ev){var g=ev.target.closest?ev.target.closest('g.fb'):null;if(!g)return;
    var z={s:+g.getAttribute('data-s'),n:+g.getAttribute('data-n'),d:+g.getAttribute('data-d')};
    layoutFlame(svg,z.d===0&&svg.__zoom&&svg.__zoom.d===0&&svg.__zoom.s===z.s?null:z);});
    svg.addEventListener('mousemove',function(ev){var g=ev.target.closest?ev.target.closest('g.fb'):null;if(!g){hideTip();return;}
    var total=+svg.getAttribute('data-total'),n=+g.getAttribute('data-n'),own=+g.getAttribute('data-self');
    showTip('<b>'+esc(g.__name||g.textContent)+'</b><br>'+n+' samples ('+(n*100/total).toFixed(1)+'%), '+own+' in itself',ev);});
    svg.addEventListener('mouseleave',hideTip);})(flames[fi]);}
    document.addEventListener('keydown',function(ev){if(ev.key==='Escape'){for(var i=0;i<flames.length;i++)layoutFlame(flames[i],null);}});
    var fs=document.getElementById('flame-search'),ff=document.getElementById('flame-found');
    if(fs)fs.addEventListener('input',function(){var q=fs.value.toLowerCase(),n=0,gs=document.querySelectorAll('svg.flame g.fb');
    for(var i=0;i<gs.length;i++){var g=gs[i],name=(g.__name!==undefined?g.__name:g.textContent).toLowerCase(),hit=q&&name.indexOf(q)>=0;
    g.classList.toggle('hit',!!hit);if(hit)n++;}if(ff)ff.textContent=q?n+' boxes match':'';});
    drawAxis(0,dur);
    document.documentElement.setAttribute('data-ready','1');
    })();
    """
}
