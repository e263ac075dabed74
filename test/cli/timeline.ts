/** Test helper: the timeline (src/cli/timeline.ts) of what a test runs. */
import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** One timeline line: its event name, the thread's id and CPU, and the event's own fields. */
export type TimelineEvent = { ev: string; tid: number; threadCpu: number } & Record<string, unknown>;

/**
 * Runs `fn` with the timeline on (SUPERMARKET_TIMELINE set to a fresh file, unset after, also on error) and returns
 * the events written meanwhile, in file order. Workers started inside `fn` write to the same file.
 */
export async function recordTimeline(fn: () => Promise<void>): Promise<TimelineEvent[]> {
  const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'sm-timeline-')), 'timeline.jsonl');
  process.env.SUPERMARKET_TIMELINE = file;
  try {
    await fn();
  } finally {
    delete process.env.SUPERMARKET_TIMELINE;
  }
  return readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as TimelineEvent);
}
