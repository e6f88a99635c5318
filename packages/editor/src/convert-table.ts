import type { DocumentBlock, DocumentBlockTable, DocumentFragment, DocumentTableDefinition, DocumentTableRecord, DocumentTableViewGrid } from '@quire/document';
import { freshId, json, parse, stripKeys, withContent, type PMNode } from './convert-json.ts';
import { inlinesBack, textOf } from './convert-inline.ts';

// Tables: a grid whose columns are all text edits as a table, a text cell's fragment as the cell's
// blocks; the header row holds the column titles (unless the view hides it). Column, record and
// fragment ids ride on the cells and rows, so unchanged parts keep theirs.

export function editableTable(b: DocumentBlockTable): boolean {
  const { view, records, definition } = b.data;
  if (view.type !== 'grid' || view.columns.some((c) => definition[c]?.type !== 'text')) return false;
  const fragments = new Set(b.fragments.map((f) => f.fragment));
  const cellsAreFragments = Object.values(records).every((r) =>
    view.columns.every((c) => r.values[c] === undefined || (typeof r.values[c] === 'string' && fragments.has(r.values[c]))),
  );
  return cellsAreFragments && (!view.hideHeader || Object.keys(records).length > 0);
}

const ALIGN: Record<string, string> = { left: 'left', center: 'center', right: 'right' };

export function table(b: DocumentBlockTable, cellBlocks: (n: DocumentBlock) => PMNode[]): PMNode {
  const { view, records, definition, ...data } = b.data as DocumentBlockTable['data'] & { view: DocumentTableViewGrid };
  const { columns, hideHeader, ...viewRest } = view;
  const fragments = new Map(b.fragments.map((f) => [f.fragment, f]));
  const used = new Set<string>();
  const align = (c: string) => {
    const d = definition[c]!;
    return d.type === 'text' && d.textAlignment !== 'left' ? ALIGN[d.textAlignment]! : null;
  };
  const rows: PMNode[] = [];
  if (!hideHeader) {
    rows.push({
      type: 'tableRow',
      content: columns.map((c) => ({
        type: 'tableHeader',
        attrs: { column: c, align: align(c) },
        content: [withContent({ type: 'paragraph' }, definition[c]!.title ? [{ type: 'text', text: definition[c]!.title }] : [])],
      })),
    });
  }
  const ordered = Object.entries(records).sort(([, a], [, b]) => (a.orderIndex < b.orderIndex ? -1 : a.orderIndex > b.orderIndex ? 1 : 0));
  for (const [id, record] of ordered) {
    const others = Object.fromEntries(Object.entries(record.values).filter(([c]) => !columns.includes(c)));
    rows.push({
      type: 'tableRow',
      attrs: { record: id, orderIndex: record.orderIndex, extra: json(others) },
      content: columns.map((c) => {
        const value = record.values[c] as string | undefined;
        if (value) used.add(value);
        const nodes = value ? (fragments.get(value)!.nodes as DocumentBlock[]) : [];
        const content = nodes.flatMap(cellBlocks);
        return { type: 'tableCell', attrs: { column: c, fragment: value ?? null, align: align(c) }, content: content.length ? content : [{ type: 'paragraph' }] };
      }),
    });
  }
  const extra = {
    data,
    view: viewRest,
    definition,
    columns,
    order: b.fragments.map((f) => f.fragment),
    orphans: b.fragments.filter((f) => !used.has(f.fragment)).map(stripKeys),
  };
  return { type: 'table', attrs: { extra: JSON.stringify(extra) }, content: rows };
}

const cellText = (cell: PMNode | undefined): string => (cell?.content ?? []).map((p) => textOf(inlinesBack(p.content))).join(' ');

export function tableBack(n: PMNode, cellBack: (n: PMNode) => DocumentBlock[]): DocumentBlock {
  const {
    data,
    view,
    definition,
    columns: before,
    order,
    orphans,
  } = parse(n.attrs?.extra) as {
    data?: Record<string, unknown>;
    view?: Partial<DocumentTableViewGrid>;
    definition?: Record<string, DocumentTableDefinition>;
    columns?: string[];
    order?: string[];
    orphans?: DocumentFragment[];
  };
  const oldDefs = definition ?? {};
  const rows = n.content ?? [];
  const header = rows[0]?.content?.every((c) => c.type === 'tableHeader') ? rows[0] : undefined;
  const body = header ? rows.slice(1) : rows;
  const width = Math.max(0, ...rows.map((r) => r.content?.length ?? 0));

  // Each column keeps the id its cells carry (the first one not taken), else gets a new one.
  const ids = new Set(Object.keys(oldDefs).filter((id) => !before?.includes(id)));
  const columns = Array.from({ length: width }, (_, i) =>
    freshId(
      ids,
      rows.map((r) => r.content?.[i]?.attrs?.column).find((c) => typeof c === 'string' && !ids.has(c)),
      'c',
    ),
  );
  const defs: Record<string, DocumentTableDefinition> = Object.fromEntries(Object.entries(oldDefs).filter(([id]) => !before?.includes(id)));
  columns.forEach((id, i) => {
    const old = oldDefs[id];
    const title = header ? cellText(header.content?.[i]) : (old?.title ?? '');
    defs[id] = old ? { ...old, title } : { id, title, type: 'text', textAlignment: 'left' };
  });

  // Records keep their order indexes while those still sort as the rows do; else all are renumbered.
  const kept = body.map((r) => r.attrs?.orderIndex as string | undefined);
  const inOrder = kept.every((o, i) => typeof o === 'string' && (i === 0 || o > kept[i - 1]!));
  const recordIds = new Set<string>();
  const fragmentIds = new Set((orphans ?? []).map((f) => f.fragment));
  const records: Record<string, DocumentTableRecord> = {};
  const fragments: DocumentFragment[] = [...(orphans ?? [])];
  body.forEach((row, r) => {
    const id = freshId(recordIds, row.attrs?.record, 'r');
    const values: DocumentTableRecord['values'] = { ...(parse(row.attrs?.extra) as DocumentTableRecord['values']) };
    (row.content ?? []).forEach((cell, i) => {
      const nodes = (cell.content ?? []).flatMap(cellBack);
      const empty = nodes.length === 1 && nodes[0]!.type === 'paragraph' && textOf(nodes[0]!.nodes) === '';
      if (!cell.attrs?.fragment && empty) return;
      const fragment = freshId(fragmentIds, cell.attrs?.fragment, `${id}${columns[i]}`);
      values[columns[i]!] = fragment;
      fragments.push({ object: 'fragment', fragment, nodes });
    });
    records[id] = { orderIndex: inOrder ? kept[r]! : String(r).padStart(4, '0'), values };
  });
  const rank = (f: DocumentFragment) => {
    const i = order?.indexOf(f.fragment) ?? -1;
    return i < 0 ? Infinity : i;
  };
  fragments.sort((a, b) => rank(a) - rank(b));

  const { columnWidths, ...viewRest } = view ?? {};
  const widths = columnWidths && Object.fromEntries(Object.entries(columnWidths).filter(([c]) => columns.includes(c)));
  return {
    object: 'block',
    type: 'table',
    isVoid: true,
    data: {
      ...data,
      view: { type: 'grid', ...viewRest, columns, hideHeader: !header, ...(widths ? { columnWidths: widths } : {}) },
      records,
      definition: defs,
    },
    fragments,
  } as DocumentBlock;
}
