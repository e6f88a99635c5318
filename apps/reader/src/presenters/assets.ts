import { createHash } from 'node:crypto';
import { READER_CSS } from '@quire/render';
import { OPENAPI_CSS } from '@quire/render/openapi';
import { OPENAPI_JS } from './openapi-script.ts';

// The reader's only stylesheet (shared with exports and PDFs: @quire/render) and script: small, no
// framework. Served under a path holding their hash, so browsers keep them for a year and a new
// release is fetched at once. Escape closes the search dialog at once: a search box holding text
// would take the first Escape to clear itself (the text stays, selected when the dialog reopens).

const SITE_JS = `(()=>{const d=document,r=d.documentElement,K='quire-theme',M=['system','light','dark'];
const label=t=>'Theme: '+t;
const show=t=>d.querySelectorAll('[data-theme-toggle]').forEach(b=>{b.setAttribute('aria-label',label(t));b.querySelector('.label').textContent=t[0].toUpperCase()+t.slice(1)});
const setT=t=>{r.dataset.theme=t;try{localStorage.setItem(K,t)}catch(e){}show(t)};
show(r.dataset.theme||'system');
d.addEventListener('click',e=>{const t=e.target.closest('[data-theme-toggle]');if(t){setT(M[(M.indexOf(r.dataset.theme)+1)%3]);return}
const m=e.target.closest('[data-menu]');if(m){const o=r.classList.toggle('nav-open');m.setAttribute('aria-expanded',String(o));if(o)d.querySelector('#nav a')?.focus();return}
const s=e.target.closest('[data-search]');if(s&&dlg){e.preventDefault();open()}});
const dlg=d.getElementById('search-dialog'),inp=dlg&&dlg.querySelector('input'),out=dlg&&dlg.querySelector('.results'),base=r.dataset.base;
function open(){dlg.showModal();inp.select()}
d.addEventListener('keydown',e=>{if((e.ctrlKey||e.metaKey)&&e.key.toLowerCase()==='k'&&dlg){e.preventDefault();open()}});
dlg&&dlg.addEventListener('keydown',e=>{if(e.key==='Escape'){e.preventDefault();dlg.close()}});
let timer,seq=0;
inp&&inp.addEventListener('input',()=>{clearTimeout(timer);timer=setTimeout(run,150)});
async function run(){const q=inp.value.trim(),n=++seq;if(!q){out.replaceChildren();return}
const res=await fetch(base+'/~search?q='+encodeURIComponent(q),{headers:{accept:'application/json'}});if(n!==seq||!res.ok)return;
const {items}=await res.json();out.replaceChildren(...(items.length?items.map(i=>{const li=d.createElement('li'),a=d.createElement('a');a.href=i.url;a.textContent=i.title;if(i.section){const s=d.createElement('small');s.textContent=i.section;a.append(s)}li.append(a);return li}):[Object.assign(d.createElement('li'),{textContent:'No results for “'+q+'”'})]))}
})();`;

const CSS = `${READER_CSS.trim()}\n${OPENAPI_CSS}`;
const JS = `${SITE_JS}\n${OPENAPI_JS}`;

const digest = (s: string) => createHash('sha256').update(s).digest('hex').slice(0, 12);

export const ASSETS = {
  css: { body: CSS, type: 'text/css; charset=utf-8', path: `/_reader/${digest(CSS)}/reader.css` },
  js: { body: JS, type: 'text/javascript; charset=utf-8', path: `/_reader/${digest(JS)}/reader.js` },
} as const;

/** Set before the first paint so a dark page never flashes light: the saved theme, or the site's default (always, when the site fixes it). */
export const THEME_BOOT = `(()=>{const r=document.documentElement;r.classList.add('js');if('themeFixed' in r.dataset)return;try{const t=localStorage.getItem('quire-theme');if(t==='light'||t==='dark'||t==='system')r.dataset.theme=t}catch(e){}})()`;
