import { describe, expect, it } from 'vitest';
import { fileSlug, titleSlug } from './slug.ts';

describe('slugs', () => {
  it("makes a new page's slug GitBook's way, other scripts transliterated", () => {
    expect(titleSlug('Установка')).toBe('ustanovka');
    expect(titleSlug('安装指南')).toBe('an-zhuang-zhi-nan');
    expect(titleSlug('Café Crème')).toBe('cafe-creme');
  });

  it("keeps an imported file's name when it can be a slug", () => {
    expect(fileSlug('install_steps', 'Install')).toBe('install_steps');
    expect(fileSlug('安装', '安装')).toBe('an-zhuang');
  });
});
