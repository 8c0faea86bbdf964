// Malformed HTML whose links a forgiving (HTML5) parser still finds: unquoted attributes, upper-case tags,
// stray closing tags, mis-nested inline elements, an unclosed table cell, spaces around "=", an <a> left
// open at the end of the file. Links inside a comment or a script string are not links.

import type { BuildContext, FeatureModule } from '../site.js';

const BODY = `<html><head><title>Broken page</title>
<body>
<div><p>An unclosed paragraph with <a href=/malformed/a.html>an unquoted link</a>
</div></div></span>
<A HREF='/malformed/b.html'>upper-case tag</A>
<a href="/malformed/c.html" >bold <b>across</a></b> the end
<table><tr><td><a href=/malformed/d.html?x=1&y=2>in a table cell</td></tr>
</table>
<p><a href = "/malformed/e.html">spaces around the equals sign</a>
<!-- <a href="/malformed/commented.html">not a link</a> -->
<script>document.write('<a href="/malformed/scripted.html">not a link</a>')</script>
<a href=/malformed/f.html>unclosed at the end of the file
`;

export const MALFORMED_TARGETS = ['a.html', 'b.html', 'c.html', 'd.html?x=1&y=2', 'e.html', 'f.html'].map(
  (name) => `/malformed/${name}`,
);

export const malformed: FeatureModule = {
  name: 'malformed',
  build({ site }: BuildContext): void {
    const host = site.host(0);
    site.add(host, '/malformed/page.html', {
      kind: 'page',
      title: 'Broken page',
      links: MALFORMED_TARGETS.map((href) => ({ href })),
      body: Buffer.from(BODY, 'utf8'),
      contentType: 'text/html; charset=utf-8',
      textKey: 'malformed/page',
    });
    for (const target of MALFORMED_TARGETS) site.leaf(host, target, `Found in malformed HTML: ${target}`);
    site.linkFromHome(host, '/malformed/page.html', 'malformed');
  },
};
