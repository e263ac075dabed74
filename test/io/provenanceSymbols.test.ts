/**
 * Provenance strings (a solver's `equation`, `method`, `source`: what metadata.json and `--json` outputs carry) write
 * the model's symbols as everywhere else, ρ, λ, π₀, not the ASCII spellings rho, lambda, pi0. JSON keys stay ASCII
 * (`"lambda"` in a model, `"rho"` nowhere as a key): a string literal that is a bare identifier is a key, not prose.
 * Scans the string literals of the provenance code (src/meanfield, src/sim, src/compare) with the TypeScript parser.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ASCII_SYMBOL = /\b(rho|lambda|pi0)\b/;
const KEY = /^[A-Za-z0-9_.|=/-]+$/; // a key, a cache key part (`|lambda=`), a module path

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? files(p) : p.endsWith('.ts') ? [p] : [];
  });
}

/** `file:line: text` of each string literal (or template part) that spells a symbol in ASCII and is not a bare key. */
function asciiSymbols(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const hits: string[] = [];
  const visit = (node: ts.Node): void => {
    if (
      ts.isStringLiteral(node) ||
      ts.isNoSubstitutionTemplateLiteral(node) ||
      ts.isTemplateHead(node) ||
      ts.isTemplateMiddle(node) ||
      ts.isTemplateTail(node)
    ) {
      const text = node.text;
      if (ASCII_SYMBOL.test(text) && !KEY.test(text)) {
        hits.push(`${file}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1}: ${text.slice(0, 100)}`);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return hits;
}

describe('provenance strings spell ρ, λ, π₀', () => {
  it('no string literal of src/meanfield, src/sim or src/compare writes rho, lambda or pi0 in prose', () => {
    const hits = ['src/meanfield', 'src/sim', 'src/compare'].flatMap(files).flatMap(asciiSymbols);
    expect(hits).toEqual([]);
  });
});
