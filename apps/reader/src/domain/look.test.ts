import { describe, expect, it } from 'vitest';
import { BACKGROUNDS, contrast, DEFAULT_ACCENT, legible, lookOf } from './look.ts';

describe('lookOf', () => {
  it('keeps the reader defaults when nothing is set, or the settings are not usable', () => {
    for (const json of ['', '{}', 'not json', '[1]', '{"styling":{"primaryColor":{"light":"red","dark":"url(x)"}},"header":{"logo":{"light":"javascript:alert(1)"}}}']) {
      expect(lookOf(json, 'Acme')).toEqual({ title: 'Acme', accent: DEFAULT_ACCENT, defaultTheme: 'light', toggle: true });
    }
  });

  it('takes the title, logo, accent and default theme of the customization', () => {
    const look = lookOf(
      JSON.stringify({
        title: 'Acme Handbook',
        header: { logo: { light: 'https://cdn.test/l.png', dark: 'https://cdn.test/d.png' } },
        styling: { primaryColor: { light: '#0A7D32', dark: '#0A7D32' } },
        themes: { default: 'dark', toggeable: false },
      }),
      'Acme',
    );
    expect(look.title).toBe('Acme Handbook');
    expect(look.logo).toEqual({ light: 'https://cdn.test/l.png', dark: 'https://cdn.test/d.png' });
    expect(look.accent.light).toBe('#0a7d32');
    expect([look.defaultTheme, look.toggle]).toEqual(['dark', false]);
  });

  it('makes a site colour legible on each background (WCAG AA), as close to it as it can', () => {
    const look = lookOf(JSON.stringify({ styling: { primaryColor: { light: '#FFE600', dark: '#1A1A80' } } }), 'Acme');
    expect(contrast(look.accent.light, BACKGROUNDS.light)).toBeGreaterThanOrEqual(4.5);
    expect(contrast(look.accent.dark, BACKGROUNDS.dark)).toBeGreaterThanOrEqual(4.5);
    expect(legible('#0A7D32', BACKGROUNDS.light)).toBe('#0a7d32');
    for (const bg of Object.values(BACKGROUNDS)) expect(contrast(legible('#346DDB', bg), bg)).toBeGreaterThanOrEqual(4.5);
    expect(contrast('#000', '#fff')).toBeCloseTo(21);
  });
});
