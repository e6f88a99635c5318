import { newDrawn, type Drawn, noticeHtml, operationHtml, type ConsoleTarget, operationMarkdown, findOperation, SpecError } from '@quire/render/openapi';
import { createHash } from 'node:crypto';
import type { JSONDocument } from '@quire/document';
import { InvalidArgumentError } from '@quire/service-kit';
import type { FastifyBaseLogger } from 'fastify';
import { openApiBlocks, type OpenApiBlock } from '@quire/document/openapi';
import type { OpenApiSpecs, SpecPlace } from './openapi-specs.ts';

// A page's OpenAPI blocks rendered before the page is: each block's spec read (once per spec),
// its operation found and drawn, or a notice where the spec or the operation is missing. A page
// whose specs may change without a new revision (a URL, an organization's spec) has a version
// made of theirs, so its ETag and its kept HTML change when they do.

/** Blocks whose spec can change while the revision stays. */
const changing = (b: OpenApiBlock) => b.data.ref.kind === 'url' || b.data.ref.kind === 'openapi';

export function openApiPages(specs: OpenApiSpecs, log: FastifyBaseLogger) {
  /** Why a block shows no operation, for its notice; an unexpected failure is logged and said vaguely. */
  function reason(err: unknown): string {
    if (err instanceof SpecError || err instanceof InvalidArgumentError) return err.message;
    log.warn({ err }, 'OpenAPI spec not read');
    return 'its specification could not be read just now';
  }

  /** Each operation block's rendering (HTML, or markdown for `.md` pages), in document order. */
  async function each<T>(document: JSONDocument, at: SpecPlace, draw: (b: OpenApiBlock, i: number) => Promise<T>): Promise<Map<OpenApiBlock, T>> {
    const blocks = openApiBlocks(document);
    return new Map(await Promise.all(blocks.map(async (b, i) => [b, await draw(b, i)] as const)));
  }

  async function operationOf(block: OpenApiBlock, at: SpecPlace) {
    const spec = await specs.specOf(block, at);
    const op = findOperation(spec.doc, block.data.path, block.data.method);
    if (!op) throw new SpecError(`the specification has no ${block.data.method.toUpperCase()} ${block.data.path} operation`);
    return { doc: spec.doc, op };
  }

  return {
    operationOf,

    /**
     * The HTML of each OpenAPI block of a prepared document, with its "Test it" form naming the block
     * when `target` says where. Specs are read at once; operations drawn in document order, so a
     * named schema is drawn at its first use on the page and linked to after.
     */
    async html(document: JSONDocument, at: SpecPlace, target?: (block: number) => ConsoleTarget): Promise<Map<OpenApiBlock, string>> {
      const read = await each(document, at, (b) => operationOf(b, at).catch((err: unknown) => ({ err })));
      const drawnBySpec = new Map<object, Drawn>();
      const out = new Map<OpenApiBlock, string>();
      [...read].forEach(([b, got], i) => {
        if ('err' in got) return out.set(b, noticeHtml(b.data.method, b.data.path, reason(got.err)));
        let drawn = drawnBySpec.get(got.doc);
        if (!drawn) drawnBySpec.set(got.doc, (drawn = newDrawn(`oa-s${drawnBySpec.size + 1}-`)));
        out.set(b, operationHtml(got.doc, got.op, target?.(i), drawn));
      });
      return out;
    },

    /** Each block as markdown, for the page's `.md` and llms-full.txt. */
    markdown: (document: JSONDocument, at: SpecPlace) =>
      each(document, at, async (b) => {
        try {
          const { doc, op } = await operationOf(b, at);
          return operationMarkdown(doc, op);
        } catch (err) {
          return `> ${b.data.method.toUpperCase()} ${b.data.path}: this API operation cannot be shown: ${reason(err)}.\n`;
        }
      }),

    /** The blocks of a document whose specs may change under the same revision. */
    changingBlocks: (document: JSONDocument) => openApiBlocks(document).filter(changing),

    /** A version of those blocks' specs as they are now ('' for none): a part of the page's ETag. */
    async version(blocks: OpenApiBlock[], at: SpecPlace): Promise<string> {
      if (!blocks.length) return '';
      const keys = await Promise.all(
        blocks.map((b) =>
          specs.sourceOf(b, at).then(
            (s) => s.key,
            (err: Error) => `error:${err.message}`,
          ),
        ),
      );
      return createHash('sha256').update(keys.join('|')).digest('base64url').slice(0, 16);
    },
  };
}

export type OpenApiPages = ReturnType<typeof openApiPages>;
