import type { DocumentInline, DocumentTextMark, InlineContent, MarkColorName } from '@quire/document';
import { rest, stripKeys, type PMMark, type PMNode, type RefHref } from './convert-json.ts';

// Inline content both ways: the model's texts, leaves and marks, links, annotations, math and
// void inlines ⇄ the editor's text nodes with marks, \`inlineMath\` and \`gbInline\` nodes.

type SimpleMark = Exclude<DocumentTextMark['type'], 'color'>;
const SIMPLE_MARKS: Record<string, string> = {
  bold: 'bold',
  italic: 'italic',
  code: 'code',
  strikethrough: 'strike',
  keyboard: 'keyboard',
  superscript: 'superscript',
  subscript: 'subscript',
};
const MARKS_BACK = Object.fromEntries(Object.entries(SIMPLE_MARKS).map(([model, editor]) => [editor, model])) as Record<string, SimpleMark>;

export const textOf = (nodes: InlineContent[]) => nodes.map(plain).join('');

export function plain(n: InlineContent): string {
  return n.object === 'text' ? n.leaves.map((l) => l.text).join('') : 'nodes' in n ? (n.nodes as InlineContent[]).map(plain).join('') : '';
}

function marksOf(marks: DocumentTextMark[]): PMMark[] {
  return marks.map((m) => (m.type === 'color' ? { type: 'color', attrs: { ...m.data } } : { type: SIMPLE_MARKS[m.type]! }));
}

export function inlines(nodes: InlineContent[], href: RefHref, outer: PMMark[] = []): PMNode[] {
  const out: PMNode[] = [];
  for (const n of nodes) {
    if (n.object === 'text') {
      for (const leaf of n.leaves) if (leaf.text) out.push(textNode(leaf.text, [...outer, ...marksOf(leaf.marks)]));
    } else if (n.type === 'link') {
      const link: PMMark = { type: 'link', attrs: { href: href(n.data.ref), ref: JSON.stringify(n.data.ref) } };
      out.push(...inlines(n.nodes as InlineContent[], href, [...outer, link]));
    } else if (n.type === 'annotation') {
      // The annotation without its text: what the mark carries (its note).
      const annotation: PMMark = { type: 'annotation', attrs: { note: JSON.stringify({ object: n.object, type: n.type, ...rest(n, []) }) } };
      out.push(...inlines(n.nodes, href, [...outer, annotation]));
    } else if (n.type === 'inline-math') {
      out.push({ type: 'inlineMath', attrs: { latex: n.data.formula }, ...(outer.length ? { marks: outer } : {}) });
    } else {
      out.push({ type: 'gbInline', attrs: { inline: JSON.stringify(stripKeys(n)) }, ...(outer.length ? { marks: outer } : {}) });
    }
  }
  return out;
}

const textNode = (text: string, marks: PMMark[]): PMNode => (marks.length ? { type: 'text', text, marks } : { type: 'text', text });

const sameMarks = (a: DocumentTextMark[], b: DocumentTextMark[]) => JSON.stringify(a) === JSON.stringify(b);

/** The model's inline a run of text is wrapped in: a link (its ref) or an annotation (the rest of it), as JSON. */
function wrapperOf(n: PMNode): { mark: PMMark; json: string } | undefined {
  const link = n.marks?.find((m) => m.type === 'link');
  if (link) return { mark: link, json: (link.attrs?.ref as string | null) ?? JSON.stringify({ kind: 'url', url: String(link.attrs?.href ?? '') }) };
  const annotation = n.marks?.find((m) => m.type === 'annotation');
  return annotation && { mark: annotation, json: String(annotation.attrs?.note) };
}

export function inlinesBack(content: PMNode[] = []): InlineContent[] {
  const out: InlineContent[] = [];
  let run: { type: string; json: string; nodes: PMNode[] } | undefined;
  const flush = () => {
    if (!run) return;
    const nodes = mergeTexts(leavesOf(run.nodes)) as never;
    out.push(
      (run.type === 'link' ? { object: 'inline', type: 'link', data: { ref: JSON.parse(run.json) }, nodes } : { ...(JSON.parse(run.json) as object), nodes }) as DocumentInline,
    );
    run = undefined;
  };
  for (const n of content) {
    const wrapper = wrapperOf(n);
    if (run && (run.type !== wrapper?.mark.type || run.json !== wrapper.json)) flush();
    if (wrapper) {
      run ??= { type: wrapper.mark.type, json: wrapper.json, nodes: [] };
      run.nodes.push({ ...n, marks: n.marks!.filter((m) => m.type !== 'link' && m.type !== 'annotation') });
    } else out.push(...leavesOf([n]));
  }
  flush();
  const merged = mergeTexts(out);
  return merged.length ? merged : [{ object: 'text', leaves: [{ object: 'leaf', text: '', marks: [] }] }];
}

function leavesOf(nodes: PMNode[]): InlineContent[] {
  return nodes.map((n) => {
    if (n.type === 'gbInline') return JSON.parse(n.attrs!.inline as string) as InlineContent;
    if (n.type === 'inlineMath') return { object: 'inline', type: 'inline-math', isVoid: true, data: { formula: String(n.attrs?.latex ?? '') } };
    if (n.type === 'hardBreak') return { object: 'text', leaves: [{ object: 'leaf', text: '\n', marks: [] }] };
    const marks: DocumentTextMark[] = (n.marks ?? []).flatMap((m): DocumentTextMark[] =>
      m.type === 'color'
        ? [{ object: 'mark', type: 'color', data: { text: m.attrs?.text as MarkColorName, background: m.attrs?.background as MarkColorName } }]
        : MARKS_BACK[m.type]
          ? [{ object: 'mark', type: MARKS_BACK[m.type]! }]
          : [],
    );
    return { object: 'text', leaves: [{ object: 'leaf', text: n.text ?? '', marks }] };
  });
}

/** Adjacent text nodes as one, and adjacent leaves with the same marks as one leaf. */
function mergeTexts(nodes: InlineContent[]): InlineContent[] {
  const out: InlineContent[] = [];
  for (const n of nodes) {
    const last = out.at(-1);
    if (n.object === 'text' && last?.object === 'text') {
      for (const leaf of n.leaves) {
        const prev = last.leaves.at(-1);
        if (prev && sameMarks(prev.marks, leaf.marks)) prev.text += leaf.text;
        else last.leaves.push({ ...leaf });
      }
    } else out.push(n.object === 'text' ? { object: 'text', leaves: n.leaves.map((l) => ({ ...l })) } : n);
  }
  return out;
}
