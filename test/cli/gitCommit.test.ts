import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { gitCommit } from '../../src/cli/versions.ts';

// the commit a report names beside its code identity (cli/versions.ts), read from .git without a git process
describe('gitCommit', () => {
  it.skipIf(!existsSync(new URL('../../.git', import.meta.url)))('is the commit git itself says is checked out', () => {
    const head = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: new URL('../..', import.meta.url), encoding: 'utf8' }).trim();
    expect(gitCommit()).toBe(head);
  });
});
