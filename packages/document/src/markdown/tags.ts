import type { Literal } from 'mdast';
import type { Extension as FromMarkdownExtension } from 'mdast-util-from-markdown';
import type { Options as ToMarkdownExtension } from 'mdast-util-to-markdown';
import { markdownLineEnding, markdownSpace } from 'micromark-util-character';
import type { Code, Effects, Extension, State, TokenizeContext } from 'micromark-util-types';

// GitBook's block tags (`{% hint style="info" %}`, `{% endhint %}`, …) as Git Sync writes them: a
// line of its own holding `{% … %}`. A micromark flow construct reads such a line into one
// `gitbookTag` node (it interrupts a paragraph, as GitBook's own reader does), so the tags land in
// mdast as siblings of the blocks they enclose, inside lists and quotes too; `document.ts` pairs
// them up. Everything else stays CommonMark/GFM.

// A mdast literal like the others (position, data), so that code walking any mdast still types.
export interface GitbookTag extends Literal {
  type: 'gitbookTag';
  /** The whole tag as written, `{% … %}`, without surrounding whitespace. */
  value: string;
}

declare module 'mdast' {
  interface RootContentMap {
    gitbookTag: GitbookTag;
  }
  interface BlockContentMap {
    gitbookTag: GitbookTag;
  }
}

declare module 'micromark-util-types' {
  interface TokenTypeMap {
    gitbookTag: 'gitbookTag';
  }
}

const LEFT_BRACE = 123;
const RIGHT_BRACE = 125;
const PERCENT = 37;

function tokenizeTag(this: TokenizeContext, effects: Effects, ok: State, nok: State): State {
  const lineEnd = (code: Code) => code === null || markdownLineEnding(code);
  const open: State = (code) => {
    if (code !== LEFT_BRACE) return nok(code);
    effects.enter('gitbookTag');
    effects.consume(code);
    return percent;
  };
  const percent: State = (code) => {
    if (code !== PERCENT) return nok(code);
    effects.consume(code);
    return inside;
  };
  const inside: State = (code) => {
    if (lineEnd(code)) return nok(code);
    effects.consume(code);
    return code === PERCENT ? closing : inside;
  };
  const closing: State = (code) => {
    if (code !== RIGHT_BRACE) return inside(code);
    effects.consume(code);
    return after;
  };
  // After `%}`: only spaces may follow on the line, else the `%}` was inside the tag.
  const after: State = (code) => {
    if (lineEnd(code)) {
      effects.exit('gitbookTag');
      return ok(code);
    }
    if (markdownSpace(code)) {
      effects.consume(code);
      return after;
    }
    return inside(code);
  };
  return open;
}

/** micromark syntax extension: GitBook tag lines. */
export const gitbookTagSyntax: Extension = {
  flow: { [LEFT_BRACE]: { name: 'gitbookTag', tokenize: tokenizeTag } },
};

/** mdast-util-from-markdown extension: `gitbookTag` tokens as `gitbookTag` nodes. */
export const gitbookTagFromMarkdown: FromMarkdownExtension = {
  enter: {
    gitbookTag(token) {
      this.enter({ type: 'gitbookTag', value: '' }, token);
    },
  },
  exit: {
    gitbookTag(token) {
      const node = this.stack[this.stack.length - 1] as GitbookTag;
      node.value = this.sliceSerialize(token).trim();
      this.exit(token);
    },
  },
};

/** mdast-util-to-markdown extension: a tag is written as is. */
export const gitbookTagToMarkdown: ToMarkdownExtension = {
  handlers: { gitbookTag: (node: GitbookTag) => node.value },
};

export type ParsedTag = { name: string; closing: boolean; attributes: Record<string, string> };

const TAG_NAME = /^(end)?([a-z][\w-]*)/i;
// Matches start only where a name starts (the lookbehind), so scanning stays linear.
const ATTRIBUTE = /(?<![\w-])([\w-]+)=(?:"([^"]*)"|'([^']*)')/g;

/** `{% tab title="A" %}` → `{name: 'tab', closing: false, attributes: {title: 'A'}}`. */
export function parseTag(value: string): ParsedTag | undefined {
  if (!value.startsWith('{%') || !value.endsWith('%}')) return undefined;
  const inner = value.slice(2, -2).trim();
  const name = TAG_NAME.exec(inner);
  if (!name) return undefined;
  const attributes: Record<string, string> = {};
  for (const match of inner.slice(name[0].length).matchAll(ATTRIBUTE)) attributes[match[1]!] = (match[2] ?? match[3] ?? '').replace(/&quot;/g, '"');
  return { name: name[2]!.toLowerCase(), closing: name[1] !== undefined, attributes };
}

/** A tag in GitBook's spelling: `{% name a="1" b="2" %}`. */
export function formatTag(name: string, attributes: Record<string, string | undefined> = {}): string {
  let out = `{% ${name}`;
  for (const [key, value] of Object.entries(attributes)) if (value !== undefined) out += ` ${key}="${value.replace(/"/g, '&quot;')}"`;
  return `${out} %}`;
}
