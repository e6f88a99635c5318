import { Type, type Static, type TObject } from '@sinclair/typebox';
import { chromium, type Browser } from 'playwright-core';

// HTML to PDF in Chromium: the browser's text shaping and the system's fonts (Noto) print every
// script right. One browser per process, started on first use and again if it dies; at most
// `concurrency` pages print at once (the others wait their turn), each within `timeoutMs`.
// The page is served from an origin of its own and may load nothing but the assets the caller
// hands over: every other request (the network, file://, other hosts) is refused, so a document
// naming an internal address makes the server fetch nothing.

export interface PdfOptions {
  executablePath: string;
  concurrency: number;
  timeoutMs: number;
}

/** The configuration of a service that prints PDFs (spread into its config schema). */
export const pdfConfigFields = {
  /** Debian's `chromium` by default. */
  CHROMIUM_PATH: Type.String({ minLength: 1, default: '/usr/bin/chromium' }),
  /** PDFs printed at once by this process; more wait their turn. */
  PDF_CONCURRENCY: Type.Integer({ minimum: 1, maximum: 32, default: 2 }),
  /** One PDF's time to load and print, past which it fails. */
  PDF_TIMEOUT_MS: Type.Integer({ minimum: 1000, default: 60_000 }),
};

export const pdfOptions = (config: Static<TObject<typeof pdfConfigFields>>): PdfOptions => ({
  executablePath: config.CHROMIUM_PATH,
  concurrency: config.PDF_CONCURRENCY,
  timeoutMs: config.PDF_TIMEOUT_MS,
});

export const DEFAULT_PDF_OPTIONS: PdfOptions = { executablePath: '/usr/bin/chromium', concurrency: 2, timeoutMs: 60_000 };

/** Bytes the page may load, by path below its origin (`/files/<id>`); undefined refuses the request. */
export type AssetLoader = (path: string) => Promise<{ body: Buffer; contentType: string } | undefined>;

/** Where the printed page lives: never resolved, every request to it is answered here. */
export const PRINT_ORIGIN = 'https://print.quire.invalid';

const ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
];

export class PdfPrinter {
  private browser: Promise<Browser> | undefined;
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(private readonly options: PdfOptions = DEFAULT_PDF_OPTIONS) {}

  private launch(): Promise<Browser> {
    if (!this.browser) {
      const started = chromium.launch({ executablePath: this.options.executablePath, args: ARGS });
      this.browser = started;
      started.then(
        (b) => b.on('disconnected', () => (this.browser = undefined)),
        () => (this.browser = undefined),
      );
    }
    return this.browser;
  }

  private async turn(): Promise<void> {
    if (this.running < this.options.concurrency) {
      this.running++;
      return;
    }
    // The finishing print hands its place over, so `running` stays the same.
    await new Promise<void>((resolve) => this.waiting.push(resolve));
  }

  private done(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.running--;
  }

  /** The HTML printed to an A4 PDF, with its title in the PDF's metadata, within `timeoutMs` (the printer's by default). */
  async print(html: string, assets: AssetLoader = async () => undefined, timeoutMs = this.options.timeoutMs): Promise<Buffer> {
    await this.turn();
    try {
      const browser = await this.launch();
      const context = await browser.newContext({ javaScriptEnabled: false, offline: false });
      try {
        context.setDefaultTimeout(timeoutMs);
        await context.route('**/*', async (route) => {
          const url = new URL(route.request().url());
          if (url.origin !== PRINT_ORIGIN) return route.abort('blockedbyclient');
          if (url.pathname === '/') return route.fulfill({ status: 200, contentType: 'text/html; charset=utf-8', body: html });
          const asset = await assets(url.pathname).catch(() => undefined);
          return asset ? route.fulfill({ status: 200, contentType: asset.contentType, body: asset.body }) : route.abort('blockedbyclient');
        });
        const page = await context.newPage();
        let timer: NodeJS.Timeout | undefined;
        const timeout = new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new PdfTimeoutError(timeoutMs)), timeoutMs);
        });
        try {
          return await Promise.race([
            (async () => {
              await page.goto(`${PRINT_ORIGIN}/`, { waitUntil: 'load' });
              return page.pdf({ format: 'A4', printBackground: true, preferCSSPageSize: true, outline: true, tagged: true });
            })(),
            timeout,
          ]);
        } finally {
          clearTimeout(timer);
        }
      } finally {
        await context.close().catch(() => undefined);
      }
    } finally {
      this.done();
    }
  }

  async close(): Promise<void> {
    const browser = this.browser;
    this.browser = undefined;
    await (await browser?.catch(() => undefined))?.close();
  }
}

export class PdfTimeoutError extends Error {
  constructor(readonly timeoutMs: number) {
    super(`the PDF took longer than ${timeoutMs} ms to print`);
  }
}
