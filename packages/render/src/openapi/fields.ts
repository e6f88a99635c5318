import { fromMarkdown, toHtml } from '@quire/document';
import { esc } from '../book.ts';
import { LRUCache } from 'lru-cache';
import type { Field } from './schema.ts';
import { refName } from './spec.ts';

// Fields (a schema's tree, an operation's parameters) as HTML: every value from the spec escaped,
// descriptions read as markdown and rendered by @quire/document (sanitized). A named schema's
// properties are drawn once on a page, collapsed; where it comes again, a link leads to them, so a
// page of operations sharing their schemas stays small.

/** The named schemas of one spec drawn on a page so far (reference → anchor id), and the ids' prefix. */
export interface Drawn {
  ids: Map<string, string>;
  prefix: string;
}

export const newDrawn = (prefix = 'oa-s'): Drawn => ({ ids: new Map(), prefix });

/** The anchor of a named schema drawn for the first time here; undefined when it has no name. */
function anchorOf(schema: string | undefined, drawn: Drawn): string | undefined {
  if (!schema) return undefined;
  const id = `${drawn.prefix}${drawn.ids.size + 1}`;
  drawn.ids.set(schema, id);
  return id;
}

const shownAbove = (f: Field, id: string) => `<p class="oa-same"><a href="#${id}">${esc(refName(f.schema!))} properties</a> shown above</p>`;

/** One line of words and plain punctuation: nothing markdown would read as markup, so its HTML is itself. */
const PLAIN = /^[A-Za-z][\w ,.;:'"()?/-]*$/;

// Descriptions repeat (a schema used by many operations): each is read once while there is room.
const described = new LRUCache<string, string>({ maxSize: 8 << 20, sizeCalculation: (html, text) => html.length + text.length });

/** A description's HTML, as @quire/document renders it. */
export function descriptionHtml(text: string): string {
  if (PLAIN.test(text) && !text.includes('://') && !text.includes('www.')) return `<p>${text.trim()}</p>`;
  let html = described.get(text);
  if (html === undefined) {
    html = toHtml(fromMarkdown(text));
    described.set(text, html);
  }
  return html;
}

/** A spec's CommonMark description as sanitized HTML. */
export const markdownHtml = (text: string | undefined): string => (text ? `<div class="oa-desc">${descriptionHtml(text)}</div>` : '');

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

function variantsHtml(f: Field, drawn: Drawn): string {
  const v = f.variants;
  if (!v) return '';
  const byName = new Map(Object.entries(v.mapping ?? {}).map(([value, name]) => [name, value]));
  const head = `<p class="oa-variants-head">${v.kind === 'oneOf' ? 'One of' : 'Any of'}${v.discriminator ? `, by <code>${esc(v.discriminator)}</code>` : ''}</p>`;
  const options = v.options.map((o, i) => {
    const when = byName.get(o.type);
    const title = `${esc(o.type || `Option ${i + 1}`)}${when !== undefined ? ` <small>(${esc(v.discriminator ?? '')} = <code>${esc(when)}</code>)</small>` : ''}`;
    return `<details class="oa-variant"><summary>${title}</summary>${markdownHtml(o.description)}${propertiesHtml(o, drawn, false)}</details>`;
  });
  return `<div class="oa-variants">${head}${options.join('')}</div>`;
}

/** A field's properties and variants (collapsed under "Show properties"), or a link to where its named schema's are drawn. */
function propertiesHtml(f: Field, drawn: Drawn, collapsed: boolean): string {
  if (!f.children.length && !f.variants) return '';
  const seen = f.schema && drawn.ids.get(f.schema);
  if (seen) return shownAbove(f, seen);
  const id = anchorOf(f.schema, drawn);
  const attrs = id ? ` id="${id}"` : '';
  const inner = `${fieldsHtml(f.children, drawn)}${variantsHtml(f, drawn)}`;
  return collapsed ? `<details class="oa-children"${attrs}><summary>Show properties</summary>${inner}</details>` : `<div class="oa-properties"${attrs}>${inner}</div>`;
}

function fieldHtml(f: Field, drawn: Drawn): string {
  const type = f.recursive
    ? `<span class="oa-type oa-ref" title="Shown above">${esc(f.type)} (recursive)</span>`
    : f.external
      ? `<span class="oa-type oa-ref" title="${esc(f.external)}">${esc(f.type)} (not in this spec)</span>`
      : `<span class="oa-type">${esc(f.type)}</span>`;
  const nested = propertiesHtml(f, drawn, true);
  return `<li class="oa-field"><div class="oa-field-head"><code class="oa-name">${esc(f.name ?? '')}</code>${type}${badges(f)}</div>${markdownHtml(f.description)}${factsHtml(f)}${nested}</li>`;
}

export const fieldsHtml = (fields: Field[], drawn: Drawn): string => (fields.length ? `<ul class="oa-fields">${fields.map((f) => fieldHtml(f, drawn)).join('')}</ul>` : '');

/** A body or response schema: its fields, or its one value's type when it has none. */
export function schemaHtml(root: Field, drawn: Drawn): string {
  if (root.children.length || root.variants) return `${root.type && root.type !== 'object' ? `<p class="oa-type">${esc(root.type)}</p>` : ''}${propertiesHtml(root, drawn, false)}`;
  return `<p><span class="oa-type">${esc(root.type)}</span></p>${markdownHtml(root.description)}${factsHtml(root)}`;
}
