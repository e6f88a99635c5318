import { documentStyles } from '@quire/document';

// The reader's stylesheet: published pages, exported HTML and PDFs wear the same one.

export const READER_CSS = `
:root{--accent:#2857c5;--bg:#fff;--fg:#1c1f24;--muted:#5b6270;--line:#e3e6ea;--soft:#f5f7f9;--code:#f3f4f6;--focus:#f59e0b;color-scheme:light}
:root[data-theme=dark]{--accent:#7aa5ff;--bg:#111317;--fg:#e8eaed;--muted:#a3a9b4;--line:#2a2e35;--soft:#181b20;--code:#1d2127;color-scheme:dark}
@media (prefers-color-scheme:dark){:root:not([data-theme=light]):not([data-theme=dark]){--accent:#7aa5ff;--bg:#111317;--fg:#e8eaed;--muted:#a3a9b4;--line:#2a2e35;--soft:#181b20;--code:#1d2127;color-scheme:dark}}
*{box-sizing:border-box}
html{-webkit-text-size-adjust:100%}
body{margin:0;background:var(--bg);color:var(--fg);font:16px/1.6 system-ui,-apple-system,"Segoe UI",Roboto,"Noto Sans","Noto Sans CJK SC",sans-serif}
a{color:var(--accent)}
:focus-visible{outline:3px solid var(--focus);outline-offset:2px;border-radius:3px}
.skip{position:absolute;left:-999px;top:0;background:var(--bg);padding:.5rem 1rem;z-index:10}
.skip:focus{left:.5rem}
.top{position:sticky;top:0;z-index:5;display:flex;align-items:center;gap:1rem;padding:.6rem 1.25rem;background:var(--bg);border-bottom:1px solid var(--line);flex-wrap:wrap}
.brand{font-weight:700;font-size:1.1rem;color:var(--fg);text-decoration:none;display:flex;align-items:center;gap:.5rem}
.brand img{height:28px;width:auto}:is(.logo-dark,.cover-dark){display:none}
:root[data-theme=dark] :is(.logo-dark,.cover-dark){display:inline}:root[data-theme=dark] :is(.logo-light,.cover-light){display:none}
@media (prefers-color-scheme:dark){:root:not([data-theme=light]):not([data-theme=dark]) :is(.logo-dark,.cover-dark){display:inline}:root:not([data-theme=light]):not([data-theme=dark]) :is(.logo-light,.cover-light){display:none}}
.tabs{display:flex;gap:.25rem;flex-wrap:wrap;flex:1}
.tabs a{padding:.35rem .7rem;border-radius:6px;color:var(--muted);text-decoration:none}
.tabs a[aria-current]{color:var(--accent);background:var(--soft);font-weight:600}
.tabs .group{color:var(--muted);font-size:.8rem;text-transform:uppercase;letter-spacing:.04em;padding:.35rem .2rem .35rem .6rem}
.tools{display:flex;gap:.5rem;margin-left:auto}
.btn{display:inline-flex;align-items:center;gap:.4rem;min-height:36px;padding:.3rem .7rem;border:1px solid var(--line);border-radius:8px;background:var(--soft);color:var(--fg);font:inherit;font-size:.9rem;text-decoration:none;cursor:pointer}
.btn kbd{font:inherit;font-size:.75rem;color:var(--muted)}
.menu{display:none}
.shell{display:grid;grid-template-columns:17rem minmax(0,1fr) 14rem;max-width:90rem;margin:0 auto}
.shell.no-toc{grid-template-columns:minmax(0,1fr) 14rem}.shell.wide{max-width:none}
.sidebar{border-right:1px solid var(--line);padding:1.25rem 1rem;position:sticky;top:3.5rem;align-self:start;max-height:calc(100vh - 3.5rem);overflow:auto}
.sidebar ul{list-style:none;margin:0;padding:0}
.sidebar ul ul{padding-left:.9rem;border-left:1px solid var(--line);margin-left:.4rem}
.sidebar a{display:block;padding:.3rem .5rem;border-radius:6px;color:var(--fg);text-decoration:none;font-size:.95rem}
.sidebar a:hover{background:var(--soft)}
.sidebar a[aria-current]{background:var(--soft);color:var(--accent);font-weight:600}
.sidebar .grouptitle{display:block;margin:1rem 0 .3rem .5rem;font-size:.78rem;font-weight:700;text-transform:uppercase;letter-spacing:.05em;color:var(--muted)}
.variants{margin-bottom:1rem}
.variants summary{cursor:pointer;padding:.4rem .6rem;border:1px solid var(--line);border-radius:8px;background:var(--soft)}
.variants ul{margin-top:.3rem}
main{padding:1.5rem 2.5rem 3rem;min-width:0}
.crumbs ol{list-style:none;display:flex;flex-wrap:wrap;gap:.35rem;padding:0;margin:0 0 .5rem;font-size:.88rem;color:var(--muted)}
.crumbs li+li::before{content:"/";margin-right:.35rem}
.crumbs a{color:var(--muted)}
h1{font-size:2rem;line-height:1.25;margin:.2rem 0 .5rem}
.lead{color:var(--muted);font-size:1.1rem;margin-top:0}
.cover{display:grid;overflow:hidden;margin-bottom:1.5rem}.cover.hero{border-radius:12px}.cover.full{margin:-1.5rem -2.5rem 1.5rem}
.cover img{width:100%;height:100%;object-fit:cover}
${documentStyles('article')}
.anchor{margin-left:.4rem;opacity:0;text-decoration:none}
h2:hover .anchor,h3:hover .anchor,.anchor:focus{opacity:1}
.pager{display:grid;grid-template-columns:1fr 1fr;gap:1rem;margin-top:3rem}
.pager a{display:block;border:1px solid var(--line);border-radius:10px;padding:.8rem 1rem;text-decoration:none;color:var(--fg)}
.pager a span{display:block;font-size:.8rem;color:var(--muted)}
.pager .next{text-align:right;grid-column:2}
.outline{padding:1.5rem 1rem;position:sticky;top:3.5rem;align-self:start;font-size:.88rem}
.outline h2{font-size:.78rem;text-transform:uppercase;letter-spacing:.05em;color:var(--muted);margin:0 0 .5rem}
.outline ul{list-style:none;margin:0;padding:0}
.outline li.l2{padding-left:.7rem}.outline li.l3{padding-left:1.4rem}
.visually-hidden{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
.outline a{display:block;padding:.2rem 0;color:var(--muted);text-decoration:none}
.outline a:hover{color:var(--accent)}
dialog{width:min(40rem,calc(100vw - 2rem));border:1px solid var(--line);border-radius:12px;background:var(--bg);color:var(--fg);padding:1rem}
dialog::backdrop{background:rgb(0 0 0 / .45)}
.searchbox{width:100%;font:inherit;padding:.6rem .8rem;border:1px solid var(--line);border-radius:8px;background:var(--soft);color:var(--fg)}
.results{list-style:none;padding:0;margin:.75rem 0 0;max-height:60vh;overflow:auto}
.results a{display:block;padding:.5rem .6rem;border-radius:8px;text-decoration:none;color:var(--fg)}
.results a:hover,.results a:focus{background:var(--soft)}
.results small{display:block;color:var(--muted)}
.refusal{max-width:36rem;margin:15vh auto;padding:0 1.5rem;text-align:center}
.refusal .code{font-size:.9rem;color:var(--muted)}
@media (max-width:1100px){.shell{grid-template-columns:15rem minmax(0,1fr)}.shell.no-toc{grid-template-columns:minmax(0,1fr)}.outline{display:none}}
@media (max-width:768px){
.shell{display:block}.menu{display:inline-flex}.tabs{order:5;flex-basis:100%;overflow-x:auto;flex-wrap:nowrap}
.tools .label,.tools kbd{display:none}
.js .sidebar{display:none}.js.nav-open .sidebar{display:block;position:static;max-height:none;border-right:0;border-bottom:1px solid var(--line)}
main{padding:1rem 1.1rem 2rem}h1{font-size:1.6rem}.cover.full,.cover.hero{margin:-1rem -1.1rem 1.5rem;border-radius:0}
.pager{grid-template-columns:1fr}.pager .next{grid-column:1}}
@media print{.top,.sidebar,.outline,.pager,.skip,dialog{display:none!important}.shell{display:block}main{padding:0}a{color:inherit}body{background:#fff;color:#000}article pre{white-space:pre-wrap}}
`;
