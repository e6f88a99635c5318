// Before the first paint, so a dark theme never flashes light (a file: the CSP allows no inline script).
try {
  const t = localStorage.getItem('quire-theme');
  if (t === 'light' || t === 'dark') document.documentElement.dataset.theme = t;
} catch {
  // Storage refused: the system's theme.
}
