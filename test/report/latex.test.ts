/**
 * The paper export (`--latex`): every figure as a vector PDF, booktabs tables of the cells and fits, and a standalone
 * report.tex. The PDF is rendered back with pdftoppm (Debian's poppler-utils) and report.tex compiled with pdflatex
 * (texlive-latex-base, booktabs from texlive-latex-recommended), each installed when missing and allowed (../system.ts:
 * root, apt-get, not SUPERMARKET_TEST_NO_INSTALL=1), else skipped with the reason.
 */
import { existsSync, mkdtempSync, readFileSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runComparison } from '../../src/compare/index.ts';
import { statusText, writeComparisonReport } from '../../src/report/index.ts';
import { comparisonLatexTables, experimentLatexTable, latexText } from '../../src/report/latex.ts';
import type { CellOutcome } from '../../src/experiments/outcome.ts';
import { policyLabel } from '../../src/experiments/grid.ts';
import type { Discipline } from '../../src/model/index.ts';
import { reportComparison } from '../compare/config.ts';
import { ensureDebianPackages, sh } from '../system.ts';
import { testMeta } from './meta.ts';
import { plusMinus } from '../../src/stats/index.ts';

const result = runComparison(reportComparison({ lambdas: [0.5, 0.8], ns: [10, 50], jobs: 2_000, replications: 3, seed: 4 }));
const dir = mkdtempSync(path.join(os.tmpdir(), 'supermarket-latex-'));
const written = writeComparisonReport(dir, result, testMeta('latex test'), { latex: true });

describe('--latex export', () => {
  it('writes a PDF beside every figure, tables.tex (booktabs) and report.tex; without latex, no PDF', async () => {
    const files = await written;
    const names = files.filter((f) => f.endsWith('.svg')).map((f) => path.basename(f, '.svg'));
    expect(names.length).toBeGreaterThanOrEqual(4);
    for (const n of names) {
      const pdf = readFileSync(path.join(dir, 'figures', `${n}.pdf`));
      expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
      expect(pdf.toString('latin1')).toContain('DejaVuSans'); // the fonts of the PNG, embedded: text stays text
    }
    const tables = readFileSync(path.join(dir, 'tables.tex'), 'utf8');
    for (const rule of ['\\toprule', '\\midrule', '\\bottomrule']) expect(tables.split(rule).length - 1).toBe(2);
    // one row per cell and per model, in the cells' numbers
    expect(tables.match(/^\d+ & 0\.\d+ & \d+ & /gm)?.length).toBe(result.cells.length);
    const c = result.cells[0];
    expect(tables).toContain(
      // by the one rule of simulated numbers (`plusMinus`: two significant digits of h), as the markdown
      `$${plusMinus(c.simulation.meanResponseTime.mean, c.simulation.meanResponseTime.halfWidth, ' \\pm ')}$`,
    );
    expect(readFileSync(path.join(dir, 'report.tex'), 'utf8')).toContain(
      `\\includegraphics[width=\\linewidth,height=0.8\\textheight,keepaspectratio]{figures/${names[0]}.pdf}`,
    );
    expect(latexText('E[T]_n ± h, 50% & λ')).toBe('E[T]\\_n $\\pm$ h, 50\\% \\& $\\lambda$');
    // a text-mode < or > prints as ¡ or ¿ under OT1 (report.tex): the E[S³] < ∞ warning of a run's table caption
    expect(latexText('E[S³] < ∞, a > b')).toBe('E[S$^3$] $<$ $\\infty$, a $>$ b');
    expect(comparisonLatexTables(result)).toBe(tables);
  });

  it('experimentLatexTable (run --latex): one booktabs row per cell, policy and service escaped, slowdown when measured', () => {
    const e = (mean: number) => ({ mean, halfWidth: 0.01, ci95: [mean - 0.01, mean + 0.01], replications: 2 });
    const cell = (discipline: string, mean: number) =>
      ({
        cell: {
          selection: 'jsq',
          discipline,
          policy: policyLabel('jsq', discipline as Discipline, 'none', discipline === 'srpt' ? 'det' : 'exp'),
          service: 'weibull:0.5',
          prediction: 'none',
          lambda: 0.9,
          d: 2,
          n: 100,
        },
        result: { meanResponseTime: e(mean), meanSlowdown: e(2 * mean) },
      }) as unknown as CellOutcome;
    const t = experimentLatexTable('paper_synthetic', [cell('fifo', 3.25), cell('srpt', 1.5)]);
    expect(t).toContain('JSQ+FIFO & weibull:0.5 & none & 2 & 0.9 & 100 & $3.250 \\pm 0.010$ & $6.500 \\pm 0.010$ \\\\');
    expect(t).toContain('JSQ+SRPT (arrivals det)'); // the policy label names the arrivals (and memory, batch)
    expect(t).toContain('paper\\_synthetic');
    for (const rule of ['\\toprule', '\\midrule', '\\bottomrule']) expect(t).toContain(rule);
  });

  it('every status in the tables is its display text (statusText), never the machine word', () => {
    const statuses = [
      'agrees',
      'agrees-not-confirmed',
      'disagrees',
      'not-resolvable',
      'refined-out-of-range',
      'not-judged',
      'undefined',
      'not-settled',
      'not-computed',
    ] as const;
    for (const status of statuses) {
      const r = {
        ...result,
        cells: result.cells.map((c, i) => (i === 0 ? { ...c, verdict: { ...c.verdict, status } } : c)),
        models: result.models.map((m, i) => (i === 0 && m.c1Check ? { ...m, c1Check: { ...m.c1Check, status } } : m)),
      } as typeof result;
      const tex = comparisonLatexTables(r);
      expect(tex).toContain(latexText(statusText(status)));
      if (status.includes('-')) expect(tex).not.toContain(status);
    }
    // a limit check's status too (the fits table of a model without V)
    const noV = runComparison(
      reportComparison({ lambdas: [0.5], ns: [10, 20, 40], jobs: 500, replications: 2, seed: 4, model: { service: 'erlang:2' } }),
    );
    const tex = comparisonLatexTables({
      ...noV,
      models: noV.models.map((m) => ({ ...m, limit: { ...m.limit, status: 'agrees-not-confirmed' } })),
    });
    expect(tex).toContain('agrees (rejection not confirmed)');
    expect(tex).not.toContain('agrees-not-confirmed');
  });

  it('experimentLatexTable: a mean not settled reads as the Markdown table reads it, no interval', () => {
    const e = (mean: number) => ({ mean, halfWidth: 0.01, ci95: [mean - 0.01, mean + 0.01], replications: 2 });
    const cell = {
      cell: {
        key: 'k1',
        selection: 'jsq',
        discipline: 'fifo',
        policy: 'JSQ+FIFO',
        service: 'pareto:1.5',
        prediction: 'none',
        lambda: 0.5,
        d: 2,
        n: 10,
      },
      result: { meanResponseTime: e(3.25) },
    } as unknown as CellOutcome;
    const t = experimentLatexTable('x', [cell], new Map([['k1', 'why']]));
    expect(t).toContain("not settled (run's average 3.2500)");
    expect(t).not.toContain('\\pm 0.010');
  });

  it('the PDF renders (pdftoppm): a page of the figure size with ink on it', async (ctx) => {
    await written;
    const missing = ensureDebianPackages(['poppler-utils'], ['pdftoppm']);
    if (missing) return ctx.skip(`pdftoppm: ${missing}`);
    const out = path.join(dir, 'convergence-page');
    const r = sh('pdftoppm', ['-png', '-r', '72', '-singlefile', path.join(dir, 'figures', 'convergence.pdf'), out]);
    expect(r.status, r.stderr).toBe(0);
    const png = readFileSync(`${out}.png`);
    // PNG header: width and height (big-endian at 16 and 20) match the SVG's, at 72 dpi 1 px = 1 pt
    const svg = readFileSync(path.join(dir, 'figures', 'convergence.svg'), 'utf8');
    const [, w, h] = /<svg[^>]*\swidth="([\d.]+)"[^>]*\sheight="([\d.]+)"/.exec(svg)!;
    expect(Math.abs(png.readUInt32BE(16) - Number(w))).toBeLessThanOrEqual(1);
    expect(Math.abs(png.readUInt32BE(20) - Number(h))).toBeLessThanOrEqual(1);
    expect(statSync(`${out}.png`).size).toBeGreaterThan(5_000); // not a blank page
    const info = sh('pdfinfo', [path.join(dir, 'figures', 'convergence.pdf')]);
    expect(info.stdout).toMatch(/Pages:\s+1/);
  }, 900_000);

  it('report.tex compiles with pdflatex (booktabs, graphicx) into a PDF', async (ctx) => {
    await written;
    const missing = ensureDebianPackages(['texlive-latex-base', 'texlive-latex-recommended'], ['pdflatex', 'kpsewhich']);
    if (missing) return ctx.skip(`pdflatex: ${missing}`);
    if (sh('kpsewhich', ['booktabs.sty']).status !== 0) return ctx.skip('booktabs.sty is not installed (texlive-latex-recommended)');
    const r = sh('sh', ['-c', `cd '${dir}' && pdflatex -interaction=nonstopmode -halt-on-error report.tex`], 300_000);
    expect(r.status, r.stdout.split('\n').slice(-30).join('\n')).toBe(0);
    expect(existsSync(path.join(dir, 'report.pdf'))).toBe(true);
    expect(r.stdout).not.toMatch(/Undefined control sequence|LaTeX Error/);
  }, 900_000);
});
