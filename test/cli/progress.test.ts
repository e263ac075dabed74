import { describe, expect, it } from 'vitest';
import { formatDuration, progressFormat } from '../../src/cli/progress.ts';

describe('formatDuration', () => {
  it('formatDuration(seconds, 5) carries a rounded-up minute: 179.9 s is "3m00s", never "2m60s"', () => {
    expect(formatDuration(179.9, 5)).toBe('3m00s');
    expect(formatDuration(178, 5)).toBe('3m00s');
    expect(formatDuration(119.6, 1)).toBe('2m00s');
    expect(formatDuration(59.7, 5)).toBe('1m00s');
  });

  it('formatDuration(seconds) splits minutes and seconds, padded', () => {
    expect(formatDuration(125)).toBe('2m05s');
    expect(formatDuration(61.2)).toBe('1m01s');
    expect(formatDuration(7.4)).toBe('7s');
    expect(formatDuration(0)).toBe('0s');
  });

  it('formatDuration(seconds) shows hours and minutes from 59m30s on, carrying rounded minutes into hours', () => {
    expect(formatDuration(3599)).toBe('1h00m');
    expect(formatDuration(7170)).toBe('2h00m'); // 119.5 min rounds to 120
    expect(formatDuration(3 * 3600 + 5 * 60 + 10)).toBe('3h05m');
    expect(formatDuration(3569, 5)).toBe('59m30s');
  });

  it('formatDuration(seconds) prints "--" for an unknown ETA (NaN, ∞, negative)', () => {
    expect(formatDuration(Number.NaN)).toBe('--');
    expect(formatDuration(Infinity)).toBe('--');
    expect(formatDuration(-1)).toBe('--');
  });
});

describe('progressFormat', () => {
  const options = {
    barCompleteString: '█'.repeat(40),
    barIncompleteString: '░'.repeat(40),
    barsize: 10,
    barGlue: '',
    formatTime: (t: number, _o: unknown, step: number) => formatDuration(t, step),
  } as never;
  const line = (progress: number, eta: number) =>
    progressFormat('compare')(
      options,
      { progress, eta, startTime: Date.now() - 65_000, stopTime: null, total: 1000, value: progress * 1000, maxWidth: 200 } as never,
      { label: '4/4 cells' },
    );
  it('at 100 % says "done in" the elapsed time, not an ETA placeholder ("100% | ETA --")', () => {
    const done = line(1, Number.NaN);
    expect(done).toMatch(/100% \| done in 1m05s \| 4\/4 cells/);
    expect(done).not.toMatch(/ETA/);
  });
  it('before 100 % shows the ETA and the elapsed time', () => {
    expect(line(0.5, 65)).toMatch(/50% \| ETA 1m05s \| elapsed 1m05s \| 4\/4 cells/);
  });
});
