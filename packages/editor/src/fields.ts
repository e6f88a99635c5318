import { emojiText, toPlainText, type ContentRef, type TopLevelBlock } from '@quire/document';

// The fields a writer edits on the model's void inlines and blocks that have no text of their own
// (emoji, icons, mentions, buttons, inline images; OpenAPI operations, integrations, drawings, reusable
// content, side-by-side images, card and typed tables). Each field reads a string from the node's
// JSON and writes one back into a copy, touching nothing else, so a node whose fields are left
// alone is saved as it was read. Plain functions over JSON: the node views (blocks.ts) show them.
import { dataField, dataOf, pick, plainParagraph, type Control, type Field, type Json } from './field-kit.ts';
import { tableFields } from './fields-table.ts';

export { NO_CHOICES, type Action, type Choice, type Choices, type Control, type Field, type FileChoice, type Json } from './field-kit.ts';

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

/** An emoji's characters ⇄ its code (`1f44d`, `1f1eb-1f1f7`; the other way is @quire/document's emojiText). */
export const emojiCode = (text: string) => [...text.trim()].map((c) => c.codePointAt(0)!.toString(16)).join('-');

const METHODS = ['get', 'post', 'put', 'patch', 'delete', 'head', 'options', 'trace'];

/** An icon's name (GitBook's icon set, `rocket`, `circle-check`); an empty name is not written. */
const iconField = (optional: boolean): Field => {
  const field = dataField('Icon', 'icon', { optional });
  return { ...field, write: (v, text) => (text.trim() || optional ? field.write(v, text.trim()) : v) };
};

export const INLINE_FIELDS: Record<string, Field[]> = {
  emoji: [
    { label: 'Emoji', read: (v) => emojiText(String(dataOf(v).code ?? '')), write: (v, text) => (text.trim() ? { ...v, data: { ...dataOf(v), code: emojiCode(text) } } : v) },
  ],
  mention: [refField('Mentions', 'ref', ['user', 'page'])],
  button: [
    dataField('Label', 'label'),
    dataField('Style', 'kind', { options: pick(['primary', 'secondary']) }),
    iconField(true),
    refField('Links to page', 'ref', ['page']),
    urlField('Links to URL', 'ref'),
  ],
  icon: [iconField(false)],
  'inline-image': [dataField('Caption', 'caption', { optional: true }), dataField('Size', 'size', { optional: true, options: pick(['', 'original', 'line']) })],
};

const newImage = (file: string): Json => ({ object: 'block', type: 'image', isVoid: true, data: { ref: { kind: 'file', file } }, fragments: [] });

/**
 * Side-by-side images: the group's alignment; each image's alt text, its place (moved left or
 * right) and its removal (the last one stays: the block itself is deleted as any block is); an
 * image added at the end from the space's files.
 */
function imagesFields(value: Json): Control[] {
  const images = (value.nodes ?? []) as Json[];
  const nodesOf = (v: Json) => [...(v.nodes as Json[])];
  const setImage = (v: Json, i: number, image: Json): Json => ({ ...v, nodes: nodesOf(v).map((x, j) => (j === i ? image : x)) });
  /** The images with image `i` moved to `to`, if there is such a place. */
  const move = (v: Json, i: number, to: number): Json | undefined => {
    const nodes = nodesOf(v);
    if (to < 0 || to >= nodes.length) return undefined;
    nodes.splice(to, 0, ...nodes.splice(i, 1));
    return { ...v, nodes };
  };
  // "Add image" first: a new, empty block focuses it.
  return [
    {
      label: 'Add image',
      read: () => '',
      write: (v, file) => (file ? { ...v, nodes: [...nodesOf(v), newImage(file)] } : v),
      options: (_v, c) => [['', 'Choose a file…'], ...c.files.map((f): [string, string] => [f.id, f.title])],
    },
    dataField('Alignment', 'align', { optional: true, options: pick(['', 'left', 'center', 'right']) }),
    ...images.flatMap((_img, i): Control[] => [
      {
        label: `Image ${i + 1} alt text`,
        read: (v) => String(dataOf((v.nodes as Json[])[i]!).alt ?? ''),
        write: (v, text) => {
          const image = (v.nodes as Json[])[i]!;
          return setImage(v, i, { ...image, data: { ...dataOf(image), alt: text } });
        },
      },
      { label: `Move image ${i + 1} left`, apply: (v) => move(v, i, i - 1) },
      { label: `Move image ${i + 1} right`, apply: (v) => move(v, i, i + 1) },
      { label: `Remove image ${i + 1}`, apply: (v) => (nodesOf(v).length > 1 ? { ...v, nodes: nodesOf(v).filter((_x, j) => j !== i) } : undefined) },
    ]),
  ];
}

const BLOCK_FIELDS: Record<string, Control[] | ((value: Json) => Control[])> = {
  swagger: [refField('Spec file', 'ref', ['file']), urlField('Spec URL', 'ref'), dataField('Path', 'path'), dataField('Method', 'method', { options: pick(METHODS) })],
  'openapi-operation': [
    {
      label: 'Organization spec (slug)',
      read: (v) => String((dataOf(v).ref as { spec?: string } | undefined)?.spec ?? ''),
      write: (v, spec) => ({ ...v, data: { ...dataOf(v), ref: { kind: 'openapi', spec } } }),
    },
    dataField('Path', 'path'),
    dataField('Method', 'method', { options: pick(METHODS) }),
  ],
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

export const blockFields = (value: Json): Control[] | undefined => {
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
  const nodes = text.split('\n').map(plainParagraph);
  return { ...note, fragments: [{ ...body, nodes }, ...((note.fragments ?? []) as Fragment[]).slice(1)] };
}

/** A new annotation (the model's inline without its text) holding `text` as its note. */
export const newAnnotation = (text: string): Json => withAnnotationText({ object: 'inline', type: 'annotation', isVoid: false, data: {}, fragments: [] }, text);
