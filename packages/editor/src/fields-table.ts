import { dequal } from 'dequal';
import { fromMarkdown, toMarkdown, type JSONDocument } from '@quire/document';
import { dataOf, pick, plainParagraph, type Field, type Json } from './field-kit.ts';

// The fields of card and typed tables: a cell a field, in the cell's kind.

// A text cell's fragment holds paragraphs and code blocks (packages/document's HTML tables write no
// others); an empty cell is one empty paragraph.
const CELL_BLOCKS = new Set(['paragraph', 'code']);
const cellMarkdown = (nodes: Json[]) => toMarkdown({ object: 'document', data: {}, nodes } as unknown as JSONDocument).trimEnd();
/** The cell's blocks `markdown` says, or undefined where a cell cannot hold them. */
function cellBlocks(markdown: string): Json[] | undefined {
  const nodes = fromMarkdown(markdown).nodes as unknown as Json[];
  if (nodes.some((n) => !CELL_BLOCKS.has(String(n.type)))) return undefined;
  return nodes.length ? nodes : [plainParagraph('')];
}
const NOT_A_CELL = 'Not saved: a cell holds paragraphs and code blocks only (no headings, lists, quotes…).';
const NO_ROUND_TRIP = "Read-only here: written as markdown, this cell's content would change (its links to pages, colours or other parts markdown does not keep).";

/**
 * A table's cells, a field each: a text cell of one plain run as that text (its marks kept), a
 * richer one as GitBook markdown (read-only where markdown would not give its blocks back as they
 * are), a number, a checkbox, a choice, a rating.
 */
export function tableFields(value: Json): Field[] {
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
        const nodes = fragmentOf(value)?.nodes;
        if (!nodes) continue;
        const setNodes = (v: Json, next: Json[]) => {
          const f = fragmentOf(v)!;
          return { ...v, fragments: (v.fragments as Json[]).map((x) => (x === f ? { ...f, nodes: next } : x)) };
        };
        if (!leaf(value)) {
          const read = (v: Json) => cellMarkdown(fragmentOf(v)!.nodes);
          fields.push({
            label,
            multiline: true,
            read,
            // Written only when the text differs from the cell's, so a cell left alone keeps its blocks.
            write: (v, text) => {
              const next = text === read(v) ? undefined : cellBlocks(text);
              return next ? setNodes(v, next) : v;
            },
            check: (text) => (cellBlocks(text) ? undefined : NOT_A_CELL),
            // A markdown round trip: asked once, when the field's control is made, not on every sync.
            get readOnly() {
              return dequal(cellBlocks(read(value)), nodes) ? undefined : NO_ROUND_TRIP;
            },
          });
          continue;
        }
        fields.push({
          label,
          read: (v) => String(leaf(v)?.text ?? ''),
          write: (v, text) => {
            const [p] = fragmentOf(v)!.nodes;
            const [t] = p!.nodes as Json[];
            return setNodes(v, [{ ...p, nodes: [{ ...t, leaves: [{ ...leaf(v), text }] }] }]);
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

/** A new image of side-by-side images, showing a file of the space. */
