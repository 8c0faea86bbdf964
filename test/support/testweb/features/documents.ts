// Real documents whose text is known, reached from /docs/ on host 0: a PDF, a DOCX, a PPTX and an ODT made in
// code (test/support/documents.ts), a byte-identical copy of the PDF (a correct crawl records it DUPLICATE), a
// legacy .doc (hashed, no text) and a text/plain page (recorded HTML, its words read, no links).

import { makeDocx, makeOdt, makePdf, makePptx } from '../../documents.js';
import type { BuildContext, FeatureModule } from '../site.js';

/** Each document's path, media type and the words its text holds. */
export const DOCUMENT_FILES = [
  {
    target: '/docs/guide.pdf',
    contentType: 'application/pdf',
    text: 'Lighthouse keepers guide\nThe lamp is trimmed at dusk',
    body: () => makePdf(['Lighthouse keepers guide\nThe lamp is trimmed at dusk']),
  },
  {
    target: '/docs/notes.docx',
    contentType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    text: 'Harbour pilot notes\nTides turn twice daily',
    body: () => makeDocx(['Harbour pilot notes', 'Tides turn twice daily']),
  },
  {
    target: '/docs/deck.pptx',
    contentType: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
    text: 'Foghorn signals\nOne long blast\nTwo short blasts',
    body: () => makePptx(['Foghorn signals\nOne long blast', 'Two short blasts']),
  },
  {
    target: '/docs/memo.odt',
    contentType: 'application/vnd.oasis.opendocument.text',
    text: 'Breakwater repair memo\nStones arrive Monday',
    body: () => makeOdt(['Breakwater repair memo', 'Stones arrive Monday']),
  },
] as const;

// queued after the original: a page's links enter the frontier in URL order
export const DOCUMENT_COPY = { target: '/docs/spare-guide.pdf', original: '/docs/guide.pdf' } as const;
export const LEGACY_DOCUMENT = '/docs/minutes.doc';
export const TEXT_DOCUMENT = {
  target: '/docs/readme.txt',
  text: 'Beacon readme: the beacon flashes every ten seconds <a href="/docs/never.html">not a link</a>',
} as const;

export const documents: FeatureModule = {
  name: 'documents',
  build({ site }: BuildContext): void {
    const host = site.host(0);
    const hub = site.leaf(host, '/docs/', 'Documents');
    site.linkFromHome(host, '/docs/', 'documents');
    for (const file of DOCUMENT_FILES) {
      site.add(host, file.target, {
        kind: 'file',
        contentType: file.contentType,
        body: file.body(),
        auxiliary: false,
      });
      hub.links.push({ href: file.target, text: file.target.slice('/docs/'.length) });
    }
    site.add(host, DOCUMENT_COPY.target, {
      kind: 'file',
      contentType: 'application/pdf',
      body: DOCUMENT_FILES[0].body(),
      auxiliary: false,
      expectedType: 'DUPLICATE',
    });
    hub.links.push({ href: DOCUMENT_COPY.target, text: 'guide (copy)' });
    site.add(host, LEGACY_DOCUMENT, {
      kind: 'file',
      contentType: 'application/msword',
      body: Buffer.concat([Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]), Buffer.alloc(504)]),
      auxiliary: false,
    });
    hub.links.push({ href: LEGACY_DOCUMENT, text: 'minutes' });
    site.add(host, TEXT_DOCUMENT.target, {
      kind: 'file',
      contentType: 'text/plain; charset=utf-8',
      body: Buffer.from(TEXT_DOCUMENT.text),
      auxiliary: false,
      expectedType: 'HTML',
    });
    hub.links.push({ href: TEXT_DOCUMENT.target, text: 'readme' });
  },
};
