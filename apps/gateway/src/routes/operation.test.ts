import { Type } from '@sinclair/typebox';
import { describe, expect, it } from 'vitest';
import { errorResponses } from '../schemas/common.ts';
import { done, operations, pageOf } from './operation.ts';

describe('route helpers', () => {
  it('states an operation under its group tags, with the error answers every route shares', () => {
    const Params = Type.Object({ id: Type.String() });
    const Item = Type.Object({ name: Type.String() });
    const { schema } = operations('things')({ operationId: 'getThing', summary: 'Get a thing', params: Params, response: { 200: Item } });
    expect(schema).toEqual({ operationId: 'getThing', summary: 'Get a thing', params: Params, tags: ['things'], response: { 200: Item, ...errorResponses } });
  });

  it('presents each item of a page, with `next` only when there is more', () => {
    expect(pageOf({ items: [1, 2], page: { next: 'p2' } }, (n) => n * 10)).toEqual({ next: { page: 'p2' }, count: 2, items: [10, 20] });
    expect(pageOf({ items: ['a'] }, (s) => s.toUpperCase())).toEqual({ count: 1, items: ['A'] });
  });

  it('answers with no body once the work is done, and not before', async () => {
    const sent: number[] = [];
    let finished = false;
    const reply = { code: (status: 204 | 205) => ({ send: () => sent.push(status) }) };
    const work = new Promise<void>((resolve) => setTimeout(() => resolve(void (finished = true)), 5));
    await done(reply, 205, work);
    expect(finished).toBe(true);
    expect(sent).toEqual([205]);
  });

  it('passes on the failure of the work without answering', async () => {
    const sent: number[] = [];
    const reply = { code: (status: 204 | 205) => ({ send: () => sent.push(status) }) };
    await expect(done(reply, 204, Promise.reject(new Error('refused')))).rejects.toThrow('refused');
    expect(sent).toEqual([]);
  });
});
