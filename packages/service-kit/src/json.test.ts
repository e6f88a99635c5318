import { describe, expect, it } from 'vitest';
import { checkClientJson, MAX_JSON_DEPTH, parseClientJson, scanJson } from './json.js';

const jsonDepth = (text: string) => scanJson(text).depth;

const nested = (n: number) => '['.repeat(n) + ']'.repeat(n);

describe('JSON depth', () => {
  it('counts arrays and objects, not brackets in strings', () => {
    expect(jsonDepth('1')).toBe(0);
    expect(jsonDepth('{"a":[{"b":{}}]}')).toBe(4);
    expect(jsonDepth('{"a":"[[[[{{{\\"[["}')).toBe(1);
    expect(jsonDepth('[{},{},[]]')).toBe(2);
  });

  it('ends a string at the first quote not escaped, after any run of backslashes', () => {
    // `\\` is one backslash written escaped: the quote after it closes the string.
    expect(jsonDepth('["\\\\",[[]]]')).toBe(3);
    expect(jsonDepth('["\\\\\\"[[[", []]')).toBe(2);
    expect(jsonDepth('{"a\\"[":{"\\\\":["]]]"]}}')).toBe(3);
    // A string left open counts nothing after its quote.
    expect(jsonDepth('[["[[[[')).toBe(2);
  });

  it('reads backslash runs once: 8 MB of escapes and escaped quotes in linear time', () => {
    // Escaped backslashes, an escaped quote, then `u0000` after two escaped backslashes: text, not NUL.
    const text = `["${'\\\\'.repeat(2_000_000)}\\"${'\\\\\\\\u0000'.repeat(400_000)}"]`;
    const started = performance.now();
    expect(scanJson(text)).toEqual({ depth: 1, nul: false });
    expect(scanJson(`["${'\\"'.repeat(4_000_000)}", [[]]]`).depth).toBe(3);
    expect(performance.now() - started).toBeLessThan(1000);
    expect((JSON.parse(text) as string[])[0]).not.toContain('\u0000');
  });

  it('agrees with the parsed value on depth and NUL (a NUL found does not stop the count)', () => {
    const truth = (v: unknown): { depth: number; nul: boolean } => {
      if (typeof v === 'string') return { depth: 0, nul: v.includes('\u0000') };
      if (v === null || typeof v !== 'object') return { depth: 0, nul: false };
      const inner = Object.entries(v).flatMap(([key, value]) => [truth(key), truth(value)]);
      return { depth: 1 + Math.max(0, ...inner.map((t) => t.depth)), nul: inner.some((t) => t.nul) };
    };
    const values = [{ a: 'x\u0000"[', b: [['\\', '\\"{']] }, ['\u0000\\', { '"': { ']': [] } }], { k: 'plain \\u0000', l: [1, [2, [3]]] }];
    for (const v of values) {
      const text = JSON.stringify(v);
      expect(scanJson(text)).toEqual(truth(v));
    }
  });

  it('refuses deeper than the bound before parsing, and stops counting there', () => {
    expect(() => checkClientJson(nested(MAX_JSON_DEPTH), 'body')).not.toThrow();
    expect(() => checkClientJson(nested(MAX_JSON_DEPTH + 1), 'body')).toThrow(`body: nested deeper than ${MAX_JSON_DEPTH} levels`);
    // An attacker's 8 MB of brackets: refused at once, not a stack overflow later.
    const started = performance.now();
    expect(() => parseClientJson('{"claims":'.repeat(800_000) + '1' + '}'.repeat(800_000), 'events')).toThrow(/events: nested deeper/);
    expect(performance.now() - started).toBeLessThan(1000);
    expect(() => parseClientJson('{"a":', 'body')).toThrow('body: must be JSON');
    expect(parseClientJson('{"a":[1]}', 'body')).toEqual({ a: [1] });
  });

  it('refuses NUL in any string, keys too, and only an escape that is one', () => {
    expect(scanJson('{"a":"x\\u0000y"}').nul).toBe(true);
    expect(scanJson('{"\\u0000":1}').nul).toBe(true);
    expect(scanJson('["\\u00001"]').nul).toBe(true);
    // An escaped backslash before `u0000` is the text `\u0000`, and `\u0001` is not NUL.
    expect(scanJson('{"a":"x\\\\u0000"}').nul).toBe(false);
    expect(scanJson('{"a":"\\u0001 u0000"}').nul).toBe(false);
    expect(() => parseClientJson('{"title":"Do\\u0000cs"}', 'body')).toThrow('body: text must not contain NUL (\\u0000)');
    expect(JSON.parse('{"a":"x\\\\u0000"}').a).toBe('x\\u0000');
  });
});
