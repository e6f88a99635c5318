/** A page tree as content and the import plan both have it: each page's source file, if any. */
interface Sourced {
  git?: { oid: string; path: string };
  pages: Sourced[];
}

function sources(pages: Sourced[], into = new Map<string, string>()): Map<string, string> {
  for (const p of pages) {
    if (p.git) into.set(p.git.path, p.git.oid);
    sources(p.pages, into);
  }
  return into;
}

/** Pages an import adds, changes or removes: by their source files, those whose file is new, gone or has other bytes. */
export function pagesChanged(before: Sourced[], after: Sourced[]): number {
  const [was, is] = [sources(before), sources(after)];
  let n = 0;
  for (const [path, oid] of is) if (was.get(path) !== oid) n++;
  for (const path of was.keys()) if (!is.has(path)) n++;
  return n;
}

/** Pages an export writes or removes: the Markdown files of its commit, the table of contents aside. */
export const pagesWritten = (paths: Iterable<string>): number => [...paths].filter((p) => p.endsWith('.md') && !/(^|\/)SUMMARY\.md$/.test(p)).length;
