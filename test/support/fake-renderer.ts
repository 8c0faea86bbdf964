// A PageRenderer without a browser, for the runner's unit tests: it "runs" the page by asking the crawl for
// the subresources listed in `requests` (as a page's scripts would), then returns the DOM `build` makes from
// the document and the answers. The double of crawler/render/chromium.ts.
import type {
  PageRenderer,
  PageRequestAnswer,
  RenderJob,
  RenderOutput,
} from '../../src/crawler/render/port.js';

export interface FakePage {
  /** Subresources the page asks for, in order. */
  requests?: string[];
  /** The rendered DOM from the document's body and the answers (refused: the reason). */
  build(document: string, answers: Map<string, PageRequestAnswer>): string;
  /** The page moved itself here. */
  navigateTo?: string;
}

export class FakeRenderer implements PageRenderer {
  readonly jobs: RenderJob[] = [];
  readyCalls = 0;

  constructor(
    private readonly pages: Record<string, FakePage>,
    private readonly unavailable: string | null = null,
  ) {}

  async ready(): Promise<void> {
    this.readyCalls++;
    if (this.unavailable !== null) throw new Error(this.unavailable);
  }

  async render(job: RenderJob): Promise<RenderOutput> {
    this.jobs.push(job);
    const page = this.pages[job.url];
    const requests = { served: 0, refused: 0, blocked: 0 };
    const answers = new Map<string, PageRequestAnswer>();
    for (const url of page?.requests ?? []) {
      const answer = await job.answer({
        url,
        method: 'GET',
        headers: {},
        body: null,
        kind: 'script',
        navigation: false,
      });
      if ('refused' in answer) requests.refused++;
      else requests.served++;
      answers.set(url, answer);
    }
    const document = job.document.body.toString('utf8');
    return {
      html: page ? page.build(document, answers) : document,
      finalUrl: page?.navigateTo ?? job.url,
      renderMs: 7,
      problem: null,
      screenshot: null,
      requests,
    };
  }
}
