// `npm run openapi`: writes openapi/openapi.json from the route schemas. test/routes/openapi.test.ts fails
// when the committed file differs from what this produces.
import { writeFileSync } from 'node:fs';
import { buildApp } from '../src/app.js';

export async function generateOpenApi(): Promise<string> {
  const app = await buildApp({});
  try {
    return `${JSON.stringify(app.swagger(), null, 2)}\n`;
  } finally {
    await app.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const target = new URL('../openapi/openapi.json', import.meta.url);
  writeFileSync(target, await generateOpenApi());
  process.stdout.write(`wrote ${target.pathname}\n`);
}
