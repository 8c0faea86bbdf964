// Binary documents with real file signatures and seeded bodies (all distinct, so none is a duplicate of
// another): pdf, docx, pptx, doc, ppt, png, jpg, gif, reached from /files/ on host 0. bigBinary adds
// /files/big.pdf (5 MiB by default), streamed with back-pressure so the log shows how much a crawler read.

import type { BuildContext, FeatureModule } from '../site.js';

const ZIP = Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x14, 0x00, 0x06, 0x00]);
const OLE = Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);

export const BINARY_FILES: Array<{ target: string; contentType: string; header: Buffer; size: number }> = [
  {
    target: '/files/report.pdf',
    contentType: 'application/pdf',
    header: Buffer.from('%PDF-1.4\n%\xe2\xe3\xcf\xd3\n', 'latin1'),
    size: 6144,
  },
  {
    target: '/files/letter.docx',
    contentType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    header: Buffer.concat([ZIP, Buffer.from('[Content_Types].xml')]),
    size: 4096,
  },
  {
    target: '/files/slides.pptx',
    contentType: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
    header: Buffer.concat([ZIP, Buffer.from('ppt/presentation.xml')]),
    size: 5120,
  },
  { target: '/files/old.doc', contentType: 'application/msword', header: OLE, size: 3072 },
  { target: '/files/old.ppt', contentType: 'application/vnd.ms-powerpoint', header: OLE, size: 3584 },
  {
    target: '/files/photo.png',
    contentType: 'image/png',
    header: Buffer.from([
      0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52,
    ]),
    size: 2048,
  },
  {
    target: '/files/photo.jpg',
    contentType: 'image/jpeg',
    header: Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00]),
    size: 2560,
  },
  { target: '/files/anim.gif', contentType: 'image/gif', header: Buffer.from('GIF89a'), size: 1024 },
];

function filesHub(site: BuildContext['site']) {
  const host = site.host(0);
  const existing = host.resources.get('/files/');
  if (existing?.kind === 'page') return existing;
  const hub = site.leaf(host, '/files/', 'Files');
  site.linkFromHome(host, '/files/', 'files');
  return hub;
}

export const binaries: FeatureModule = {
  name: 'binaries',
  build({ site }: BuildContext): void {
    const host = site.host(0);
    const hub = filesHub(site);
    for (const file of BINARY_FILES) {
      site.add(host, file.target, {
        kind: 'binary',
        contentType: file.contentType,
        size: file.size,
        header: file.header,
      });
      hub.links.push({ href: file.target, text: file.target.slice('/files/'.length) });
    }
  },
};

export const bigBinary: FeatureModule = {
  name: 'bigBinary',
  build({ site, opts }: BuildContext): void {
    const host = site.host(0);
    site.add(host, '/files/big.pdf', {
      kind: 'binary',
      contentType: 'application/pdf',
      size: opts.bigBinaryBytes,
      header: Buffer.from('%PDF-1.5\n%\xe2\xe3\xcf\xd3\n', 'latin1'),
    });
    filesHub(site).links.push({ href: '/files/big.pdf', text: 'big.pdf' });
  },
};
