// Images shown with <img src> on host 0 under /gallery/: two pages show the same photo's bytes under two URLs
// (a crawl that downloads images records the second it fetches DUPLICATE of the first), a distinct photo, and
// one image both pages show (one URL: fetched once, a copy of nothing). No page links an image, so a crawl
// that does not download images never requests one.

import type { BuildContext, FeatureModule } from '../site.js';

const PNG = Buffer.from([
  0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52,
]);
const JPEG = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00]);

/** The pages that show images, and what each shows. */
export const GALLERY_PAGES = [
  { target: '/gallery/harbour.html', images: ['/gallery/img/sunset.png', '/gallery/img/gull.jpg'] },
  { target: '/gallery/quay.html', images: ['/gallery/img/sunset-copy.png', '/gallery/img/gull.jpg'] },
] as const;
/** Two URLs of one image's bytes: whichever is fetched second is the DUPLICATE. */
export const IMAGE_COPIES = ['/gallery/img/sunset.png', '/gallery/img/sunset-copy.png'] as const;
/** Every image URL the gallery shows, once each. */
export const GALLERY_IMAGES = [
  '/gallery/img/sunset.png',
  '/gallery/img/sunset-copy.png',
  '/gallery/img/gull.jpg',
];

export const images: FeatureModule = {
  name: 'images',
  build({ site }: BuildContext): void {
    const host = site.host(0);
    const rng = site.rng('images');
    const noise = (size: number) => Buffer.from(Array.from({ length: size }, () => rng.between(0, 255)));
    const sunset = Buffer.concat([PNG, noise(1500)]);
    const bodies: Record<string, { contentType: string; body: Buffer }> = {
      '/gallery/img/sunset.png': { contentType: 'image/png', body: sunset },
      '/gallery/img/sunset-copy.png': { contentType: 'image/png', body: Buffer.from(sunset) },
      '/gallery/img/gull.jpg': { contentType: 'image/jpeg', body: Buffer.concat([JPEG, noise(1200)]) },
    };
    for (const [target, { contentType, body }] of Object.entries(bodies)) {
      site.add(host, target, { kind: 'file', contentType, body, auxiliary: false });
    }
    const hub = site.leaf(host, '/gallery/', 'Gallery');
    site.linkFromHome(host, '/gallery/', 'gallery');
    for (const page of GALLERY_PAGES) {
      site.leaf(host, page.target, `Photos of ${page.target.slice('/gallery/'.length, -'.html'.length)}`);
      site.page(host, page.target).images = page.images.map((src) => ({ src, alt: `photo ${src}` }));
      hub.links.push({ href: page.target, text: page.target.slice('/gallery/'.length) });
    }
  },
};
