/**
 * A Ctrl-C while the report is being written (trial: it still wrote a report and exited 130, completeness unchecked).
 * The report folder's index.html marks a whole report: `writeReportFolder` removes the previous one first and writes
 * its own last, only if its signal (aborted by the CLI's SIGINT handler, `withPool`) has not fired; it then throws
 * `InterruptedError`, which the CLI ends with 130. The signal is sent here from a hook at the report-writing phase: the
 * figure writer, which runs between the data files and index.html.
 */
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeReportFolder } from '../../src/report/page.ts';
import { InterruptedError } from '../../src/errors.ts';

const page = { figures: [], results: { run: 'new' }, metadata: {}, markdown: '# new report', title: 't' };

describe('an interrupted report is not written as complete', () => {
  it('a signal sent while the figures are written: no index.html (the previous one removed), InterruptedError', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'sm-interrupted-'));
    writeFileSync(path.join(dir, 'index.html'), '<html>the previous run</html>');
    const interrupt = new AbortController();
    const writing = writeReportFolder(dir, page, {
      signal: interrupt.signal,
      writeFigures: async () => {
        interrupt.abort(); // Ctrl-C at the report-writing phase
        return [];
      },
    });
    await expect(writing).rejects.toBeInstanceOf(InterruptedError);
    await expect(writing).rejects.toThrow(/interrupted while writing the report in .*: it is incomplete \(no index\.html\)/);
    expect(existsSync(path.join(dir, 'index.html'))).toBe(false); // neither the previous run's nor this one's
    expect(JSON.parse(readFileSync(path.join(dir, 'results.json'), 'utf8'))).toEqual({ run: 'new' }); // each file whole
  });

  it('not interrupted: the whole report, index.html last (the previous one replaced)', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'sm-whole-'));
    writeFileSync(path.join(dir, 'index.html'), '<html>the previous run</html>');
    const files = await writeReportFolder(dir, page, { signal: new AbortController().signal, writeFigures: async () => [] });
    expect(files[files.length - 1]).toBe('index.html');
    expect(readFileSync(path.join(dir, 'index.html'), 'utf8')).toContain('new report');
  });
});
