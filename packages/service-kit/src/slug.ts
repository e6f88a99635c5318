/**
 * A file's name as one path segment: separators, control characters and leading dots become
 * harmless, so that no name (`../../.github/workflows/x.yml`, `.git`) leads anywhere when a
 * space is written out as files (Git export).
 */
export function safeFileName(name: string): string {
  const flat = name.replace(/[/\\\u0000-\u001f\u007f]/g, '-').replace(/^[.\s]+/, '');
  return flat || 'file';
}
