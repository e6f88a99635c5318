import { fromHtml } from 'hast-util-from-html';

/** The text a reader sees of an HTML fragment: tags gone, each text node apart, spaces collapsed. */
export function textOf(html: string): string {
  const out: string[] = [];
  const walk = (n: { type: string; value?: string; children?: unknown[] }) => (n.type === 'text' ? out.push(n.value!) : n.children?.forEach((c) => walk(c as never)));
  walk(fromHtml(html, { fragment: true }) as never);
  return out.join(' ').replace(/\s+/g, ' ');
}
