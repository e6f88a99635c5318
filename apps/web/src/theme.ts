import { useEffect, useState } from 'react';

export type Theme = 'system' | 'light' | 'dark';
const KEY = 'quire-theme';
const ORDER: Theme[] = ['system', 'light', 'dark'];

function saved(): Theme {
  try {
    const t = localStorage.getItem(KEY);
    return t === 'light' || t === 'dark' ? t : 'system';
  } catch {
    return 'system';
  }
}

/** Light, dark or the system's, kept in the browser (the reader uses the same key). */
export function useTheme(): [Theme, () => void] {
  const [theme, setTheme] = useState<Theme>(saved);
  useEffect(() => {
    const root = document.documentElement;
    if (theme === 'system') delete root.dataset.theme;
    else root.dataset.theme = theme;
    try {
      localStorage.setItem(KEY, theme);
    } catch {
      // Private windows may refuse storage; the theme then lasts for this page only.
    }
  }, [theme]);
  return [theme, () => setTheme((t) => ORDER[(ORDER.indexOf(t) + 1) % ORDER.length]!)];
}
