import { toPlainText, type ContentRef, type TopLevelBlock } from '@quire/document';

// The fields a writer edits on the model's void inlines and blocks that have no text of their own
// (emoji, mentions, buttons, inline images; OpenAPI operations, integrations, drawings, reusable
// content, side-by-side images, card and typed tables). Each field reads a string from the node's
// JSON and writes one back into a copy, touching nothing else, so a node whose fields are left
// alone is saved as it was read. Plain functions over JSON: the node views (blocks.ts) show them.

/** Something the space offers to point at: a page, a member, a file, a reusable content. */
export interface Choice {
  id: string;
  title: string;
}
export interface FileChoice extends Choice {
  /** Where the browser loads it from. */
  url: string;
}
/** What the editor can offer in its pickers, from the change request and the organization. */
export interface Choices {
  pages: Choice[];
  users: Choice[];
  files: FileChoice[];
  reusableContents: Choice[];
}
export const NO_CHOICES: Choices = { pages: [], users: [], files: [], reusableContents: [] };

/** A model node as JSON (its `data`, `fragments`…). */
export type Json = Record<string, unknown>;

export interface Field {
  label: string;
  read(value: Json): string;
  write(value: Json, text: string): Json;
  /** A select's options (value, label); a text input without. */
  options?: (value: Json, choices: Choices) => [string, string][];
  multiline?: boolean;
}

const dataOf = (value: Json) => (value.data ?? {}) as Json;

/** `data[key]` as text; an empty text removes the key when `optional`. */
function dataField(label: string, key: string, extra: Partial<Field> & { optional?: boolean } = {}): Field {
  const { optional, ...rest } = extra;
  return {
    label,
    read: (v) => (dataOf(v)[key] === undefined ? '' : String(dataOf(v)[key])),
    write: (v, text) => {
      const data = { ...dataOf(v) };
      if (optional && text === '') delete data[key];
      else data[key] = text;
      return { ...v, data };
    },
    ...rest,
  };
}

const pick = (values: string[]) => () => values.map((v): [string, string] => [v, v || 'Default']);

/** A ref field: the ref as `kind:id` (or a URL), chosen among `kinds` of the space's choices. */
function refField(label: string, key: string, kinds: ('page' | 'user' | 'file')[]): Field {
  return {
    label,
    read: (v) => refValue(dataOf(v)[key] as ContentRef | undefined),
    write: (v, text) => (text === '' || text === refValue(dataOf(v)[key] as ContentRef | undefined) ? v : { ...v, data: { ...dataOf(v), [key]: refOf(text) } }),
    options: (_v, c) =>
      kinds.flatMap((kind) => (kind === 'page' ? c.pages : kind === 'user' ? c.users : c.files).map((x): [string, string] => [`${kind}:${x.id}`, `${KIND[kind]}: ${x.title}`])),
  };
}
const KIND = { page: 'Page', user: 'Member', file: 'File' } as const;

/** A ref as one string: `page:…`, `user:…`, `file:…`, else its URL (or its JSON for other kinds). */
export function refValue(ref: ContentRef | undefined): string {
  if (!ref) return '';
  if (ref.kind === 'page' && !ref.space) return `page:${ref.page}`;
  if (ref.kind === 'user') return `user:${ref.user}`;
  if (ref.kind === 'file') return `file:${ref.file}`;
  if (ref.kind === 'url') return ref.url;
  return JSON.stringify(ref);
}
export function refOf(value: string): ContentRef {
  const [, kind, id] = /^(page|user|file):(.+)$/.exec(value) ?? [];
  if (kind === 'page') return { kind: 'page', page: id! };
  if (kind === 'user') return { kind: 'user', user: id! };
  if (kind === 'file') return { kind: 'file', file: id! };
  return value.startsWith('{') ? (JSON.parse(value) as ContentRef) : { kind: 'url', url: value };
}

/** A URL typed for a ref (a URL ref; other refs show empty). */
const urlField = (label: string, key: string): Field => ({
  label,
  read: (v) => ((dataOf(v)[key] as ContentRef | undefined)?.kind === 'url' ? (dataOf(v)[key] as { url: string }).url : ''),
  write: (v, url) => ({ ...v, data: { ...dataOf(v), [key]: { kind: 'url', url } } }),
});

/** An emoji's code (`1f44d`, `1f1eb-1f1f7`) ⇄ its characters. */
export const emojiText = (code: string) =>
  code
    .split('-')
    .map((hex) => {
      const cp = parseInt(hex, 16);
      return Number.isFinite(cp) && cp > 0 && cp <= 0x10ffff ? String.fromCodePoint(cp) : '';
    })
    .join('') || code;
export const emojiCode = (text: string) => [...text.trim()].map((c) => c.codePointAt(0)!.toString(16)).join('-');

const METHODS = ['get', 'post', 'put', 'patch', 'delete', 'head', 'options', 'trace'];

export const INLINE_FIELDS: Record<string, Field[]> = {
  emoji: [
    { label: 'Emoji', read: (v) => emojiText(String(dataOf(v).code ?? '')), write: (v, text) => (text.trim() ? { ...v, data: { ...dataOf(v), code: emojiCode(text) } } : v) },
  ],
  mention: [refField('Mentions', 'ref', ['user', 'page'])],
  button: [
    dataField('Label', 'label'),
    dataField('Style', 'kind', { options: pick(['primary', 'secondary']) }),
    refField('Links to page', 'ref', ['page']),
    urlField('Links to URL', 'ref'),
  ],
  'inline-image': [dataField('Caption', 'caption', { optional: true }), dataField('Size', 'size', { optional: true, options: pick(['', 'original', 'line']) })],
};

/** A table's cells that fit one field: a text cell of one plain run (its marks kept), a number, a checkbox, a choice, a rating. */
function tableFields(value: Json): Field[] {
  const data = dataOf(value) as {
    view: { type: string; columns: string[]; cardSize?: string; hideColumnTitle?: boolean };
    records: Record<string, { orderIndex: string; values: Record<string, unknown> }>;
    definition: Record<string, { title: string; type: string; options?: { value: string; label: string }[]; max?: number; multiple?: boolean }>;
  };
  const fields: Field[] = [];
  if (data.view.type === 'cards') {
    fields.push({
      label: 'Card size',
      read: (v) => String((dataOf(v).view as Json).cardSize),
      write: (v, text) => ({ ...v, data: { ...dataOf(v), view: { ...(dataOf(v).view as Json), cardSize: text } } }),
      options: pick(['medium', 'large']),
    });
  }
  const records = Object.entries(data.records).sort(([, a], [, b]) => (a.orderIndex < b.orderIndex ? -1 : a.orderIndex > b.orderIndex ? 1 : 0));
  records.forEach(([id], row) => {
    for (const column of data.view.columns) {
      const def = data.definition[column];
      if (!def) continue;
      const label = `Row ${row + 1} ${def.title || `column ${data.view.columns.indexOf(column) + 1}`}`;
      const cell = (v: Json) => (dataOf(v).records as typeof data.records)[id]!.values[column];
      const setCell = (v: Json, cellValue: unknown): Json => {
        const d = dataOf(v) as typeof data;
        const record = d.records[id]!;
        const values = { ...record.values };
        if (cellValue === undefined) delete values[column];
        else values[column] = cellValue;
        return { ...v, data: { ...d, records: { ...d.records, [id]: { ...record, values } } } };
      };
      if (def.type === 'text') {
        const fragmentOf = (v: Json) => ((v.fragments ?? []) as { fragment: string; nodes: Json[] }[]).find((f) => f.fragment === cell(v));
        const leaf = (v: Json) => {
          const nodes = fragmentOf(v)?.nodes;
          const texts = nodes?.length === 1 && nodes[0]!.type === 'paragraph' ? (nodes[0]!.nodes as Json[]) : undefined;
          return texts?.length === 1 && texts[0]!.object === 'text' && (texts[0]!.leaves as Json[]).length === 1 ? (texts[0]!.leaves as Json[])[0] : undefined;
        };
        if (!leaf(value)) continue;
        fields.push({
          label,
          read: (v) => String(leaf(v)?.text ?? ''),
          write: (v, text) => {
            const f = fragmentOf(v)!;
            const [p] = f.nodes;
            const [t] = p!.nodes as Json[];
            const nodes = [{ ...p, nodes: [{ ...t, leaves: [{ ...leaf(v), text }] }] }];
            return { ...v, fragments: (v.fragments as Json[]).map((x) => (x === f ? { ...f, nodes } : x)) };
          },
        });
      } else if (def.type === 'number' || def.type === 'rating') {
        fields.push({
          label,
          read: (v) => (cell(v) === undefined ? '' : String(cell(v))),
          write: (v, text) => (text.trim() === '' ? setCell(v, undefined) : Number.isFinite(Number(text)) ? setCell(v, Number(text)) : v),
        });
      } else if (def.type === 'checkbox') {
        fields.push({
          label,
          read: (v) => String(cell(v) === true),
          write: (v, text) => setCell(v, text === 'true'),
          options: () => [
            ['false', 'No'],
            ['true', 'Yes'],
          ],
        });
      } else if (def.type === 'select' && !def.multiple) {
        fields.push({
          label,
          read: (v) => String((cell(v) as string[] | undefined)?.[0] ?? ''),
          write: (v, text) => setCell(v, text ? [text] : []),
          options: () => [['', 'None'], ...(def.options ?? []).map((o): [string, string] => [o.value, o.label])],
        });
      }
    }
  });
  return fields;
}

/** Side-by-side images: the group's alignment, each image's alt text and caption (a caption of one plain run). */
function imagesFields(value: Json): Field[] {
  const images = (value.nodes ?? []) as Json[];
  const setImage = (v: Json, i: number, image: Json): Json => ({ ...v, nodes: (v.nodes as Json[]).map((x, j) => (j === i ? image : x)) });
  return [
    dataField('Alignment', 'align', { optional: true, options: pick(['', 'left', 'center', 'right']) }),
    ...images.map((_img, i): Field => ({
      label: `Image ${i + 1} alt text`,
      read: (v) => String(dataOf((v.nodes as Json[])[i]!).alt ?? ''),
      write: (v, text) => {
        const image = (v.nodes as Json[])[i]!;
        return setImage(v, i, { ...image, data: { ...dataOf(image), alt: text } });
      },
    })),
  ];
}

const BLOCK_FIELDS: Record<string, Field[] | ((value: Json) => Field[])> = {
  swagger: [refField('Spec file', 'ref', ['file']), urlField('Spec URL', 'ref'), dataField('Path', 'path'), dataField('Method', 'method', { options: pick(METHODS) })],
  integration: [
    dataField('Integration', 'integration'),
    dataField('Integration block', 'block'),
    {
      label: 'Properties (JSON)',
      multiline: true,
      read: (v) => JSON.stringify(dataOf(v).props ?? {}, null, 2),
      // Text that is not a JSON object yet (mid-typing) changes nothing.
      write: (v, text) => {
        try {
          const props = JSON.parse(text) as unknown;
          return props && typeof props === 'object' && !Array.isArray(props) ? { ...v, data: { ...dataOf(v), props } } : v;
        } catch {
          return v;
        }
      },
    },
  ],
  drawing: [refField('Drawing', 'ref', ['file'])],
  'reusable-content': [
    {
      label: 'Reusable content',
      read: (v) => String((dataOf(v).ref as { reusableContent?: string } | undefined)?.reusableContent ?? ''),
      write: (v, id) => (id ? { ...v, data: { ...dataOf(v), ref: { ...(dataOf(v).ref as Json), kind: 'reusable-content', reusableContent: id } } } : v),
      options: (_v, c) => c.reusableContents.map((r): [string, string] => [r.id, r.title || r.id]),
    },
  ],
  images: imagesFields,
  table: tableFields,
};

export const blockFields = (value: Json): Field[] | undefined => {
  const f = BLOCK_FIELDS[String(value.type)];
  return typeof f === 'function' ? f(value) : f;
};
export const inlineFields = (value: Json): Field[] | undefined => INLINE_FIELDS[String(value.type)];

// Annotations: a note on a run of text. The editor edits the note as plain text, a paragraph a
// line; a note left alone keeps its blocks as they were.

type Fragment = { object: 'fragment'; fragment: string; type?: string; nodes: TopLevelBlock[] };
const bodyOf = (note: Json) => ((note.fragments ?? []) as Fragment[])[0];

export const annotationText = (note: Json): string => {
  const body = bodyOf(note);
  // A block a line (an empty paragraph an empty line, so that a typed line break stays).
  return (body?.nodes ?? []).map((n) => toPlainText({ object: 'document', data: {}, nodes: [n] })).join('\n');
};

export function withAnnotationText(note: Json, text: string): Json {
  const body = bodyOf(note) ?? { object: 'fragment', fragment: 'annotation-body', type: 'annotation-body', nodes: [] };
  const nodes = text.split('\n').map((line) => ({ object: 'block', type: 'paragraph', nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: line, marks: [] }] }] }));
  return { ...note, fragments: [{ ...body, nodes }, ...((note.fragments ?? []) as Fragment[]).slice(1)] };
}

/** A new annotation (the model's inline without its text) holding `text` as its note. */
export const newAnnotation = (text: string): Json => withAnnotationText({ object: 'inline', type: 'annotation', isVoid: false, data: {}, fragments: [] }, text);
