import { tasklist } from '@mdit/plugin-tasklist';
import MarkdownIt, { type StateBlock, type StateInline, type Token } from 'markdown-it';
import frontMatter from 'markdown-it-front-matter';
import math from 'markdown-it-math/no-default-renderer';
import type { AlignType, ListItem, Nodes, Parent, PhrasingContent, Root, RootContent } from 'mdast';
import { gitbookTagRule } from './tags.ts';

// Markdown is tokenized by markdown-it (CommonMark, with its GFM tables and strikethrough) and
// maintained plugins for task lists, `$$` math and YAML front matter: several times faster than
// micromark on GitBook's pages. Its tokens are read here into the mdast subset `from-markdown.ts`
// reads, so the GitBook block layer keeps one input shape. Where markdown-it reads differently
// from micromark, packages/document/README.md says so (and test/deviations.test.ts shows it).

type BlockRule = (state: StateBlock, startLine: number, endLine: number, silent: boolean) => boolean;
type InlineRule = (state: StateInline, silent: boolean) => boolean;

function create(withFrontMatter: boolean): MarkdownIt {
  // GitBook reads GFM's tables, strikethrough and task lists, not its autolink literals (a bare
  // `https://…` stays text in its documents): the commonmark preset has no linkify.
  // markdown-it drops what is nested deeper than maxNesting (its guard against deep recursion; the
  // preset's 20 cut lists 10 levels deep): 200 keeps any real page whole.
  const md = new MarkdownIt('commonmark', { html: true }).enable(['table', 'strikethrough']);
  Object.assign(md.options, { maxNesting: 200 });
  // Destinations are kept as written, as in mdast (entities and escapes decoded); toHtml sanitizes.
  md.validateLink = () => true;
  md.normalizeLink = (url) => url;
  md.normalizeLinkText = (url) => url;
  md.use(tasklist, { label: false });
  md.use(math, { inlineDelimiters: '$$', blockDelimiters: '$$', inlineAllowWhiteSpacePadding: true });
  // As micromark reads a `$$` fence: what follows it on its line is meta (not the formula), and
  // holds no `$` (`$$x$$` there is inline math in a paragraph).
  const mathBlock = ruleNamed<BlockRule>(md.block.ruler, 'math_block');
  md.block.ruler.at(
    'math_block',
    (state, startLine, endLine, silent) => {
      const start = state.bMarks[startLine]! + state.tShift[startLine]!;
      const meta = state.src.slice(start + 2, state.eMarks[startLine]).trim();
      if (meta.includes('$') || !mathBlock(state, startLine, endLine, silent)) return false;
      const token = state.tokens[state.tokens.length - 1];
      if (!silent && meta && token?.type === 'math_block') token.content = token.content.slice(token.content.indexOf('\n') + 1 || token.content.length);
      return true;
    },
    { alt: ['paragraph', 'reference', 'blockquote', 'list'] },
  );
  // Code spans and inline math keep their line endings, as mdast does (markdown-it turns them into
  // spaces, as HTML shows them): a page wrapped inside a code span comes back as it was written.
  keepLineEndings(md, 'backticks', 'code_inline', withoutPadding);
  keepLineEndings(md, 'math_inline', 'math_inline', withoutPadding);
  if (withFrontMatter) md.use(frontMatter, () => {});
  // First: a tag line is a tag, never a table's header or a setext heading's text.
  md.block.ruler.before('table', 'gitbook_tag', gitbookTagRule, { alt: ['paragraph', 'reference', 'blockquote', 'list'] });
  return md;
}

/** A rule of markdown-it's or a plugin's, to wrap: by name, from the ruler's list (its one way in). */
function ruleNamed<F>(ruler: unknown, name: string): F {
  const rule = (ruler as { __rules__: { name: string; fn: F }[] }).__rules__.find((candidate) => candidate.name === name);
  if (!rule) throw new Error(`markdown-it rule ${name} not found`);
  return rule.fn;
}

function keepLineEndings(md: MarkdownIt, ruleName: string, type: string, content: (raw: string) => string): void {
  const original = ruleNamed<InlineRule>(md.inline.ruler, ruleName);
  md.inline.ruler.at(ruleName, (state, silent) => {
    const start = state.pos;
    const before = state.tokens.length;
    if (!original(state, silent)) return false;
    // (An unmatched backtick run is taken as text and pushes no token.)
    const token = state.tokens.length > before ? state.tokens[state.tokens.length - 1] : undefined;
    if (!silent && token?.type === type) {
      const marker = token.markup.length;
      token.content = content(state.src.slice(start + marker, state.pos - marker));
    }
    return true;
  });
}

const plain = create(false);
const withMatter = create(true);

/** Markdown (CommonMark, GFM tables, strikethrough, task lists, `$$` math, GitBook tags) → mdast. */
export function parseMarkdownTree(markdown: string): Root {
  return toTree((hasFrontMatter(markdown) ? withMatter : plain).parse(markdown, {}));
}

// Front matter is a `---` line first and a closing `---` line, as micromark reads it: the plugin
// alone would also take an unclosed `---` (the whole page) or `---x`.
function hasFrontMatter(markdown: string): boolean {
  const first = markdown.indexOf('\n');
  if (!markdown.startsWith('---') || first === -1 || !isFence(markdown.slice(0, first))) return false;
  for (let start = first + 1; start < markdown.length;) {
    const end = markdown.indexOf('\n', start);
    if (isFence(markdown.slice(start, end === -1 ? undefined : end))) return true;
    if (end === -1) break;
    start = end + 1;
  }
  return false;
}

const isFence = (line: string) => line.trimEnd() === '---';

type Open = Parent & { type: string };

function toTree(tokens: Token[]): Root {
  const root: Root = { type: 'root', children: [] };
  const stack: Open[] = [root];
  let align: AlignType[] | undefined;
  const add = (node: RootContent | Nodes) => (stack[stack.length - 1]!.children as Nodes[]).push(node);
  const open = (node: Open) => {
    add(node as Nodes);
    stack.push(node);
  };
  for (const token of tokens) {
    switch (token.type) {
      case 'paragraph_open':
        open({ type: 'paragraph', children: [] });
        break;
      case 'heading_open':
        open({ type: 'heading', depth: Number(token.tag.slice(1)) as 1, children: [] } as Open);
        break;
      case 'blockquote_open':
        open({ type: 'blockquote', children: [] });
        break;
      case 'bullet_list_open':
      case 'ordered_list_open': {
        const ordered = token.type === 'ordered_list_open';
        open({ type: 'list', ordered, start: ordered ? Number(token.attrGet('start') ?? 1) : null, spread: false, children: [] } as Open);
        break;
      }
      case 'list_item_open':
        open({ type: 'listItem', spread: false, checked: null, children: [] } as Open);
        break;
      case 'table_open':
        align = [];
        open({ type: 'table', align, children: [] } as Open);
        break;
      case 'tr_open':
        open({ type: 'tableRow', children: [] });
        break;
      case 'th_open':
      case 'td_open': {
        if (token.type === 'th_open') {
          const style = token.attrGet('style');
          align?.push(style ? (style.slice('text-align:'.length) as AlignType) : null);
        }
        open({ type: 'tableCell', children: [] });
        break;
      }
      case 'thead_open':
      case 'thead_close':
      case 'tbody_open':
      case 'tbody_close':
        break;
      case 'inline':
        inline(token.children ?? [], stack);
        break;
      case 'hr':
        add({ type: 'thematicBreak' });
        break;
      case 'code_block':
        add({ type: 'code', lang: null, meta: null, value: withoutFinalNewline(token.content) });
        break;
      case 'fence': {
        const info = plain.utils.unescapeAll(token.info).trim();
        const space = info.search(/[ \t]/);
        const lang = space === -1 ? info : info.slice(0, space);
        const meta = space === -1 ? '' : info.slice(space).trim();
        add({ type: 'code', lang: lang || null, meta: meta || null, value: withoutFinalNewline(token.content) });
        break;
      }
      case 'html_block':
        add({ type: 'html', value: withoutFinalNewline(token.content) });
        break;
      case 'math_block':
        add({ type: 'math', meta: null, value: token.content });
        break;
      case 'front_matter':
        add({ type: 'yaml', value: token.meta as string });
        break;
      case 'gitbook_tag':
        add({ type: 'gitbookTag', value: token.content });
        break;
      default:
        if (token.nesting === -1) stack.pop();
    }
  }
  return root;
}

/** A paragraph's inline tokens as phrasing content; a task list item's check marks its item. */
function inline(tokens: Token[], blocks: Open[]): void {
  const stack: Open[] = [blocks[blocks.length - 1]!];
  let taskText = false;
  for (const token of tokens) {
    const children = stack[stack.length - 1]!.children as PhrasingContent[];
    switch (token.type) {
      case 'text':
        // The task list plugin leaves the space after `[ ]`; mdast drops it (or the line ending).
        if (taskText && token.content === '') break;
        pushText(children, taskText ? token.content.slice(1) : token.content);
        taskText = false;
        break;
      case 'softbreak':
        if (!taskText) pushText(children, '\n');
        taskText = false;
        break;
      case 'hardbreak':
        children.push({ type: 'break' });
        break;
      case 'code_inline':
        children.push({ type: 'inlineCode', value: token.content });
        break;
      case 'html_inline':
        children.push({ type: 'html', value: token.content });
        break;
      case 'math_inline':
        children.push({ type: 'inlineMath', value: token.content });
        break;
      case 'em_open':
        openInline(stack, { type: 'emphasis', children: [] });
        break;
      case 'strong_open':
        openInline(stack, { type: 'strong', children: [] });
        break;
      case 's_open':
        openInline(stack, { type: 'delete', children: [] });
        break;
      case 'link_open':
        openInline(stack, { type: 'link', url: token.attrGet('href') ?? '', title: token.attrGet('title'), children: [] } as Open);
        break;
      case 'image':
        children.push({ type: 'image', url: token.attrGet('src') ?? '', title: token.attrGet('title'), alt: altText(token.children ?? []) });
        break;
      case 'checkbox_input': {
        const item = blocks[blocks.length - 2];
        if (item?.type === 'listItem') (item as unknown as ListItem).checked = token.attrGet('checked') !== null;
        taskText = true;
        break;
      }
      default:
        if (token.nesting === -1) stack.pop();
    }
  }
}

function openInline(stack: Open[], node: Open): void {
  (stack[stack.length - 1]!.children as Nodes[]).push(node as Nodes);
  stack.push(node);
}

/** Adjacent text is one node, line endings included, as in mdast. */
function pushText(children: PhrasingContent[], value: string): void {
  if (!value) return;
  const last = children[children.length - 1];
  if (last?.type === 'text') last.value += value;
  else children.push({ type: 'text', value });
}

function altText(tokens: Token[]): string {
  let out = '';
  for (const token of tokens) {
    if (token.type === 'text' || token.type === 'code_inline' || token.type === 'math_inline') out += token.content;
    else if (token.type === 'softbreak' || token.type === 'hardbreak') out += '\n';
    else if (token.type === 'image') out += altText(token.children ?? []);
  }
  return out;
}

/** CommonMark: one space (or line ending) each side of a code span's text goes, unless all is space. */
function withoutPadding(raw: string): string {
  const pad = (c: string | undefined) => c === ' ' || c === '\n';
  return raw.length > 2 && pad(raw[0]) && pad(raw[raw.length - 1]) && /[^ \n]/.test(raw) ? raw.slice(1, -1) : raw;
}

function withoutFinalNewline(value: string): string {
  return value.endsWith('\n') ? value.slice(0, -1) : value;
}
