// The one stylesheet of rendered documents (toHtml's markup), shared by the reader and the web
// app so a page looks the same in both. Colours come from the host's custom properties:
// --line, --code, --soft, --accent. `&` stands for the element holding the document.
const RULES = `
& h2{margin-top:2rem;padding-top:.5rem;border-top:1px solid var(--line)}
& :is(p,li,td,th,h1,h2,h3,h4,h5,h6,figcaption,summary){unicode-bidi:plaintext}
& img{max-width:100%;height:auto}
& figure{margin:1rem 0}
& :is(.hljs-keyword,.hljs-built_in,.hljs-selector-tag){color:#a626a4}& :is(.hljs-string,.hljs-attr){color:#2f7a2e}& :is(.hljs-number,.hljs-literal){color:#875c00}& .hljs-comment{color:#5f6670;font-style:italic}& :is(.hljs-title,.hljs-function){color:#2a5bd7}& .hljs-type{color:#875c00}
[data-theme=dark] & :is(.hljs-keyword,.hljs-built_in,.hljs-selector-tag){color:#c678dd}[data-theme=dark] & :is(.hljs-string,.hljs-attr){color:#98c379}[data-theme=dark] & :is(.hljs-number,.hljs-literal,.hljs-type){color:#d19a66}[data-theme=dark] & .hljs-comment{color:#9aa1ab}[data-theme=dark] & :is(.hljs-title,.hljs-function){color:#61afef}
& pre{background:var(--code);padding:1rem;border-radius:8px;overflow:auto;font-size:.9rem}
& code{font-family:ui-monospace,"SFMono-Regular",Menlo,monospace;font-size:.9em}
& :not(pre)>code{background:var(--code);padding:.1rem .3rem;border-radius:4px}
& table{border-collapse:collapse;display:block;overflow:auto}
& th,& td{border:1px solid var(--line);padding:.4rem .7rem}
& blockquote,& .hint{margin:1rem 0;padding:.7rem 1rem;border-left:4px solid var(--accent);background:var(--soft);border-radius:4px}
& .hint-warning{border-color:#d97706}& .hint-danger{border-color:#dc2626}& .hint-success{border-color:#16a34a}
& details{border:1px solid var(--line);border-radius:8px;padding:.5rem 1rem;margin:1rem 0}
`.trim();

/** The document stylesheet for documents rendered inside `scope` (a CSS selector such as `article`). */
export function documentStyles(scope: string): string {
  return RULES.replaceAll('&', scope);
}
