import { fromMarkdown, toHtml } from '@quire/document';
import { esc } from '@quire/render';
import type { Field } from './schema.ts';

// Fields (a schema's tree, an operation's parameters) as HTML: every value from the spec escaped,
// descriptions read as markdown and rendered by @quire/document (sanitized).

/** A spec's CommonMark description as sanitized HTML. */
export const markdownHtml = (text: string | undefined): string => (text ? `<div class="oa-desc">${toHtml(fromMarkdown(text))}</div>` : '');

export const valueText = (v: unknown): string => (typeof v === 'string' ? v : JSON.stringify(v));
const code = (v: unknown) => `<code>${esc(valueText(v))}</code>`;

function factsHtml(f: Field): string {
  const facts = [
    f.default !== undefined ? `Default: ${code(f.default)}` : '',
    f.enum?.length ? `Possible values: ${f.enum.map(code).join(' ')}` : '',
    f.example !== undefined ? `Example: ${code(f.example)}` : '',
  ].filter(Boolean);
  return facts.length ? `<div class="oa-facts">${facts.map((x) => `<span>${x}</span>`).join('')}</div>` : '';
}

function badges(f: Field): string {
  return [
    f.required ? '<span class="oa-badge oa-required">Required</span>' : '',
    f.deprecated ? '<span class="oa-badge oa-deprecated">Deprecated</span>' : '',
    f.readOnly ? '<span class="oa-badge">Read-only</span>' : '',
    f.writeOnly ? '<span class="oa-badge">Write-only</span>' : '',
  ].join('');
}

function variantsHtml(f: Field): string {
  const v = f.variants;
  if (!v) return '';
  const byName = new Map(Object.entries(v.mapping ?? {}).map(([value, name]) => [name, value]));
  const head = `<p class="oa-variants-head">${v.kind === 'oneOf' ? 'One of' : 'Any of'}${v.discriminator ? `, by <code>${esc(v.discriminator)}</code>` : ''}</p>`;
  const options = v.options.map((o, i) => {
    const when = byName.get(o.type);
    const title = `${esc(o.type || `Option ${i + 1}`)}${when !== undefined ? ` <small>(${esc(v.discriminator ?? '')} = <code>${esc(when)}</code>)</small>` : ''}`;
    return `<details class="oa-variant"><summary>${title}</summary>${markdownHtml(o.description)}${fieldsHtml(o.children)}${variantsHtml(o)}</details>`;
  });
  return `<div class="oa-variants">${head}${options.join('')}</div>`;
}

function fieldHtml(f: Field): string {
  const type = f.recursive
    ? `<span class="oa-type oa-ref" title="Shown above">${esc(f.type)} (recursive)</span>`
    : f.external
      ? `<span class="oa-type oa-ref" title="${esc(f.external)}">${esc(f.type)} (not in this spec)</span>`
      : `<span class="oa-type">${esc(f.type)}</span>`;
  const nested = f.children.length || f.variants ? `<details class="oa-children"><summary>Show properties</summary>${fieldsHtml(f.children)}${variantsHtml(f)}</details>` : '';
  return `<li class="oa-field"><div class="oa-field-head"><code class="oa-name">${esc(f.name ?? '')}</code>${type}${badges(f)}</div>${markdownHtml(f.description)}${factsHtml(f)}${nested}</li>`;
}

export const fieldsHtml = (fields: Field[]): string => (fields.length ? `<ul class="oa-fields">${fields.map(fieldHtml).join('')}</ul>` : '');

/** A body or response schema: its fields, or its one value's type when it has none. */
export function schemaHtml(root: Field): string {
  if (root.children.length || root.variants)
    return `${root.type && root.type !== 'object' ? `<p class="oa-type">${esc(root.type)}</p>` : ''}${fieldsHtml(root.children)}${variantsHtml(root)}`;
  return `<p><span class="oa-type">${esc(root.type)}</span></p>${markdownHtml(root.description)}${factsHtml(root)}`;
}
