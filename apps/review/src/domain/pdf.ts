import PDFDocument from 'pdfkit';
import type { Content, List, PhrasingContent, Root, RootContent, Table } from 'mdast';

export interface PdfPage {
  title: string;
  /** Nesting in the page tree: 0 for top-level pages. */
  depth: number;
  /** The page's document, parsed (service-kit's parseGfm). */
  root: Root;
}

/** An image's bytes by the `src` the markdown gives, when it could be fetched and is a format PDF takes. */
export type ImageBytes = (src: string) => Buffer | undefined;

/** The `src` of every image of the documents, to fetch them before rendering. */
export function imageSources(roots: Root[]): string[] {
  const out = new Set<string>();
  const walk = (node: Root | Content) => {
    if (node.type === 'image') out.add(node.url);
    if ('children' in node) for (const c of node.children) walk(c);
  };
  for (const r of roots) walk(r);
  return [...out];
}

// PNG and JPEG are the formats pdfkit embeds; anything else is left out of the PDF.
export function isEmbeddable(bytes: Uint8Array): boolean {
  const png = bytes[0] === 0x89 && bytes[1] === 0x50 && bytes[2] === 0x4e && bytes[3] === 0x47;
  const jpeg = bytes[0] === 0xff && bytes[1] === 0xd8;
  return png || jpeg;
}

const FONT = { body: 'Helvetica', bold: 'Helvetica-Bold', italic: 'Helvetica-Oblique', mono: 'Courier' } as const;
const HEADING_SIZES = [20, 16, 14, 12, 11, 11];

const plain = (nodes: PhrasingContent[]): string =>
  nodes
    .map((n) => {
      if (n.type === 'text' || n.type === 'inlineCode') return n.value;
      if (n.type === 'break') return '\n';
      if (n.type === 'image') return n.alt ?? '';
      return 'children' in n ? plain(n.children as PhrasingContent[]) : '';
    })
    .join('');

/**
 * The pages as one PDF: each page's title, then its document (headings, paragraphs with bold,
 * italic, code and links, lists, tables, code blocks, quotes and images). `compress: false` keeps
 * the text readable in the bytes (small documents; tests read titles back).
 */
export function renderPdf(title: string, pages: PdfPage[], image: ImageBytes): Promise<Buffer> {
  const doc = new PDFDocument({ size: 'A4', margin: 56, compress: false, info: { Title: title }, bufferPages: false });
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  const width = () => doc.page.width - doc.page.margins.left - doc.page.margins.right;

  function inline(nodes: PhrasingContent[], style: { bold?: boolean; italic?: boolean } = {}, size = 11, indent = 0) {
    const runs: { text: string; font: string; link?: string }[] = [];
    const collect = (ns: PhrasingContent[], s: { bold?: boolean; italic?: boolean; link?: string }) => {
      for (const n of ns) {
        if (n.type === 'text') runs.push({ text: n.value, font: s.bold ? FONT.bold : s.italic ? FONT.italic : FONT.body, link: s.link });
        else if (n.type === 'inlineCode') runs.push({ text: n.value, font: FONT.mono, link: s.link });
        else if (n.type === 'break') runs.push({ text: '\n', font: FONT.body });
        else if (n.type === 'strong') collect(n.children, { ...s, bold: true });
        else if (n.type === 'emphasis') collect(n.children, { ...s, italic: true });
        else if (n.type === 'delete') collect(n.children, s);
        else if (n.type === 'link') collect(n.children, { ...s, link: n.url });
        else if (n.type === 'image') runs.push({ text: `[${n.alt ?? 'image'}]`, font: FONT.italic });
        else if ('value' in n && typeof n.value === 'string') runs.push({ text: n.value, font: FONT.body });
      }
    };
    collect(nodes, style);
    if (!runs.length) return;
    doc.fontSize(size);
    runs.forEach((r, i) => {
      doc.font(r.font).fillColor(r.link ? '#1a56db' : 'black');
      const opts = { continued: i < runs.length - 1, link: r.link?.startsWith('http') ? r.link : undefined, underline: !!r.link, indent: i === 0 ? indent : 0, width: width() - indent };
      if (i === 0 && indent) doc.text(r.text, doc.page.margins.left + indent, doc.y, opts);
      else doc.text(r.text, opts);
    });
    doc.fillColor('black');
  }

  function imageBlock(src: string, alt: string) {
    const bytes = image(src);
    if (!bytes) {
      doc.font(FONT.italic).fontSize(10).text(`[image: ${alt || src}]`);
      return;
    }
    doc.image(bytes, { fit: [width(), 300] });
    doc.moveDown(0.5);
  }

  function list(node: List, level: number) {
    node.children.forEach((item, i) => {
      const bullet = node.ordered ? `${(node.start ?? 1) + i}.` : '•';
      const indent = 14 * (level + 1);
      doc.font(FONT.body).fontSize(11).text(bullet, doc.page.margins.left + indent - 12, doc.y, { continued: false, lineBreak: false });
      doc.moveUp();
      for (const child of item.children) {
        if (child.type === 'paragraph') inline(child.children, {}, 11, indent);
        else if (child.type === 'list') list(child, level + 1);
        else block(child, indent);
      }
    });
    doc.x = doc.page.margins.left;
  }

  function table(node: Table) {
    const rows = node.children.map((r) => r.children.map((c) => plain(c.children)));
    const columns = Math.max(...rows.map((r) => r.length), 1);
    const colWidth = width() / columns;
    const left = doc.page.margins.left;
    rows.forEach((cells, ri) => {
      const heights = cells.map((c) => doc.font(ri === 0 ? FONT.bold : FONT.body).fontSize(10).heightOfString(c, { width: colWidth - 8 }));
      const h = Math.max(...heights, 12) + 6;
      if (doc.y + h > doc.page.height - doc.page.margins.bottom) doc.addPage();
      const y = doc.y;
      cells.forEach((c, ci) => {
        doc.rect(left + ci * colWidth, y, colWidth, h).stroke('#999999');
        doc.font(ri === 0 ? FONT.bold : FONT.body).fontSize(10).text(c, left + ci * colWidth + 4, y + 3, { width: colWidth - 8 });
      });
      doc.x = left;
      doc.y = y + h;
    });
    doc.moveDown(0.5);
  }

  function block(node: RootContent, indent = 0) {
    switch (node.type) {
      case 'heading':
        doc.moveDown(0.3);
        inline(node.children, { bold: true }, HEADING_SIZES[node.depth - 1], indent);
        doc.moveDown(0.3);
        return;
      case 'paragraph':
        // A paragraph of only an image is the image itself.
        if (node.children.length === 1 && node.children[0]!.type === 'image') return imageBlock(node.children[0]!.url, node.children[0]!.alt ?? '');
        inline(node.children, {}, 11, indent);
        doc.moveDown(0.5);
        return;
      case 'list':
        list(node, 0);
        doc.moveDown(0.5);
        return;
      case 'table':
        return table(node);
      case 'code': {
        const text = node.value || ' ';
        doc.font(FONT.mono).fontSize(9);
        const h = doc.heightOfString(text, { width: width() - 12 }) + 8;
        if (doc.y + h > doc.page.height - doc.page.margins.bottom) doc.addPage();
        const y = doc.y;
        doc.rect(doc.page.margins.left, y, width(), h).fill('#f3f4f6');
        doc.fillColor('black').text(text, doc.page.margins.left + 6, y + 4, { width: width() - 12 });
        doc.x = doc.page.margins.left;
        doc.moveDown(0.5);
        return;
      }
      case 'blockquote':
        for (const c of node.children) block(c, indent + 16);
        return;
      case 'thematicBreak':
        doc.moveTo(doc.page.margins.left, doc.y).lineTo(doc.page.margins.left + width(), doc.y).stroke('#cccccc');
        doc.moveDown(0.5);
        return;
      case 'html':
        return;
      default:
        if ('children' in node) for (const c of node.children as RootContent[]) block(c, indent);
    }
  }

  pages.forEach((p, i) => {
    if (i > 0) doc.addPage();
    doc.font(FONT.bold).fontSize(Math.max(24 - 3 * p.depth, 16)).text(p.title || 'Untitled');
    doc.moveDown(0.5);
    const { root } = p;
    // The document's own first heading repeats the title: shown once.
    const children = root.children[0]?.type === 'heading' && plain(root.children[0].children).trim() === p.title.trim() ? root.children.slice(1) : root.children;
    for (const node of children) block(node);
  });
  doc.end();
  return done;
}
