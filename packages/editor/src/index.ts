// The members' editor's schema and its conversion, shared by the web app (which edits with it) and
// the collaboration server (which keeps each page being edited as a Y.Doc of the same schema).
export { fromEditor, toEditor, type PMMark, type PMNode, type RefHref } from './convert.ts';
export { extensions, HINT_STYLES } from './extensions.ts';
export { apiOperationPicker, filePicker, filterItems, type UploadKind } from './slash.ts';
export type { RenderReusable } from './blocks.ts';
export { COLORS } from './marks.ts';
export { annotationText, blockFields, newAnnotation, NO_CHOICES, withAnnotationText, type Choices, type Json } from './fields.ts';
