/**
 * The text of an uncompressed PDF as pdfkit writes it (standard fonts: WinAnsi codes in hex
 * strings inside `TJ` arrays, split where kerning applies), one line per text operation.
 */
export function pdfText(pdf: Buffer): string {
  const body = pdf.toString('latin1');
  const lines: string[] = [];
  for (const [, array] of body.matchAll(/\[([^[\]]*)\]\s*TJ/g)) {
    const hex = [...array!.matchAll(/<([0-9a-fA-F]*)>/g)].map((m) => m[1]).join('');
    lines.push(Buffer.from(hex, 'hex').toString('latin1'));
  }
  return lines.join('\n');
}
