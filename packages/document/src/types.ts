// GitBook's block document, as the `JSONDocument` schema of GitBook's OpenAPI document
// (`@gitbook/api@0.130.0`, spec/openapi.json) writes it: the same objects, types, `data` and
// `fragments`. Only what the spec marks optional is optional here.

export type ContentRefFile = { kind: 'file'; file: string };
export type ContentRefURL = { kind: 'url'; url: string };
export type ContentRefPage = { kind: 'page'; page: string; space?: string };
export type ContentRefAnchor = { kind: 'anchor'; anchor: string; space?: string; page?: string };
export type ContentRefUser = { kind: 'user'; user: string };
export type ContentRefCollection = { kind: 'collection'; collection: string };
export type ContentRefSpace = { kind: 'space'; space: string };
export type ContentRefReusableContent = { kind: 'reusable-content'; reusableContent: string; space?: string };
export type ContentRefOpenAPI = { kind: 'openapi'; spec: string };
export type ContentRef =
  ContentRefFile | ContentRefURL | ContentRefPage | ContentRefAnchor | ContentRefUser | ContentRefCollection | ContentRefSpace | ContentRefReusableContent | ContentRefOpenAPI;

export type Length = number | { unit: string; value: number };
export type TextAlignment = 'start' | 'center' | 'end';

// Marks
export type MarkColorName = 'default' | 'green' | 'blue' | 'red' | 'orange' | 'yellow' | 'purple' | '$primary' | '$info' | '$success' | '$warning' | '$danger';
export type DocumentMarkSimple = {
  object: 'mark';
  type: 'bold' | 'italic' | 'code' | 'keyboard' | 'strikethrough' | 'superscript' | 'subscript';
};
export type DocumentMarkColor = { object: 'mark'; type: 'color'; data: { text: MarkColorName; background: MarkColorName } };
export type DocumentTextMark = DocumentMarkSimple | DocumentMarkColor;
export type DocumentMarkType = DocumentTextMark['type'];

// Text
export type DocumentTextLeaf = { object: 'leaf'; text: string; marks: DocumentTextMark[] };
export type DocumentText = { object: 'text'; key?: string; leaves: DocumentTextLeaf[] };

type InlineBase<T extends string> = { object: 'inline'; type: T; key?: string };
type VoidInline<T extends string, D> = InlineBase<T> & { isVoid: true; data: D };

// Inlines
export type DocumentInlineLink = InlineBase<'link'> & {
  isVoid?: false;
  data: { ref: ContentRef };
  nodes: (DocumentText | DocumentInlineImage)[];
};
export type DocumentInlineEmoji = VoidInline<'emoji', { code: string }>;
export type DocumentInlineIcon = VoidInline<'icon', { icon: string }>;
export type DocumentInlineExpression = VoidInline<'expression', { expression: string }>;
export type DocumentInlineMath = VoidInline<'inline-math', { formula: string }>;
export type DocumentInlineImage = VoidInline<
  'inline-image',
  { ref: ContentRefURL | ContentRefFile; refDark?: ContentRefURL | ContentRefFile; caption?: string; size?: 'original' | 'line' }
>;
export type DocumentInlineMention = VoidInline<'mention', { ref: ContentRef }>;
export type DocumentInlineButton = VoidInline<'button', { label: string; kind: 'primary' | 'secondary'; icon?: string; ref: ContentRef }>;
export type DocumentInlineAnnotation = InlineBase<'annotation'> & {
  isVoid: false;
  data: Record<string, never>;
  nodes: DocumentText[];
  fragments: DocumentFragment<'annotation-body', BlockEssential | DocumentBlockCode>[];
};
export type DocumentInline =
  | DocumentInlineLink
  | DocumentInlineEmoji
  | DocumentInlineIcon
  | DocumentInlineExpression
  | DocumentInlineMath
  | DocumentInlineImage
  | DocumentInlineAnnotation
  | DocumentInlineMention
  | DocumentInlineButton;
export type DocumentInlineType = DocumentInline['type'];
export type InlineContent = DocumentInline | DocumentText;

// Fragments: named sub-documents of a block (an image's caption, an expandable's title and body,
// a table's cells, an annotation's body).
export type DocumentFragment<T extends string = string, N = DocumentBlock> = {
  object: 'fragment';
  key?: string;
  fragment: string;
  type?: T;
  nodes: N[];
};

type BlockBase<T extends string> = { object: 'block'; type: T; key?: string };

// Blocks
export type DocumentBlockParagraph = BlockBase<'paragraph'> & {
  isVoid?: false;
  data?: { align?: TextAlignment };
  nodes: InlineContent[];
};
export type DocumentBlockHeading = BlockBase<'heading-1' | 'heading-2' | 'heading-3'> & {
  isVoid?: false;
  /** `id`: an explicit anchor (`^[-a-z0-9.+_]+$`); without it the anchor is the heading's slug. */
  data: { id?: string; align?: TextAlignment };
  meta?: { id: string };
  nodes: InlineContent[];
};
export type DocumentBlockListItem = BlockBase<'list-item'> & {
  isVoid?: false;
  data?: { checked?: boolean };
  nodes: (BlockEssential | DocumentBlockCode | DocumentBlockHint | DocumentBlockQuote | DocumentBlockMath | DocumentBlockTable)[];
};
export type DocumentBlockListOrdered = BlockBase<'list-ordered'> & {
  isVoid?: false;
  data: { start?: number };
  nodes: DocumentBlockListItem[];
};
export type DocumentBlockListUnordered = BlockBase<'list-unordered'> & {
  isVoid?: false;
  data?: Record<string, never>;
  nodes: DocumentBlockListItem[];
};
export type DocumentBlockListTasks = BlockBase<'list-tasks'> & {
  isVoid?: false;
  data?: Record<string, never>;
  nodes: DocumentBlockListItem[];
};
export type DocumentBlockDivider = BlockBase<'divider'> & { isVoid: true; data: Record<string, never> };
export type BlockEssential = DocumentBlockParagraph | DocumentBlockHeading | DocumentBlockListOrdered | DocumentBlockListUnordered | DocumentBlockListTasks | DocumentBlockDivider;

export type DocumentBlockQuote = BlockBase<'blockquote'> & {
  isVoid?: false;
  data?: Record<string, never>;
  nodes: (BlockEssential | DocumentBlockQuote)[];
};
export type HintStyle = 'info' | 'warning' | 'danger' | 'success';
export type DocumentBlockHint = BlockBase<'hint'> & { isVoid?: false; data: { style: HintStyle }; nodes: BlockEssential[] };
export type DocumentBlockCodeLine = BlockBase<'code-line'> & {
  isVoid?: false;
  data: { highlighted?: boolean };
  nodes: (DocumentText | DocumentInlineAnnotation | DocumentInlineExpression)[];
};
export type DocumentBlockCode = BlockBase<'code'> & {
  isVoid?: false;
  data: { syntax?: string; title?: string; overflow?: 'scroll' | 'wrap'; lineNumbers?: boolean; fullWidth?: boolean };
  nodes: DocumentBlockCodeLine[];
};
export type DocumentBlockMath = BlockBase<'math'> & { isVoid: true; data: { formula: string } };
export type DocumentBlockImage = BlockBase<'image'> & {
  isVoid: true;
  data: {
    ref: ContentRefURL | ContentRefFile;
    refDark?: ContentRefURL | ContentRefFile;
    width?: Length;
    height?: Length;
    alt?: string;
  };
  /** At most one `caption` fragment: a figure's caption (empty for `<figcaption></figcaption>`). */
  fragments: DocumentFragment<string, DocumentBlockParagraph>[];
};
export type DocumentBlockImages = BlockBase<'images'> & {
  isVoid: false;
  data: { align?: 'center' | 'left' | 'right'; fullWidth?: boolean };
  nodes: DocumentBlockImage[];
};
/** `data.caption` is Quire's: GitBook's `{% file %}` caption, which the 0.130 schema does not name. */
export type DocumentBlockFile = BlockBase<'file'> & { isVoid: true; data: { ref: ContentRefFile; caption?: string } };
export type DocumentBlockDrawing = BlockBase<'drawing'> & { isVoid: true; data: { ref?: ContentRefFile } };
/** `data.caption` is Quire's, as for files: `{% embed url="…" %}caption{% endembed %}`. */
export type DocumentBlockEmbed = BlockBase<'embed'> & { isVoid: true; data: { url: string; fullWidth?: boolean; caption?: string } };
export type ExpandableBodyBlock =
  BlockEssential | DocumentBlockImages | DocumentBlockCode | DocumentBlockTable | DocumentBlockHint | DocumentBlockQuote | DocumentBlockReusableContent;
export type DocumentBlockExpandable = BlockBase<'expandable'> & {
  isVoid: true;
  data: Record<string, never>;
  meta?: { id: string };
  fragments: (
    | (DocumentFragment<'expandable-title', DocumentBlockParagraph> & { type: 'expandable-title' })
    | (DocumentFragment<'expandable-body', ExpandableBodyBlock> & { type: 'expandable-body' })
  )[];
};
export type TabsItemBlock =
  | BlockEssential
  | DocumentBlockContentRef
  | DocumentBlockCode
  | DocumentBlockEmbed
  | DocumentBlockFile
  | DocumentBlockImages
  | DocumentBlockDrawing
  | DocumentBlockHint
  | DocumentBlockQuote
  | DocumentBlockMath
  | DocumentBlockIntegration;
export type DocumentBlockTabsItem = BlockBase<'tabs-item'> & {
  isVoid?: false;
  data: { title?: string };
  meta?: { id: string };
  nodes: TabsItemBlock[];
};
export type DocumentBlockTabs = BlockBase<'tabs'> & {
  isVoid?: false;
  data?: { fullWidth?: boolean };
  nodes: DocumentBlockTabsItem[];
};

// Tables: columns are definitions, rows are records; a text cell's value names the fragment that
// holds its content.
export type DocumentTableViewGrid = {
  type: 'grid';
  columns: string[];
  columnWidths?: Record<string, number>;
  hideHeader: boolean;
  useNewSizing?: boolean;
};
export type DocumentTableViewCards = {
  type: 'cards';
  cardSize: 'medium' | 'large';
  columns: string[];
  targetDefinition?: string;
  coverDefinition?: string;
  hideColumnTitle?: boolean;
};
export type DocumentTableRecord = {
  orderIndex: string;
  values: Record<string, number | string | boolean | string[] | ContentRef>;
};
type TableDefinitionBase = { id: string; title: string };
export type DocumentTableDefinition = TableDefinitionBase &
  (
    | { type: 'text'; textAlignment: 'center' | 'right' | 'left'; verticalAlignment?: 'top' | 'middle' | 'bottom' }
    | { type: 'number' | 'checkbox' | 'files' | 'content-ref' }
    | { type: 'users'; multiple: boolean }
    | { type: 'rating'; max: number }
    | { type: 'select'; multiple: boolean; options: { value: string; label: string; color: string }[] }
  );
export type DocumentBlockTable = BlockBase<'table'> & {
  isVoid: true;
  data: {
    view: DocumentTableViewGrid | DocumentTableViewCards;
    records: Record<string, DocumentTableRecord>;
    definition: Record<string, DocumentTableDefinition>;
    fullWidth?: boolean;
  };
  fragments: DocumentFragment[];
};
/** An OpenAPI operation from a spec file or URL (`{% openapi src path method %}`). */
export type DocumentBlockOpenAPI = BlockBase<'swagger'> & {
  isVoid: true;
  data: { ref: ContentRefFile | ContentRefURL; path: string; method: string; expanded?: boolean; fullWidth?: boolean };
  meta?: { id: string };
};
/** An operation of one of the organization's OpenAPI specs, named by its slug (`{% openapi-operation spec path method %}`). */
export type DocumentBlockOpenAPIOperation = BlockBase<'openapi-operation'> & {
  isVoid: true;
  data: { ref: ContentRefOpenAPI; path: string; method: string };
  meta?: { id: string };
};
export type DocumentBlockContentRef = BlockBase<'content-ref'> & { isVoid: true; data: { ref: ContentRef } };
export type DocumentBlockIntegration = BlockBase<'integration'> & {
  isVoid: true;
  data: { integration: string; block: string; props: Record<string, unknown>; action?: unknown; url?: string; fullWidth?: boolean };
};
export type DocumentBlockReusableContent = BlockBase<'reusable-content'> & {
  isVoid: true;
  data: { ref: ContentRefReusableContent };
  meta?: { token?: string };
};

/** Every block this package reads, writes and renders. */
export type DocumentBlock =
  | BlockEssential
  | DocumentBlockListItem
  | DocumentBlockQuote
  | DocumentBlockHint
  | DocumentBlockCode
  | DocumentBlockCodeLine
  | DocumentBlockMath
  | DocumentBlockImages
  | DocumentBlockImage
  | DocumentBlockFile
  | DocumentBlockDrawing
  | DocumentBlockEmbed
  | DocumentBlockExpandable
  | DocumentBlockTabs
  | DocumentBlockTabsItem
  | DocumentBlockTable
  | DocumentBlockContentRef
  | DocumentBlockOpenAPI
  | DocumentBlockOpenAPIOperation
  | DocumentBlockIntegration
  | DocumentBlockReusableContent;
export type DocumentBlockType = DocumentBlock['type'];

/** The blocks allowed at the top of a document. */
export type TopLevelBlock = Exclude<DocumentBlock, DocumentBlockListItem | DocumentBlockCodeLine | DocumentBlockImage | DocumentBlockTabsItem>;

export type JSONDocument = {
  object: 'document';
  data: { schemaVersion?: number; [key: string]: unknown };
  nodes: TopLevelBlock[];
};
