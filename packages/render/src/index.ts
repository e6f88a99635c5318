export { READER_CSS } from './styles.ts';
export {
  allPages,
  includedIds,
  includeTargets,
  inlineMarkdown,
  linkedPath,
  prepareDocument,
  renderDocument,
  renderPrepared,
  renderMarkdown,
  renderPage,
  type RenderContext,
  type Rendered,
} from './document.ts';
export { bookHtml, esc, htmlDocument, type Book, type BookPage } from './book.ts';
export { staticSiteZip, type StaticSite } from './static-site.ts';
