// The one stylesheet of rendered documents (toHtml's markup), shared by the reader and the web
// app so a page looks the same in both. Colours come from the host's custom properties:
// --line, --code, --soft, --accent. `&` stands for the element holding the document.
// GitBook's colour marks (toHtml's `color-*` and `bg-*` classes): text colours readable on the
// page's background in both themes, backgrounds light with dark text.
const PALETTE: Record<string, [light: string, dark: string, background: string]> = {
  green: ['#15803d', '#4ade80', '#dcfce7'],
  blue: ['#1d4ed8', '#93b4ff', '#dbeafe'],
  red: ['#b91c1c', '#f87171', '#fee2e2'],
  orange: ['#c2410c', '#fb923c', '#ffedd5'],
  yellow: ['#a16207', '#facc15', '#fef9c3'],
  purple: ['#7e22ce', '#c084fc', '#f3e8ff'],
  primary: ['var(--accent)', 'var(--accent)', 'var(--soft)'],
  info: ['#1d4ed8', '#93b4ff', '#dbeafe'],
  success: ['#15803d', '#4ade80', '#dcfce7'],
  warning: ['#b45309', '#fbbf24', '#fef3c7'],
  danger: ['#b91c1c', '#f87171', '#fee2e2'],
};
const COLORS = Object.entries(PALETTE)
  .map(
    ([name, [light, dark, background]]) => `& .color-${name}{color:${light}}[data-theme=dark] & .color-${name}{color:${dark}}& .bg-${name}{background:${background};color:#1c1f24}`,
  )
  .join('');

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
& td :is(p,ul,ol){margin:.5rem 0}& td>:first-child{margin-top:0}& td>:last-child{margin-bottom:0}& td li>p{margin:0}
& blockquote,& .hint{margin:1rem 0;padding:.7rem 1rem;border-left:4px solid var(--accent);background:var(--soft);border-radius:4px}
& .hint-warning{border-color:#d97706}& .hint-danger{border-color:#dc2626}& .hint-success{border-color:#16a34a}
& details{border:1px solid var(--line);border-radius:8px;padding:.5rem 1rem;margin:1rem 0}
& mark{background:none;color:inherit;border-radius:3px}
& .button{display:inline-block;padding:.15rem .8rem;border-radius:6px;text-decoration:none;font-weight:600;border:1px solid var(--accent)}& .button-primary{background:var(--accent);color:var(--bg)}
& img.inline-image-line{height:1.2em;vertical-align:text-bottom}
${COLORS}
`.trim();

/** The document stylesheet for documents rendered inside `scope` (a CSS selector such as `article`). */
export function documentStyles(scope: string): string {
  return RULES.replaceAll('&', scope);
}
