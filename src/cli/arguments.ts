// The values a command's flags and arguments take: whole numbers and numbers checked as commander parses
// them (a wrong one is a usage error naming the flag), and file arguments where `-` means stdin.
import { readFile } from 'node:fs/promises';
import { InvalidArgumentError } from 'commander';
import type { CliIo } from './io.js';

export function integer(flag: string) {
  return (value: string): number => {
    const parsed = Number(value);
    if (!/^-?\d+$/.test(value.trim()) || !Number.isSafeInteger(parsed)) {
      throw new InvalidArgumentError(`${flag} takes a whole number`);
    }
    return parsed;
  };
}

export function decimal(flag: string) {
  return (value: string): number => {
    const parsed = Number(value);
    if (value.trim() === '' || !Number.isFinite(parsed))
      throw new InvalidArgumentError(`${flag} takes a number`);
    return parsed;
  };
}

export const isUrl = (value: string) => /^https?:\/\//i.test(value);

async function readStdin(stdin: CliIo['stdin']): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stdin) chunks.push(Buffer.from(chunk));
  return Buffer.concat(chunks).toString('utf8');
}

/** A file argument's text, or stdin's for `-`. */
export function readFileOrStdin(file: string, stdin: CliIo['stdin']): Promise<string> {
  return file === '-' ? readStdin(stdin) : readFile(file, 'utf8');
}
