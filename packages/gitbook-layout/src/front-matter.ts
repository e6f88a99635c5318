import YAML from 'yaml';

/** A YAML block fenced by `---` lines at the very top of a page file (GitBook writes page metadata there). */
export const FRONT_MATTER = /^---\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/;

/** A front matter block as written (fences included) and the map it holds. */
export interface FrontMatterBlock {
  block: string;
  data: Record<string, unknown>;
}

/**
 * The front matter at the top of `text`, when it is YAML holding a map: anything else there (a
 * thematic break, text that is not YAML) is part of the body.
 */
export function readFrontMatter(text: string): FrontMatterBlock | undefined {
  const m = FRONT_MATTER.exec(text);
  if (!m) return undefined;
  let data: unknown;
  try {
    data = YAML.parse(m[1]!);
  } catch {
    return undefined;
  }
  return data && typeof data === 'object' && !Array.isArray(data) ? { block: m[0], data: data as Record<string, unknown> } : undefined;
}

interface Parsed {
  yaml: string;
  /** Where the YAML starts in the block (after the opening fence). */
  offset: number;
  pairs: { key: string; start: number; end: number; isNull: boolean }[];
  flow: boolean;
}

/** The block's top-level pairs and where each is written in its YAML (key to value, trailing blanks left out). */
function parse(block: string): Parsed | undefined {
  const m = FRONT_MATTER.exec(block);
  if (!m) return undefined;
  const doc = YAML.parseDocument(m[1]!);
  if (doc.errors.length > 0 || !YAML.isMap(doc.contents)) return undefined;
  const yaml = m[1]!;
  const pairs = doc.contents.items.flatMap((pair) => {
    const key = pair.key;
    if (!YAML.isScalar(key) || !key.range) return [];
    const value = pair.value as YAML.Node | null;
    const to = value?.range ? value.range[1] : key.range[1];
    const start = key.range[0];
    const isNull = value === null || (YAML.isScalar(value) && value.value === null);
    return [{ key: String(key.value), start, end: start + yaml.slice(start, to).trimEnd().length, isNull }];
  });
  return { yaml, offset: m[0].indexOf('\n') + 1, pairs, flow: doc.contents.flow === true };
}

/**
 * The front matter block `stored` with the top-level keys the block `given` sets written into it,
 * each as `given` writes it (a key given as null is taken out), and everything else byte for byte:
 * how markdown brought by an edit updates a page's metadata (GitBook reads its front matter so).
 * Without a stored block it is `given`; with no key left, no block ('').
 */
export function setFrontMatter(stored: string | undefined, given: string): string {
  const source = parse(given);
  if (!source) return stored ?? '';
  const target = stored === undefined ? undefined : parse(stored);
  if (!stored || !target) return given;
  if (target.flow) {
    // A flow map (`{ a: 1 }`) has no lines to edit: written anew, as a block map.
    const merged = { ...readFrontMatter(stored)!.data, ...readFrontMatter(given)!.data };
    const kept = Object.fromEntries(Object.entries(merged).filter(([, v]) => v !== null));
    return Object.keys(kept).length ? `---\n${YAML.stringify(kept)}---\n` : '';
  }
  const eol = stored.includes('\r\n') ? '\r\n' : '\n';
  const edits: { start: number; end: number; text: string }[] = [];
  let appended = '';
  const left = new Set(target.pairs.map((p) => p.key));
  for (const pair of source.pairs) {
    const text = source.yaml.slice(pair.start, pair.end).replace(/\r?\n/g, eol);
    const at = target.pairs.find((p) => p.key === pair.key);
    if (pair.isNull) {
      if (!at) continue;
      // The pair's line(s) go with the line break after them (before them, for the last one).
      const after = target.yaml.slice(at.end).match(/^[ \t]*\r?\n/)?.[0].length;
      const before = target.yaml.slice(0, at.start).match(/\r?\n$/)?.[0].length ?? 0;
      edits.push(after !== undefined ? { start: at.start, end: at.end + after, text: '' } : { start: at.start - before, end: at.end, text: '' });
      left.delete(pair.key);
    } else if (at) edits.push({ start: at.start, end: at.end, text });
    else {
      appended += `${eol}${text}`;
      left.add(pair.key);
    }
  }
  if (left.size === 0) return '';
  let yaml = target.yaml;
  for (const e of edits.sort((a, b) => b.start - a.start)) yaml = yaml.slice(0, e.start) + e.text + yaml.slice(e.end);
  yaml = yaml.trim() ? yaml + appended : appended.slice(eol.length);
  return stored.slice(0, target.offset) + yaml + stored.slice(target.offset + target.yaml.length);
}
