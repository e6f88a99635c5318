export * from './types.ts';
export { fromMarkdown, parseMarkdown, type FromMarkdownOptions, type ParsedMarkdown } from './from-markdown.ts';
export { toMarkdown, type ToMarkdownOptions } from './to-markdown.ts';
export { toHtml, type ToHtmlOptions } from './to-html.ts';
export { inlineReusableContents, MAX_INCLUDE_DEPTH } from './includes.ts';
export { anchorSlug, headingAnchors, romanizeEastAsian, sections, toPlainText, type Section } from './text.ts';
export { mapRefs, mentionedUsers, rawRef, resolveRefs, type LinkContext, type ResolveLink, type RefToUrl } from './refs.ts';
export { documentStyles } from './styles.ts';
export { emojiText, paragraph, text } from './nodes.ts';
