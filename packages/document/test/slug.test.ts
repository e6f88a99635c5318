import { describe, expect, it } from 'vitest';
import { fileSlug, titleSlug } from '../src/slug.ts';

describe('slugs', () => {
  it("makes a new page's slug GitBook's way, other scripts transliterated", () => {
    expect(titleSlug('Установка')).toBe('ustanovka');
    expect(titleSlug('安装指南')).toBe('an-zhuang-zhi-nan');
    expect(titleSlug('Café Crème')).toBe('cafe-creme');
    // As GitBook's own paths spell them (`editing-and-publishing-documentation/how-to-use-gitbooks-editor`).
    expect(titleSlug('Editing & publishing documentation')).toBe('editing-and-publishing-documentation');
    expect(titleSlug('How to use GitBook’s editor')).toBe('how-to-use-gitbooks-editor');
  });

  it('cuts to a bound on a letter, and falls back when nothing of the title can be a slug', () => {
    expect(titleSlug('Héllo, World!  2')).toBe('hello-world-2');
    expect(titleSlug('x'.repeat(200), { maxLength: 90 })).toHaveLength(90);
    expect(titleSlug(`${'a'.repeat(99)} b`)).toBe('a'.repeat(99));
    expect(titleSlug('🎉')).toBe('page');
    expect(titleSlug('???', { fallback: 'item' })).toBe('item');
  });

  it("keeps an imported file's name when it can be a slug", () => {
    expect(fileSlug('install_steps', 'Install')).toBe('install_steps');
    expect(fileSlug('安装', '安装')).toBe('an-zhuang');
    expect(fileSlug('17.1.-building-with-visual-c++', 'x')).toBe('17.1.-building-with-visual-c++');
    // Made one, its dots, underscores and pluses kept.
    expect(fileSlug('17.1. Building with Visual C++', 'x')).toBe('17.1.-building-with-visual-c++');
    expect(fileSlug('SmartThings Hubs + Devices', 'x')).toBe('smartthings-hubs-+-devices');
    expect(fileSlug('Step_2. Done.', 'x')).toBe('step_2.-done');
  });
});
