/// The start and end of a memprof page, for pages built outside this module (compare, check):
/// the shared stylesheet and script, no request leaving the page.
public enum HTMLPage {
    /// Everything up to and including `<body>`.
    /// `kind` names the page for the browser check (`compare`, `check`).
    public static func start(title: String, kind: String) -> String {
        HTMLAssets.head(title: title, contentSecurityPolicy: HTMLAssets.contentSecurityPolicy, body: "data-page=\"\(kind.html)\"")
    }

    /// The page's data (a JSON object with `durationUs`, `memory` and optionally `flame`), the
    /// script, and the end of the document.
    /// A whole page without a script (its Content-Security-Policy allows none): the shared
    /// stylesheet, light and dark, with `style` after it, around `body`. fleet.html is one.
    public static func document(title: String, kind: String, body: String, style: String = "") -> String {
        HTMLAssets.head(title: title, contentSecurityPolicy: HTMLAssets.scriptlessContentSecurityPolicy,
                        body: "data-page=\"\(kind.html)\"", style: style)
            + body + "\n</body>\n</html>\n"
    }

    public static func end(data: String) -> String {
        "<div id=\"tip\" role=\"tooltip\" hidden></div>\n<script type=\"application/json\" id=\"memprof-data\">"
            + HTMLText.embeddable(data) + "</script>\n<script>\(HTMLAssets.script)</script>\n</body>\n</html>\n"
    }
}

/// The page's stylesheet and script, written for memprof (no third-party code).
enum HTMLAssets {
    /// The start of a memprof page up to `<body>`: no request leaves the page (`contentSecurityPolicy`),
    /// light and dark themes, the shared stylesheet inline.
    static func head(title: String, contentSecurityPolicy: String, body: String = "", style: String = "") -> String {
        """
        <!DOCTYPE html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <meta name="color-scheme" content="light dark">
        <meta http-equiv="Content-Security-Policy" content="\(contentSecurityPolicy)">
        <title>\(title.html)</title>
        <style>\(css)\(style)</style>
        </head>
        <body\(body.isEmpty ? "" : " " + body)>

        """
    }

    /// No request can leave a page, and nothing runs: inline styles only.
    static let scriptlessContentSecurityPolicy = "default-src 'none'; style-src 'unsafe-inline'; img-src data:"

    /// No request can leave a page: inline styles and scripts only.
    static let contentSecurityPolicy = "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:"

    static let css = """
    :root{--bg:#fff;--fg:#1d1f24;--muted:#5d636c;--line:#dde0e5;--card:#f4f5f7;--band:rgba(0,0,0,.028);
    --used:#15171a;--lim:#3b3f45;--warn:#c97d00;--crit:#cf2f27;--comp:#2f86b3;--sel:rgba(60,120,220,.16);
    --s-inactive:#f0b93a;--s-active:#35a853;--s-background:#8a63d2;--s-suspended:#a6acb5;--s-compressed:#39a1c9;
    --hd:#c2188b;--ok:#2e7d32;--bad:#c62828;--warn-text:#8f5400;--row-bad:#fde8e8;--row-good:#e6f6ea;--row-new:#fff6dc}
    @media (prefers-color-scheme:dark){:root{--bg:#14161a;--fg:#e5e7ea;--muted:#9aa1aa;--line:#2f333a;--card:#1d2025;
    --band:rgba(255,255,255,.035);--used:#f4f4f4;--lim:#c9ccd1;--warn:#f0a630;--crit:#ff5a4f;--comp:#5bb4e0;
    --sel:rgba(120,170,255,.2);--s-suspended:#6b717b;--hd:#f062b8;--bad:#ff7b70;--ok:#6fcf7c;--warn-text:#f0a630;
    --row-bad:#3a1d21;--row-good:#1b3222;--row-new:#352e1c}}
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
    .chart-wrap{position:relative;overflow-x:auto}svg.chart{display:block;width:100%}#mem{height:auto;user-select:none}
    .grid line{stroke:var(--line);stroke-width:1}.grid text,.panel{fill:var(--muted);font-size:11px}
    .ylab,.xlab{fill:var(--muted);font-size:11px}.ylab{text-anchor:end}.xlab{text-anchor:middle}
    .area{stroke:var(--bg);stroke-width:.4;shape-rendering:crispEdges}.used{fill:none;stroke:var(--used);stroke-width:1.3}
    .comp{fill:var(--comp);fill-opacity:.55;stroke:var(--comp);stroke-width:1}
    .pool{fill:none;stroke:var(--comp);stroke-width:1.6;stroke-dasharray:6 2}
    .k-pool{background:repeating-linear-gradient(90deg,var(--comp) 0 5px,transparent 5px 7px);height:3px!important}
    line.lim{stroke:var(--lim);stroke-width:1.2}line.warnl{stroke:var(--warn);stroke-width:1.2;stroke-dasharray:6 4}
    line.crit{stroke:var(--crit);stroke-width:1.2;stroke-dasharray:6 4}
    .lvlab{font-size:11px;text-anchor:end;paint-order:stroke;stroke:var(--bg);stroke-width:3px}
    .lvlab.lim{fill:var(--lim)}.lvlab.warnl{fill:var(--warn)}.lvlab.crit{fill:var(--crit)}
    .p-warning{fill:var(--warn)}.p-critical{fill:var(--crit)}
    .marks path{stroke-width:1.6;fill:none}.m-comp{stroke:var(--comp)}.m-evict{stroke:var(--crit)}.m-warn{stroke:var(--warn)}.m-kill{stroke:var(--fg)}
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
    .mk{vector-effect:non-scaling-stroke;stroke-width:2;fill:none}
    .mk-launch{stroke:var(--ok);background:var(--ok)}.mk-resume{stroke:var(--comp);background:var(--comp)}
    .mk-eviction{stroke:var(--crit);background:var(--crit)}.mk-kill{stroke:var(--fg);background:var(--fg)}
    .mk-quit{stroke:var(--muted);background:var(--muted)}.mk-compression{stroke:var(--s-compressed);background:var(--s-compressed)}
    .axis{position:relative;height:18px;font-size:11px;color:var(--muted);border-top:1px solid var(--line)}
    .axis span{position:absolute;transform:translateX(-50%);white-space:nowrap}
    .filters{display:flex;flex-wrap:wrap;gap:6px 14px;align-items:center;margin-bottom:6px;color:var(--muted)}.filters select{max-width:100%}
    select{font:inherit}
    .scroll{overflow:auto;max-height:560px;border:1px solid var(--line);border-radius:6px}
    table{border-collapse:collapse;width:100%;font-size:12.5px}
    th,td{padding:3px 8px;border-bottom:1px solid var(--line);text-align:left;vertical-align:top}
    th{position:sticky;top:0;background:var(--card);font-weight:600;white-space:nowrap}
    td.num,th.num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
    table.dt{table-layout:fixed;min-width:1000px}table.dt td{overflow-wrap:anywhere}.dhead{position:sticky;top:0;z-index:1}
    .dchunk{content-visibility:auto;contain-intrinsic-size:auto 1000px}
    .c-t{width:8%}.c-k{width:11%}.c-f{width:10%}.c-n{width:7%}.c-w{width:23%}.c-c{width:34%}
    #jetsam,#apps,#headroom,#profile{content-visibility:auto;contain-intrinsic-size:auto 900px}
    tr.omitted td{text-align:center;color:var(--muted);font-style:italic;background:var(--band)}
    .kind{font-weight:600}.k-eviction,.k-kill{color:var(--crit)}.k-memoryWarning{color:var(--warn-text)}.k-compression{color:var(--comp)}
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
    #zoom path,#zoom line,path.obs{vector-effect:non-scaling-stroke}
    .used.base{stroke-dasharray:5 3;opacity:.85}.lowerline.base{fill:none;stroke:var(--comp);stroke-width:1.2;stroke-dasharray:4 3}
    .marks.base{opacity:.6}
    .kh{cursor:pointer}.kh path{fill:var(--fg)}.kh.base path{fill:var(--muted)}.kh:hover path{fill:var(--crit)}
    .k-kh{background:var(--fg);clip-path:polygon(0 0,100% 0,50% 100%)}
    .k-used.base{background:repeating-linear-gradient(90deg,var(--used) 0 4px,transparent 4px 7px)}
    .k-p-warning{background:var(--warn);height:6px!important}.k-p-critical{background:var(--crit);height:6px!important}
    details.jetsam{border:1px solid var(--line);border-radius:6px;margin:6px 0;padding:4px 10px}details.jetsam summary{cursor:pointer}
    details.jetsam.flash{outline:3px solid var(--sel)}table.jt{width:auto;min-width:60%;margin:6px 0}tr.killed td{background:var(--sel);font-weight:600}
    .tbar{display:flex;width:120px;height:10px;background:var(--band);border-radius:2px;overflow:hidden}.tbar i{display:block;height:100%}
    td.hot{color:var(--bad);font-weight:600}
    path.obs{fill:none;stroke-width:1.8}#obschart{margin-bottom:4px}
    tr.bad td{background:rgba(220,40,40,.08)}tr.warn td{background:rgba(230,150,0,.08)}
    .st-leaked{color:var(--warn-text)}.st-dangling{color:var(--bad)}
    a.jl{white-space:nowrap}.hscroll{overflow-x:auto}
    .flame-box h3{margin-bottom:2px}.flame-controls{line-height:2}
    .verdict{font-size:16px;font-weight:600}.verdict.bad,.verdict-text.v-worse{color:var(--bad)}.verdict.good,.verdict-text.v-better{color:var(--ok)}
    .verdict-text.v-worse,.verdict-text.v-better{font-weight:600}
    tr.v-worse td{background:var(--row-bad)}tr.v-better td{background:var(--row-good)}tr.v-new td,tr.v-gone td{background:var(--row-new)}
    ol.causes{padding-left:22px}ol.causes>li{margin:6px 0}ol.causes ul{margin:2px 0 0;padding-left:18px;color:var(--fg)}
    header a{font-weight:600}
    #atable th{white-space:normal;vertical-align:bottom}#atable td{white-space:nowrap}#atable td.wrap{white-space:normal;min-width:110px}
    @media (max-width:700px){body{padding:10px 10px 30px}.cards{grid-template-columns:repeat(auto-fill,minmax(140px,1fr))}
    .lane-labels div{max-width:90px}h1{font-size:19px}#mem{min-width:760px}}
    """

    static let script = """
    (function(){
    'use strict';
    var D=JSON.parse(document.getElementById('memprof-data').textContent);
    var M=D.memory,L=D.lanes||null,dur=Math.max(1,M?M.durationUs:D.durationUs),U=L?(L.units||1):1;
    var laneDur=Math.max(1,D.durationUs||dur);
    function uToT(x){return x*laneDur/U;}
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
    function at(pairs,t){var i=bisect(pairs,t,true);return i>=0?pairs[i][1]:0;}

    var mem=document.getElementById('mem'),hit=document.getElementById('hit'),guide=document.getElementById('guide'),sel=document.getElementById('sel');
    var zoomG=document.getElementById('zoom'),xgrid=document.getElementById('xgrid'),kills=document.querySelectorAll('#kills a');
    var lanesvg=document.getElementById('lanesvg'),axis=document.getElementById('laneaxis');
    var resetBtn=document.getElementById('reset'),rangeLabel=document.getElementById('range');
    var laneHeight=lanesvg?lanesvg.viewBox.baseVal.height:0;
    var range=null,drag=null,view=[0,dur];
    function xToT(x){var f=(x-M.x0)/(M.x1-M.x0);return Math.max(view[0],Math.min(view[1],view[0]+f*(view[1]-view[0])));}
    function tToX(t){return M.x0+(t-view[0])/(view[1]-view[0])*(M.x1-M.x0);}
    function memTip(t){var i=bisect(M.t,t),used=0,rows=[];
    if(i>=0){for(var a=0;a<M.v.length;a++){var v=M.v[a].length?M.v[a][i]:0;used+=v;if(v>0)rows.push([v,a]);}}
    if(M.used.length)used=at(M.used,t);
    rows.sort(function(p,q){return q[0]-p[0];});
    var lvl=used>=M.critical?'critical':used>=M.warning?'warning':'normal';
    var h='<b>'+fmtT(t)+'</b><br>used '+fmtB(used)+' · '+lvl+'<br>'+M.lowerName+' '+fmtB(at(M.compressed,t));
    if(M.pool)h+='<br>compressor pool '+fmtB(at(M.pool,t));
    if(M.baseUsed)h+='<br>base: used '+fmtB(at(M.baseUsed,t))+', '+M.lowerName+' '+fmtB(at(M.baseCompressed,t));
    var n=Math.min(rows.length,10);if(n){h+='<table>';for(var k=0;k<n;k++){var ai=rows[k][1];
    h+='<tr><td><i style="background:'+M.colors[ai]+'"></i>'+esc(M.apps[ai])+'</td><td>'+fmtB(rows[k][0])+'</td></tr>';}h+='</table>';}
    if(rows.length>n)h+='<small>and '+(rows.length-n)+' more apps</small>';return h;}

    var STEPS=[1e3,2e3,5e3,1e4,2e4,5e4,1e5,2e5,5e5,1e6,2e6,5e6,1e7,1.5e7,3e7,6e7,1.2e8,3e8,6e8,9e8,1.8e9,3.6e9,7.2e9,1.08e10,2.16e10,4.32e10,8.64e10,1.728e11,4.32e11,8.64e11,\
    1.728e12,4.32e12];
    function ticks(t0,t1){var span=Math.max(1,t1-t0),step=0,out=[];
    for(var i=0;i<STEPS.length;i++){if(span/STEPS[i]<=10){step=STEPS[i];break;}}if(!step)step=Math.ceil(span/10);
    for(var t=Math.ceil(t0/step)*step;t<=t1;t+=step)out.push(t);return out;}
    function drawAxis(t0,t1){if(!axis)return;var span=Math.max(1,t1-t0),h='',ts=ticks(t0,t1);
    for(var i=0;i<ts.length;i++)h+='<span style="left:'+((ts[i]-t0)/span*100).toFixed(2)+'%">'+fmtT(ts[i])+'</span>';axis.innerHTML=h;}
    function drawMemAxis(){if(!xgrid)return;var y0=xgrid.getAttribute('data-y0'),y1=+xgrid.getAttribute('data-y1'),ts=ticks(view[0],view[1]),h='';
    for(var i=0;i<ts.length;i++){var x=tToX(ts[i]).toFixed(1);h+='<line x1="'+x+'" x2="'+x+'" y1="'+y0+'" y2="'+y1+'"/><text class="xlab" x="'+x+'" y="'+(y1+16)+'">'+fmtT(ts[i])+\
    '</text>';}
    xgrid.innerHTML=h;}
    function applyZoom(){if(!zoomG)return;var k=dur/(view[1]-view[0]),x00=M.x0+view[0]/dur*(M.x1-M.x0);
    zoomG.setAttribute('transform',view[0]===0&&view[1]===dur?'':'translate('+(M.x0-k*x00)+' 0) scale('+k+' 1)');
    for(var i=0;i<kills.length;i++){var a=kills[i],x=tToX(+a.getAttribute('data-t'));a.setAttribute('transform','translate('+x.toFixed(1)+' 0)');
    a.style.display=x<M.x0-0.5||x>M.x1+0.5?'none':'';}
    drawMemAxis();}
    function setRange(t0,t1){if(t1-t0<1)t1=t0+1;range=[t0,t1];view=[t0,t1];
    if(lanesvg)lanesvg.setAttribute('viewBox',(t0*U/laneDur)+' 0 '+((t1-t0)*U/laneDur)+' '+laneHeight);
    applyZoom();drawAxis(t0,t1);if(sel)sel.setAttribute('visibility','hidden');if(resetBtn)resetBtn.disabled=false;
    if(rangeLabel)rangeLabel.textContent='showing '+fmtT(t0)+' – '+fmtT(t1);filterRows();drawFlames();}
    function clearRange(){range=null;view=[0,dur];if(lanesvg)lanesvg.setAttribute('viewBox','0 0 '+U+' '+laneHeight);
    applyZoom();drawAxis(0,laneDur);if(sel)sel.setAttribute('visibility','hidden');if(resetBtn)resetBtn.disabled=true;if(rangeLabel)rangeLabel.textContent='';
    filterRows();drawFlames();}

    if(mem&&hit){
    hit.addEventListener('mousedown',function(ev){ev.preventDefault();drag={x:svgPoint(mem,ev).x};});
    window.addEventListener('mousemove',function(ev){if(!drag)return;var x=Math.max(M.x0,Math.min(M.x1,svgPoint(mem,ev).x));
    drag.last=x;var a=Math.min(drag.x,x),b=Math.max(drag.x,x);sel.setAttribute('x',a);sel.setAttribute('width',b-a);sel.setAttribute('visibility','visible');});
    window.addEventListener('mouseup',function(){if(!drag)return;var d=drag;drag=null;
    if(d.last===undefined||Math.abs(d.last-d.x)<2){sel.setAttribute('visibility','hidden');return;}
    setRange(xToT(Math.min(d.x,d.last)),xToT(Math.max(d.x,d.last)));});
    hit.addEventListener('mousemove',function(ev){if(drag){hideTip();return;}var x=svgPoint(mem,ev).x;
    if(x<M.x0||x>M.x1){hideTip();guide.setAttribute('visibility','hidden');return;}
    guide.setAttribute('x1',x);guide.setAttribute('x2',x);guide.setAttribute('visibility','visible');showTip(memTip(xToT(x)),ev);});
    hit.addEventListener('mouseleave',function(){hideTip();guide.setAttribute('visibility','hidden');});
    hit.addEventListener('dblclick',clearRange);}
    if(resetBtn)resetBtn.addEventListener('click',clearRange);
    var appSel=document.getElementById('mem-app');
    if(appSel)appSel.addEventListener('change',function(){var v=appSel.value,st=document.querySelector('#mem .stack'),ls=document.querySelectorAll('#mem .appline');
    if(st)st.setAttribute('visibility',v===''?'visible':'hidden');for(var i=0;i<ls.length;i++)ls[i].setAttribute('visibility',\
    ls[i].getAttribute('data-app')===v?'visible':'hidden');});

    function openJetsam(id){var d=document.getElementById(id);if(!d||d.tagName!=='DETAILS')return false;d.open=true;d.scrollIntoView({block:'start'});
    d.classList.add('flash');setTimeout(function(){d.classList.remove('flash');},1200);return true;}
    document.addEventListener('click',function(ev){var a=ev.target.closest?ev.target.closest('a'):null;if(!a)return;
    var href=a.getAttribute('href')||'';
    if(href.indexOf('#jetsam-')===0&&openJetsam(href.slice(1))){ev.preventDefault();history.replaceState(null,'',href);}});
    if(location.hash.indexOf('#jetsam-')===0)openJetsam(location.hash.slice(1));

    function undelta(lanes,n){var out=[];for(var r=0;r<lanes.length;r++){var a=lanes[r],o=[],p=0;for(var i=0;i<a.length;i+=n){p+=a[i];o.push([p].concat(a.slice(i+1,i+n)));\
    }out.push(o);}return out;}
    var LS=L?undelta(L.seg,5):[],LH=L?undelta(L.hd,4):[],LM=L?undelta(L.mk,3):[];
    function covering(list,u){var i=bisect(list,u,true);return i>=0&&u<=list[i][0]+list[i][1]?list[i]:null;}
    if(lanesvg){lanesvg.addEventListener('mousemove',function(ev){var p=svgPoint(lanesvg,ev),row=Math.floor(p.y/L.rowHeight),app=L.apps[row],h='';
    if(app===undefined){hideTip();return;}var u=p.x,dy=p.y-row*L.rowHeight,vb=lanesvg.viewBox.baseVal,tol=vb.width/Math.max(1,lanesvg.clientWidth)*3;
    var best=null,bd=tol;for(var i=Math.max(0,bisect(LM[row],u-tol,true)),ms=LM[row];i<ms.length&&ms[i][0]<=u+tol;i++){var d=Math.abs(ms[i][0]-u);if(d<=bd){bd=d;best=ms[i];}}
    var hd=dy>=15?covering(LH[row],u):null,sg=covering(LS[row],u);
    if(best){h='<b>'+esc(app)+'</b> · '+L.markKinds[best[1]]+(best[2]?' '+esc(L.texts[best[2]]):'')+'<br>at '+fmtT(uToT(best[0]));}
    else if(hd){h='<b>'+esc(app)+'</b> · '+esc(L.texts[hd[2]])+'<br>from '+fmtT(uToT(hd[0]))+' for '+fmtT(uToT(hd[1]))+'<br>'+esc(L.texts[hd[3]]);}
    else if(sg){var st=[];for(var k=0;k<L.states.length;k++)if(sg[2]&(1<<k))st.push(L.states[k]);
    h='<b>'+esc(app)+'</b> · '+(sg[4]>1?st.join(', ')+' ('+sg[4]+' short states, all shown; zoom in)':st[0])+'<br>from '+fmtT(uToT(sg[0]))+' for '+fmtT(uToT(sg[1]))+
    (sg[4]<=1&&sg[3]?'<br>why: '+esc(L.texts[sg[3]]):'');}
    else{h='<b>'+esc(app)+'</b> · not running<br>'+fmtT(uToT(u));}
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

    // Flame graphs: laid out here from D.flame (see FlameGraphs in MemprofHTML).
    var F=D.flame,FW=1400,FR=17,fsel=null,ffocus=null,fhidden={},fall=document.getElementById('flame-all');
    var fsearch=document.getElementById('flame-search'),ffound=document.getElementById('flame-found');
    function frameList(st){var out=[],start=fall&&fall.checked?2:2+st[1];
    for(var i=start;i<st.length;i++){var f=st[i];if(!(fall&&fall.checked)&&F.thunk[f])continue;if(fhidden[F.names[f]])continue;out.push(F.names[f]);}
    if(ffocus!==null){var j=out.indexOf(ffocus);if(j<0)return null;out=out.slice(j);}return out;}
    function tree(stacks){var root={c:{},n:0,self:0};for(var i=0;i<stacks.length;i++){var st=stacks[i],fr=frameList(st);if(!fr)continue;
    var node=root;root.n+=st[0];for(var k=0;k<fr.length;k++){var ch=node.c[fr[k]];if(!ch)ch=node.c[fr[k]]={c:{},n:0,self:0};ch.n+=st[0];node=ch;}node.self+=st[0];}return root;}
    function diffColor(d){var m=Math.min(1,Math.abs(d)/0.1);if(Math.abs(d)<0.005)return'hsl(0 0% 78%)';var l=Math.round(82-37*m);return d>0?'hsl(0 80% '+l+'%)':'hsl(220 80% '+l+\
    '%)';}
    function warm(name){var h=2166136261;for(var i=0;i<name.length;i++){h=Math.imul(h^name.charCodeAt(i),16777619)>>>0;}return'hsl('+(8+h%40)+' '+(60+(h>>>8)%25)+'% '+(52+\
    (h>>>16)%14)+'%)';}
    // A graph with sample times is recomputed from the samples inside the range; others follow it per handler run.
    if(F)for(var gi=0;gi<F.graphs.length;gi++){var G0=F.graphs[gi];if(!G0.times)continue;G0.T=G0.times.map(function(a){if(!a)return null;var o=[],t=0;for(var k=0;k<a.length;k+=2){\
    t+=a[k];o.push(t,a[k+1]);}return o;});}
    function timedStacks(g){var out=[],n=0,all=0,untimed=0;for(var i=0;i<g.stacks.length;i++){var st=g.stacks[i],tl=g.T[i],c=0,timed=0;all+=st[0];
    if(tl)for(var k=0;k<tl.length;k+=2){timed+=tl[k+1];if(tl[k]>=range[0]&&tl[k]<=range[1])c+=tl[k+1];}untimed+=st[0]-timed;
    if(c){var cp=st.slice();cp[0]=c;out.push(cp);n+=c;}}return{stacks:out,n:n,all:all,untimed:untimed};}
    function layoutGraph(g){var svg=document.getElementById(g.id);if(!svg)return;var box=document.getElementById('box-'+g.id),note=box?box.querySelector('.flame-note'):null;
    var stacks=g.stacks,inRange=g.runs.length,total=0;for(var i=0;i<stacks.length;i++)total+=stacks[i][0];
    if(range&&g.T){var ts=timedStacks(g);stacks=ts.stacks;total=ts.n;
    if(note)note.textContent='· '+ts.n+' of '+ts.all+' samples in the selected range'+(ts.untimed?' ('+ts.untimed+' without a time left out)':'');
    if(box)box.hidden=!ts.n;}
    else{if(range&&g.runs.length){inRange=0;for(var i=0;i<g.runs.length;i++)if(g.runs[i]>=range[0]&&g.runs[i]<=range[1])inRange++;}
    if(note)note.textContent=range&&g.runs.length?(inRange?'· '+inRange+' of '+g.runs.length+' runs in the selected range':'· no run in the selected range'):'';
    if(box)box.hidden=!!(range&&g.runs.length&&!inRange);}
    svg.setAttribute('data-samples',total);
    var root=tree(stacks),base=g.base?tree(g.base):null,boxes=[],minN=Math.max(1,root.n/1500);
    function visit(node,bnode,depth,start){var names=Object.keys(node.c).sort(),off=start;for(var i=0;i<names.length;i++){var ch=node.c[names[i]],bch=bnode?bnode.c[names[i]]:null;
    if(ch.n>=minN){boxes.push({name:names[i],d:depth,s:off,n:ch.n,self:ch.self,bn:bch?bch.n:0});visit(ch,bch,depth+1,off);}off+=ch.n;}}
    visit(root,base,0,0);var depth=0;for(var i=0;i<boxes.length;i++)depth=Math.max(depth,boxes[i].d+1);
    svg.__g={root:root,base:base,boxes:boxes,depth:Math.max(1,depth)};svg.setAttribute('viewBox','0 0 '+FW+' '+(Math.max(1,depth)*FR));
    var z=svg.__zoom,h='';var H=Math.max(1,depth)*FR;
    var s0=z?z.s:0,n0=z?z.n:Math.max(1,root.n),d0=z?z.d:0;
    for(var i=0;i<boxes.length;i++){var b=boxes[i],inside=b.s<s0+n0&&b.s+b.n>s0&&(b.d>=d0||(b.s<=s0&&b.s+b.n>=s0+n0));if(!inside)continue;
    var a0=Math.max(b.s,s0),b0=Math.min(b.s+b.n,s0+n0),x=(a0-s0)/n0*FW,w=(b0-a0)/n0*FW,y=H-(b.d+1)*FR;if(w<0.3&&!z)continue;
    var fill=base?diffColor(b.n/Math.max(1,root.n)-b.bn/Math.max(1,base.n)):warm(b.name),fit=Math.floor((w-6)/7);
    var label=fit>=3?(b.name.length>fit?b.name.slice(0,fit-1)+'…':b.name):'';
    h+='<g class="fb'+(fsearch&&fsearch.value&&b.name.toLowerCase().indexOf(fsearch.value.toLowerCase())>=0?' hit':'')+'" data-i="'+i+'"><rect x="'+x.toFixed(1)+'" y="'+y+\
    '" width="'+Math.max(w,0.3).toFixed(1)+'" height="'+(FR-1)+'" fill="'+fill+'"/><text x="'+(x+3).toFixed(1)+'" y="'+(y+FR-5)+'">'+esc(label)+'</text></g>';}
    svg.innerHTML=h;}
    function drawFlames(){if(!F)return;var n=0;for(var i=0;i<F.graphs.length;i++)layoutGraph(F.graphs[i]);
    if(ffound&&fsearch)ffound.textContent=fsearch.value?document.querySelectorAll('svg.flame g.fb.hit').length+' boxes match':'';
    var fr=document.getElementById('flame-range');if(fr){var timed=F.graphs.some(function(g){return g.T;}),perRun=F.graphs.some(function(g){return !g.T&&g.runs.length;});
    fr.textContent=range&&(timed||perRun)?'following the selected range: '+(timed?'CPU graphs count only the samples taken in it'+(F.timeStepUs>1?' (times rounded to '+\
    fmtT(F.timeStepUs)+' on this page)':''):'')+(timed&&perRun?'; ':'')+(perRun?'graphs without sample times (allocations) show the handlers that ran in it':''):'';
    if(range){fr.setAttribute('data-t0',range[0]);fr.setAttribute('data-t1',range[1]);}else{fr.removeAttribute('data-t0');fr.removeAttribute('data-t1');}}
    var fs=document.getElementById('flame-selected');if(fs)fs.textContent=(ffocus!==null?'focused on '+ffocus+'. ':'')+(fsel?'selected: '+fsel:'no function selected')+\
    (Object.keys(fhidden).length?' · hidden: '+Object.keys(fhidden).join(', '):'');
    var b1=document.getElementById('flame-focus'),b2=document.getElementById('flame-hide'),b3=document.getElementById('flame-reset');
    if(b1)b1.disabled=!fsel;if(b2)b2.disabled=!fsel;if(b3)b3.disabled=ffocus===null&&!Object.keys(fhidden).length;}
    if(F){var flames=document.querySelectorAll('svg.flame');
    for(var fi=0;fi<flames.length;fi++){(function(svg){
    svg.addEventListener('click',function(ev){var g=ev.target.closest?ev.target.closest('g.fb'):null;if(!g||!svg.__g)return;var b=svg.__g.boxes[+g.getAttribute('data-i')];
    var z=svg.__zoom;fsel=b.name;svg.__zoom=b.d===0&&z&&z.d===0&&z.s===b.s?null:{s:b.s,n:b.n,d:b.d};drawFlames();});
    svg.addEventListener('mousemove',function(ev){var g=ev.target.closest?ev.target.closest('g.fb'):null;if(!g||!svg.__g){hideTip();return;}
    var G=svg.__g,b=G.boxes[+g.getAttribute('data-i')],h='<b>'+esc(b.name)+'</b><br>'+b.n+' samples ('+(b.n*100/Math.max(1,G.root.n)).toFixed(1)+'%), '+b.self+' in itself';
    if(G.base)h+='<br>base '+(b.bn*100/Math.max(1,G.base.n)).toFixed(1)+'% of its samples';showTip(h,ev);});
    svg.addEventListener('mouseleave',hideTip);})(flames[fi]);}
    document.addEventListener('keydown',function(ev){if(ev.key==='Escape'){for(var i=0;i<flames.length;i++)flames[i].__zoom=null;drawFlames();}});
    if(fsearch)fsearch.addEventListener('input',drawFlames);if(fall)fall.addEventListener('change',function(){for(var i=0;i<flames.length;i++)flames[i].__zoom=null;drawFlames();});
    function unzoom(){for(var i=0;i<flames.length;i++)flames[i].__zoom=null;}
    var bf=document.getElementById('flame-focus'),bh=document.getElementById('flame-hide'),br=document.getElementById('flame-reset');
    if(bf)bf.addEventListener('click',function(){if(fsel){ffocus=fsel;unzoom();drawFlames();}});
    if(bh)bh.addEventListener('click',function(){if(fsel){fhidden[fsel]=1;if(ffocus===fsel)ffocus=null;fsel=null;unzoom();drawFlames();}});
    if(br)br.addEventListener('click',function(){ffocus=null;fhidden={};unzoom();drawFlames();});
    drawFlames();}
    if(M)applyZoom();drawAxis(0,laneDur);
    window.__memprofReadyMs=performance.now();
    document.documentElement.setAttribute('data-ready','1');
    })();
    """
}
