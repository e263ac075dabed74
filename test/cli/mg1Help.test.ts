/**
 * `mg1 --help` lists every service law mg1 accepts: it took empirical:FILE (serviceFromFlag) but its help listed eight
 * laws and not that one, nor what @MEAN does; it now prints the model commands' own text (SERVICE_LAW_HELP).
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SERVICE_LAW_HELP } from '../../src/cli/options.ts';
import { runCli } from './runCli.ts';

const flat = (text: string) => text.replace(/\s+/g, ' ');

describe('mg1 --help: the service-law syntax', () => {
  it('lists the laws simulate lists, empirical:FILE and @MEAN included', async () => {
    const mg1 = flat((await runCli('mg1 --help')).stdout);
    const simulate = flat((await runCli('simulate --help')).stdout);
    for (const help of [mg1, simulate]) expect(help).toContain(flat(SERVICE_LAW_HELP));
    for (const law of [
      'exp',
      'det',
      'erlang:K',
      'hyperexp:SCV',
      'weibull:SHAPE',
      'lognormal:SIGMA',
      'bpareto:ALPHA:RATIO',
      'pareto:ALPHA',
    ]) {
      expect(mg1).toContain(law);
    }
    expect(mg1).toMatch(/empirical:FILE .*empirical:FILE@raw/);
    expect(mg1).toMatch(/mean 1 unless @MEAN is appended/);
  });

  it('and mg1 does take what it lists: empirical:FILE', async () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'mg1-help-')), 'sizes.txt');
    writeFileSync(file, '0.5\n1\n1.5\n2\n');
    const r = await runCli(['mg1', '--lambda', '0.5', '--service', `empirical:${file}`, '--json']);
    expect(r.status, r.stderr).toBe(0);
    // sizes rescaled to mean 1: E[S²] = 7.5/1.5625/4 = 1.2, E[U] = λE[S²]/(2(1 − ρ)) = 0.6
    expect(JSON.parse(r.stdout).meanWorkload).toBeCloseTo(0.6, 12);
    expect((await runCli(['mg1', '--lambda', '0.5', '--service', `empirical:${file}`])).stdout).toMatch(/E\[U\] = 0\.600000/);
  });
});
