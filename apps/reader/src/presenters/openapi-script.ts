// The API reference's "Test it" script, joined to the reader's own script (its rules come with the
// operation's renderer, @quire/render/openapi). The console shows only where scripts run (the
// root's `js` class); the script sends the form as JSON to the site's proxy and shows the answer as text.

export const OPENAPI_JS = `(()=>{const d=document;
d.addEventListener('submit',async e=>{const f=e.target.closest('form[data-oa-try]');if(!f)return;e.preventDefault();
const out=f.querySelector('.oa-answer'),q=new URLSearchParams(),headers=[];let path=f.dataset.path;
f.querySelectorAll('input[data-in]').forEach(i=>{const v=i.value;if(i.dataset.in==='path')path=path.split('{'+i.dataset.name+'}').join(encodeURIComponent(v));else if(v==='')return;else if(i.dataset.in==='query')q.append(i.dataset.name,v);else if(i.dataset.in==='header')headers.push([i.dataset.name,v])});
const b=f.querySelector('[data-body]');if(b&&f.dataset.contentType)headers.push(['Content-Type',f.dataset.contentType]);
const url=f.querySelector('[data-server]').value.replace(/\\/$/,'')+path+(q.size?'?'+q:'');
out.hidden=false;out.textContent='Sending…';
try{const r=await fetch(f.action,{method:'POST',headers:{'content-type':'application/json'},body:JSON.stringify({siteSpace:f.dataset.siteSpace,page:f.dataset.page,block:Number(f.dataset.block),method:f.dataset.method,url,headers,body:b?b.value:undefined})});
const a=await r.json(),pre=d.createElement('pre'),h=d.createElement('p');
if(a.error){h.textContent='Not sent: '+a.error;out.replaceChildren(h);return}
h.className='oa-status oa-status-'+String(a.status)[0];h.textContent=a.status+' '+(a.headers.find(x=>x[0]==='content-type')||['',''])[1];
let t=a.body;try{t=JSON.stringify(JSON.parse(a.body),null,2)}catch(x){}pre.textContent=t;out.replaceChildren(h,pre)}
catch(x){out.textContent='Not sent: '+x.message}})})();`;
