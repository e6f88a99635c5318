import { describe, expect, it } from 'vitest';
import { documentStyles } from '../src/index.ts';

describe('documentStyles', () => {
  it('scopes every rule to the element holding the document, dark rules included', () => {
    const css = documentStyles('.document');
    expect(css).not.toContain('&');
    expect(css).toContain('.document pre{background:var(--code)');
    expect(css).toContain('.document th,.document td{');
    expect(css).toContain('[data-theme=dark] .document :is(.hljs-keyword');
    for (const rule of css.split('}').filter(Boolean)) expect(rule.trim()).toMatch(/(?:^|,|\] )\.document[ :]/);
  });
});
