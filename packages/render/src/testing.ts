import { execFileSync } from 'node:child_process';

/** A PDF's text as poppler's `pdftotext` reads it (what a person copying from it gets), whitespace runs made one space. */
export const pdfText = (pdf: Buffer | Uint8Array): string => execFileSync('pdftotext', ['-enc', 'UTF-8', '-', '-'], { input: pdf }).toString('utf8').replace(/\s+/g, ' ');
