// render: "auto" — does a page's static HTML look built by its scripts? Cheap signs read from the fetched
// HTML, no DOM built (docs/reference.md#rendering):
//   app-root      an application root (#root, #app, #__next, #__nuxt, #svelte, #ember-app) with no text in it
//   little-text   under LITTLE_TEXT_CHARS of visible text, and at least one script
//   many-scripts  MANY_SCRIPTS or more scripts, and under SCRIPTED_TEXT_CHARS of visible text
// The first rule that holds names the reason (auto:<rule>); none holding, the page is read as fetched
// (auto:static).

export const LITTLE_TEXT_CHARS = 200;
export const MANY_SCRIPTS = 8;
export const SCRIPTED_TEXT_CHARS = 1500;

const APP_ROOT =
  /<(div|main|section|body|app-root)\b[^>]*\bid\s*=\s*["']?(root|app|__next|__nuxt|svelte|ember-app)\b["']?[^>]*>([\s\S]*?)<\/\1>/i;
const SCRIPT = /<script\b/gi;
const NON_TEXT = /<(script|style|noscript|template|svg)\b[\s\S]*?<\/\1\s*>|<!--[\s\S]*?-->/gi;
const TAG = /<[^>]*>/g;

export type AutoRule = 'app-root' | 'little-text' | 'many-scripts' | 'static';

function visibleText(html: string): string {
  return html
    .replace(NON_TEXT, ' ')
    .replace(TAG, ' ')
    .replace(/&[a-z#0-9]+;/gi, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/** Which rule, if any, says the page is built by its scripts ('static': none). */
export function autoRenderRule(html: string): AutoRule {
  const body = html.slice(0, 2 * 1024 * 1024);
  const root = APP_ROOT.exec(body);
  if (root && visibleText(root[3] ?? '').length === 0) return 'app-root';
  const scripts = body.match(SCRIPT)?.length ?? 0;
  const textChars = visibleText(body.replace(/<head\b[\s\S]*?<\/head\s*>/i, ' ')).length;
  if (scripts > 0 && textChars < LITTLE_TEXT_CHARS) return 'little-text';
  if (scripts >= MANY_SCRIPTS && textChars < SCRIPTED_TEXT_CHARS) return 'many-scripts';
  return 'static';
}
