// The rules of an API operation as the reader and the editor's preview draw it (operation.ts's
// classes), over the page's colour variables (--line, --soft, --muted, --accent, --bg, --fg).

export const OPENAPI_CSS = `.oa-op{border:1px solid var(--line);border-radius:8px;padding:1rem 1.25rem;margin:1.5rem 0}
.oa-op-head{display:flex;align-items:center;gap:.6rem;flex-wrap:wrap;font-size:1.05rem}
.oa-method{font:700 .78rem/1 ui-monospace,monospace;padding:.35rem .55rem;border-radius:4px;background:var(--soft);border:1px solid var(--line);text-transform:uppercase}
.oa-method-get{color:#0f7b3f}.oa-method-post{color:#1d5fd1}.oa-method-put,.oa-method-patch{color:#a35a00}.oa-method-delete{color:#c42b2b}
.oa-path{font-size:1rem;word-break:break-all}.oa-summary{font-weight:600;margin:.6rem 0 .2rem}
.oa-op-deprecated .oa-path{text-decoration:line-through}
.oa-badge{font-size:.72rem;padding:.1rem .4rem;border-radius:999px;border:1px solid var(--line);color:var(--muted);margin-left:.35rem}
.oa-required{color:#b45309;border-color:currentColor}.oa-deprecated{color:#c42b2b;border-color:currentColor}
.oa-heading{font-size:.95rem;margin:1.2rem 0 .4rem;border-bottom:1px solid var(--line);padding-bottom:.25rem}
.oa-label{color:var(--muted);font-size:.85rem}.oa-servers{margin:.5rem 0;display:flex;gap:.5rem;flex-wrap:wrap;align-items:center}
.oa-fields{list-style:none;padding-left:0;margin:.2rem 0}.oa-fields .oa-fields{padding-left:1rem;border-left:2px solid var(--line)}
.oa-field{padding:.45rem 0;border-bottom:1px solid var(--line)}.oa-field:last-child{border-bottom:0}
.oa-field-head{display:flex;gap:.5rem;align-items:baseline;flex-wrap:wrap}.oa-type{color:var(--muted);font-size:.85rem}
.oa-ref{font-style:italic}.oa-desc>:first-child{margin-top:.2rem}.oa-desc>:last-child{margin-bottom:.2rem}
.oa-facts{display:flex;gap:.75rem;flex-wrap:wrap;font-size:.85rem;color:var(--muted)}
.oa-children>summary,.oa-variant>summary,.oa-example>summary{cursor:pointer;font-size:.85rem;color:var(--accent)}
.oa-response{border:1px solid var(--line);border-radius:6px;padding:.4rem .75rem;margin:.4rem 0}.oa-response>summary{cursor:pointer}
.oa-status{font:700 .85rem ui-monospace,monospace}.oa-status-2{color:#0f7b3f}.oa-status-4,.oa-status-5{color:#c42b2b}
.oa-samples{margin-top:1rem}.oa-sample>summary{cursor:pointer;font-weight:600}.oa-sample pre,.oa-example pre,.oa-answer pre{max-height:24rem;overflow:auto}
.oa-try{display:none;margin-top:1rem;border-top:1px solid var(--line);padding-top:.6rem}.js .oa-try{display:block}.oa-try>summary{cursor:pointer;font-weight:600}
.oa-input{display:grid;gap:.2rem;margin:.5rem 0}.oa-input input,.oa-input select,.oa-input textarea{font:inherit;padding:.35rem .5rem;border:1px solid var(--line);border-radius:4px;background:var(--bg);color:var(--fg)}
.oa-input textarea{font-family:ui-monospace,monospace;font-size:.85rem}.oa-try button{margin-top:.5rem;padding:.4rem 1rem;border-radius:4px;border:1px solid var(--accent);background:var(--accent);color:#fff;cursor:pointer}
.oa-missing{color:var(--muted)}@media print{.oa-try{display:none}}`;
