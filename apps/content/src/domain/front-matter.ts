// A page's front matter: the YAML block a Git import keeps at the top of its markdown (what is not
// one of its fields: GitBook's `cover`, `coverY`, `layout`, and keys of its own), written back on
// export byte for byte. Pages answer their cover and layout from it (see rpc/front-matter.ts);
// edits bring theirs as GitBook's API takes them, in the markdown they give.
import { pageLook, readFrontMatter, setFrontMatter, type FrontMatterBlock } from '@quire/gitbook-layout';
import { InvalidArgumentError } from '@quire/service-kit';
import type { PageFieldsInput } from './changes.ts';
import type { TreeFile } from './tree.ts';

/** The page fields a front matter may set (GitBook's metadata), read when a change does not give them. */
const FRONT_FIELDS = ['description', 'icon', 'title'] as const;

/** The front matter's page fields filling those not given; `whole` when it holds nothing else. */
export function fieldsFromFrontMatter(data: Record<string, unknown>, given: PageFieldsInput): { fields: PageFieldsInput; whole: boolean } {
  const fields = { ...given };
  const used: string[] = FRONT_FIELDS.filter((k) => typeof data[k] === 'string' && fields[k] === undefined);
  for (const k of used) fields[k as 'title'] = data[k] as string;
  return { fields, whole: Object.keys(data).every((k) => used.includes(k)) };
}

/**
 * The front matter of markdown a change gives, refused (naming the change and the key) when its
 * cover or layout is not one GitBook takes, or its cover names a file that is not one of `files`
 * (the revision's: a file of another space is no more found than a missing one).
 */
export function givenFrontMatter(at: string, markdown: string, files: readonly TreeFile[]): FrontMatterBlock | undefined {
  const front = readFrontMatter(markdown);
  if (!front) return undefined;
  const refuse = (field: string, message: string) => {
    throw new InvalidArgumentError(`${at}.markdown: front matter "${field}" ${message}`);
  };
  const { cover } = pageLook(front.data, refuse);
  for (const [field, ref] of [
    ['cover', cover?.ref],
    ['coverDark', cover?.refDark],
  ] as const) {
    if (ref?.kind === 'file' && !files.some((f) => f.id === ref.file)) refuse(field, `names no file of this space ("${ref.file}")`);
  }
  return front;
}

/**
 * The markdown an update of a page's body stores, and its fields. The page keeps its front matter
 * (`previous`): GitBook keeps a page's cover and layout apart from its body, so a body written
 * without them (a JSONDocument, markdown without front matter) leaves them as they were. What the
 * given markdown's own front matter sets is written into it, and its page fields fill those not given.
 */
export function updatedMarkdown(markdown: string, front: FrontMatterBlock | undefined, previous: string | undefined, given: PageFieldsInput) {
  if (!front) return { fields: given, markdown: withMatter(previous, markdown) };
  const { fields, whole } = fieldsFromFrontMatter(front.data, given);
  const body = markdown.slice(front.block.length);
  const matter = previous ? setFrontMatter(previous, front.block) : whole ? '' : front.block;
  return { fields, markdown: withMatter(matter, body) };
}

/** A body under a front matter block (which then ends its line, whatever the stored text did). */
export const withMatter = (matter: string | undefined, body: string) => (matter ? `${matter.replace(/(?<!\n)$/, '\n')}${body}` : body);

/** The front matter block of stored markdown, if it has one. */
export const matterOf = (markdown: string): string | undefined => readFrontMatter(markdown)?.block;
