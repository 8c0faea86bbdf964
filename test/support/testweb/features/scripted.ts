// Pages that need JavaScript (rendering in headless Chromium): their text and links are built by scripts, so a
// crawl that parses the fetched HTML finds none of them, and one that renders finds them all. Off by default
// (a crawl that never renders reads these pages as empty): tests turn it on with `features: { scripted: true }`.
//   /scripted/app.html       an empty #root filled by /scripted/app.js: a heading, text, links to built-1/2;
//                            and an image (blocked by default)
//   /scripted/xhr.html       fetches /scripted/links.json with XHR and writes a link to each URL in it
//   /scripted/hang.html      a script that never returns (the page's main thread hangs: never settles)
//   /scripted/away.html      navigates itself to /scripted/landing.html as it loads
//   /scripted/probe.html     a script fetching host 1's /scripted/secret.json (another address): a link to
//                            /scripted/leaked.html appears only when that request was answered
//   /scripted/static.html    an ordinary article with a script or two (render: auto leaves it alone)
//   /scripted/stall.html     loads /scripted/stall.js, which the server answers only after a minute: a render
//                            in flight for as long as a test needs (to kill Chromium under it); its fetched
//                            HTML links /scripted/app.html
// Pages whose scripts do what a crawler's browser must survive (each page is still recorded, and the process
// stays up), each with a line of text its script writes once it got past what it does:
//   /scripted/popup.html     window.open of /scripted/popup-target.html, then a click on a target=_blank
//                            link to it (rel=noopener): never to be requested
//   /scripted/close.html     window.close() of the page itself
//   /scripted/dialogs.html   alert, confirm and prompt (their answers are written: dismissed)
//   /scripted/print.html     window.print()
//   /scripted/download.html  clicks a download link to /scripted/download.bin
//   /scripted/frame-removed.html  an iframe of /scripted/slow-frame.html (answered late) removed while it loads
//   /scripted/javascript-url.html, /scripted/data-url.html  navigate the page to a javascript: or data: URL
//   /scripted/reload-loop.html    reloads itself as soon as it has loaded, for ever
//   /scripted/download-navigation.html  navigates the page itself to /scripted/download.bin as it loads
//   /scripted/refused-navigation.html   navigates the page to host 1 (an address the SSRF guard refuses)
//   /scripted/out-of-memory.html  allocates without end: its renderer process dies of it; past 1 GiB (if it
//                                 gets there) it asks for /scripted/allocated-1gib.txt
// Every page here links nothing in its fetched HTML, but static.html, whose one link is /scripted/built-1.html,
// and stall.html.

import type { BuildContext, FeatureModule, HostSite, Site } from '../site.js';

function html(title: string, body: string): Buffer {
  return Buffer.from(
    `<!doctype html><html><head><meta charset="utf-8"><title>${title}</title></head><body>${body}</body></html>`,
  );
}

function page(site: Site, host: HostSite, target: string, title: string, body: string): void {
  site.add(host, target, {
    kind: 'page',
    title,
    links: [],
    body: html(title, body),
    contentType: 'text/html; charset=utf-8',
    textKey: `scripted${target}`,
  });
}

function script(
  site: Site,
  host: HostSite,
  target: string,
  source: string,
  contentType = 'text/javascript',
): void {
  site.add(host, target, { kind: 'file', contentType, body: Buffer.from(source), auxiliary: true });
}

export const scripted: FeatureModule = {
  name: 'scripted',
  build({ site }: BuildContext): void {
    const host = site.host(0);
    const other = site.host(1);
    page(
      site,
      host,
      '/scripted/app.html',
      'A script-built page',
      '<div id="root"></div><img src="/scripted/pixel.png" alt=""><script src="/scripted/app.js"></script>',
    );
    // an image: render.block keeps it from being requested (images, media and fonts by default)
    site.add(host, '/scripted/pixel.png', {
      kind: 'file',
      contentType: 'image/png',
      body: Buffer.from('89504e470d0a1a0a', 'hex'),
      auxiliary: true,
    });
    script(
      site,
      host,
      '/scripted/app.js',
      `const root = document.getElementById('root');
root.innerHTML = '<h1>Built by a script</h1><p>Lighthouse keepers tend the lamp through the winter storms.</p>' +
  '<a href="/scripted/built-1.html">first built link</a> <a href="/scripted/built-2.html">second built link</a>';`,
    );
    page(
      site,
      host,
      '/scripted/xhr.html',
      'Links by XHR',
      '<div id="app"></div><script src="/scripted/xhr.js"></script>',
    );
    script(
      site,
      host,
      '/scripted/xhr.js',
      `const xhr = new XMLHttpRequest();
xhr.open('GET', '/scripted/links.json');
xhr.onload = () => {
  const app = document.getElementById('app');
  for (const url of JSON.parse(xhr.responseText)) {
    const a = document.createElement('a');
    a.href = url;
    a.textContent = 'fetched link';
    app.appendChild(a);
  }
};
xhr.send();`,
    );
    script(
      site,
      host,
      '/scripted/links.json',
      JSON.stringify(['/scripted/from-xhr.html']),
      'application/json',
    );
    page(
      site,
      host,
      '/scripted/hang.html',
      'A page that never settles',
      '<div id="root"></div><script>for (;;) {}</script>',
    );
    page(
      site,
      host,
      '/scripted/away.html',
      'A page that navigates away',
      `<div id="root"></div><script>location.replace('/scripted/landing.html');</script>`,
    );
    site.leaf(host, '/scripted/landing.html', 'Where the page navigated to', [
      { href: '/scripted/after-landing.html', text: 'after landing' },
    ]);
    site.leaf(host, '/scripted/after-landing.html', 'Linked from the landing page');
    page(
      site,
      host,
      '/scripted/probe.html',
      'A page probing another address',
      `<div id="root"></div><script>
fetch('${other.origin}/scripted/secret.json')
  .then((response) => response.json())
  .then(() => { document.getElementById('root').innerHTML = '<a href="/scripted/leaked.html">leaked</a>'; })
  .catch(() => { document.getElementById('root').textContent = 'refused'; });
</script>`,
    );
    script(site, other, '/scripted/secret.json', JSON.stringify({ secret: true }), 'application/json');
    page(
      site,
      host,
      '/scripted/static.html',
      'An ordinary article',
      `<h1>An ordinary article</h1><p>${'Tides rise and fall twice a day along the harbour wall, and the fishing boats wait for the water. '.repeat(6)}</p><a href="/scripted/built-1.html">first built link</a><script>window.analytics = true;</script>`,
    );
    page(
      site,
      host,
      '/scripted/stall.html',
      'A page still loading',
      '<p>Still loading.</p><a href="/scripted/app.html">the app</a><script src="/scripted/stall.js"></script>',
    );
    site.add(host, '/scripted/stall.js', {
      kind: 'file',
      contentType: 'text/javascript',
      body: Buffer.from("document.body.insertAdjacentHTML('beforeend', '<p>loaded at last</p>');"),
      auxiliary: true,
      delayMs: 60_000,
    });
    unruly(site, host, other);
    for (const leaf of ['built-1', 'built-2', 'from-xhr', 'leaked']) {
      site.leaf(host, `/scripted/${leaf}.html`, `Reached: ${leaf}`);
    }
  },
};

/** A script that does `act`, then writes `<p id="after">after</p>` once it got past it. */
function acting(act: string): string {
  return `<p>A page whose script misbehaves.</p><script>${act}
document.body.insertAdjacentHTML('beforeend', '<p id="after">after</p>');</script>`;
}

/** The pages whose scripts do what a crawler's browser must survive (listed at the top). */
function unruly(site: Site, host: HostSite, other: HostSite): void {
  page(
    site,
    host,
    '/scripted/popup.html',
    'A page opening a popup',
    `<a id="blank" href="/scripted/popup-target.html?blank" target="_blank" rel="noopener">a new window</a>${acting(
      `window.open('/scripted/popup-target.html'); document.getElementById('blank').click();`,
    )}`,
  );
  site.leaf(host, '/scripted/popup-target.html', 'What the popup would show');
  page(site, host, '/scripted/close.html', 'A page closing itself', acting('window.close();'));
  page(
    site,
    host,
    '/scripted/dialogs.html',
    'A page asking questions',
    acting(`alert('alert');
document.body.insertAdjacentHTML('beforeend', '<p id="answers">confirm:' + confirm('confirm') + ' prompt:' + prompt('prompt') + '</p>');`),
  );
  page(site, host, '/scripted/print.html', 'A page printing itself', acting('window.print();'));
  page(
    site,
    host,
    '/scripted/download.html',
    'A page starting a download',
    `<a id="file" href="/scripted/download.bin" download>the file</a>${acting(`document.getElementById('file').click();`)}`,
  );
  site.add(host, '/scripted/download.bin', {
    kind: 'file',
    contentType: 'application/octet-stream',
    body: Buffer.from('not to be downloaded'),
    auxiliary: true,
  });
  page(
    site,
    host,
    '/scripted/frame-removed.html',
    'A page removing a frame while it loads',
    `<iframe id="frame" src="/scripted/slow-frame.html"></iframe>${acting(`setTimeout(() => document.getElementById('frame').remove(), 200);`)}`,
  );
  site.add(host, '/scripted/slow-frame.html', {
    kind: 'page',
    title: 'A frame answered late',
    links: [],
    body: html('A frame answered late', '<p>the frame</p>'),
    contentType: 'text/html; charset=utf-8',
    textKey: 'scripted/slow-frame.html',
    delayMs: 1000,
  });
  page(
    site,
    host,
    '/scripted/javascript-url.html',
    'A page navigating to a javascript: URL',
    acting(`location.href = "javascript:'<p>written by a javascript: URL</p>'";`),
  );
  page(
    site,
    host,
    '/scripted/data-url.html',
    'A page navigating to a data: URL',
    acting(`location.href = 'data:text/html,<p>a data: page</p>';`),
  );
  page(
    site,
    host,
    '/scripted/reload-loop.html',
    'A page reloading itself for ever',
    acting(`addEventListener('load', () => location.reload());`),
  );
  page(
    site,
    host,
    '/scripted/download-navigation.html',
    'A page navigating to a file',
    acting(`location.href = '/scripted/download.bin';`),
  );
  page(
    site,
    host,
    '/scripted/refused-navigation.html',
    'A page navigating to a refused address',
    acting(`location.href = '${other.origin}/scripted/landing.html';`),
  );
  page(
    site,
    host,
    '/scripted/out-of-memory.html',
    'A page allocating without end',
    // each array at least 4 MiB (a million small integers, 4 bytes each with pointer compression)
    acting(`const kept = [];
for (;;) {
  kept.push(new Array(1e6).fill(1));
  if (kept.length === 256) {
    const told = new XMLHttpRequest();
    told.open('GET', '/scripted/allocated-1gib.txt', false);
    try { told.send(); } catch {}
  }
}`),
  );
}
