// Command-line options shared by the benchmarks (`npm run bench -- <name> --option value`).

/** `--name N`: a positive whole number, or `fallback` when the option is absent. */
export function numberArg(args: string[], name: string, fallback: number): number {
  const index = args.indexOf(name);
  if (index === -1) return fallback;
  const value = Number(args[index + 1]);
  if (!Number.isSafeInteger(value) || value < 1) throw new Error(`${name} expects a positive whole number`);
  return value;
}

/** `--name text`, or `fallback` when the option is absent. */
export function stringArg(args: string[], name: string, fallback: string): string {
  const index = args.indexOf(name);
  return index === -1 ? fallback : (args[index + 1] ?? fallback);
}
