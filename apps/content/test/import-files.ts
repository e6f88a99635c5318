import { zipSync } from 'fflate';

// Files for the import tests, made here: ZIP archives, a minimal .docx, a lying ZIP bomb.

export const zip = (files: Record<string, string | Uint8Array>, level: 0 | 9 = 9): Buffer =>
  Buffer.from(zipSync(Object.fromEntries(Object.entries(files).map(([k, v]) => [k, typeof v === 'string' ? new TextEncoder().encode(v) : v])), { level }));

/** The smallest .docx mammoth reads, with the given body XML (see `para`). */
export function docx(bodyXml: string): Buffer {
  const w = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"';
  return zip({
    '[Content_Types].xml': `<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>`,
    '_rels/.rels': `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>`,
    'word/document.xml': `<?xml version="1.0" encoding="UTF-8"?><w:document ${w}><w:body>${bodyXml}</w:body></w:document>`,
  });
}

/** A .docx paragraph: a style such as `Heading1`, bold text. */
export const para = (text: string, style?: string, bold = false): string =>
  `<w:p>${style ? `<w:pPr><w:pStyle w:val="${style}"/></w:pPr>` : ''}<w:r>${bold ? '<w:rPr><w:b/></w:rPr>' : ''}<w:t xml:space="preserve">${text}</w:t></w:r></w:p>`;

/** The archive with every entry's declared uncompressed size rewritten (local headers and central directory): a lying bomb. */
export function lieAboutSizes(archive: Buffer, size: number): Buffer {
  const out = Buffer.from(archive);
  for (let i = 0; i < out.length - 4; i++) {
    const sig = out.readUInt32LE(i);
    if (sig === 0x04034b50) out.writeUInt32LE(size, i + 22);
    if (sig === 0x02014b50) out.writeUInt32LE(size, i + 24);
  }
  return out;
}

/** A lying bomb: 50 MiB of zeros declared as 100 bytes. */
export const lyingBomb = (): Buffer => lieAboutSizes(zip({ 'bomb.md': new Uint8Array(50 * 1024 * 1024) }), 100);
