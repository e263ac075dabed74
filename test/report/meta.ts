/** The run metadata the report tests hand to the report writers (fixed, so reports do not depend on the machine). */

/** Metadata of a test run: command `command`, started at the epoch, 1 s of wall time, a made-up 2-core machine. */
export function testMeta(command = 'test') {
  return {
    command,
    startedAt: new Date(0).toISOString(),
    wallSeconds: 1,
    versions: { node: process.version },
    machine: { cpu: 'test', cores: 2, platform: 'test' },
  };
}
